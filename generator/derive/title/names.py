"""Names and acronyms: the method an abstract names, its spelled-out long form, and what it is."""
from __future__ import annotations

import dataclasses
import re

from generator.core.text import bold_spans
from generator.core.text import tokens as tokenize
from generator.derive.title.phrases import (
    _appositive,
    _described,
    _expansion,
    _phrase,
    drop_fillers,
    is_generic,
    skip_parenthetical,
)
from generator.derive.title.words import (
    _COMMON_WORDS,
    _STOP,
    _W,
    ACRONYM,
    ANAPHORA,
    APPOSITIVE_INTRO,
    ARTICLES,
    CAPITALISED,
    CLAUSE,
    COMMON_ACRONYMS,
    CONTRIBUTION_FORMS,
    GENERIC,
    KNOWN_NAMES,
    MODIFIER_SUFFIXES,
    NAME_PREFIXES,
    NAMEISH,
    PREPOSITIONS,
    SMALL,
    TITLE_COMPOUND,
)


def _bold_spans(text: str) -> list[str]:
    """What the author set in bold, cleaned: usually the name of the contribution."""
    # 1 word at least: a span of no-break or ideographic spaces is no name
    return [s for s in bold_spans(text) if len(s) > 2 and 1 <= len(s.split()) <= 6]


def bold_appositive(name: str, sentences: list[str]) -> list[str]:
    """What a name set in bold outside any "we propose" sentence is: "X: a mechanism to ..."."""
    n = len(name.split())
    for sentence in sentences:
        if name in sentence:
            tokens = tokenize(sentence)
            for i in range(len(tokens) - n + 1):
                if " ".join(tokens[i:i + n]) == name:
                    return _appositive(tokens, i + n)
    return []


_LOWER_START = re.compile(r"[a-z]+")
_NOTATION_NAME = re.compile(r"^[Ll]_?\d+$")


def is_nameish(word: str) -> bool:
    bare = word.strip("\"'“”‘’")
    if "/" in bare:
        return False  # "CNN/Daily", "I/O": two things, not one name
    if _NOTATION_NAME.match(bare):
        return False  # "L0", "l1", "L_2": an Lp norm (or its penalty) is notation, not a name ("C4", "T5" may be names)
    if bare.isupper() and bare.isalpha() and bare.lower() in _COMMON_WORDS:
        return False  # "DEEP", "NEW": a common word in capitals (titles and headings), not a coined name
    if bare[:1].islower():
        start = _LOWER_START.match(bare)
        if start and len(start[0]) > 1 and start[0] in _STOP:
            return False  # "theSpatial": a space missing after "the", not "iStoryline"
    if bare[:1].islower() and "-" in bare:
        prefix = bare.split("-", 1)[0]
        if len(prefix) > 1 and prefix not in NAME_PREFIXES:
            return False  # "audio-to-MIDI", "non-IID": a lowercase compound around an acronym
    if "-" in bare and bare.rsplit("-", 1)[1].lower() in MODIFIER_SUFFIXES:
        return False  # "GRaph-based", "CNN-like": a modifier made of a name
    if "-" in bare and any(part in SMALL for part in bare.split("-")[1:-1]):
        return False  # "Data-to-Text", "Sequence-to-Sequence": a compound around a small word
    return bool(NAMEISH.match(bare)) and bare.lower().rstrip("s") not in COMMON_ACRONYMS and bare.lower() not in COMMON_ACRONYMS


def _set_off_capitals(tokens: list[str], i: int, pre: list[str]) -> bool:
    """A word in capitals that is also a common word ("GRAM", "SAGA", "SEGA"), read as a name where
    the object of "we propose" sets it off as one, right after what kind of thing it is ("a
    gradient method SAGA", "an attention model, GRAM that", "a method---SEGA---which"). Not as a
    modifier ("a PAC algorithm", "the MAP estimate"), nor as the first word of a longer name ("DEEP R")."""
    tok = tokens[i]
    if not (tok.isupper() and tok.isalpha() and len(tok) >= 3) or tok.lower() in COMMON_ACRONYMS or tok.lower() in KNOWN_NAMES:
        return False
    if i + 1 < len(tokens) and tokens[i + 1][:1].isupper():
        return False  # "an algorithm, DEEP R, that": the name goes on, and the capitals are one part of it
    head = pre[:-1] if pre and pre[-1] in (",", "—") else pre
    return bool(head) and head[-1].lower().rstrip("s") in GENERIC


