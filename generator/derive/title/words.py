"""The title stage's word lists (``words.yml``) and the patterns built from them, read once."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from generator.core.errors import WordsError
from generator.core.schema import load_title_words

MAX_LENGTH = 90


WORDS_FILE = Path(__file__).with_name("words.yml")


def load_words(path: Path = WORDS_FILE, name: str | None = None) -> dict[str, frozenset[str]]:
    """Read the word lists through their declared schema (:data:`generator.core.schema.TITLE_WORDS`):
    every problem is reported at once, with its file and line (a missing or unknown list, an
    entry that is not a string, such as a bare ``on`` or ``no`` that YAML reads as a boolean)."""
    return load_title_words(path, WordsError, name or f"generator/derive/title/{path.name}")


_W = load_words()


_STOP = _W["stop_words"] | _W["small_words"]


SMALL = _W["small_words"]


CLAUSE = _W["clause_words"]


FILLER = _W["filler_adjectives"]


GENERIC = _W["generic_heads"]


PARTITIVE = _W["partitive_nouns"]


GROUND = _W["ground_nouns"]


COMMON_ACRONYMS = _W["common_acronyms"]


KNOWN_NAMES = _W["known_names"]


NAME_PREFIXES = _W["name_prefixes"]


ADVERBS = _W["adverbs"]


MODIFIER_SUFFIXES = _W["modifier_suffixes"]


def _common_words() -> frozenset[str]:
    """The most common words of the fitted venues' abstracts (``common_words.json``, written by
    ``benchmarks/fit_titles.py``): a lower-case word outside them may be a coined name ("mixup")."""
    data = json.loads(Path(__file__).with_name("common_words.json").read_text(encoding="utf-8"))
    return frozenset(data["share"])


_COMMON_WORDS = _common_words()


NOT_DOMAIN = _W["not_domain_words"]


ADJECTIVE_LIKE_NOUNS = _W["adjective_like_nouns"]


SUBORDINATORS = _W["subordinators"]


BACKGROUND_VERBS = _W["background_verbs"]


NOT_VERBS_BEFORE_OBJECT = _W["not_verbs_before_object"]


IRREGULAR_PARTICIPLES = _W["irregular_participles"]


NOMINAL_GERUNDS = _W["nominal_gerunds"]
_CANNOT_END = _W["cannot_end"]


PREPOSITIONS = frozenset(
    "for of in on with via from under over across through into toward towards without within "
    "between among against beyond using by to at as".split()
)


# Past participles that keep a descriptive phrase going ("a mechanism inspired by ...").
CONTINUING_PARTICIPLES = frozenset(
    "inspired based built guided driven grounded conditioned tailored informed augmented "
    "aware using followed arising resulting stemming ranging".split()
)


def _self_references() -> list[tuple[str, ...]]:
    """Self-referring openings, longest first."""
    return sorted((tuple(p.split()) for p in _W["self_reference"]), key=len, reverse=True)


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_ACTOR = (
    r"(?:we|(?-i:I)|(?:this|the\s+present)\s+(?:paper|work|article|study|thesis|report|letter|research)"
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


# A name may start in lower case when it is coined: "e-SNLI", "iStoryline", "q-OCSVM".
# (Braces doubled: in an f-string a bare {1,3} is the tuple "(1, 3)", which once made this
# pattern miss "we name our proposed algorithm LightRNN".)
NAMING = re.compile(
    rf"\b(?:{_alternation(_W['naming_verbs'])})(?:\s+(?:it|this|them|(?:our|the)(?:\s+[\w-]+){{1,3}}?))?(?:\s+as)?"
    r"\s+(?=[\"'“‘A-Z0-9]|[a-z]+-?[A-Z0-9])"
)


def _forms(verbs: Iterable[str]) -> frozenset[str]:
    """Every inflection of the verbs' first words, to test a sentence's words against cheaply."""
    stems = {v.split()[0] for v in verbs}
    return frozenset(f for v in stems for f in (v, v + "s", v + "es", v + "d", v + "ed", v + v[-1:] + "ed"))


CONTRIBUTION_FORMS = _forms(_W["contribution_verbs"]) | _W["contribution_gerunds"]


NAMING_FORMS = _forms(_W["naming_verbs"])


SUBJECT_FORMS = _forms(_W["subject_verbs"] | {"frame", "cast", "formulate", "model", "reframe", "reformulate", "treat", "view"})


WEAK_SUBJECT_VERBS = _forms({"analyze", "analyse", "evaluate", "assess", "compare", "examine", "focus"})


# (a name may open with a digit when it goes on with capitals and a hyphen: "3C-GAN")
NAMEISH = re.compile(r"^(?=[A-Za-z]|\d[A-Z]+-[A-Z])(?:(?=.*[A-Z].*[A-Z])|(?=.*[A-Z].*\d)|(?=.*\d.*[A-Z])|(?=[a-z]+[A-Z]))[\w@+\-.'’&/]+$")


CAPITALISED = re.compile(r"^[A-Z0-9][\w@+\-.'’&/]*$")


ACRONYM = re.compile(r"^(?=.*[A-Z].*[A-Z]|.*[A-Z].*\d)[A-Za-z][\w\-+.]*$")


WH_START = frozenset({"how", "whether", "why", "what", "when", "which"})


# (and a single author's "I", "my": "Finally, I'm going to ..." opens on no subject)
ANAPHORA = frozenset({"this", "these", "that", "those", "such", "its", "their", "our", "it", "they", "we",
                       "i", "i'm", "i’m", "my"})


WEAK_START = frozenset({"current", "existing", "most", "many", "prior", "previous", "some", "several", "such", "recent"})


_FRAME = re.compile(r"\b(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+)?(?:frame|cast|formulate|model|reframe|reformulate|treat|view)s?\s+[^,;]*?\bas\s+(?:an?\s+|the\s+)?", re.I)


# "Voxel-Accelerated NeRF": a hyphenated compound in Title Case that a capitalised word follows
# is the start of a spelled-out name, not the name itself
TITLE_COMPOUND = re.compile(r"^[A-Z][a-z]+(?:-[A-Z][a-z]+)+$")


HYPHEN_SPLIT = re.compile(r"(?<=[-–])")


# "LEak@k": a word capitalised twice by mistake, written "Leak@k"; not a plural acronym ("NNs", "PDs")
ODD_CAPS = re.compile(r"^[A-Z]{2}(?!s$)[a-z][^A-Z]*$")


PLURAL = re.compile(r"(?:[^s]s|[A-Z]s)$")


THIRD_PERSON = re.compile(r"^[a-z]+(?:[^s]s|sses)$")


ARTICLES = frozenset({"a", "an", "the"})


SELF_REFERENCE = _self_references()


SELF_FIRST = frozenset(ref[0] for ref in SELF_REFERENCE)


SELF_VERBS = _forms(_W["contribution_verbs"] | _W["subject_verbs"])


LIGHT_VERBS = frozenset(_W["light_verbs"])


VAGUE = _W["vague_nouns"]


MANNER = _W["manner_nouns"]


COUNTS = _W["count_words"]


WITH_TO = _W["adjectives_with_to"]


LIGHT_FILLERS = frozenset({"more", "much", "for", "both", "highly", "significantly", "substantially"})


APPOSITIVE_INTRO = frozenset({",", ":", "-", "–", "—"})


LEAD_IN = re.compile(
    r"^(?:(?:recent|rapid|significant|remarkable|great|impressive|tremendous|considerable|substantial|major|"
    r"enormous|dramatic|promising|latest)\s+){0,3}(?:advances|advancements|progress|developments?|success(?:es)?|works?|research|studies|improvements|breakthroughs|the\s+(?:problem|task|question|use|study|field|area|goal))\s+(?:in|of|on)\s+",
    re.I,
)


AVAILABILITY = re.compile(rf"\b(?:{_alternation(_W['availability_words'])})\b")


# Verbs stressed on a last syllable that ends consonant-vowel-consonant double it (not "offer").
DOUBLING = frozenset(
    "control patrol compel propel expel transfer refer prefer infer confer defer submit admit commit "
    "omit permit emit transmit equip begin occur recur incur concur embed imbed".split()
)


# Nouns of a relation between two things: "we study the interplay between perception and reasoning".
RELATIONS = frozenset("interplay relationship relationships relation relations interaction interactions trade-off "
                       "tradeoff trade-offs tradeoffs connection connections link links tension gap".split())


SIZE_WORDS = frozenset("large small big high low wide deep long short fast slow".split())


LOOSE_PREPOSITIONS = frozenset("amongst amid regarding about around during including involving per versus vs".split())


TERM_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")


VERB_FORMS = _forms(_W["contribution_verbs"] | _W["subject_verbs"] | _W["background_verbs"] | _W["light_verbs"] | _W["naming_verbs"])


_ADJECTIVE_END = re.compile(r"(?:al|ive|ous|ic|able|ible|ful|less|ary|ent|ant|ed)$")
