"""Candidates: the titles one abstract offers (its named method, its contribution, its subject,
its question), read from its sentences."""
from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from generator.core.text import plain, sentences
from generator.core.text import tokens as tokenize
from generator.derive.title.compose import (
    _completed,
    _compose,
    _weak,
    agreed_topic,
    overlaps,
)
from generator.derive.title.names import (
    Contribution,
    _bold_spans,
    _definitions,
    abbreviate,
    bold_appositive,
    contribution_in,
    defined_name,
    is_nameish,
    name_by_kind,
    name_elsewhere,
    name_from_links,
    name_span,
    own_name,
    rare_capitalised,
    reported,
)
from generator.derive.title.phrases import (
    _appositive,
    _described,
    _gerund,
    _phrase,
    can_end,
    drop_fillers,
    is_generic,
    noun_phrases,
    trim,
)
from generator.derive.title.words import (
    _COMMON_WORDS,
    _CONTRIBUTION,
    _FRAME,
    _STOP,
    _SUBJECT,
    _W,
    ACRONYM,
    ANAPHORA,
    ARTICLES,
    AVAILABILITY,
    BACKGROUND_VERBS,
    CAPITALISED,
    CLAUSE,
    COMMON_ACRONYMS,
    CONTRIBUTION_FORMS,
    COUNTS,
    GENERIC,
    GROUND,
    KNOWN_NAMES,
    LEAD_IN,
    LOOSE_PREPOSITIONS,
    MAX_LENGTH,
    NAMEISH,
    NAMING,
    NAMING_FORMS,
    PARTITIVE,
    PREPOSITIONS,
    RELATIONS,
    SMALL,
    SUBJECT_FORMS,
    SUBORDINATORS,
    VAGUE,
    VERB_FORMS,
    WEAK_START,
    WEAK_SUBJECT_VERBS,
    WH_START,
)

# Words that open a phrase about the literature, not a subject ("Recent Works", "Prior Approaches").
_LEAD_WORDS = frozenset({"recent", "prior", "previous", "existing", "past", "current", "traditional"})
_WORD = re.compile(r"[a-z0-9]+")
# "a recently-developed differentiable logic called TensorLog", "the popular optimizer called
# Adam": the name is of a thing the paper builds on, and what it is is not what the paper offers
_EARLIER = ("recent", "existing", "popular", "well-known", "standard", "classic", "prior", "previous", "traditional")
# Heads of a description that say what the thing is a kind of ("a variant of X", "a family of X"):
# the rest names another thing, not this one.
_KIND_OF = frozenset("variant variants family type kind form class version generalization generalisation "
                     "extension combination adoption instance member modification".split())
_OURS_TEST = re.compile(r"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:paper|work))\b")


def title_sentences(text: str) -> list[str]:
    """The sentences titles are read from (:func:`_sentences` of the plain text)."""
    return list(_title_sentences(text))


@functools.lru_cache(maxsize=16)
def _title_sentences(text: str) -> tuple[str, ...]:
    # read once per abstract: the rules, the word model and the confidence all read them
    return tuple(_sentences(plain(text)))


# A single author speaks of the work as "I" and "my": "In this work I introduce ...", "My network
# represents ..." (as a verb or an auxiliary shows: not the numeral of "type I error")
_MY = re.compile(r"\b[Mm]y\b")
_I_SAY = re.compile(r"\bI\s+([a-z]+)\b")


def about_our_work(sentence: str) -> bool:
    """Does the sentence speak of the paper's own work ("we", "our", "this paper", "I", "my")?"""
    return _OURS_TEST.search(sentence) is not None or _MY.search(sentence) is not None \
        or any(m.group(1) in VERB_FORMS or m.group(1) in BACKGROUND_VERBS for m in _I_SAY.finditer(sentence))


# A full stop with no space after it between two words ("... with bandit feedback.Our method
# ..."), as copying from a PDF leaves it: the end of a sentence all the same. (Not "e.g.The",
# an abbreviation, nor "arXiv.org", "Node.js": the next word opens with a capital and goes on
# in lower case.)
# (The mark is matched first, the letters before it after: a pattern that opens on a look back
# is tried at every character of the text.)
_GLUED = re.compile(r"[.!?](?<=[a-z]{3}[.!?])(?=[A-Z][a-z]+\b)")


# A word broken at the end of a line of the PDF the abstract was copied from: "rep- resentation",
# "hyperpa- rameter", "long- standing" (not "first- and second-order", which leaves the noun of
# its first part to the second).
_BROKEN = re.compile(r"\b([A-Za-z]+)- ([a-z]+)\b(?<!- and)(?<!- or)(?<!- to)(?<!- nor)")


def rejoined(text: str) -> str:
    """The text with its words broken at a line's end made whole again: "rep- resentation" is
    "representation", a word ML abstracts use or this one writes elsewhere; "tree- structured",
    which neither is, was a compound broken at its hyphen ("tree-structured")."""
    if "- " not in text:
        return text
    own = set(_WORD.findall(text.lower()))

    def whole(m: re.Match) -> str:
        joined = m.group(1) + m.group(2)
        return joined if joined.lower() in _COMMON_WORDS or joined.lower() in own else f"{m.group(1)}-{m.group(2)}"

    return _BROKEN.sub(whole, text)


# A small word glued to the capitalised word after it, as copying from a PDF leaves it ("a new
# learnable module, theSpatial Transformer"): two words. (Not "aPascal", "iPhone", "fastText",
# "miniKanren": a letter or a word of a name's own is no small word of ``glued_before_capital``.)
_GLUED_SMALL = re.compile(r"\b([a-z]{2,4})(?=[A-Z][a-z]{2,}\b)")
_SMALL_BEFORE_CAPITAL = _W["glued_before_capital"]


def parted_small_words(text: str) -> str:
    """The text with each small word glued to a capitalised word after it parted: "theSpatial
    Transformer" is "the Spatial Transformer"."""
    return _GLUED_SMALL.sub(lambda m: f"{m[1]} " if m[1] in _SMALL_BEFORE_CAPITAL else m[1], text)


def _sentences(text: str) -> list[str]:
    """The plain text's sentences without their closing marks, less the closing pointers to code."""
    out = sentences(_GLUED.sub(r"\g<0> ", parted_small_words(rejoined(text))))
    # pointers to code or a project page come last; only the closing sentences need the test
    last = len(out) - 3
    return [s.rstrip(".! ") for i, s in enumerate(out) if i < last or len(s) > 160 or not _points_elsewhere(s)]