def _coined_word(word: str) -> bool:
    """A lower-case word that no abstract of the fitted venues uses often: "mixup", "enunlg",
    not "dropout" or "regularization" (only read where a name is expected: "we propose X, a ...")."""
    # a plural ("stragglers, a small fraction of ...") is a thing talked about, not a coined name
    return word.isalpha() and word.islower() and len(word) >= 4 and word not in _COMMON_WORDS and not word.endswith("s")


def rare_capitalised(word: str) -> bool:
    """A capitalised word that is no common word in lower case: "Softstar", "Espresso", not "Deep"."""
    return word[:1].isupper() and word[1:].islower() and word.isalpha() and word.lower() not in _COMMON_WORDS \
        and word.lower() not in KNOWN_NAMES


def _kind_after(tokens: list[str], i: int) -> int:
    """Index of a word saying what kind of thing it is among the (lower-case) words at ``i``
    ("data format", "algorithm"), or -1."""
    for k in range(i, min(i + 3, len(tokens))):
        if not tokens[k].islower() or not tokens[k].isalpha() and "-" not in tokens[k]:
            return -1
        if tokens[k].rstrip("s") in GENERIC or tokens[k] in GENERIC:
            return k
    return -1


def _initials(word: str) -> str:
    out = [word[0]]
    for prev, ch in zip(word, word[1:]):
        if ch.isupper() or ch.isdigit() or prev in "-/–":
            out.append(ch)
    return "".join(out).lower()


