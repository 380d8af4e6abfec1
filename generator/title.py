"""The title stage: a short, human-looking title for every abstract.

Seeds hold abstracts only, so titles are derived. Real paper titles lead with the
name of the contribution and say what it is ("KSTER: Recovering Edited Data ...");
when an abstract names its method we do the same, otherwise we state the paper's
subject as a noun phrase. The word lists steering this live in ``title_words.yml``.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import yaml

from .model import Paper
from .parallel import serial

MAX_LENGTH = 90


def _load_words() -> dict[str, frozenset[str]]:
    data = yaml.safe_load((Path(__file__).with_name("title_words.yml")).read_text(encoding="utf-8"))
    words = {}
    for key, value in data.items():
        if isinstance(value, list):
            # YAML reads a bare on/no/yes as a boolean: such a word must be quoted in the file.
            if not all(isinstance(w, str) for w in value):
                raise ValueError(f"title_words.yml: {key}: quote non-string entries {value!r}")
            words[key] = frozenset(value)
    words["latex_symbols"] = data["latex_symbols"]  # type: ignore[assignment]
    return words


_W = _load_words()
_STOP = _W["stop_words"] | _W["small_words"]
_SMALL = _W["small_words"]
_CLAUSE = _W["clause_words"]
_FILLER = _W["filler_adjectives"]
_GENERIC = _W["generic_heads"]
_COMMON_ACRONYMS = _W["common_acronyms"]
_KNOWN_NAMES = _W["known_names"]
_NOT_DOMAIN = _W["not_domain_words"]
_ADJECTIVE_LIKE_NOUNS = _W["adjective_like_nouns"]
_SUBORDINATORS = _W["subordinators"]
_BACKGROUND_VERBS = _W["background_verbs"]
_SYMBOLS: dict[str, str] = _W["latex_symbols"]  # type: ignore[assignment]
_PREPOSITIONS = frozenset(
    "for of in on with via from under over across through into toward towards without within "
    "between among against beyond using by to at as".split()
)
# Past participles that keep a descriptive phrase going ("a mechanism inspired by ...").
_CONTINUING_PARTICIPLES = frozenset(
    "inspired based built guided driven grounded conditioned tailored informed augmented "
    "aware using followed arising resulting stemming ranging".split()
)
_ADJECTIVE_END = re.compile(r"(?:al|ic|ive|ous|ful|less|able|ible|ant|ent|ary|ed|only|free|agnostic|aware|weight|level|scale|wise)$")


def _self_references() -> list[tuple[str, ...]]:
    """Self-referring openings, longest first."""
    return sorted((tuple(p.split()) for p in _W["self_reference"]), key=len, reverse=True)


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))



_TEX_ESCAPE = re.compile(r"\\([%&#_$])")
_TEX_WRAP = re.compile(r"\\[A-Za-z]+\*?\s*\{([^{}]*)\}")
_TEX_MACRO = re.compile(r"\\([A-Za-z]+|[,;:! ])\s*")
_TEX_DROP = str.maketrans("", "", "{}$^")
_TEX_SUBSCRIPT = re.compile(r"(?<=\w)_(?=\w)")
_TEX_BOLD = re.compile(r"\\text(?:bf|sc)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")  # bold or small capitals: a name
_MD_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])")
_DASHES = re.compile(r"-{2,3}")
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?)\]])|([(\[])\s+")

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[“‘])")
_TOKEN = re.compile(r"[^\s,;:()\[\]]+(?:(?<=\d),\d{3}(?!\d)[^\s,;:()\[\]]*)*|[,;:()\[\]]")  # 145,912 is one token

_ACTOR = (
    r"(?:we|(?:this|the\s+present)\s+(?:paper|work|article|study|thesis|report|letter|research)"
    r"|our\s+(?:work|paper|approach|study|research)|the\s+(?:paper|study|research|present\s+work))"
)
_ADVERB = r"(?:\w+ly\s+|further\s+|also\s+|then\s+|here\s+|first\s+|thus\s+|therefore\s+)*"
_CONTRIBUTION = re.compile(
    rf"\b(?:{_ACTOR}\s+{_ADVERB}|and\s+)(?:{_alternation(_W['contribution_verbs'])})(?:s|es|d|ed)?\b"
    rf"|\bby\s+(?:{_alternation(_W['contribution_gerunds'])})\b", re.I
)
_SUBJECT = re.compile(
    rf"\b{_ACTOR}\s+{_ADVERB}(?:{_alternation(_W['subject_verbs'])})(?:s|es|d|ed)?\b", re.I
)
_NAMING = re.compile(
    rf"\b(?:{_alternation(_W['naming_verbs'])})(?:\s+(?:it|this|them|our\s+\w+|the\s+\w+))?(?:\s+as)?\s+(?=[\"'“‘A-Z0-9])"
)


def _forms(verbs: Iterable[str]) -> frozenset[str]:
    """Every inflection of the verbs' first words, to test a sentence's words against cheaply."""
    stems = {v.split()[0] for v in verbs}
    return frozenset(f for v in stems for f in (v, v + "s", v + "es", v + "d", v + "ed", v + v[-1:] + "ed"))


_CONTRIBUTION_FORMS = _forms(_W["contribution_verbs"]) | _W["contribution_gerunds"]
_VERB_FORMS = _CONTRIBUTION_FORMS | _forms(_W["subject_verbs"])
_NAMING_FORMS = _forms(_W["naming_verbs"])
_SUBJECT_FORMS = _forms(_W["subject_verbs"] | {"frame", "cast", "formulate", "model", "reframe", "reformulate", "treat", "view"})
_WEAK_SUBJECT_VERBS = _forms({"analyze", "analyse", "evaluate", "assess", "compare", "examine", "focus"})
_NAMEISH = re.compile(r"^(?=[A-Za-z])(?:(?=.*[A-Z].*[A-Z])|(?=.*[A-Z].*\d)|(?=.*\d.*[A-Z])|(?=[a-z]+[A-Z]))[\w@+\-.'’&/]+$")
_CAPITALISED = re.compile(r"^[A-Z0-9][\w@+\-.'’&/]*$")
_ACRONYM = re.compile(r"^(?=.*[A-Z].*[A-Z]|.*[A-Z].*\d)[A-Za-z][\w\-+.]*$")
_WH_START = frozenset({"how", "whether", "why", "what", "when", "which"})
_ANAPHORA = frozenset({"this", "these", "that", "those", "such", "its", "their", "our", "it", "they", "we"})
_WEAK_START = frozenset({"current", "existing", "most", "many", "prior", "previous", "some", "several", "such"})
_FRAME = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+)?(?:frame|cast|formulate|model|reframe|reformulate|treat|view)s?\s+[^,;]*?\bas\s+(?:an?\s+|the\s+)?", re.I)
# "Voxel-Accelerated NeRF": a hyphenated compound in Title Case that a capitalised word follows
# is the start of a spelled-out name, not the name itself
_TITLE_COMPOUND = re.compile(r"^[A-Z][a-z]+(?:-[A-Z][a-z]+)+$")
_HYPHEN_SPLIT = re.compile(r"(?<=[-–])")
_ODD_CAPS = re.compile(r"^[A-Z]{2}[a-z][^A-Z]*$")
_PLURAL = re.compile(r"(?:[^s]s|[A-Z]s)$")
_THIRD_PERSON = re.compile(r"^[a-z]+(?:[^s]s|sses)$")
_ARTICLES = frozenset({"a", "an", "the"})
_SELF_REFERENCE = _self_references()
_SELF_FIRST = frozenset(ref[0] for ref in _SELF_REFERENCE)
_SELF_VERBS = _forms(_W["contribution_verbs"] | _W["subject_verbs"])
_VERB_FORMS = _forms(_W["contribution_verbs"] | _W["subject_verbs"] | _W["background_verbs"] | _W["light_verbs"] | _W["naming_verbs"])
_LIGHT_VERBS = frozenset(_W["light_verbs"])
_VAGUE = _W["vague_nouns"]
_LIGHT_FILLERS = frozenset({"more", "much", "for", "both", "highly", "significantly", "substantially"})
_APPOSITIVE_INTRO = frozenset({",", ":", "-", "–", "—"})
_LEAD_IN = re.compile(
    r"^(?:(?:recent|rapid|significant|remarkable|great)\s+)?(?:advances|advancements|progress|developments?|success(?:es)?|works?|research|studies|improvements|breakthroughs|the\s+(?:problem|task|question|use|study|field|area|goal))\s+(?:in|of|on)\s+",
    re.I,
)


# --- cleaning -------------------------------------------------------------------------------

def _strip_markup(text: str) -> str:
    """Plain readable text: no URLs, LaTeX macros, ``$`` or Markdown emphasis."""
    if "://" in text or "www." in text or ".github.io" in text:
        # word by word: a URL pattern would rescan every word from each of its letters
        text = " ".join([w for w in text.split(" ") if "://" not in w and "www." not in w and ".github.io" not in w])
    if "\\" in text or "$" in text or "{" in text:
        text = _TEX_ESCAPE.sub(lambda m: "\0" + m.group(1), text)
        previous = None
        while previous != text:
            previous, text = text, _TEX_WRAP.sub(r"\1", text)
        text = _TEX_MACRO.sub(lambda m: _SYMBOLS.get(m.group(1), ""), text)
        text = text.translate(_TEX_DROP).replace("\0", "")
        if "_" in text:
            text = _TEX_SUBSCRIPT.sub("", text)
    if "*" in text or "__" in text:
        text = _MD_BOLD.sub(lambda m: m.group(1) or m.group(2), text)
        text = _MD_ITALIC.sub(r"\1", text).replace("*", "")
    if "``" in text:
        text = text.replace("``", "“").replace("''", "”")  # LaTeX quotes
    if ",”" in text or ',"' in text:
        text = text.replace(",”", "”,").replace(',"', '",')  # “X,” a system ...: the comma ends the name
    if "--" in text:
        text = _DASHES.sub(lambda m: "—" if len(m.group(0)) == 3 else "–", text)
    if "  " in text or "\n" in text or "\t" in text or "\r" in text or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())
    if " ," in text or " ." in text or " )" in text or "( " in text or " ;" in text or " :" in text:
        text = _SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or m.group(2), text)
    return text


def _bold_spans(text: str) -> list[str]:
    """What the author set in bold, cleaned: usually the name of the contribution."""
    found = [m.group(1) for m in _TEX_BOLD.finditer(text)] if "\\textbf" in text or "\\textsc" in text else []
    if "**" in text:
        found += [m.group(1) for m in _MD_BOLD.finditer(text) if m.group(1)]
    return [s for s in (_strip_markup(f) for f in found) if len(s) > 2 and len(s.split()) <= 6]


def _bold_appositive(name: str, sentences: list[str]) -> list[str]:
    """What a name set in bold outside any "we propose" sentence is: "X: a mechanism to ..."."""
    n = len(name.split())
    for sentence in sentences:
        if name in sentence:
            tokens = _tokens(sentence)
            for i in range(len(tokens) - n + 1):
                if " ".join(tokens[i:i + n]) == name:
                    return _appositive(tokens, i + n)
    return []


def _sentences(text: str) -> list[str]:
    parts = _SENTENCE_END.split(text)
    out: list[str] = []
    for part in parts:
        if out and _ends_with_abbreviation(out[-1]):
            out[-1] += " " + part
        else:
            out.append(part)
    # pointers to code or a project page come last; only the closing sentences need the test
    last = len(out) - 3
    return [s.rstrip(".! ") for i, s in enumerate(out) if i < last or len(s) > 160 or not _points_elsewhere(s)]


_AVAILABILITY = re.compile(rf"\b(?:{_alternation(_W['availability_words'])})\b")
_ABBREVIATIONS = frozenset("e.g i.e al vs etc cf Fig Figs Eq Eqs Sec approx resp incl No Dr St".split())


def _ends_with_abbreviation(sentence: str) -> bool:
    """True if the full stop ending ``sentence`` belongs to "e.g.", "et al.", "Fig." or an initial."""
    if not sentence.endswith("."):
        return False
    word = sentence[sentence.rfind(" ") + 1:-1].lstrip("([\"'")
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isupper())


def _points_elsewhere(sentence: str) -> bool:
    return _AVAILABILITY.search(sentence.lower()) is not None


# --- phrases --------------------------------------------------------------------------------

def _tokens(sentence: str) -> list[str]:
    return _TOKEN.findall(sentence)


def _skip_parenthetical(tokens: list[str], i: int) -> int:
    """Index after the bracketed group that starts at ``tokens[i]``."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j] in "([":
            depth += 1
        elif tokens[j] in ")]":
            depth -= 1
            if depth <= 0:
                return j + 1
    return len(tokens)


def _phrase(tokens: list[str], start: int, limit: int = 16, wh: bool = False, subject: bool = False) -> list[str]:
    """The noun phrase starting at ``start``: up to a clause boundary, brackets dropped."""
    out: list[str] = []
    i = start
    while i < len(tokens) and len(out) < limit:
        tok = tokens[i]
        low = tok.lower()
        if tok in "([":
            i = _skip_parenthetical(tokens, i)
            continue
        if tok == "," and out and not wh and i + 1 < len(tokens) \
                and (_ADJECTIVE_END.search(out[-1].lower()) or out[-1].lower() in _FILLER) \
                and tokens[i + 1].islower() and tokens[i + 1] not in _CLAUSE and tokens[i + 1] not in _ARTICLES:
            out.append(tok)  # "a downstream-agnostic, label-only method": the phrase goes on
            i += 1
            continue
        if tok in ",;:)]" or tok in ("–", "—", "-"):
            break
        if out and not wh:
            if low in _CONTINUING_PARTICIPLES:
                out.append(tok)
                if i + 1 < len(tokens) and tokens[i + 1].lower() in _PREPOSITIONS:
                    out.append(tokens[i + 1])
                    i += 1
                i += 1
                continue
            if low == "to" and "from" in out[-6:] and i + 1 < len(tokens) and tokens[i + 1].lower() not in _VERB_FORMS:
                out.append(tok)  # "from dense geometry to compact primitives"
                i += 1
                continue
            if low == "to" and out[-1].lower() == "learning" and i + 1 < len(tokens) and tokens[i + 1].isalpha():
                out += [tok, tokens[i + 1]]  # "learning to generate 3D surfaces"
                i += 2
                continue
            if low in _CLAUSE or low in _BACKGROUND_VERBS:
                break
            if subject and _PLURAL.search(out[-1]) and tok.isalpha() and tok.islower() \
                    and low not in _PREPOSITIONS and low not in ("and", "or"):
                break  # "Deep research agents extend ...": a verb after a plural subject
        elif wh and out and low in ("we", "our", "by", "thereby", "which", "where", "while"):
            break
        out.append(tok)
        i += 1
    return out


def _trim(words: list[str]) -> list[str]:
    """Drop words a title may not end with."""
    while words and (words[-1].lower().rstrip(".") in _STOP or words[-1].lower() in _CONTINUING_PARTICIPLES
                     or words[-1].endswith(("-", "–"))
                     or not any(c.isalnum() for c in words[-1])):
        words = words[:-1]
    return words


def _drop_fillers(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and (words[i].lower() in _FILLER or words[i] == "," or (i and words[i].lower() == "and")):
        i += 1  # "a simple and scalable approach": "and" goes with the filler before it
    return words[i:]


def _is_generic(words: list[str]) -> bool:
    """True for phrases like "framework" or "learning-based method" that say nothing alone."""
    if not words:
        return True
    if any(w.lower() in _PREPOSITIONS for w in words):
        return False
    return words[-1].lower() in _GENERIC and len(words) <= 2


def _gerund(verb: str) -> str:
    v = verb.lower()
    if v.endswith("ing"):
        return v
    if v.endswith("ie"):
        return v[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")) and len(v) > 2:
        return v[:-1] + "ing"
    if len(v) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", v):
        return v + v[-1] + "ing"
    if v in _DOUBLING:
        return v + v[-1] + "ing"  # control -> controlling, transfer -> transferring
    return v + "ing"


# Verbs stressed on a last syllable that ends consonant-vowel-consonant double it (not "offer").
_DOUBLING = frozenset(
    "control patrol compel propel expel transfer refer prefer infer confer defer submit admit commit "
    "omit permit emit transmit equip begin occur recur incur concur".split()
)


def _is_nameish(word: str) -> bool:
    bare = word.strip("\"'“”‘’")
    if bare[:1].islower() and "-" in bare:
        return False  # "audio-to-MIDI", "non-IID": a lowercase compound around an acronym
    return bool(_NAMEISH.match(bare)) and bare.lower().rstrip("s") not in _COMMON_ACRONYMS and bare.lower() not in _COMMON_ACRONYMS


# --- acronyms -------------------------------------------------------------------------------

def _initials(word: str) -> str:
    out = [word[0]]
    for prev, ch in zip(word, word[1:]):
        if ch.isupper() or ch.isdigit() or prev in "-/–":
            out.append(ch)
    return "".join(out).lower()


def _is_subsequence(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(c in it for c in needle)


def _long_form(words: list[str], acronym: str) -> tuple[int, int]:
    """(k, n): the n words from ``words[-k]`` on spell out ``(acronym)``; (0, 0) if none do."""
    letters = "".join(c for c in acronym if c.isalnum()).lower()
    if acronym.endswith("s") and acronym[:-1].upper() == acronym[:-1]:
        letters = letters[:-1]
    if not letters:
        return 0, 0
    usable = 0
    for w in reversed(words):
        if w in ",;:()[]" or (w.lower() in _ARTICLES) or w.lower() in ("we", "our", "is", "are"):
            break
        usable += 1
        if usable >= 10:
            break
    tail = words[len(words) - usable:]
    initials = [_initials(w) if w.lower() not in _SMALL else "" for w in tail]
    for strict in (True, False):
        for k in range(1, usable + 1):
            first = tail[-k]
            if first[0].lower() != letters[0] or first.lower() in _SMALL:
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
        if tok == "(" and i + 2 < len(tokens) and tokens[i + 2] == ")" and _ACRONYM.match(tokens[i + 1]):
            before = tokens[:i]
            k, n = _long_form(before, tokens[i + 1])
            if n >= 2 or (n == 1 and "-" in before[-k]):
                out[i] = (i - k, i - k + n, tokens[i + 1])
    return out


def _abbreviate(tokens: list[str], head: int = 0) -> list[str]:
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


# --- the analysis of one abstract -----------------------------------------------------------

@dataclasses.dataclass
class _Contribution:
    name: str = ""
    long: list[str] = dataclasses.field(default_factory=list)
    desc: list[str] = dataclasses.field(default_factory=list)
    score: int = 0


def _name_span(tokens: list[str], i: int) -> int:
    """End of a multi-word capitalised name starting at ``i`` ("Common Objects in 3D")."""
    j = i + 1
    while j < len(tokens) and len(tokens) and j - i < 6:
        tok = tokens[j]
        if _CAPITALISED.match(tok) and tok.lower() not in _CLAUSE:
            j += 1
        elif tok.lower() in ("of", "in", "for", "and", "the", "-") and j + 1 < len(tokens) and _CAPITALISED.match(tokens[j + 1]):
            j += 2
        else:
            break
    return j


def _desc_clause(tokens: list[str], i: int) -> list[str]:
    """``that monitors and mitigates X`` at ``i`` as ``for Monitoring and Mitigating X``.

    A light verb says nothing itself: ``that offers a reliable assessment of X`` is
    ``for Reliable Assessment of X``.
    """
    if i + 1 < len(tokens) and tokens[i].lower() in ("that", "which"):
        j = i + 1
        while j < len(tokens) and tokens[j].endswith("ly"):
            j += 1
        if j < len(tokens) and tokens[j].lower() in _LIGHT_VERBS:
            j += 1
            while j < len(tokens) and (tokens[j].lower() in _ARTICLES or tokens[j].lower() in _LIGHT_FILLERS):
                j += 1
            obj = _drop_fillers(_phrase(tokens, j, limit=14))
            return ["for"] + obj if len(obj) >= 2 and not any(w.lower() in _ANAPHORA for w in obj) else []
        words: list[str] = []
        while j < len(tokens) and _THIRD_PERSON.match(tokens[j]) and tokens[j] not in _BACKGROUND_VERBS - {"learns", "generates", "encodes", "captures"}:
            words.append(_gerund(_stem(tokens[j])))
            if j + 2 < len(tokens) and tokens[j + 1] == "and" and _THIRD_PERSON.match(tokens[j + 2]):
                words.append("and")
                j += 2
                continue
            k = j + 1
            if k + 2 < len(tokens) and tokens[k] == "," and tokens[k + 1].lower() == "or" and "," in tokens[k + 2 : k + 6]:
                k = tokens.index(",", k + 2) + 1  # "decomposes, or “unwraps”, a video": the aside goes
            obj = _phrase(tokens, k, limit=14)
            if any(w.lower() in _ANAPHORA for w in obj):
                return []  # "combines the strengths of these two directions" needs what came before
            return ["for"] + words + obj if obj else []
    return []


def _stem(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


_SIZE_WORDS = frozenset("large small big high low wide deep long short fast slow".split())


def _verb_like(word: str) -> bool:
    """Could ``word`` after "to" be a verb ("to render")? Not "to novel view synthesis"."""
    low = word.lower()
    return (
        word.isalpha() and word.islower() and low not in _STOP and low not in _VAGUE and low not in _FILLER
        and not low.endswith(("al", "ic", "ous", "ive", "ary", "ful", "less", "ly", "ing", "ion", "ions", "ity"))
    )


def _described(tokens: list[str], i: int, phrase: list[str]) -> list[str]:
    """A description phrase, with a following "that VERBs ..." clause when it has no preposition,
    or its purpose: "a general theory to analyze X" is a "General Theory for Analyzing X"."""
    if phrase and not any(w.lower() in _PREPOSITIONS for w in phrase):
        j = i + len(phrase)
        if j + 2 < len(tokens) and tokens[j].lower() == "to":
            k = j + 1
            while k < len(tokens) and tokens[k].endswith("ly"):
                k += 1  # "to directly render": the adverb goes
            verbs: list[str] = []
            while k + 1 < len(tokens) and _verb_like(tokens[k]):
                verbs += [_gerund(tokens[k])]
                k += 1
                if k + 1 < len(tokens) and tokens[k] == "and" and _verb_like(tokens[k + 1]):
                    verbs.append("and")
                    k += 1
                    continue
                break
            purpose = _trim(_phrase(tokens, k, limit=12)) if verbs else []
            if len(purpose) >= 2 and not any(w.lower() in _ANAPHORA for w in purpose) \
                    and not _ADJECTIVE_END.search(purpose[-1].lower()) and purpose[-1].lower() not in _FILLER \
                    and purpose[-1].lower() not in _SIZE_WORDS:
                return phrase + ["for"] + verbs + purpose
        while j < len(tokens) and tokens[j] != "that" and tokens[j] != "which" and j < i + len(phrase) + 8 \
                and tokens[j] not in (";", ":") and tokens[j].lower() not in ("we", "our", "is", "are", "to", "while"):
            j += 1
        return phrase + _desc_clause(tokens, j)
    return phrase


def _appositive(tokens: list[str], i: int) -> list[str]:
    """The phrase of ``NAME, a DESC`` / ``NAME: a DESC`` / ``NAME - a DESC`` starting at ``i``."""
    if i < len(tokens) and tokens[i] == "(":
        i = _skip_parenthetical(tokens, i)
    if i + 1 < len(tokens) and tokens[i] in _APPOSITIVE_INTRO:
        j = i + 1
        if tokens[j].lower() in ("which", "that") and j + 2 < len(tokens) and tokens[j + 1].lower() in ("is", "are"):
            j += 2
        elif tokens[j].lower() in ("which", "that"):
            clause = _desc_clause(tokens, j)
            return clause[1:] if clause else []
        if tokens[j].lower() in _ARTICLES or (tokens[i] == ":" and tokens[j][:1].isalpha()):
            while j < len(tokens) and tokens[j].lower() in _ARTICLES:
                j += 1
            phrase = _phrase(tokens, j)
            return _drop_fillers(_described(tokens, j, phrase))
    if i < len(tokens) and tokens[i].lower() == "for":
        return _phrase(tokens, i)
    return []


def _expansion(tokens: list[str], i: int) -> list[str]:
    """``NAME (Bayesian Cognitive Integration)``: a spelled-out name in brackets at ``i``."""
    if i < len(tokens) and tokens[i] == "(":
        end = _skip_parenthetical(tokens, i)
        inner = tokens[i + 1:end - 1]
        if len(inner) >= 2 and all(_CAPITALISED.match(w) or w.lower() in _SMALL for w in inner):
            return inner
    return []


def _paren_name(tokens: list[str], i: int) -> tuple[str, int] | None:
    """``(NAME)`` or ``(or NAME)`` at ``i``: the name and the index after the bracket."""
    j = i + 1
    if j < len(tokens) and tokens[j].lower() in ("or", "dubbed", "called", "named"):
        j += 1
    if j + 1 < len(tokens) and tokens[j + 1] == ")" and _is_nameish(tokens[j]):
        return tokens[j], j + 2
    return None


def _contribution_in(tokens: list[str], start: int, bold: list[str], defs: dict[int, tuple[int, int, str]]) -> _Contribution | None:
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
            if acr.lower().rstrip("s") not in _COMMON_ACRONYMS and not (pre and pre[-1].lower() in _PREPOSITIONS):
                desc = _appositive(tokens, paren) or [w for w in _drop_fillers(pre) if w.lower() not in _W["naming_verbs"] and w != ","]
                return _Contribution(acr, tokens[first:last], desc, 4)
        paren = _paren_name(tokens, i) if tok == "(" else None
        if paren and pre and not any(w.lower() in _PREPOSITIONS for w in pre):
            desc = [w for w in _drop_fillers(pre) if w.lower() not in _W["naming_verbs"]]
            return _Contribution(paren[0], [], _described(tokens, paren[1], desc) if desc else [], 4)
        if tok in "([":
            i = _skip_parenthetical(tokens, i)
            continue
        if tok == ";" or (low in ("that", "which", "to") and pre):
            break
        for b in bold:
            n = len(b.split())
            if " ".join(tokens[i:i + n]) == b and (n > 1 or _is_nameish(b)):
                after = _appositive(tokens, i + n)
                return _Contribution(b, _expansion(tokens, i + n), after or _drop_fillers(pre), 5)
        if not pre and tok[:1] in "“\"" and len(tok) > 1 and tok[1].isupper():
            # "we present “The Concatenator”, a system ...": a quoted name of a few words
            close = next((k for k in range(i, min(i + 5, len(tokens))) if tokens[k].endswith(("”", "\"")) and (k > i or len(tok) > 2)), None)
            if close is not None:
                name = " ".join(tokens[i:close + 1]).strip("\"“”")
                if name and name.lower() not in _KNOWN_NAMES:
                    return _Contribution(name, [], _appositive(tokens, close + 1), 4)
        if not pre and _CAPITALISED.match(tok) and i + 2 < len(tokens) and tokens[i + 1] == "," \
                and tokens[i + 2].lower() in ("a", "an") and tok.lower() not in _COMMON_ACRONYMS:
            # "we propose Banquet, a system that ...": a capitalised word with an appositive
            return _Contribution(tok, _expansion(tokens, i + 1), _appositive(tokens, i + 1), 4)
        if _is_nameish(tok) and not (pre and pre[-1].lower() in _PREPOSITIONS) \
                and not (_TITLE_COMPOUND.match(tok) and i + 1 < len(tokens) and _CAPITALISED.match(tokens[i + 1])) \
                and (pre and pre[-1].lower() in _W["naming_verbs"]
                     or not any(_paren_name(tokens, k) for k in range(i + 1, min(i + 5, len(tokens))) if tokens[k] == "(")):
            plain = [w for w in pre if w.lower() not in _ARTICLES]
            introduced = not plain or pre[-1].lower() in _ARTICLES | _GENERIC | _W["naming_verbs"] \
                or (len(plain) <= 4 and "," not in plain and _CAPITALISED.match(tokens[i + 1] if i + 1 < len(tokens) else "") is None)
            if not introduced:
                return None
            stop = i + 1
            name = tok.strip("\"'“”‘’")
            long = _expansion(tokens, stop)
            pre_desc = [w for w in _drop_fillers(pre) if w.lower() not in _W["naming_verbs"] and w != ","]
            after = _appositive(tokens, stop)
            if pre_desc and not _is_generic(pre_desc) and not (after and tokens[stop] in ",:-–—" and tokens[stop + 1].lower() in _ARTICLES):
                desc = pre_desc  # "a multi-label recognition framework, termed PIAA, which ..."
            else:
                desc = after or (_described(tokens, stop, pre_desc) if pre_desc else [])
            return _Contribution(name, long, desc, 4)
        pre.append(tok)
        i += 1
    return None


def _topic(sentences: list[str]) -> list[str]:
    """The subject of the first sentence that has one: what the paper is about."""
    for sentence in sentences[:3]:
        tokens = _tokens(sentence)
        start = 0
        if tokens and tokens[0].lower() in _SUBORDINATORS:
            if "," not in tokens:
                continue
            start = tokens.index(",") + 1
            if tokens[0].lower() == "in" and tokens[1].lower() not in _ANAPHORA | _ARTICLES and start <= 8:
                setting = _trim(_phrase(tokens, 1, limit=7))  # "In GFlowNets and variational inference, ..."
                if setting and not tokens[1][0].isdigit() and tokens[1].lower() not in ("recent", "practice", "particular", "contrast", "addition"):
                    return setting
        if start < len(tokens) and (tokens[start].lower() in _ANAPHORA | _WEAK_START | {"here", "there", "recently"}):
            continue
        tokens = _abbreviate(tokens, start)
        words = _phrase(tokens, start, limit=9, subject=True)
        text = _LEAD_IN.sub("", " ".join(words))
        words = [w for w in text.split() if w]
        while words and words[0].lower() in _ARTICLES:
            words = words[1:]
        words = _trim(words)
        if words and words[0].lower() not in _WEAK_START and not _is_generic(words):
            return words
    return []


def _question(sentences: list[str]) -> list[str]:
    """An opening question makes a fine title ("When Does Learning Elicit ...?")."""
    if sentences and sentences[0].endswith("?") or (sentences and "?" in sentences[0][-2:]):
        words = [w for w in sentences[0].split() if not (w.endswith("ly") and w.islower())]
        if len(" ".join(words)) <= MAX_LENGTH:
            return words
    return []


def _analyse(text: str, quick: bool = False) -> tuple[_Contribution | None, list[str], list[str], list[str]]:
    """(named contribution, subject phrase, sentences) of one abstract.

    ``quick`` stops at a contribution that needs nothing else to make the first title.
    """
    bold = _bold_spans(text)
    sentences = _sentences(_strip_markup(text))
    best: _Contribution | None = None
    subject: list[str] = []
    weak_subject = False
    unnamed: list[str] = []
    for sentence in sentences:
        if quick and best and (best.long or not _is_generic(best.desc)) and (best.score >= 5 or not bold):
            break
        low = sentence.lower()
        words = low.split()
        # cheap word tests first: the full patterns are costly and most sentences have no verb of theirs
        m = None if _CONTRIBUTION_FORMS.isdisjoint(words) else _CONTRIBUTION.search(sentence)
        n = None if (best and best.score >= 4) or _NAMING_FORMS.isdisjoint(words) else _NAMING.search(sentence)
        if m or n:
            tokens = _tokens(sentence)
            defs = _definitions(tokens) if "(" in sentence else {}
        if m:
            start = len(_tokens(sentence[: m.end()]))
            found = _contribution_in(tokens, start, bold, defs)
            if found and (best is None or found.score > best.score):
                best = found
            if not unnamed and not found:
                unnamed = _unnamed(tokens, start)
        if n and (best is None or best.score < 4):
            start = len(_tokens(sentence[: n.end()]))
            if start < len(tokens) and (_CAPITALISED.match(tokens[start]) or tokens[start][0] in "\"'“‘"):
                stop = _name_span(tokens, start)
                name = " ".join(tokens[start:stop]).strip("\"'“”‘’")
                if name.lower().rstrip("s") not in _COMMON_ACRONYMS:
                    before = tokens[: start - 1]
                    while before and (before[-1] in (",", "is", "are", "as") or before[-1].lower() in _W["naming_verbs"]):
                        before = before[:-1]
                    j = len(before)
                    while j > 0 and before[j - 1].lower() not in _ARTICLES and before[j - 1] not in ",;:()" and before[j - 1].lower() not in _CLAUSE and len(before) - j < 8:
                        j -= 1
                    pre = _drop_fillers(before[j:])
                    desc = _appositive(tokens, stop) or ([] if pre and pre[-1].lower() in ("we", "it") else pre)
                    long: list[str] = []
                    if stop < len(tokens) and tokens[stop] == "(" and stop + 2 < len(tokens) and tokens[stop + 2] == ")":
                        long, name = tokens[start:stop], tokens[stop + 1]
                    best = _Contribution(name, long, desc, 4 if _NAMEISH.match(name.split()[0]) or len(name.split()) > 1 else 3)
        if not subject:
            s = None if _SUBJECT_FORMS.isdisjoint(words) else (_FRAME.search(sentence) or _SUBJECT.search(sentence))
            if s:
                subject = _subject(_abbreviate(_tokens(sentence[s.end():])))
                if subject and (subject[0].lower() in _ANAPHORA or subject[0].lower() == "one" or _evaluation(subject)):
                    subject = []
                # "we analyze the modeling capabilities of ...": what the paper looks at, not what it is about
                weak_subject = bool(subject) and not _WEAK_SUBJECT_VERBS.isdisjoint(s.group(0).lower().split())
    if best is None and bold:
        for b in bold:
            if _is_nameish(b.split()[0]) or len(b.split()) > 1:
                best = _Contribution(b, [], _bold_appositive(b, sentences), 2)
                break
    if best is None:
        name = _name_elsewhere(sentences) or _name_from_links(text, sentences)
        if name:
            best = _Contribution(name, [], [], 1)
    if not subject and not unnamed:
        subject = _question(sentences)
    if unnamed and unnamed[0].lower() in _ANAPHORA:
        unnamed = []  # "such an attempt ...": needs the sentence before
    if weak_subject and unnamed and not _is_generic(unnamed):
        subject = unnamed  # what the paper offers says more than what it analyses
    return best, subject or unnamed, sentences, unnamed


# "Our framework, Text2Mesh, stylizes ...", "a transformer network --- TheGlueNote --- which ...",
# "... of humans in motion (H-NeRF)" in a sentence of ours.
_OUR_NAME = re.compile(r"\b[Oo]ur (?:[\w-]+ ){0,3}?[\w-]+, ([A-Z][\w@+\-.]*(?: [A-Z][\w@+\-.]*){0,2}),")
_DASH_NAME = re.compile(r"(?:---|—|--|–) ?([A-Z][\w@+\-.]*) ?(?:---|—|--|–)")
_PAREN_NAME = re.compile(r"\(([A-Z][\w@+\-.]*)\)")
_OURS = re.compile(r"\b(?:[Ww]e|[Oo]ur)\b")
# a coined name: Mega-NeRF, Text2Mesh, DONeRF (a digit or a capital inside a part), not AI-Generated
_MAYBE_COINED = re.compile(r"\d|[a-z][A-Z]")  # cheap test first: most sentences coin nothing
_COINED = re.compile(r"(?<![\w@+.-])(?=[A-Za-z])[\w@+.-]*?(?:\d|[a-z][A-Z])[\w@+-]*(?<![.-])")


def _name_elsewhere(sentences: list[str]) -> str:
    """A method name the contribution patterns missed: introduced as an appositive
    of "our ...", set off by dashes, bracketed in a sentence about our work, or a
    name-like word the abstract keeps coming back to."""
    def ok(name: str) -> bool:
        low = name.lower()
        return (
            _is_nameish(name)
            and low.rstrip("s") not in _COMMON_ACRONYMS
            and low not in _COMMON_ACRONYMS
            and low not in _KNOWN_NAMES
            and "/" not in name
            and not low.endswith(("'s", "’s"))
        )

    counts: dict[str, tuple[int, bool]] = {}
    for sentence in sentences:
        # cheap substring tests first: the patterns are costly and rarely apply
        ours = "our " in sentence or "Our " in sentence or "we " in sentence or "We " in sentence
        if "our " in sentence or "Our " in sentence:
            m = _OUR_NAME.search(sentence)
            # "Our method, Dream Fields, ...": an appositive of ours may be several capitalised words
            if m and (ok(m[1].rstrip(".")) or (" " in m[1] and m[1].lower() not in _KNOWN_NAMES)):
                return m[1].rstrip(".")
        if "--" in sentence or "—" in sentence or "–" in sentence:
            m = _DASH_NAME.search(sentence)
            if m and ok(m[1].rstrip(".")):
                return m[1].rstrip(".")
        if ours and "(" in sentence:
            for m in _PAREN_NAME.finditer(sentence):
                if "-" in m[1] and ok(m[1]):
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


def _name_from_links(text: str, sentences: list[str]) -> str:
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
            or slug.lower() in _COMMON_ACRONYMS or slug.lower() in _KNOWN_NAMES
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


_LOOSE_PREPOSITIONS = frozenset("amongst amid regarding about around during including involving per versus vs".split())


def _evaluation(words: list[str]) -> bool:
    """A subject that says how the paper was checked ("Extensive Experiments on ...", "User
    Study Amongst Guitarists", "Study in Three Steps"), not what it is about."""
    head = []
    for w in words:
        if w.lower() in _PREPOSITIONS or w.lower() in _LOOSE_PREPOSITIONS:
            break
        head.append(w.lower())
    if any(w in _W["evaluation_nouns"] for w in head):
        return True
    after = words[len(head)].lower() if len(head) < len(words) else ""
    return bool(head) and head[-1] == "study" and after not in ("of", "on", "into")


def _subject(tokens: list[str]) -> list[str]:
    """The object of "we study ...": a noun phrase, or a how/whether clause kept whole."""
    i = 0
    while i < len(tokens) and tokens[i].lower() in _ARTICLES | {"problem", "question", "task", "of", "on", "in"}:
        i += 1
    if i < len(tokens) and tokens[i].lower() in _WH_START:
        return _trim(_phrase(tokens, i, limit=14, wh=True))
    words = _drop_fillers(_phrase(tokens, i))
    return _trim(words)


def _unnamed(tokens: list[str], start: int) -> list[str]:
    """The object of "we propose ..." when nothing in it is named."""
    if start < len(tokens) and tokens[start].lower() in ("that", "whether", "how"):
        return []  # "we propose that instead of ...": a claim, not a thing proposed
    if start < len(tokens) and tokens[start].lower() == "to" and start + 1 < len(tokens):
        words = _phrase(tokens, start + 2)
        return _trim([_gerund(tokens[start + 1]).capitalize()] + words)
    i = start
    if i + 1 < len(tokens) and tokens[i].lower() == "and" and tokens[i + 1].lower() in _VERB_FORMS:
        i += 2  # "we propose and investigate the use of X"
    while i < len(tokens) and tokens[i].lower() in _ARTICLES:
        i += 1
    if i + 2 < len(tokens) and tokens[i].lower() in ("use", "application", "usage") and tokens[i + 1].lower() == "of":
        i += 2
        while i < len(tokens) and tokens[i].lower() in _ARTICLES:
            i += 1
    raw = _phrase(tokens, i)
    words = _drop_fillers(raw)
    i += len(raw) - len(words)  # past "a more" in "a more general theory to analyze X"
    if len(words) <= 3 and not any(w.lower() in _PREPOSITIONS for w in words):
        words = _described(tokens, i, words)  # "a project that revives X"
    return _trim(words)


# --- composing ------------------------------------------------------------------------------

def _fit(words: list[str], budget: int) -> list[str]:
    """The longest prefix within ``budget`` characters, preferably ending before a preposition."""
    words = _trim(words)
    if len(" ".join(words)) <= budget:
        return words
    best: list[str] = []
    before_and: list[str] = []
    for k in range(len(words) - 1, 0, -1):
        prefix = words[:k]
        if len(" ".join(prefix)) > budget:
            continue
        if not best:
            best = _trim(prefix)
        low = words[k].lower()
        if low in _PREPOSITIONS or low in _CLAUSE or low in ("during", "after", "before", "like", "while"):
            candidate = _trim(prefix)
            if len(candidate) >= max(2, len(best) // 2):
                return candidate
        elif low in ("and", "or") and not before_and:
            before_and = _trim(prefix)
    return before_and if len(before_and) >= max(2, len(best) // 2) else best


def _case(word: str, first: bool) -> str:
    if "-" not in word and "–" not in word:
        low = word.lower()
        if _ODD_CAPS.match(word) and not word.isupper():
            return word[0] + word[1:].lower()
        if low != word:
            return word
        if low in _SMALL and not first:
            return low
        return word[:1].upper() + word[1:]
    parts = _HYPHEN_SPLIT.split(word)
    out = []
    for j, part in enumerate(parts):
        low = part.lower()
        if _ODD_CAPS.match(part) and not part.isupper():
            out.append(part[0] + part[1:].lower())  # "LEak@k" -> "Leak@k"
        elif any(c.isupper() for c in part) or (j > 0 and len(part.rstrip(":")) == 1):
            out.append(part)  # "ViT", "NeRF", and the variable of "SAFE-k" / "top-k"
        elif low.rstrip("-–") in _SMALL and not (first and j == 0):
            out.append(low)
        else:
            out.append(part[:1].upper() + part[1:])
    return "".join(out)


def _title_case(words: list[str]) -> str:
    out: list[str] = []
    for i, w in enumerate(words):
        out.append(_case(w, i == 0 or out[-1].endswith(":")))
    return _SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or m.group(2), " ".join(out))


def _balanced(words: list[str]) -> list[str]:
    text = " ".join(words)
    for o, c in ("()", "[]"):
        if text.count(o) != text.count(c):
            words = [w.replace(o, "").replace(c, "") for w in words]
    return [w.strip("\"“”") for w in words if w.strip("\"“”")]


def _drop_self_reference(words: list[str]) -> list[str]:
    """``We Present a Modern Solution to X`` -> ``Modern Solution to X``."""
    if not words or words[0].lower() not in _SELF_FIRST:
        return words
    low = [w.lower() for w in words]
    for ref in _SELF_REFERENCE:
        n = len(ref)
        verb = low[n] if len(low) > n else ""
        # "We ..." is always followed by its verb; "Work Stealing for ..." is a subject, not an opening
        is_verb = ref[-1] == "we" or verb in _SELF_VERBS or (_THIRD_PERSON.match(verb) and verb not in _STOP)
        if low[:n] == list(ref) and len(words) > n + 2 and is_verb:
            rest = words[n + 1 :]  # the verb goes with the opening
            while rest and rest[0].lower() in _ARTICLES:
                rest = rest[1:]
            return rest if len(rest) >= 2 else words
    return words


def _drop_named_problem_head(words: list[str]) -> list[str]:
    """``Online Packet Scheduling with Deadlines Problem under ...``: a problem that has a
    capitalised name of its own needs no "problem" after it."""
    out = []
    for i, w in enumerate(words):
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        prev = words[i - 1] if i else ""
        if w.lower() in ("problem", "problems") and prev[:1].isupper() and prev[1:].islower() and (not nxt or nxt in _PREPOSITIONS):
            continue
        out.append(w)
    return out


def _compose(name: str, tail: list[str]) -> str:
    tail = _balanced(_drop_named_problem_head(_drop_self_reference(tail)))
    if not name:
        return _title_case(_fit(tail, MAX_LENGTH))
    head = name if len(name) <= MAX_LENGTH - 10 else " ".join(_fit(name.split(), MAX_LENGTH - 10))
    while tail and tail[0].lower() in _PREPOSITIONS:  # "Name: For Moral Values" says nothing
        tail = tail[1:]
    if " ".join(tail).lower() == name.lower():
        tail = []  # not "CodeNeRF: CodeNeRF"
    rest = _fit(tail, MAX_LENGTH - len(head) - 2)
    if not rest:
        return _title_case(head.split())
    return _title_case((head + ":").split() + rest)


def _overlaps(a: list[str], b: list[str]) -> bool:
    content = {w.lower() for w in a if w.lower() not in _STOP}
    return bool(content & {w.lower() for w in b if w.lower() not in _STOP})


def _weak(title: str) -> bool:
    """True for a title whose words after the name say next to nothing."""
    tail = title.partition(": ")[2] or title
    content = [w for w in tail.lower().split()
               if w not in _STOP and w not in _GENERIC and w not in _VAGUE and len(w) > 1 and w[0].isalnum()]
    return len(content) < 2


_TERM_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")
_VERB_FORMS = _forms(_W["contribution_verbs"] | _W["subject_verbs"] | _W["background_verbs"] | _W["light_verbs"] | _W["naming_verbs"])
_ADJECTIVE_END = re.compile(r"(?:al|ive|ous|ic|able|ible|ful|less|ary|ent|ant|ed)$")


def _domain_term(sentences: list[str]) -> list[str]:
    """The abstract's domain as it names it: the word pair or triple of its first two
    sentences that the abstract repeats most (``Symbolic Music``, ``Transparent Objects``)."""
    if len(sentences) < 2:
        return []
    head = _TERM_WORD.findall(" ".join(sentences[:2]))
    low = [w.lower() for w in head]
    bad = [w in _STOP or w in _NOT_DOMAIN or w in _VERB_FORMS or (len(w) <= 2 and not head[i].isupper()) for i, w in enumerate(low)]
    # only the head's n-grams can win, so count just those, in the whole text at once
    body = f" {' '.join(_TERM_WORD.findall(' '.join(sentences).lower()))} "
    best: tuple[int, int, tuple[str, ...], int, int] | None = None
    seen: set[tuple[str, ...]] = set()
    for n in (2, 3):
        for i in range(len(low) - n + 1):
            if True in bad[i : i + n]:
                continue
            gram = tuple(low[i : i + n])
            if gram in seen:
                continue
            seen.add(gram)
            count = body.count(" " + " ".join(gram) + " ")
            if count >= 2 and (best is None or (count * n, count, gram) > best[:3]):
                best = (count * n, count, gram, i, n)
    return head[best[3] : best[3] + best[4]] if best else []


def _wants_domain(title: str) -> bool:
    """A title that says what kind of thing the paper offers ("... Method") but not what
    for, or that says too little to place the paper ("Piano Music", "StyleSDF: High Resolution")."""
    low = title.lower()
    if " for " in low:
        return False
    words = low.replace(":", " ").split()
    tail = (low.partition(": ")[2] or low).split()
    content = [w for w in tail if w not in _STOP and len(w) > 1]
    return any(w in _GENERIC for w in words) or len(content) < 3


def _with_domain(title: str, term: list[str]) -> str:
    """``GraphMuse: Graph Processing Framework and Library`` + ``for Symbolic Music``,
    when the title does not name the domain yet and there is room."""
    have = {w.rstrip("s") for w in title.lower().replace(":", " ").split()}
    if not term or all(w.lower().rstrip("s") in have for w in term):
        return title
    # only a title that says what kind of thing the paper offers ("... Method", "...
    # Framework") but not what for; and a term that ends on a noun, not "Causal"
    words = title.lower().replace(":", " ").split()
    if not any(w in _GENERIC for w in words) or _ADJECTIVE_END.search(term[-1].lower()):
        return title
    joined = " ".join(_title_case(term).split())
    if " for " in title.lower():
        return title  # "X for Y in Z" reads like a search query
    longer = f"{title} for {joined}"
    return longer if len(longer) <= MAX_LENGTH else title


def _completed(titles: list[str], sentences: list[str]) -> list[str]:
    """Titles that need it get the abstract's domain (the term costs a count of the whole abstract)."""
    if not any(_wants_domain(t) for t in titles):
        return titles
    term = _domain_term(sentences)
    return [_with_domain(t, term) for t in titles]


def _agreed_topic(topic: list[str], sentences: list[str]) -> bool:
    """The opening sentence's subject shares a content word with the abstract's most repeated
    term of its first sentences: it names the field, not a passing detail."""
    if not topic or len(topic) > 5:
        return False
    term = {w.lower() for w in _domain_term(sentences)} - _STOP
    return bool(term & {w.lower() for w in topic})


def _candidates(text: str, first_only: bool = False) -> list[str]:
    """Titles for one abstract, best first; later ones serve to break clashes."""
    found, subject, sentences, unnamed = _analyse(text, quick=first_only)
    # the topic costs a parse and few titles need it
    memo: list[list[str]] = []

    def topic() -> list[str]:
        if not memo:
            t = _topic(sentences)
            # "PRIF is formulated to ...": the name itself says nothing about what it is for
            memo.append([] if found and found.name.lower() in (w.lower() for w in t) else t)
        return memo[0]
    out: list[str] = []
    if found:
        desc = _trim(found.desc)
        if found.long:
            body = list(found.long)
            prep = next((i for i, w in enumerate(desc) if w.lower() in _PREPOSITIONS), None)
            if prep is not None and len(body) <= 5:
                body += desc[prep:]
            elif topic() and not _overlaps(body, topic()):
                body += ["for"] + topic()
            out.append(_compose(found.name, body))
        elif desc and not _is_generic(desc):
            if len(desc) <= 4 and not any(w.lower() in _PREPOSITIONS for w in desc) and _agreed_topic(topic(), sentences):
                # "ConsMSA: Formalizing Semantic Distribution Consistency" + "for Multimodal Sentiment
                # Analysis", when the opening sentence and the abstract's repeated terms agree on it
                longer = _compose(found.name, desc + ["for"] + topic())
                if not _overlaps(desc, topic()) and len(longer) <= MAX_LENGTH:
                    out.append(longer)
            out.append(_compose(found.name, desc))
        elif subject and not _is_generic(subject):
            out.append(_compose(found.name, subject))
        elif desc and topic():
            out.append(_compose(found.name, desc + ["for"] + topic()))
        elif subject:
            out.append(_compose(found.name, subject))
        elif topic():
            out.append(_compose(found.name, topic()))
        else:
            out.append(_compose(found.name, []))
        if first_only and not _weak(out[0]):
            return _completed(out, sentences)
        head = found.long or next((desc[:i] for i, w in enumerate(desc) if w.lower() in _PREPOSITIONS), desc)
        if topic() and not _overlaps(head, topic()):
            out.append(_compose(found.name, head + ["for"] + topic()))
        # a clash is better told apart by the paper's own subject than by a number
        out += [_compose(found.name, words) for words in (subject, topic()) if words]
    if subject and not _is_generic(subject):
        out.append(_compose("", subject))
    elif subject and topic():
        out.append(_compose("", subject + ["for"] + topic()))
    if unnamed and unnamed is not subject and not _is_generic(unnamed):
        out.append(_compose("", unnamed))
    if topic():
        out.append(_compose("", topic()))
    if not out:
        first = _sentences(_strip_markup(text))
        out.append(_compose("", first[0].split() if first else ["Untitled"]))
    if _weak(out[0]):
        # "Ambiguity", "Banquet": a title that says nothing yields to one that does
        strong = next((t for t in out if not _weak(t)), None)
        if strong is None and topic() and not found:
            strong = _compose("", _trim(_phrase(_tokens(sentences[0]), 0, limit=12)))
        if strong and not _weak(strong):
            out.insert(0, strong)
    out = _completed(out, sentences)
    seen: set[str] = set()
    return [t for t in out if t and not (t.lower() in seen or seen.add(t.lower()))]


def derive_title(text: str) -> str:
    """A title for one abstract, at most ~90 characters."""
    return _candidates(text, first_only=True)[0]


def first_titles(texts: Sequence[str]) -> list[str]:
    """Each abstract's preferred title, before titles are made unique (pure, per abstract)."""
    return [_candidates(t, first_only=True)[0] for t in texts]


def _all_titles(texts: Sequence[str]) -> list[list[str]]:
    return [_candidates(t) for t in texts]


def title_papers(papers: Iterable[Paper], mapper: Callable = serial, first: dict[str, str] | None = None) -> list[Paper]:
    """Set ``title`` on every paper without a curated one; titles are unique within the digest.

    Papers are handled in id order, so the same seeds always give the same titles. A title
    already taken gets a qualifier from the paper's own abstract, else its venue and year,
    and only as a last resort a number. Each abstract's titles depend on it alone, so
    ``mapper(fn, texts)`` may compute them in chunks on several cores
    (:func:`generator.parallel.map_chunks`); only the clash resolution is sequential.
    ``first`` may hold :func:`first_titles` already computed, by abstract text.
    """
    ordered = sorted(papers, key=lambda p: p.id)
    taken = {p.title.lower() for p in ordered if "title" in p.curated and p.title}
    todo = [p for p in ordered if "title" not in p.curated]
    if first is None:
        first = dict(zip((p.text for p in todo), mapper(first_titles, [p.text for p in todo])))
    # Only a clash needs the alternatives, and they cost a second, full analysis:
    # find the papers whose first title an earlier paper (or a curated title) holds.
    seen = set(taken)
    clashing: list[str] = []
    for p in todo:
        key = first[p.text].lower()
        if key in seen and p.text not in clashing:
            clashing.append(p.text)
        seen.add(key)
    alternatives = dict(zip(clashing, mapper(_all_titles, clashing)))
    out: list[Paper] = []
    for paper in ordered:
        if "title" in paper.curated:
            out.append(paper)
            continue
        options = [first[paper.text]]
        if options[0].lower() in taken:
            if paper.text not in alternatives:  # taken by another paper's alternative
                alternatives[paper.text] = _candidates(paper.text)
            options = list(alternatives[paper.text])
        venue = " ".join(str(x) for x in (paper.venue, paper.year or "") if x)
        if venue:
            options.append(f"{options[0]} ({venue})")
        title = next((t for t in options if t.lower() not in taken), "")
        n = 2
        while not title:
            candidate = f"{options[0]} ({n})"
            title = candidate if candidate.lower() not in taken else ""
            n += 1
        taken.add(title.lower())
        out.append(dataclasses.replace(paper, title=title))
    return out