def _points_elsewhere(sentence: str) -> bool:
    """Code, data or a page is available: "Code is at ...". Not "We propose MacNet: a novel
    encoder-decoder supplementary architecture", which says what the paper offers."""
    return AVAILABILITY.search(sentence.lower()) is not None and _CONTRIBUTION.search(sentence) is None


def _topic(sentences: list[str]) -> list[str]:
    """The subject of the first sentence that has one: what the paper is about."""
    for index, sentence in enumerate(sentences[:3]):
        tokens = tokenize(sentence)
        if index and _OURS_TEST.match(sentences[0]):
            break  # "We study X ...": X is the subject; the next sentence is about a detail of it
        start = 0
        if tokens and tokens[0].lower() in SUBORDINATORS:
            if "," not in tokens:
                continue
            start = tokens.index(",") + 1
            while start < len(tokens) and tokens[start].lower() in SUBORDINATORS and "," in tokens[start:]:
                start = tokens.index(",", start) + 1  # "However, although X is accurate, Y ...": Y is the subject
            if tokens[0].lower() == "in" and tokens[1].lower() not in ANAPHORA | ARTICLES and start <= 8:
                setting = trim(_phrase(tokens, 1, limit=7))  # "In GFlowNets and variational inference, ..."
                while setting and setting[0].lower() in WEAK_START:
                    setting = setting[1:]  # "In many real-world applications": the applications
                if setting and not tokens[1][0].isdigit() and tokens[1].lower() not in ("recent", "practice", "particular", "contrast", "addition"):
                    return setting
        if start < len(tokens) and (tokens[start].lower() in ANAPHORA | WEAK_START | _JOINING | {"here", "there", "recently"}
                                    or (start and tokens[start].lower() in PREPOSITIONS)):
            continue  # "In this paper we propose X, but from an implementation point of view ...": no subject there
        tokens = abbreviate(tokens, start)
        words = _phrase(tokens, start, limit=9, subject=True)
        text = LEAD_IN.sub("", " ".join(words))
        words = [w for w in text.split() if w]
        while words and words[0].lower() in ARTICLES:
            words = words[1:]
        words = trim(_past_vague_head(words) or words)
        if len(words) == 1 and not can_end(words[0].lower()):
            words = []  # "Autonomous driving stacks fuse ...": its capital is the sentence's, not a name's
        if words and words[0].lower() not in WEAK_START and not is_generic(words):
            return words
    return []


def _question(sentences: list[str]) -> list[str]:
    """An opening question makes a fine title ("When Does Learning Elicit ...?")."""
    if sentences and sentences[0].endswith("?") or (sentences and "?" in sentences[0][-2:]):
        words = [w for w in sentences[0].split() if not (w.endswith("ly") and w.islower())]
        if len(" ".join(words)) <= MAX_LENGTH:
            return words
    return []