def _is_subsequence(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(c in it for c in needle)


_REPEAT = re.compile(r"([A-Za-z])([2-4])(?!\d)")


def _long_form(words: list[str], acronym: str) -> tuple[int, int]:
    """(k, n): the n words from ``words[-k]`` on spell out ``(acronym)``; (0, 0) if none do."""
    # "C3" is three words in C, "A2C" two in A and one in C: a digit after a letter repeats it
    letters = _REPEAT.sub(lambda m: m[1] * int(m[2]), "".join(c for c in acronym if c.isalnum())).lower()
    if acronym.endswith("s") and acronym[:-1].upper() == acronym[:-1]:
        letters = letters[:-1]
    if not letters:
        return 0, 0
    usable = 0
    for w in reversed(words):
        if w in ",;:()[]" or (w.lower() in ARTICLES) or w.lower() in ("we", "our", "is", "are"):
            break
        usable += 1
        if usable >= 10:
            break
    tail = words[len(words) - usable:]
    initials = [_initials(w) if w.lower() not in SMALL else "" for w in tail]
    for strict in (True, False):
        for k in range(1, usable + 1):
            first = tail[-k]
            if first[0].lower() != letters[0] or first.lower() in SMALL:
                continue
            hay = "".join(initials[-k:]) if strict else "".join(tail[-k:]).lower()
            if _is_subsequence(letters, hay):
                # "Robust Unlearning under Leak@k metric (RULE)": the trailing "metric" is not part of it
                n = k
                while strict and n > 1 and _is_subsequence(letters, "".join(initials[-k:][:n - 1])):
                    n -= 1
                return k, n
    return 0, 0


def _definitions(tokens: list[str]) -> dict[int, tuple[int, int, str]]:
    """Each ``Long Form (ACR)`` in tokens: index of "(" -> (start, end of the long form, ACR)."""
    out = {}
    for i, tok in enumerate(tokens):
        if tok == "(" and i + 2 < len(tokens) and tokens[i + 2] == ")" and ACRONYM.match(tokens[i + 1]):
            before = tokens[max(0, i - 12):i]  # a long form is at most 10 words: no copy of all before it
            k, n = _long_form(before, tokens[i + 1])
            if n >= 2 or (n == 1 and "-" in before[-k]):
                out[i] = (i - k, i - k + n, tokens[i + 1])
    return out


def abbreviate(tokens: list[str], head: int = 0) -> list[str]:
    """Replace long forms of three or more words by their acronym, as titles do ("MDPs").

    The long form at the head of the phrase (from ``head``) is what the title is about
    and stays spelled out; only its parenthesis goes.
    """
    defs = _definitions(tokens)
    if not defs:
        return tokens
    out = list(tokens)
    for i in sorted(defs, reverse=True):
        start, end, acr = defs[i]
        if start <= head + 1 or end - start < 3:
            continue
        out[start:i + 3] = [acr]
    return out


@dataclasses.dataclass
class Contribution:
    name: str = ""
    long: list[str] = dataclasses.field(default_factory=list)
    desc: list[str] = dataclasses.field(default_factory=list)
    score: int = 0
    # the authors say what it is where they name it: "a two-stage reverse-engineering attack named KSTER"
    stated: bool = False


def name_span(tokens: list[str], i: int) -> int:
    """End of a multi-word capitalised name starting at ``i`` ("Common Objects in 3D")."""
    j = i + 1
    while j < len(tokens) and len(tokens) and j - i < 6:
        tok = tokens[j]
        if CAPITALISED.match(tok) and tok.lower() not in CLAUSE:
            j += 1
        elif tok.lower() in ("of", "in", "for", "and", "the", "-") and j + 1 < len(tokens) and CAPITALISED.match(tokens[j + 1]):
            j += 2
        else:
            break
    return j


def _paren_name(tokens: list[str], i: int, kind: bool = False) -> tuple[str, int] | None:
    """``(NAME)`` or ``(or NAME)`` at ``i``: the name and the index after the bracket. After
    a word that says what kind of thing it is (``kind``: "a primal-dual method (Quartz)"), a
    capitalised word is a name too."""
    j = i + 1
    if j < len(tokens) and tokens[j].lower() in ("or", "dubbed", "called", "named"):
        j += 1
    if j + 1 < len(tokens) and tokens[j + 1] == ")" and (
            is_nameish(tokens[j]) or (kind and CAPITALISED.match(tokens[j]) and tokens[j].isalpha()
                                       and tokens[j].lower() not in COMMON_ACRONYMS | KNOWN_NAMES)):
        return tokens[j], j + 2
    return None


def contribution_in(tokens: list[str], start: int, bold: list[str], defs: dict[int, tuple[int, int, str]]) -> Contribution | None:
    """The named contribution in the object of "we propose ..." (tokens from ``start``)."""
    long_at = {d[0]: (i, d) for i, d in defs.items() if d[0] >= start}
    pre: list[str] = []
    i = start
    end = min(len(tokens), start + 24)
    while i < end:
        tok = tokens[i]
        low = tok.lower()
        if i in long_at:
            paren, (first, last, acr) = long_at[i]
            # "a method for music structure analysis (MSA)": a term after a preposition is the task
            # ("a novel approach of X (ACR)": after a kind of thing and "of", X is the thing itself)
            # (past an article: "a technique based on the singular vector canonical correlation
            # analysis (SVCCA)" names the tool the technique is built on, not the technique)
            bare = [w for w in pre if w.lower() not in ARTICLES]
            kind_of = len(bare) >= 2 and bare[-1].lower() == "of" and bare[-2].lower().rstrip("s") in GENERIC
            if acr.lower().rstrip("s") not in COMMON_ACRONYMS and not (bare and bare[-1].lower() in PREPOSITIONS and not kind_of):
                desc = _appositive(tokens, paren) or [w for w in drop_fillers(pre) if w.lower() not in _W["naming_verbs"] and w != ","]
                return Contribution(acr, tokens[first:last], desc, 4)
        paren = _paren_name(tokens, i, kind=bool(pre) and pre[-1].lower().rstrip("s") in GENERIC) if tok == "(" else None
        if paren and pre and not any(w.lower() in PREPOSITIONS for w in pre):
            desc = [w for w in drop_fillers(pre) if w.lower() not in _W["naming_verbs"]]
            return Contribution(paren[0], [], _described(tokens, paren[1], desc) if desc else [], 4)
        if tok in "([":
            i = skip_parenthetical(tokens, i)
            continue
        if tok == ";" or (low in ("that", "which", "to") and pre):
            break
        for b in bold:
            n = len(b.split())
            if " ".join(tokens[i:i + n]) == b and (n > 1 or is_nameish(b)):
                after = _appositive(tokens, i + n)
                return Contribution(b, _expansion(tokens, i + n), after or drop_fillers(pre), 5)
        if not pre and tok[:1] in "“\"" and len(tok) > 1 and tok[1].isupper():
            # "we present “The Concatenator”, a system ...": a quoted name of a few words
            close = next((k for k in range(i, min(i + 5, len(tokens))) if tokens[k].endswith(("”", "\"")) and (k > i or len(tok) > 2)), None)
            if close is not None:
                name = " ".join(tokens[i:close + 1]).strip("\"“”")
                if name and name.lower() not in KNOWN_NAMES:
                    return Contribution(name, [], _appositive(tokens, close + 1), 4)
        if pre and all(w.lower() in ARTICLES for w in pre) and rare_capitalised(tok) and _kind_after(tokens, i + 1) >= 0:
            # "we propose the Softstar algorithm, a ...", "the Flexpoint data format": a rare
            # capitalised word before what kind of thing it is
            phrase = drop_fillers(_phrase(tokens, i + 1))
            return Contribution(tok, [], _appositive(tokens, i + 1 + len(phrase)) or _described(tokens, i + 1, phrase), 4)
        if not pre and (CAPITALISED.match(tok) or _coined_word(tok)) and i + 2 < len(tokens) \
                and tokens[i + 1] in APPOSITIVE_INTRO and tokens[i + 2].lower() in ("a", "an") \
                and tok.lower() not in COMMON_ACRONYMS and tok.lower() not in KNOWN_NAMES:
            # "we propose Banquet, a system that ...", "we propose mixup, a simple learning principle",
            # "we introduce Syndicom - a method for ...": one word with an appositive is a name
            return Contribution(tok, _expansion(tokens, i + 1), _appositive(tokens, i + 1), 4)
        if (is_nameish(tok) or _set_off_capitals(tokens, i, pre)) and not (pre and pre[-1].lower() in PREPOSITIONS) \
                and not (TITLE_COMPOUND.match(tok) and i + 1 < len(tokens) and CAPITALISED.match(tokens[i + 1])) \
                and (pre and pre[-1].lower() in _W["naming_verbs"] or (i + 1 < len(tokens) and tokens[i + 1] == "(")
                     or not any(_paren_name(tokens, k) for k in range(i + 1, min(i + 5, len(tokens))) if tokens[k] == "(")):
            plain = [w for w in pre if w.lower() not in ARTICLES]
            # "a GRaph-based Attention Model, GRAM that ...": set off after what kind of thing it is
            # ("a randomized optimization method---SEGA (...)---which"): or after a dash
            kind_comma = len(pre) >= 2 and pre[-1] in (",", "—") and pre[-2].lower().rstrip("s") in GENERIC
            introduced = not plain or kind_comma or pre[-1].lower() in ARTICLES | GENERIC | _W["naming_verbs"] \
                or (len(plain) <= 4 and "," not in plain and CAPITALISED.match(tokens[i + 1] if i + 1 < len(tokens) else "") is None)
            if not introduced:
                return None
            stop = i + 1
            name = tok.strip("\"'“”‘’")
            long = _expansion(tokens, stop)
            pre_desc = [w for w in drop_fillers(pre) if w.lower() not in _W["naming_verbs"] and w != ","]
            after = _appositive(tokens, stop)
            if pre_desc and not is_generic(pre_desc) and not (after and tokens[stop] in ",:-–—" and tokens[stop + 1].lower() in ARTICLES):
                desc = pre_desc  # "a multi-label recognition framework, termed PIAA, which ..."
            else:
                desc = after or (_described(tokens, stop, pre_desc) if pre_desc else [])
            return Contribution(name, long, desc, 4)
        pre.append(tok)
        i += 1
    return None


# "Our framework, Text2Mesh, stylizes ...", "a transformer network --- TheGlueNote --- which ...",
# "... of humans in motion (H-NeRF)" in a sentence of ours.
_OUR_NAME = re.compile(r"\b(?:[Oo]ur|[Tt]his (?:new|novel|proposed)) (?:[\w-]+ ){0,3}?[\w-]+, ([A-Z][\w@+\-.]*(?: [A-Z][\w@+\-.]*){0,2})(?:,| \()")


_DASH_NAME = re.compile(r"(?:---|—|--|–) ?([A-Z][\w@+\-.]*) ?(?:---|—|--|–)")


_PAREN_NAME = re.compile(r"\(([A-Z][\w@+\-.]*)\)")


_OURS = re.compile(r"\b(?:[Ww]e|[Oo]ur)\b")


# a coined name: Mega-NeRF, Text2Mesh, DONeRF (a digit or a capital inside a part), not AI-Generated
_MAYBE_COINED = re.compile(r"\d|[a-z][A-Z]")  # cheap test first: most sentences coin nothing


_COINED = re.compile(r"(?<![\w@+.-])(?=[A-Za-z])[\w@+.-]*?(?:\d|[a-z][A-Z])[\w@+-]*(?<![.-])")


def name_elsewhere(sentences: list[str]) -> str:
    """A method name the contribution patterns missed: introduced as an appositive
    of "our ...", set off by dashes, bracketed in a sentence about our work, or a
    name-like word the abstract keeps coming back to."""
    def ok(name: str) -> bool:
        low = name.lower()
        return (
            is_nameish(name)
            and low.rstrip("s") not in COMMON_ACRONYMS
            and low not in COMMON_ACRONYMS
            and low not in KNOWN_NAMES
            and "/" not in name
            and not low.endswith(("'s", "’s"))
        )

    counts: dict[str, tuple[int, bool]] = {}
    full = " ".join(sentences)
    for sentence in sentences:
        # cheap substring tests first: the patterns are costly and rarely apply
        ours = "our " in sentence or "Our " in sentence or "we " in sentence or "We " in sentence
        if "our " in sentence or "Our " in sentence:
            m = _OUR_NAME.search(sentence)
            # "Our method, Dream Fields, ...": an appositive of ours may be several capitalised words
            if m and (ok(m[1].rstrip(".")) or (" " in m[1] and m[1].lower() not in KNOWN_NAMES)):
                return m[1].rstrip(".")
        if "--" in sentence or "—" in sentence or "–" in sentence:
            m = _DASH_NAME.search(sentence)
            if m and ok(m[1].rstrip(".")):
                return m[1].rstrip(".")
        if ours and "(" in sentence:
            for m in _PAREN_NAME.finditer(sentence):
                # "(H-NeRF)", or an acronym the abstract goes on using: "(GANITE) ... GANITE is"
                if ok(m[1]) and ("-" in m[1] or full.count(m[1]) >= 3):
                    return m[1]
        for word in _COINED.findall(sentence) if _MAYBE_COINED.search(sentence) else ():
            count, mine = counts.get(word, (0, False))
            counts[word] = (count + 1, mine or ours)
    # repeated, named in a sentence about our work, and shaped like a coined name
    best = max(((w, n) for w, (n, mine) in counts.items() if mine and ok(w)), key=lambda kv: (kv[1], kv[0]), default=("", 0))
    return best[0] if best[1] >= 3 else ""


# The project's own page or repository: https://zqbai-jeremy.github.io/autoavatar,
# https://github.com/cwchenwang/ShadeGAN (the first path part after the owner).
_PROJECT_LINK = re.compile(
    r"https?://(?:[\w-]+\.github\.io|(?:www\.)?(?:github|gitlab)\.com/[\w.-]+)/([A-Za-z][\w.+-]*)"
)


_LINK_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+]*")