def _analyse(text: str, quick: bool = False) -> tuple[Contribution | None, list[str], list[str], list[str]]:
    """(named contribution, subject phrase, sentences) of one abstract.

    ``quick`` stops at a contribution that needs nothing else to make the first title.
    """
    bold = _bold_spans(text)
    sentences = title_sentences(text)
    best: Contribution | None = None
    subject: list[str] = []
    weak_subject = False
    unnamed: list[str] = []
    for sentence in sentences:
        if quick and best and (best.long or not is_generic(best.desc)) and best.score >= 5:
            break  # a later sentence may still mark another name as ours ("Our algorithm, DFacTo, ...")
        low = sentence.lower()
        words = low.split()
        # cheap word tests first: the full patterns are costly and most sentences have no verb of theirs
        m = None if CONTRIBUTION_FORMS.isdisjoint(words) else _CONTRIBUTION.search(sentence)
        n = None if (best and best.score >= 5) or NAMING_FORMS.isdisjoint(words) else NAMING.search(sentence)
        if m or n:
            tokens = tokenize(sentence)
            defs = _definitions(tokens) if "(" in sentence else {}
        if m:
            start = len(tokenize(sentence[: m.end()]))
            found = contribution_in(tokens, start, bold, defs)
            if found and (best is None or found.score > best.score):
                best = found
            if not unnamed and not found:
                unnamed = _unnamed(tokens, start)
        if n and (best is None or best.score < 5) and not (reported(sentence) and not about_our_work(sentence)):
            start = len(tokenize(sentence[: n.end()]))
            if start < len(tokens) and (CAPITALISED.match(tokens[start]) or tokens[start][0] in "\"'“‘"
                                        or is_nameish(tokens[start])):
                stop = name_span(tokens, start)
                name = " ".join(tokens[start:stop]).strip("\"'“”‘’")
                # quotes with nothing in them ('termed ""', a stray quote) name nothing
                # ('which we call "experts"': a common word in lower case names a part of the
                # method, it is not the method's name; "mixup" is no common word)
                if name and name.lower().rstrip("s") not in COMMON_ACRONYMS and name.lower() not in KNOWN_NAMES \
                        and name.lower() not in ANAPHORA and name.lower() not in _STOP \
                        and not (name.islower() and name in _COMMON_WORDS):
                    before = tokens[: start - 1]
                    while before and (before[-1] in (",", "is", "are", "as") or before[-1].lower() in _W["naming_verbs"]):
                        before = before[:-1]
                    j = len(before)
                    while j > 0 and before[j - 1].lower() not in ARTICLES and before[j - 1] not in ",;:()" and before[j - 1].lower() not in CLAUSE and len(before) - j < 8:
                        j -= 1
                    pre = drop_fillers(before[j:])
                    after = _appositive(tokens, stop)
                    desc = after or ([] if pre and pre[-1].lower() in ("we", "it") else pre)
                    long: list[str] = []
                    if stop < len(tokens) and tokens[stop] == "(" and stop + 2 < len(tokens) and tokens[stop + 2] == ")" \
                            and (stop - start > 1 or not is_nameish(name)):
                        # "called Primary Ray-based Implicit Function (PRIF)"; not "named KSTER (KeySpace...)"
                        long, name = tokens[start:stop], tokens[stop + 1]
                    elif stop + 3 < len(tokens) and tokens[stop] == "(" and tokens[stop + 3] == ")" and stop - start > 1 \
                            and ACRONYM.match(tokens[stop + 1]) and CAPITALISED.match(tokens[stop + 2]):
                        # "we call DISsimilarity COefficient Networks (DISCO Nets)": a name of two words
                        # in brackets after its long form is the name, as one word there is
                        long, name = tokens[start:stop], f"{tokens[stop + 1]} {tokens[stop + 2]}"
                    elif stop + 2 < len(tokens) and tokens[stop] == "," and tokens[stop + 1] == "or" \
                            and ACRONYM.match(tokens[stop + 2]) and stop - start > 1:
                        long, name = tokens[start:stop], tokens[stop + 2]  # "X Y Z Networks, or XYZN"
                    else:
                        # "termed Generative Adversarial Nets for inference of Individualized Treatment
                        # Effects (GANITE)": a long form that runs past the capitalised words
                        defined = next((d for d in defs.values() if d[0] == start and d[1] - start > 1), None)
                        if defined:
                            long, name = tokens[defined[0]:defined[1]], defined[2]
                    # a coined name the authors give ("a Q&A architecture called QANet") outranks a
                    # name-like word met first in the object of "we propose"
                    named = not n.group(0).lower().startswith("namely")  # "namely X" restates, it does not name
                    coined = is_nameish(name.split()[0]) or rare_capitalised(name)  # "called Autostacker"
                    score = 5 if named and coined and " " not in name else \
                        4 if NAMEISH.match(name.split()[0]) or len(name.split()) > 1 else 3
                    # "a two-stage reverse-engineering attack named KSTER": what it is, said where it is named
                    # (right before the naming verb, after an article: not "for these two tasks, called X")
                    stated = score == 5 and not long and not after and len(desc) >= 2 and not is_generic(desc) \
                        and len(before) == start - 1 and j > 0 and before[j - 1].lower() in ARTICLES \
                        and ANAPHORA.isdisjoint(w.lower() for w in desc) and desc[0].lower() not in _STOP \
                        and can_end(desc[-1]) and not any(w.lower().startswith(_EARLIER) for w in desc)
                    # "we introduce Exponential Machines (ExM) ... in a format called Tensor Train (TT)":
                    # a name given outside any sentence of ours names what the contribution uses
                    # (not "This interpolation, termed HolEx, ...": its subject points back at ours)
                    aside = best is not None and best.score >= 4 and not m and not about_our_work(sentence) \
                        and not (words[0] in ANAPHORA and start <= 5) and not {"proposed", "resulting"} & set(words)
                    # "an open problem called S4": a problem or conjecture named is what the paper
                    # solves, not a method it names
                    # (not "a new method to tackle this problem, called X": the method is named)
                    posed = bool(before) and before[-1].lower() in ("problem", "problems", "conjecture", "question", "paradox") \
                        and not (len(before) > 1 and before[-2].lower() in ANAPHORA)
                    if (best is None or score > best.score) and not aside and not posed:
                        best = Contribution(name, long, desc, score, stated)
        if (best is None or best.score < 5) and ("our " in low or "proposed " in low or "resulting " in low
                                                 or " novel " in low or " new " in low or low.startswith(("with ", "through ", "using ", "via "))):
            own = own_name(sentence)
            if own and (best is None or own.name != best.name):
                best = own
        if not subject or (best is None and (" novel " in low or " new " in low)):
            s = None if SUBJECT_FORMS.isdisjoint(words) else (_FRAME.search(sentence) or _SUBJECT.search(sentence))
            if s and (best is None or best.score < 3) and (" novel " in low or " new " in low):
                # "we study a novel convex estimator MixLasso for ...": a new thing studied is ours
                studied = tokenize(sentence)
                found = contribution_in(studied, len(tokenize(sentence[: s.end()])), bold, _definitions(studied))
                if found and found.name.lower() not in KNOWN_NAMES:
                    best = dataclasses.replace(found, score=3)
            if s and subject:
                s = None
            if s:
                subject = _subject(abbreviate(tokenize(sentence[s.end():])))
                if subject and (subject[0].lower() in ANAPHORA or subject[0].lower() == "one" or _evaluation(subject)):
                    subject = []
                # "we analyze the modeling capabilities of ...": what the paper looks at, not what it is about
                weak_subject = bool(subject) and not WEAK_SUBJECT_VERBS.isdisjoint(s.group(0).lower().split())
    best = _not_well_known(best)
    if best is None or best.score < 3:
        best = _not_well_known(name_by_kind(sentences, text)) or best
    if best is None:
        best = _not_well_known(defined_name(sentences, [about_our_work(s) for s in sentences]))
    if best is None and bold:
        for b in bold:
            if (is_nameish(b.split()[0]) or len(b.split()) > 1) and not _well_known(b):
                best = Contribution(b, [], bold_appositive(b, sentences), 2)
                break
    if best is None:
        name = name_elsewhere(sentences) or name_from_links(text, sentences)
        if name and not _well_known(name):
            best = Contribution(name, [], [], 1)
    if best:
        best = _spelled_out(best, sentences)
        best = _spelled_in_description(best)
        best = _acronym_of_long_name(best, sentences)
        best = _main_of_two_names(best, " ".join(sentences))
    if best and _from_math(best.name, text):
        best = None  # "KK" of "$\Omega(K\log K)$", "S2" of "$\frac{S^2}{\log S}$": notation, not a name
    if best and best.name[:1].islower():
        # "flipout" is "Flipout" where the authors open a sentence with it; "mixup" never is
        upper = best.name[:1].upper() + best.name[1:]
        if any(s.startswith(upper + " ") for s in sentences):
            best = dataclasses.replace(best, name=upper)
    if not subject and not unnamed:
        subject = _question(sentences)
    if unnamed and unnamed[0].lower() in ANAPHORA:
        unnamed = []  # "such an attempt ...": needs the sentence before
    if weak_subject and unnamed and not is_generic(unnamed):
        subject = unnamed  # what the paper offers says more than what it analyses
    return best, subject or unnamed, sentences, unnamed


# a formula between dollars; a longer run between two of them is more likely a stray dollar
_MATH_SPAN = re.compile(r"\$\$?[^$]{1,200}\$?\$")


def _from_math(name: str, text: str) -> bool:
    """Whether ``name`` is notation the reading of a formula ran together ("KK" of
    "$\\Omega(K\\log K)$", "pD" of "$p_D$"), not a name the authors give: every place the text
    spells it (formulas' marks dropped) lies inside a formula, or it is spelled nowhere and not
    in the text outside formulas either. "PG$^2$", "$K$-Grassmeans" and "S$^2$N" are names."""
    if "$" not in text:
        return False
    math = bytearray(len(text))  # a stray dollar opens no formula
    for m in _MATH_SPAN.finditer(text):
        math[m.start() : m.end()] = b"\1" * (m.end() - m.start())
    joined, inside = [], []
    for c, in_math in zip(text, math):
        if c not in "$^_{}":
            low = c.lower()  # "İ" is two characters in lower case: a flag for each
            joined.append(low)
            inside.extend([in_math] * len(low))
    spelled, key = "".join(joined), name.lower()
    at, seen = spelled.find(key), False
    while at >= 0:
        seen = True
        if not all(inside[at : at + len(key)]):
            return False
        at = spelled.find(key, at + 1)
    return seen or key not in plain(_MATH_SPAN.sub(" ", text)).lower()


def _spells(letters: str, words: list[str]) -> bool:
    """Do ``words`` spell the acronym ``letters`` (lower case), each word (or a hyphenated part
    after a word's first) giving the first letters of itself, in order, and every letter used?
    Small words may give none. "Monitor-guided Calibration" spells MONICA (MONI + CA)."""
    def parts_of(word: str) -> list[str]:
        return [x for x in re.split(r"[-\u2013/]", word.lower()) if x]

    @functools.cache
    def match(k: int, at: int, part: int) -> bool:
        if at == len(letters):
            return k == len(words) or (k == len(words) - 1 and part > 0)
        if k == len(words):
            return False
        parts = parts_of(words[k])
        if part == len(parts):
            return match(k + 1, at, 0)
        piece, small = parts[part], words[k].lower() in SMALL
        if (part > 0 or small) and match(k, at, part + 1):
            return True
        n = 0
        while n < len(piece) and at + n < len(letters) and piece[n] == letters[at + n]:
            n += 1
            if match(k, at + n, part + 1):
                return True
        return False

    return bool(letters) and match(0, 0, 0)


def _another_name(name: str, words: list[str]) -> bool:
    """Is the phrase a name of its own, in Title Case where the abstract writes it, that does not
    spell the acronym ``name``? "RDC: Hirschfeld-Gebelein-Rényi Maximum Correlation Coefficient"
    would read as what RDC stands for, where the abstract names another thing it builds on."""
    if not (name.isalpha() and name.isupper() and 2 <= len(name) <= 5):
        return False  # an initialism: "TORRENT: Robust Least Squares Regression" is no expansion of one
    content = [w for w in words if w.lower() not in SMALL]
    return len(content) >= 2 and all(w[:1].isupper() for w in content) and content[0][0].lower() != name[0].lower()


def _spelled_in_description(found: Contribution) -> Contribution:
    """ "MONICA, a novel Monitor-guided Calibration framework that ...": the description's first
    words, before any preposition, spell the acronym, so they are its long form, and the
    authors say what it is where they name it (as "a X named NAME" does)."""
    if found.long or " " in found.name or not ACRONYM.match(found.name) or len(found.desc) < 2:
        return found
    letters = "".join(c for c in found.name if c.isalpha()).lower()
    if len(letters) < 3 or not found.name[:1].isupper():
        return found
    for n in range(2, min(len(found.desc), 6) + 1):
        words = found.desc[:n]
        if any(w.lower() in PREPOSITIONS or not w[:1].isalpha() for w in words):
            break
        if _spells(letters, words):
            return dataclasses.replace(found, long=list(words), stated=True)
    return found


def _well_known(name: str) -> bool:
    """A data set, a function, a library or a classical method that papers use, not a paper's own
    name: "CelebA", "ReLU", "TTS", "ImageNet", "Frank-Wolfe" (``known_names``, ``common_acronyms``),
    wherever the name was found. (Not every Title-Case compound: "Net-Trim", "Short-Dot" are coined.)"""
    low = name.lower()
    return low in KNOWN_NAMES or low in COMMON_ACRONYMS or low.rstrip("s") in COMMON_ACRONYMS \
        or low.rstrip("s") in KNOWN_NAMES


def _not_well_known(found: Contribution | None) -> Contribution | None:
    return None if found is None or _well_known(found.name) else found


def _spelled_out(found: Contribution, sentences: list[str]) -> Contribution:
    """An acronym the abstract spells out in a sentence other than the one that named it ("we
    call mixture matrix completion (MMC) ...", then "MMC is a more accurate model ...") leads
    the title with its long form, as one spelled out where it is named does ("MMC: Mixture
    Matrix Completion")."""
    if found.long or " " in found.name or not ACRONYM.match(found.name):
        return found
    for sentence in sentences:
        if f"({found.name})" not in sentence.replace(" ", ""):
            continue
        tokens = tokenize(sentence)
        for paren, (start, end, acronym) in _definitions(tokens).items():
            if acronym == found.name:
                # "excess description length (EDL), an information-theoretic measure of ...": what it is
                return dataclasses.replace(found, long=tokens[start:end], desc=found.desc or _appositive(tokens, paren))
    return found


def _acronym_of_long_name(found: Contribution, sentences: list[str]) -> Contribution:
    """A name of several capitalised words that the abstract also abbreviates ("are termed Lazily
    Aggregated Gradient --- justifying our acronym LAG") leads the title as its acronym, spelled
    out after it, as titles write such names ("LAG: Lazily Aggregated Gradient ...")."""
    words = found.name.split()
    if found.long or len(words) < 2 or not all(w[:1].isupper() or w.lower() in SMALL for w in words):
        return found
    letters = "".join(w[0] for w in words if w.lower() not in SMALL).upper()
    # two letters ("MS" of "Murphy Sampling") or a class of things ("GMMs") is no name of a method
    if len(letters) < 3 or letters.lower() in COMMON_ACRONYMS:
        return found
    for sentence in sentences:
        if letters in sentence and letters in (t.rstrip(".") for t in tokenize(sentence)):
            return dataclasses.replace(found, name=letters, long=words)
    return found


def _main_of_two_names(found: Contribution, text: str) -> Contribution:
    """Of two coined names the abstract offers together ("the FastRNN and FastGRNN algorithms"),
    the one it comes back to more often: the other is a step on the way, or a variant."""
    for pattern in (rf"(?<![\w-]){re.escape(found.name)} and ([\w@+-]+)", rf"([\w@+-]+) and {re.escape(found.name)}(?![\w-])"):
        m = re.search(pattern, text)
        if m and is_nameish(m[1]) and m[1].lower() not in COMMON_ACRONYMS and m[1].lower() not in KNOWN_NAMES:
            other = len(re.findall(rf"(?<![\w-]){re.escape(m[1])}(?![\w-])", text))
            if other > len(re.findall(rf"(?<![\w-]){re.escape(found.name)}(?![\w-])", text)):
                return dataclasses.replace(found, name=m[1], long=[], desc=[])
    return found