def name_from_links(text: str, sentences: list[str]) -> str:
    """A method the abstract never names but its project page or repository does.

    Repositories named like sentences (``animatable_nerf``, ``rethinking-positional-
    encoding``) or like pages (``demo``, ``asap-dataset``) are not names. The spelling
    comes from the link when it has capitals (``KeypointNeRF``), else from a word of
    the abstract that starts the same (``stylegan`` in ``StyleGAN2``), else short parts
    are read as initials (``hvh``) and long ones capitalised (``autoavatar``)."""
    if "github" not in text and "gitlab" not in text:
        return ""
    words = sorted({w for s in sentences for w in _LINK_WORD.findall(s) if any(c.isupper() for c in w)})
    for m in _PROJECT_LINK.finditer(text):
        slug = m[1].removesuffix(".git").rstrip(".")
        parts = slug.split("-")
        if (
            not 2 <= len(slug) <= 24
            or "_" in slug or "." in slug
            or len(parts) > 2 or "" in parts
            or any(p.lower() in _W["not_link_names"] for p in parts)
            or slug.lower() in COMMON_ACRONYMS or slug.lower() in KNOWN_NAMES
        ):
            continue
        spelled = []
        for part in parts:
            low = part.lower()
            if part != low:
                spelled.append(part)
                continue
            known = next((w[: len(part)] for w in words if len(part) >= 3 and w.lower().startswith(low)), None)
            if known and known != low:
                spelled.append(known)
            else:
                spelled.append(part.upper() if len(part) <= 4 else part.capitalize())
        return "-".join(spelled)
    return ""