def _evaluation(words: list[str]) -> bool:
    """A subject that says how the paper was checked ("Extensive Experiments on ...", "User
    Study Amongst Guitarists", "Study in Three Steps"), not what it is about."""
    head = []
    for w in words:
        if w.lower() in PREPOSITIONS or w.lower() in LOOSE_PREPOSITIONS:
            break
        head.append(w.lower())
    if any(w in _W["evaluation_nouns"] for w in head):
        return True
    after = words[len(head)].lower() if len(head) < len(words) else ""
    return bool(head) and head[-1] == "study" and after not in ("of", "on", "into")


# Words that pair what follows with something else ("both X and Y", "either X or Y"): no title opens on one.
_PAIRING = frozenset({"both", "either", "neither"})
# Words that join a clause to the one before it: what follows them in a sentence is no subject
# ("..., but from an implementation point of view is simpler").
_JOINING = frozenset({"but", "and", "or", "yet", "so", "nor"})


def _subject(tokens: list[str]) -> list[str]:
    """The object of "we study ...": a noun phrase, or a how/whether clause kept whole."""
    i = 0
    while i < len(tokens) and tokens[i].lower() in ARTICLES | _PAIRING | {"problem", "problems", "question", "questions", "task", "tasks", "of", "on", "in"}:
        i += 1  # ("we investigate both the problem of X, as well as Y": the problem of X)
    if i < len(tokens) and tokens[i].lower() in WH_START:
        return trim(_phrase(tokens, i, limit=14, wh=True))
    if 0 < i < len(tokens) and tokens[i].lower() == "following" and tokens[i - 1].lower() == "the":
        i += 1  # "we consider the following sparse PCA problem": it points ahead
    words = drop_fillers(_phrase(tokens, i))
    # "a series of architectural modifications for LSTM networks": what the "of" names
    return trim(_partitive_past(words) or words)


def _partitive_past(words: list[str]) -> list[str]:
    """The phrase a partitive noun opens, without it ("Series of X" -> X); [] when it does not."""
    if len(words) > 3 and words[0].lower() in PARTITIVE and words[1].lower() == "of":
        rest = words[2:]
        while rest and rest[0].lower() in ARTICLES:
            rest = rest[1:]
        return rest if len(rest) >= 2 else []
    return []


def _unnamed(tokens: list[str], start: int) -> list[str]:
    """The object of "we propose ..." when nothing in it is named."""
    if start < len(tokens) and tokens[start].lower() in ("that", "whether", "how", "on", "upon"):
        # "we propose that instead of ...": a claim, not a thing proposed; "we build on the
        # intuition that ...": what the work rests on, not what it offers
        return []
    if start < len(tokens) and tokens[start].lower() == "to" and start + 1 < len(tokens):
        words = _phrase(tokens, start + 2)
        return trim([_gerund(tokens[start + 1]).capitalize()] + words)
    i = start
    if i + 1 < len(tokens) and tokens[i].lower() == "and" and tokens[i + 1].lower() in VERB_FORMS:
        i += 2  # "we propose and investigate the use of X"
    while i < len(tokens) and tokens[i].lower() in ARTICLES:
        i += 1
    if i + 2 < len(tokens) and tokens[i].lower() in ("use", "application", "usage") and tokens[i + 1].lower() == "of":
        i += 2
        while i < len(tokens) and tokens[i].lower() in ARTICLES:
            i += 1
    raw = _phrase(tokens, i)
    words = drop_fillers(raw)
    i += len(raw) - len(words)  # past "a more" in "a more general theory to analyze X"
    if len(words) <= 3 and not any(w.lower() in PREPOSITIONS for w in words):
        words = _described(tokens, i, words)  # "a project that revives X"
    return trim(words)


def _ruled(found: Contribution | None, subject: list[str], sentences: list[str], unnamed: list[str],
           text: str) -> list[tuple[str, str]]:
    """(title, kind) of the named method, the subject, the contribution and the topic, in the
    order the rules prefer them (the choice weighs that order as one feature among others)."""
    # the topic costs a parse and few titles need it
    memo: list[list[str]] = []

    def topic() -> list[str]:
        if not memo:
            t = _topic(sentences)
            # "PRIF is formulated to ...": the name itself says nothing about what it is for
            memo.append([] if found and found.name.lower() in (w.lower() for w in t) else t)
        return memo[0]
    out: list[tuple[str, str]] = []
    if found:
        desc = trim(found.desc)
        if found.long:
            body = list(found.long)
            prep = next((i for i, w in enumerate(desc) if w.lower() in PREPOSITIONS), None)
            of = prep is not None and prep >= 1 and desc[prep].lower() == "of"
            if of:
                pass  # "excess description length (EDL), an information-theoretic measure of X": "of X" goes with "measure"
            elif prep is not None and len(body) <= 5:
                body += desc[prep:]
            elif topic() and not overlaps(body, topic()):
                body += ["for"] + topic()
            out.append((_compose(found.name, body), NAMED))
            if body != list(found.long):
                # its name with its own long form alone ("SAD: Simplified Action Decoder"): what
                # the paper calls its work, in one phrase, with nothing joined from elsewhere
                out.append((_compose(found.name, list(found.long)), NAMED))
            if of and desc[prep - 1].lower() not in _KIND_OF:
                out.append((_compose(found.name, desc), NAMED))  # "EDL: Information-Theoretic Measure of X"
        elif desc and not is_generic(desc):
            if len(desc) <= 4 and not any(w.lower() in PREPOSITIONS for w in desc) and agreed_topic(topic(), sentences):
                # "ConsMSA: Formalizing Semantic Distribution Consistency" + "for Multimodal Sentiment
                # Analysis", when the opening sentence and the abstract's repeated terms agree on it
                longer = _compose(found.name, desc + ["for"] + topic())
                if not overlaps(desc, topic()) and len(longer) <= MAX_LENGTH:
                    out.append((longer, NAMED))
            out.append((_compose(found.name, desc), NAMED))
        elif subject and not is_generic(subject):
            out.append((_compose(found.name, subject), NAMED_OTHER))
        elif desc and topic():
            out.append((_compose(found.name, desc + ["for"] + topic()), NAMED))
        elif subject:
            out.append((_compose(found.name, subject), NAMED_OTHER))
        elif topic():
            out.append((_compose(found.name, topic()), NAMED_OTHER))
        else:
            out.append((_compose(found.name, []), NAME_ONLY))
        head = found.long or next((desc[:i] for i, w in enumerate(desc) if w.lower() in PREPOSITIONS), desc)
        if topic() and not overlaps(head, topic()):
            out.append((_compose(found.name, head + ["for"] + topic()), NAMED_OTHER))
        # a clash is better told apart by the paper's own subject than by a number
        out += [(_compose(found.name, words), NAMED_OTHER) for words in (subject, topic()) if words]
    kind = QUESTION if subject and subject[-1].endswith("?") else SUBJECT
    if subject and not is_generic(subject):
        out.append((_compose("", subject), kind))
    elif subject and topic():
        out.append((_compose("", subject + ["for"] + topic()), kind))
    if unnamed and unnamed is not subject and not is_generic(unnamed):
        out.append((_compose("", unnamed), CONTRIBUTION))
    if topic():
        out.append((_compose("", topic()), TOPIC))
    if not out:
        first = title_sentences(text)
        out.append((_compose("", first[0].split() if first else ["Untitled"]), FALLBACK))
    if _weak(out[0][0]):
        # "Ambiguity", "Banquet": a title that says nothing yields to one that does
        strong = next((t for t in out if not _weak(t[0])), None)
        if strong is None and topic() and not found:
            tokens = tokenize(sentences[0])
            k = 0
            while k < len(tokens) - 1 and tokens[k].lower() in (SUBORDINATORS - PREPOSITIONS) | ARTICLES | WEAK_START:
                # "Although convolutional neural networks have ...": the subject, not its opener
                # (a preposition stays: "In a ... problem a gambler needs" is no phrase)
                k += 1
            strong = (_compose("", trim(_phrase(tokens, k, limit=12))), TOPIC)
        if strong and not _weak(strong[0]):
            out.insert(0, strong)
    completed = _completed([t for t, _ in out], sentences)
    return [(t, kind) for t, (_, kind) in zip(completed, out)]


# The kinds of candidate: what part of the abstract a title comes from.
NAMED = "named"  # the method the abstract names, with what it is
NAME_ONLY = "name_only"  # the name with nothing said about it
NAMED_OTHER = "named_other"  # the name with the subject or topic instead of what it is
CONTRIBUTION = "contribution"  # the noun phrase of what the paper proposes, unnamed
SUBJECT = "subject"  # what the paper studies ("we study X")
QUESTION = "question"  # a question the abstract asks
TOPIC = "topic"  # the subject of its opening sentence
PHRASE = "phrase"  # a noun phrase of its opening or contribution sentences
TERM = "term"  # a noun phrase of a later sentence that holds a term the abstract repeats
COMBINED = "combined"  # a phrase of what the paper offers, for what its opening is about
FALLBACK = "fallback"  # its first words, when nothing else was found
KINDS = (NAMED, NAMED_OTHER, NAME_ONLY, CONTRIBUTION, SUBJECT, QUESTION, TOPIC, PHRASE, TERM, COMBINED, FALLBACK)


class Candidate(NamedTuple):
    """One possible title of an abstract, with where it came from.

    A ruled candidate comes composed (``title``); a phrase keeps its ``words`` (and the
    ``name`` it goes with) and is composed only if chosen: most never are.
    """

    title: str
    kind: str
    rank: int  # its place in the rules' order (phrases come after every ruled candidate)
    sentence: int = 0  # the sentence a phrase was read from
    ours: bool = True  # read from a sentence in which the paper speaks of its own work
    words: tuple[str, ...] = ()
    name: str = ""
    stated: bool = False  # the name with what the authors say it is where they name it

    @property
    def text(self) -> str:
        """The candidate's words as they stand (the tail after the name), for its features."""
        return self.title.partition(": ")[2] or self.title if self.title else " ".join(self.words)

    def composed(self) -> str:
        return self.title or _composed(self.name, tuple(self.words))


# The phrases of the paper's own sentences that a combined title may lead with ("X for Y"): the
# first two were too few. A sentence of ours opens on its setting as often as on its contribution
# ("we add two novel loss components to the training of a standard network, which forces apart
# ... disentangled representations"): the phrase that names the paper is often its third or later.
# (With the first two, 408 of the fitted venues' 3,398 titles, each fitted year left out in
# turn, shared no word with the real one; with six, 390, and ROUGE-1 0.3871 -> 0.3878.)
OFFERED = 6
# What a combined title says its phrase is for: the first phrases of the abstract's opening, and
# of its second sentence when that one too sets the scene rather than speaks of the paper's work
# ("Exploration is hard in large action spaces. Hierarchical policies are a remedy. We ..."):
# an opening sentence with one or two phrases left the problem to the next. (Each fitted year
# left out in turn: 390 -> 385 of 3,398 sharing no word with the real title.)
OPENING = 4
# A phrase and what it is for: at most this many words in all ("Tree-Guided MCMC Inference
# for Normalized Random Measure Mixture Models").
MAX_COMBINED = 11


@functools.lru_cache(maxsize=512)
def _composed(name: str, words: tuple[str, ...]) -> str:
    # a candidate is composed when it is scored, chosen and tried again: once is enough
    return _compose(name, list(words))


def _lazy(kind: str, rank: int, sentence: int, ours: bool, words: tuple[str, ...], name: str = "",
          stated: bool = False) -> Candidate:
    """A phrase candidate, composed only if chosen; unless it is too long for a title, when
    it is composed now, cut where a phrase can end: it is scored on the words a reader would
    see ("I2As: Architecture", not "... Architecture for Deep Reinforcement Learning Combining
    Model-Free and Model-Based Aspects", which the cut leaves of it)."""
    if sum(map(len, words)) + len(words) + len(name) + 2 > MAX_LENGTH:
        return Candidate(_compose(name, list(words)), kind, rank, sentence, ours, words, name, stated)
    return Candidate("", kind, rank, sentence, ours, words, name, stated)