# "a novel adversarial training algorithm, FreeLB, that ...", "the resulting model, the
# Reformer, ...", "our method, soft Q imitation learning (SQIL), ...": a name set off by
# commas after a noun phrase whose head says what kind of thing it is.
_HEADS = "|".join(sorted((re.escape(h) for h in GENERIC | {"model", "library", "corpus", "format", "layer", "policy"}), key=len, reverse=True))
_KIND_APPOSITIVE = re.compile(
    rf"\b(?:[Oo]ur|[Tt]he|[Tt]his|an?)\s+((?:[\w-]+\s+){{0,5}}?(?:{_HEADS})s?)\s*,\s+"
    r"(?:i\.e\.,?\s+|namely\s+|called\s+|dubbed\s+|termed\s+)?(?:the\s+)?"
    r"(?:((?:[a-z][\w-]*\s+){0,3}[\w-]+(?:\s+[\w-]+){0,3})\s+\(([A-Za-z][\w@+\-]*)\)|([A-Za-z][\w@+\-^]*[\w+]))\s*(?:,|$)"
)
# "DeePa is a deep learning framework ...", "VisuaLLM is a Python library ...": a sentence
# that opens with a coined name and says what it is.
_IS_A = re.compile(r"^(?:The )?([A-Za-z][\w@+\-]*[\w+])(?: \([^()]*\))? (?:(?:is|are) (?:a|an|the first) |(?=(?:uses|can|learns|calculates|computes|achieves|combines|consists|provides|relies|builds|allows|enables|takes|produces|has) )|(?=[a-z]{3,}[^s\W]s ))")