def candidates(text: str, stop: Callable[[Candidate], bool] | None = None) -> list[Candidate]:
    """Every title the abstract offers, in no preferred order (see :mod:`.choose`); only the
    rules' first when ``stop`` accepts it (the phrases cost as much as the rest)."""
    found, subject, sentences, unnamed = _analyse(text, quick=True)
    out: list[Candidate] = []
    seen: set[str] = set()
    for rank, (title, kind) in enumerate(_ruled(found, subject, sentences, unnamed, text)):
        if title and title.lower() not in seen:
            seen.add(title.lower())
            stated = rank == 0 and ((kind == NAMED and found is not None and found.stated)
                                    or (kind == SUBJECT and _relation_between(subject)))
            out.append(Candidate(title, kind, rank, stated=stated))
    if stop is not None and out and stop(out[0]):
        return out[:1]
    rank = len(out)
    name = found.name if found else ""
    stated = trim(found.desc) if found and found.stated and not any(w.lower() in PREPOSITIONS for w in found.desc) else []
    phrases = _phrases(sentences)
    terms = [(TERM, *p) for p in _term_phrases(sentences, {i for i, _, _ in phrases})]
    for kind, index, ours, words in [(PHRASE, *p) for p in phrases] + terms:
        key = " ".join(words).lower()
        if key in seen:
            continue
        seen.add(key)
        out.append(_lazy(kind, rank, index, ours, tuple(words)))
        # the name with a phrase of what the paper does, or of the problem its opening sentence
        # poses ("TallyNet: ... Visual Question Answering"): real titles name the field too
        if name and (ours or index == 0) and name.lower() not in key and not _another_name(name, words):
            out.append(_lazy(NAMED, rank, index, ours, tuple(words), name))
        if stated and len(stated) + len(words) < MAX_COMBINED and not overlaps(stated, words) \
                and not is_generic(words):
            # what the authors say the method is, for what the phrase names (for doing what the
            # sentence does to it: "... to recover the edited data": "for Recovering Edited Data")
            verb = _verb_of_object(tokenize(sentences[index]), words)
            purpose = (_gerund(verb), *words) if verb else tuple(words)
            if len(stated) + len(purpose) < MAX_COMBINED:
                out.append(_lazy(NAMED, rank, index, ours, (*stated, "for", *purpose), name, True))
    # what the paper offers, for what its opening sentence is about; and the first term it
    # keeps coming back to, for the same ("Hierarchical Span Memory for Reading Comprehension")
    # (a phrase the sentence mentions in passing, an example or another's work, leads no title:
    # "Spike Triggered Covariance for ..." of "generalizes approaches such as spike triggered
    # covariance", "Applying Existing Deep Neural Networks for ...")
    offered = [w for i, ours, w in phrases if ours and i > 0 and not any(x.lower() in PREPOSITIONS for x in w)
               and not passing(sentences[i], w)][:OFFERED] \
        + [w for _, i, _, w in terms if not any(x.lower() in PREPOSITIONS for x in w) and not passing(sentences[i], w)][:2]
    opening = [(w, {x.lower() for x in w}) for i, ours, w in phrases if i == 0 or (i == 1 and not ours)][:OPENING]
    if found and any(w.lower() in PREPOSITIONS for w in found.desc):
        offered = []  # the abstract says itself what its method is for ("a framework for X")
    for head in offered:
        low = {x.lower() for x in head}
        for tail, tail_low in opening:
            tail = _purpose(tail)
            if tail and len(head) + len(tail) < MAX_COMBINED and not (low & tail_low) - _STOP:
                words = (*head, "for", *tail)
                out.append(_lazy(COMBINED, rank, 0, True, words, name if name and name.lower() not in " ".join(words).lower() else ""))
    return out


def _marks(words: frozenset[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The markers as word tuples, by their last word (looked up at each word of a sentence)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for m in words:
        mark = tuple(m.lower().split())
        out.setdefault(mark[-1], []).append(mark)
    return {last: tuple(sorted(marks, key=len, reverse=True)) for last, marks in out.items()}


_EXAMPLE_MARKS = _marks(_W["example_markers"])
_CONTRAST_MARKS = _marks(_W["contrast_markers"])
# where what a contrast or an example list says ends, looking back from a phrase: the paper's own
# voice ("Unlike existing methods, we propose X": X is no contrast)
_OWN_VOICE = frozenset({"we", "our", "i", "my"})
# how far back a phrase's marker may be: "such as spike triggered average, spike triggered
# covariance, or ..." lists a few phrases after it
_LOOK_BACK = 14
# how far back a contrast's word may be: "than the popular X", "unlike X"
_CONTRAST_REACH = 3


def _marked(low: tuple[str, ...], k: int, marks: dict[str, tuple[tuple[str, ...], ...]]) -> bool:
    """Does a marker of ``marks`` (by its last word) end at ``low[k]``?"""
    for mark in marks.get(low[k], ()):
        n = len(mark)
        if k + 1 >= n and low[k + 1 - n:k + 1] == mark:
            return True
    return False


@functools.lru_cache(maxsize=64)
def _lowered_tokens(sentence: str) -> tuple[str, ...]:
    return tuple(t.lower() for t in tokenize(sentence))


def _start_of(low: tuple[str, ...], words: Sequence[str]) -> int:
    """Where the phrase's words stand among the sentence's (lower-cased) tokens, or -1."""
    need = tuple(w.lower() for w in words)
    n = len(need)
    first = need[0]
    for i, t in enumerate(low):
        if t == first and low[i:i + n] == need:
            return i
    return -1


def passing(sentence: str, words: Sequence[str]) -> bool:
    """Is the phrase one the sentence mentions in passing, not its subject: an example of a list
    ("such as A, B, or C", "five models: A, B, C"), or another's work or a contrast ("existing
    deep neural networks", "faster than a dynamic programming algorithm", "unlike X")? Such a
    phrase leads no title: "Spike Triggered Covariance for ..." names what the paper generalises."""
    if not words:
        return False
    low = _lowered_tokens(sentence)
    start = _start_of(low, words)
    if start < 0:
        return False
    end = start + len(words)
    # A marker before the phrase's last word qualifies it ("Applying Existing Deep Neural
    # Networks"); as the last word it is what the phrase names ("we derive an action-dependent
    # baseline": the paper's own baseline, not another's).
    if any(_marked(low, k, _CONTRAST_MARKS) for k in range(start, end - 1)):
        return True
    for k in range(start - 1, max(-1, start - 1 - _LOOK_BACK), -1):
        t = low[k]
        if t in _OWN_VOICE or t in (";", "."):
            return False
        if t == ":":
            # "analyse five popular models: absorbing random walks, hitting times, ...": a list
            return end < len(low) and low[end] in (",", "and", "or") or low[start - 1] in (",", "and", "or")
        if _marked(low, k, _EXAMPLE_MARKS):
            return True
        if start - k <= _CONTRAST_REACH and "," not in low[k:start] and _marked(low, k, _CONTRAST_MARKS) \
                and not (t == "than" and (low[k + 1][:1].isdigit() or low[k + 1] in COUNTS)):
            return True  # "faster than a dynamic programming algorithm" (not "more than two sparse matrices")
        if k < start - 1 and (t in VERB_FORMS or t in CONTRIBUTION_FORMS or t in SUBJECT_FORMS):
            return False  # "such as images, and propose an approach that combines X": a clause of its own
    return False


# "Recent work has shown that ...", "Prior studies suggest ...", "Recently, it was shown that ...":
# a sentence that reports what others found, not what this paper is about.
_LITERATURE = re.compile(
    r"^(?:(?:recent|prior|previous|past|earlier|existing)\s+(?:\w+\s+){0,3}?(?:works?|studies|research|results|papers|literature|findings|efforts)"
    r"|recently,?\s+(?:it\s+(?:has\s+been|was)|there\s+has\s+been|many|several|researchers))"
    r"(?:\s+\w+){0,6}?\s+(?:has|have|had|was|were)?\s*(?:shown|show|showed|demonstrated|demonstrate|suggest|suggested|found|revealed|reveal|proposed|established)\b",
    re.I,
)


_MODALS = frozenset("to can could may might will would must".split())


def _verb_of_object(tokens: list[str], words: list[str]) -> str:
    """The verb whose object the phrase is, where an infinitive or a modal shows it to be a verb:
    "enabling attackers to recover the edited data", "our attacks can recover edited data" ->
    "recover"; "" when the phrase is not such an object."""
    n = len(words)
    for i in range(len(tokens) - n + 1):
        if tokens[i:i + n] != words:
            continue
        j = i - 1
        while j >= 0 and tokens[j].lower() in ARTICLES:
            j -= 1
        if j >= 1 and tokens[j - 1].lower() in _MODALS and tokens[j].isalpha() and tokens[j].islower() \
                and tokens[j] not in _STOP and not tokens[j].endswith(("ly", "ed", "ing", "s")) and tokens[j] not in VAGUE:
            return tokens[j]
    return ""


def _about_the_literature(sentence: str) -> bool:
    return _LITERATURE.match(sentence) is not None


def _repeated_terms(sentences: list[str]) -> set[str]:
    """The words of the terms the abstract repeats: two content words side by side, twice or
    more ("pointer network", "submodular optimization"). The terms a paper keeps coming back
    to are what its title names."""
    pairs: dict[tuple[str, str], int] = {}
    for sentence in sentences:
        words = _WORD.findall(sentence.lower())
        for a, b in zip(words, words[1:]):
            if a not in _STOP and b not in _STOP:
                pairs[a, b] = pairs.get((a, b), 0) + 1
    return {w for pair, n in pairs.items() if n >= 2 for w in pair}


def _term_phrases(sentences: list[str], read: set[int]) -> list[tuple[int, bool, list[str]]]:
    """The noun phrases of the sentences :func:`_phrases` does not read that hold a word of a
    repeated term (:func:`_repeated_terms`): a later sentence often names what the opening
    ones only describe ("... we propose to use a modification of a Pointer Network"). Each
    counts as the paper's own, whether or not its sentence says "we": the term it holds is one
    the paper keeps to (its titles are as good either way, unlike an opening sentence's)."""
    terms = _repeated_terms(sentences)
    out = []
    for index, sentence in enumerate(sentences):
        if index in read or terms.isdisjoint(_WORD.findall(sentence.lower())):
            continue
        for words in noun_phrases(tokenize(sentence)):
            rest = LEAD_IN.sub("", " ".join(words)).split()
            if len(rest) >= 2 and rest[0].lower() not in _LEAD_WORDS \
                    and not terms.isdisjoint(_WORD.findall(" ".join(rest).lower())):
                out.append((index, True, rest))
    return out




def _relation_between(subject: list[str]) -> bool:
    """Does the paper say it studies how two things relate ("the interplay between perception and
    reasoning in VLM post-training")? Such a subject names both and is the paper's own statement of
    what it is about."""
    low = [w.lower() for w in subject]
    # both things named, not kinds of thing ("between discrete and continuous approaches") nor
    # the literature ("between recent works on ..."), and no word on how it was studied
    return len(low) >= 4 and low[0] in RELATIONS and low[1] == "between" and "and" in low[3:] \
        and not any(w in GENERIC or w in _LEAD_WORDS or w in _W["evaluation_nouns"] for w in low[2:]) \
        and not any(w in ("through", "via", "using", "detail") for w in low)


def _purpose(words: list[str]) -> list[str]:
    """The words as what a title's "X for Y" says its X is for, or [] when they cannot be: a
    purpose with a purpose of its own ("Neural Network for Methodology for Using Symbolic
    Knowledge") chains two "for"s, and a reader cannot tell what serves what."""
    if any(w.lower() == "for" for w in words) or (words and words[0].lower() in PREPOSITIONS | {"to"}):
        return []  # (nor "Prior Formulation for to Incorporate ...": an infinitive is no purpose of "for")
    # "Generating Node Embeddings for Foundations of Deep Learning": for the field the phrase rests on
    k = next((k for k, w in enumerate(words[:3]) if w.lower() in GROUND), -1)
    if k >= 0 and k + 2 < len(words) and words[k + 1].lower() == "of":
        return words[k + 2:]
    return words


def _past_vague_head(words: list[str]) -> list[str]:
    """The phrase a vague head opens, without it: "Key Challenge in Open-Domain Question
    Answering", "Problem of Embedding Hyperedges", "Superb Performance of ResNet" name what
    follows their "in" or "of"; [] when the phrase does not open on such a head."""
    for k, w in enumerate(words[:3]):
        low = w.lower()
        if low in VAGUE or low in PARTITIVE:
            if k + 2 < len(words) and words[k + 1].lower() in ("of", "in"):
                rest = words[k + 2:]
                while len(rest) > 1 and rest[0].lower() in ARTICLES:
                    rest = rest[1:]  # "Version of the Dueling Bandit Problem": the problem, no article
                return rest if len(rest) >= 2 or ACRONYM.match(rest[0]) else []
            return []
        if low in PREPOSITIONS:
            return []
    return []


def _phrases(sentences: list[str]) -> list[tuple[int, bool, list[str]]]:
    """(sentence index, whether it is about our work, words) of the noun phrases of the
    opening sentences and of those in which the paper speaks of its own work."""
    out = []
    later = 0
    for index, sentence in enumerate(sentences[:6]):
        ours = about_our_work(sentence)
        if not ours and _about_the_literature(sentence):
            continue
        if index >= 2:
            if not ours or later == 1:
                continue
            later += 1
        for words in noun_phrases(tokenize(sentence)):
            # "recent advances in X", "the problem of X": the phrase is X
            rest = LEAD_IN.sub("", " ".join(words)).split()
            if rest and rest[0].lower() not in _LEAD_WORDS and len(rest) >= 2:
                out.append((index, ours, _past_vague_head(rest) or rest))
    return out