# "One such technology is TinyForest, a compact library ...": a coined name with what it is.
_IS_NAME = re.compile(r"\b(?:is|are) ([A-Z][\w@+\-]*[\w+]), (?:a|an) ")


def _plausible_name(name: str) -> bool:
    low = name.lower()
    return (
        bool(name) and not _NOTATION_NAME.match(name) and low.rstrip("s") not in COMMON_ACRONYMS and low not in COMMON_ACRONYMS
        and low not in KNOWN_NAMES and (is_nameish(name) or name[:1].isupper())
    )


# a sentence that reports what others found or claim: a name it gives is theirs ("It has been
# conjectured that a simple adversary strategy, called COMB, is near optimal")
_REPORTED = re.compile(r"(?:it\s+(?:has\s+been|had\s+been|was|is)\s+(?:conjectured|shown|proposed|suggested|observed|"
                       r"argued|known|believed|established|demonstrated)\b|(?:recent|prior|previous|existing|earlier)\s)", re.I)


def reported(sentence: str) -> bool:
    """Does the sentence open by reporting others' work ("It has been shown that ...", "Recent work ...")?"""
    return _REPORTED.match(sentence) is not None


def name_by_kind(sentences: list[str], text: str) -> Contribution | None:
    """A name introduced as an appositive of what kind of thing it is, or a sentence opening
    with a coined name that says what it is: the method the contribution patterns missed.
    Not in a sentence reporting others' work (:func:`reported`) that says nothing of ours."""
    for sentence in sentences:
        if reported(sentence) and not _OURS.search(sentence):
            continue
        if "," in sentence:
            for m in _KIND_APPOSITIVE.finditer(sentence):
                kind, long, acronym, word = m.group(1), m.group(2), m.group(3), m.group(4)
                name = acronym or word
                if not name or not _plausible_name(name) or (word and not is_nameish(word) and not m.group(0).rstrip(", ").endswith(word)):
                    continue
                desc = [w for w in drop_fillers(kind.split()) if w.lower() not in ARTICLES]
                return Contribution(name, long.split() if long else [], desc, 4)
        m = _IS_NAME.search(sentence)
        if m and is_nameish(m[1]) and _plausible_name(m[1]):
            tokens = tokenize(sentence)
            start = len(tokenize(sentence[: m.end()]))
            return Contribution(m[1], [], drop_fillers(_phrase(tokens, start, limit=12)), 3)
        m = _IS_A.match(sentence)
        # a coined name opening a sentence about what it does ("CyCADA adapts ...", "VisuaLLM is a
        # Python library"); a rare capitalised word only when the abstract comes back to it
        # ("Sum-Product networks are ..." and "Locally-Lipschitz functions ..." are compounds in Title Case)
        # a rare capitalised word only where the abstract says what it is ("Espresso is a compact
        # library") and writes it so again: "Retinal prostheses restore ..." opens with an adjective
        definition = m is not None and m.group(0).endswith((" a ", " an ", " first "))
        if m and _plausible_name(m[1]) and not TITLE_COMPOUND.match(m[1]) and m[1].lower() not in ANAPHORA \
                and (is_nameish(m[1]) or (definition and not m.group(0).startswith("The ")
                                           and rare_capitalised(m[1]) and text.count(m[1]) >= 2)):
            if not m.group(0).endswith((" a ", " an ", " first ")):
                return Contribution(m[1], [], [], 3)  # "CyCADA adapts ...": a verb says what it does, not what it is
            tokens = tokenize(sentence)
            start = len(tokenize(m.group(0)))
            phrase = drop_fillers(_phrase(tokens, start, limit=10))
            return Contribution(m[1], [], _described(tokens, start + len(_phrase(tokens, start, limit=10)) - len(phrase), phrase), 3)
    return None


# A name the abstract marks as its own: "our proposed FD-GAN", "the proposed DifNet", "our
# Net-Trim algorithm", "our method (SMASH)", "the resulting approach (PEWA)", "our algorithm,
# DFacTo,". Stronger evidence than an acronym defined in passing ("Alternating Least Squares
# (ALS)"), which is often a part or a baseline.
_NAME_WORD = r"(?<![\w@+\-.])([A-Za-z0-9][\w@+\-.]*[\w+])"  # a whole word: not "C-GAN" of "3C-GAN"
_OWN_PATTERNS = (
    re.compile(rf"\b(?:[Oo]ur|[Tt]he)\s+(?:proposed|resulting)\s+(?:[a-z][\w-]*\s+){{0,2}}?{_NAME_WORD}(?![\w(])(?!\s*\()"),
    re.compile(rf"\b[Oo]ur\s+(?:proposed\s+|new\s+)?{_NAME_WORD}\s+(?:{_HEADS})s?\b"),
    re.compile(rf"\b(?:[Oo]ur|[Tt]he\s+(?:proposed|resulting))\s+(?:[\w-]+\s+){{0,2}}?(?:{_HEADS})s?\s+\({_NAME_WORD}\)"),
    _OUR_NAME,
    re.compile(rf"{_NAME_WORD}\s*[:,]\s+an?\s+(?:novel|new)\s"),  # "in SchNet: a novel deep learning architecture"
    re.compile(rf"^(?:With|Through|Using|Via)\s+{_NAME_WORD},\s+we\s"),  # "With OpinionConv, we develop ..."
)


_DEFINED_SOON = re.compile(r"[^()]{0,60}?\(([A-Z][\w@+\-]*)\)")


def own_name(sentence: str) -> Contribution | None:
    """The name of the paper's own method in a sentence that marks it as ours, if any."""
    for pattern in _OWN_PATTERNS:
        for m in pattern.finditer(sentence):
            name = m[1].rstrip(".")
            last = name.rsplit("-", 1)[-1]
            # a compound in Title Case is a name before what kind of thing it is ("our Net-Trim algorithm")
            compound = TITLE_COMPOUND.match(name) and pattern is not _OWN_PATTERNS[1]
            if " " in name or not is_nameish(name) or not _plausible_name(name) or compound \
                    or name.lower().endswith(("'s", "’s")) or (name != last and last.islower() and len(last) > 1):
                continue  # "our ADMM-based method", "our DPP-style sampler": a modifier, not a name
            soon = _DEFINED_SOON.match(sentence, m.end())
            # (an acronym of another thing does not start like the name: "Using ELF, we implement a
            # real-time strategy (RTS) engine")
            if soon and is_nameish(soon[1]) and _plausible_name(soon[1]) and soon[1][0].lower() == name[0].lower():
                name = soon[1]  # "the proposed NonconvEx primal-dual SpliTTing (NESTT) algorithm"
            return Contribution(name, [], [], 5)
    return None


def _title_cased(words: list[str]) -> bool:
    """Every word capitalised but the small ones: "Capsule Projection Network", "Generative
    Information Lower BOund" (how authors write the long form of their own method's name)."""
    return len(words) >= 2 and all(w[:1].isupper() or w.lower() in SMALL for w in words) and words[0][:1].isupper()


def defined_name(sentences: list[str], ours: list[bool]) -> Contribution | None:
    """An acronym that a sentence about our work defines with a long form in Title Case: "a
    Capsule Projection Network (CapProNet)", "the GILBO (Generative Information Lower BOund)".
    Not a plural ("MDPs", a class of things) nor a common or well-known one, and only in a
    sentence that says what the paper contributes ("we use DCGAN (Deep Convolutional ...)" does not)."""
    for sentence, mine in zip(sentences, ours):
        if not mine or "(" not in sentence or CONTRIBUTION_FORMS.isdisjoint(sentence.lower().split()):
            continue
        tokens = tokenize(sentence)
        for i, (first, last, acronym) in sorted(_definitions(tokens).items()):
            if _title_cased(tokens[first:last]) and _defined_ok(acronym):
                return Contribution(acronym, tokens[first:last], [], 2)
        for i in range(len(tokens) - 3):
            if tokens[i + 1] == "(" and is_nameish(tokens[i]) and _defined_ok(tokens[i]):
                inner = _expansion(tokens, i + 1)
                letters = "".join(c for c in tokens[i] if c.isalnum()).lower()
                if inner and _title_cased(inner) and _is_subsequence(letters[:2], "".join(w[0] for w in inner).lower()):
                    return Contribution(tokens[i], inner, [], 2)
    return None


def _defined_ok(acronym: str) -> bool:
    low = acronym.lower()
    plural = acronym.endswith("s") and acronym[:-1].isupper()
    return not plural and low not in COMMON_ACRONYMS and low.rstrip("s") not in COMMON_ACRONYMS and low not in KNOWN_NAMES
