"""Faithfulness: how well the abstract itself backs a title, and the plain title to fall back on.

A title an editor accepts says what the paper contributes in the paper's own words. Word
overlap with real titles rewarded phrases of different sentences joined as "X for Y" and a
baseline's name taken for the paper's (issue 25); this module judges a title by where its
words come from instead:

- its name, if any, is one the paper gives its own work (a sentence of "we" / "our" / "this
  paper" holds it, or it is called "proposed", "novel", ...) and not an existing method's
  (``established_names``, ``known_names``), nor a word found only in a link;
- the words after the name are the name's own long form ("SAD: Simplified Action Decoder"), or
  one phrase of one sentence, in order (articles and fillers such as "novel" aside), best of the
  sentence that says what the paper proposes or studies;
- every word is one the abstract writes (not "Networksk"), and the title ends where a phrase
  ends and says more than one word of substance.

:func:`confidence` gives a title its score from 0 to 1; :func:`plain_title` is the title that
is always grammatical: the object of the contribution statement ("we propose ..."), cut where a
phrase ends. Below :data:`CONFIDENT` a title is uncertain: it yields to the plain title when the
abstract backs that better, maintainers see it first, and the pull-request summary asks for the
real one.
"""
from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from generator.core.text import tokens as tokenize
from generator.derive.title.compose import _compose, parted
from generator.derive.title.phrases import INNER_CLAUSE, _gerund, can_end, drop_fillers, ends_its_clause, trim
from generator.derive.title.words import (
    _COMMON_WORDS,
    _CONTRIBUTION,
    _STOP,
    _SUBJECT,
    _W,
    ANAPHORA,
    ARTICLES,
    CLAUSE,
    COMMON_ACRONYMS,
    CONTRIBUTION_FORMS,
    COUNTS,
    FILLER,
    GENERIC,
    KNOWN_NAMES,
    PARTITIVE,
    PREPOSITIONS,
    SUBJECT_FORMS,
    VAGUE,
)

_HANGING = _W["hanging_adjectives"]
# words in more than this share of the fitted venues' abstracts (``common_words.json``) say little
# of any one paper ("model", "learning", "data")
_VERY_COMMON = frozenset(w for w, share in json.loads(Path(__file__).with_name("common_words.json").read_text(encoding="utf-8"))["share"].items()
                         if share > 0.04)
_ESTABLISHED = _W["established_names"]

# Below this a title is one the abstract does not clearly back: it yields to a plain title the
# abstract backs, is listed for maintainers, and the pull-request summary asks for the real one.
CONFIDENT = 0.75
UNTITLED = "Untitled"

_WORD = re.compile(r"[^\W_]+")

def _any_of(words: frozenset[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


_OURS = re.compile(rf"\b(?:[Ww]e|[Oo]ur|[Tt]his (?:{_any_of(_W['own_work_nouns'])})|[Hh]ere,? we|I)\b")
_GIVING = _any_of(_W["giving_words"])
_PRESENTED = re.compile(rf"\b(?:{_any_of(_W['presenting_words'] | _W['giving_words'])})\b")
# words a title leaves out of its phrase or adds to it
_LOOSE = _W["loose_words"] | FILLER
# where the object of "we propose" stops being a phrase of its own: a clause, a comparison,
# a means, a result ("..., which", "that", "by", "using", "achieving")
_STOPS_OBJECT = _W["object_stops"]
# verbs that open a second clause of the statement ("we propose X and show ...")
_NEXT_VERBS = _W["contribution_verbs"] | _W["subject_verbs"] | _W["next_clause_verbs"]
_EVALUATION = _W["evaluation_nouns"]
_RESULTS = _W["result_nouns"]
_HEADS_OF = _W["kind_of_heads"]
_ORDINALS = frozenset({"first", "second", "third", "fourth", "fifth", "latter", "former"})
_PUNCT_STOP = frozenset(",;:()[]{}\"“”—–")
_MAX_WORDS = 12


@lru_cache(maxsize=65536)
def _fold(word: str) -> str:
    """A word's rough stem: no plural s, no -ing or -ed, no final e ("merging" = "merge" =
    "merges"): a title says "for Merging X" where the abstract says "to merge X"."""
    w = word.lower()
    if w.endswith("s") and len(w) > 3 and not w.endswith("ss"):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    """Lower-cased, folded words without the ones a title may leave out or add."""
    words = _WORD.findall(text.lower())
    if any(len(w) >= 8 for w in words):  # (only a long word may be two a copy glued together)
        words = [p for w in words for p in (parted(w) if len(w) >= 8 else (w,))]
    return tuple(_fold(w) for w in words if w not in _LOOSE and w not in _STOP)


def spells(name: str, words: Sequence[str]) -> bool:
    """Does ``words`` spell ``name`` ("Simplified Action Decoder" spells "SAD")? The name's
    letters in order among the words' letters, its first the first word's first."""
    letters = [c for c in name.lower() if c.isalpha()]
    content = [w.lower() for w in words if w.lower() not in _STOP]
    if len(letters) < 2 or not content or letters[0] != content[0][0]:
        return False
    text = " ".join(content)
    i = 0
    for c in letters:
        i = text.find(c, i)
        if i < 0:
            return False
        i += 1
    return True


def _in_order(needle: Sequence[str], hay: Sequence[str], slack: int = 2) -> bool:
    """Are ``needle``'s words in ``hay`` in order, within ``slack`` extra words of each other?"""
    if not needle:
        return True
    n = len(needle)
    first = needle[0]
    for start, w in enumerate(hay):
        if w != first:
            continue
        j, gaps = 1, 0
        for h in hay[start + 1:]:
            if j == n:
                break
            if h == needle[j]:
                j += 1
            else:
                gaps += 1
                if gaps > slack:
                    break
        if j == n:
            return True
    return False


def _own_sentence(sentence: str) -> bool:
    return _OURS.search(sentence) is not None


def _statement(sentence: str) -> int:
    """Where the sentence's statement of the paper's work ("we propose", "we study") ends, or -1."""
    m = _verb(_CONTRIBUTION, sentence) or _verb(_SUBJECT, sentence)
    return m.end() if m and _own_sentence(sentence) else -1


def _verb(pattern: re.Pattern, sentence: str) -> re.Match | None:
    """``pattern.search(sentence)``, skipped when the sentence holds no form of its verbs (most
    sentences: the patterns are long alternations, their words one set look-up; as the candidates
    read them, a verb with a mark glued to it, "propose:", is none)."""
    forms = CONTRIBUTION_FORMS if pattern is _CONTRIBUTION else SUBJECT_FORMS
    return None if forms.isdisjoint(sentence.lower().split()) else pattern.search(sentence)


def backing(tail: str, sentences: Sequence[str]) -> float:
    """How the abstract backs a phrase: 1 as what a sentence says the paper proposes or studies
    (after "we propose"), 0.7 as a phrase of another sentence about its work, 0.6 of its opening
    sentence (the field), 0.5 of any other sentence, 0 when no one sentence holds it."""
    need = _words(tail)
    best = 0.0
    for i, (words, stated, own) in enumerate(_read(tuple(sentences))):
        if not _in_order(need, words):
            continue
        if stated is not None and _in_order(need, stated):
            return 1.0
        best = max(best, 0.7 if own else 0.6 if i == 0 else 0.5)
    return best


@lru_cache(maxsize=16)
def _read(sentences: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], tuple[str, ...] | None, bool], ...]:
    """Each sentence's words, the words after its statement of the paper's work (or of the work it
    states in the passive, :func:`passive_subject`; else None), and whether it speaks of the
    paper's work: read once per abstract, not once per title tried."""
    out = []
    for s, passive in zip(sentences, _passive_subjects(sentences)):
        end = _statement(s)
        stated = _words(s[end:]) if end >= 0 else _words(passive) if passive else None
        out.append((_words(s), stated, _own_sentence(s) or bool(passive)))
    return tuple(out)


_PASSIVE = re.compile(
    r"\b(?:is|are)\s+(?:being\s+)?(?:(?:[a-z]+ly|here|also|then|first|further|thus|therefore)\s+)*"
    rf"(?:{_any_of(_W['passive_contribution_verbs'])})\b")
# "In this paper, a new X is proposed", "Here, ...": what opens the sentence before its subject
_OWN_OPENING = re.compile(rf"^(?:(?:in|within)\s+(?:this|the\s+present)\s+(?:{_any_of(_W['own_work_nouns'])})|here(?:in)?)\s*,?\s*",
                          re.I)
# Words a subject that is one phrase does not hold: a clause's, a pronoun, a referring word
_NOT_A_SUBJECT = frozenset({"that", "which", "who", "whose", "where", "when", "while", "whilst", "if", "although",
                            "though", "since", "because", "whereas", "we", "it", "they", "is", "are", "was", "were",
                            "has", "have", "been", "be", "can", "could", "will", "would", "should", "may", "might",
                            "must", "do", "does", "not", "our", "i"})
# what the subject of a passive statement opens on when it names something new ("An infinite
# hidden Markov model (iHMM) is proposed", "Novel kernels are introduced"), not "The method is
# proposed" nor "Many methods have been proposed"
_INTRODUCING = frozenset({"a", "an", "novel", "new"})
# what says the work is others' ("X is commonly proposed", "existing X are designed ...", "... are
# proposed in the literature"; not "... is proposed to overcome the limits of existing methods")
_OTHERS = re.compile(r"\b(?:recently|previously|commonly|often|widely|traditionally|usually|typically|generally|"
                     r"frequently|originally|already|prior|past|earlier|existing|state-of-the-art)\b", re.I)
_ELSEWHERE = re.compile(r"^\W*(?:\w+\W+){0,2}?(?:in|by)\s+(?:the\s+)?(?:literature|prior|previous|past|earlier|recent|"
                        r"existing|many|several|other)\b", re.I)
# a subject that is how the work is checked or what it found, not the work
_NOT_THE_WORK = _EVALUATION | _RESULTS | frozenset({"illustration", "illustrations", "example", "examples", "following",
                                                     "further", "different", "details", "detail", "discussion",
                                                     "proposed", "above", "aforementioned"})
_NOT_NEW = frozenset({"the", "many", "most", "some", "several", "various", "numerous", "such", "other", "these",
                      "those", "all", "both", "each", "current", "existing", "previous", "prior", "recent",
                      "traditional", "conventional", "standard", "classical", "popular"})


def passive_subject(sentence: str) -> str:
    """The work a sentence states in the passive ("An infinite hidden Markov model (iHMM) is
    proposed to ...", "In this paper, a new family of kernels is introduced"): its subject, one
    phrase naming something new (opening on "a", "an", "novel", ..., or on anything after "In
    this paper,"); '' when it states none. (Not "has been proposed": that is others' work.)"""
    m = None if " is " not in sentence and " are " not in sentence else _PASSIVE.search(sentence)
    if m is None:
        return ""
    subject = sentence[:m.start()].strip()
    opening = _OWN_OPENING.match(subject)
    if opening:
        subject = subject[opening.end():]
    if "," in subject:
        subject, opening = subject.rsplit(",", 1)[1].strip(), None  # "To do X, a new Y is proposed"
    words = subject.split()
    if not words or len(words) > 20 or not _NOT_A_SUBJECT.isdisjoint(w.lower() for w in words):
        return ""
    if _OTHERS.search(m.group(0)) or _OTHERS.search(subject) or _ELSEWHERE.search(sentence[m.end():]):
        return ""  # "X is commonly proposed", "... are proposed in the literature": others' work
    low = {w.lower().strip("()\"“”") for w in words}
    if not low.isdisjoint(_NOT_THE_WORK) or not low.isdisjoint(ANAPHORA):
        return ""  # "Numerical experiments are presented", "Illustrations of this approach are given"
    first = words[0].lower()
    if first in _INTRODUCING or ((opening or m.group(0).startswith("are")) and first.isalpha() and first not in _NOT_NEW):
        # (a plural needs no article: "Two semimetrics ... are proposed", "Deep dynamic
        # generative models are developed to ...")
        return subject
    return ""


@lru_cache(maxsize=16)
def _passive_subjects(sentences: tuple[str, ...]) -> tuple[str, ...]:
    """Each sentence's passive statement of the paper's work (:func:`passive_subject`), or '': only
    where no sentence states the work with "we" or "this paper" (those say it first-hand)."""
    if any(_statement(s) >= 0 for s in sentences):
        return ("",) * len(sentences)
    return tuple(passive_subject(s) for s in sentences)


def established(name: str) -> bool:
    """Is ``name`` an existing method, theorem or model (``established_names``, ``known_names``)?"""
    low = name.lower()
    return low in _ESTABLISHED or low in KNOWN_NAMES or low.rstrip("s") in _ESTABLISHED


# A formula ("N-2ss+1", "O(n)", "x=y"): a "+" or an operator with more after it
_FORMULA = re.compile(r"[+=^<>()/].*[\w]")


def symbol(name: str) -> bool:
    """Is ``name`` a symbol of the abstract's mathematics, not a name: a formula ("N-2ss+1"), or
    one letter, alone or written twice ("KK")? ("BOA+", "Q-learning" and "S4" are names.)"""
    letters = {c.lower() for c in name if c.isalpha()}
    return bool(_FORMULA.search(name)) or (len(letters) < 2 and not any(c.isdigit() for c in name))


def name_is_ours(name: str, sentences: Sequence[str]) -> bool:
    """Does the abstract present ``name`` as its own work? A sentence of ours holds it, or one
    that calls it proposed, novel, or gives it ("called X"); and it is no known method, nor a
    word only a link holds ("github.com/x/Foo")."""
    return _name_is_ours(name, tuple(sentences))


@lru_cache(maxsize=64)
def _name_is_ours(name: str, sentences: tuple[str, ...]) -> bool:
    low = name.lower()
    pattern = re.compile(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])")
    holders = [s for s in sentences if pattern.search(s)]
    if established(name) or low in COMMON_ACRONYMS or low.rstrip("s") in COMMON_ACRONYMS:
        # unless the paper gives the name itself: "a new method called SAGA" (not "we apply SVI")
        given = re.compile(rf"\b(?:{_GIVING})\s+(?:it\s+)?{re.escape(name)}(?![\w-])")
        return any(_own_sentence(s) and (given.search(s) or _names_the_object(s, name)) for s in holders)
    return any(_own_sentence(s) or _PRESENTED.search(s) for s in holders)


def _names_the_object(sentence: str, name: str) -> bool:
    """Does the name close the object of the sentence's "we propose" ("we introduce a new fast
    incremental gradient method SAGA, ...")?"""
    m = _CONTRIBUTION.search(sentence)
    if not m:
        return False
    rest = sentence[m.end():].split()[:12]
    return any(w.strip(",.;:()") == name for w in rest)


def _mangled(title: str, sentences: Sequence[str]) -> bool:
    """Does the title hold a word the abstract never writes ("Networksk", "Unitsd")? Compared in
    lower case, as whole words; a word the title composes ("for Learning" of "to learn") aside."""
    text = _lowered(tuple(sentences))
    for w in _WORD.findall(title.lower()):
        if w in _STOP or w.isdigit() or _writes(text, w):
            continue
        if w.endswith("ing") and len(w) > 5 and (_opens_a_word(text, w[:-3]) or (w[-4] == w[-5] and _writes(text, w[:-4]))):
            continue  # "Recovering" of "recover", "Merging" of "merge", "Decomposing" of "decomposes", "Controlling" of "control"
        if w.endswith("ying") and _writes(text, w[:-4] + "ie"):
            continue
        if _writes(_parted(tuple(sentences)), w):
            continue  # "Learning with" of "learningwith": two words a copy glued together
        return True
    return False


@lru_cache(maxsize=16)
def _lowered(sentences: tuple[str, ...]) -> str:
    return " ".join(sentences).lower()


@lru_cache(maxsize=16)
def _parted(sentences: tuple[str, ...]) -> str:
    """The lower-cased text with the words a copy glued together parted, as a title parts them."""
    return _LONG_WORD.sub(lambda m: " ".join(parted(m.group(0))), _lowered(sentences))


_LONG_WORD = re.compile(r"[a-z]{8,}")


def _opens_a_word(text: str, stem: str) -> bool:
    """Does a word of the (lower-cased) text open with ``stem``?"""
    i = text.find(stem)
    while i >= 0:
        if i == 0 or not _WORD.match(text[i - 1]):
            return True
        i = text.find(stem, i + 1)
    return False


def _writes(text: str, word: str) -> bool:
    """Does the (lower-cased) text hold ``word`` as a whole word (a run of letters and digits)?"""
    if not word:
        return False
    i = text.find(word)
    while i >= 0:
        j = i + len(word)
        if (i == 0 or not _WORD.match(text[i - 1])) and (j == len(text) or not _WORD.match(text[j])):
            return True
        i = text.find(word, i + 1)
    return False


def long_form(title: str) -> bool:
    """Is the title a name with its own long form ("SAD: Simplified Action Decoder")?"""
    name, colon, tail = title.partition(": ")
    words = tail.split()
    return bool(colon) and spells(name, words) and not any(w.lower() in PREPOSITIONS for w in words)


def confidence(sentences: Sequence[str], title: str) -> float:
    """How well the abstract (its sentences, :func:`.candidates.title_sentences`) backs ``title``,
    from 0 to 1."""
    if not title or title == UNTITLED:
        return 0.0
    name, colon, tail = title.partition(": ")
    if not colon:
        name, tail = "", title
    score = 1.0
    words = tail.split()
    if not ends_a_phrase(words) or _cut_idiom(words) or _holds_a_clause(words):
        score -= 0.5
    content = [w for w in _WORD.findall(tail.lower()) if w not in _STOP]
    if len(content) < 2 and not (name and content):
        score -= 0.3
    elif says_little(words):
        score -= 0.3
    text = " ".join(sentences)
    if words and cut_verb(words[-1], text):
        score -= 0.5
    if any(w.lower() in ANAPHORA for w in words):
        score -= 0.4  # "Accelerated Variant of These Methods": it points at a phrase the title lacks
    if _mangled(title, sentences):
        score -= 0.5
    if name and ((symbol(name) and not spells(name, words)) or not name_is_ours(name, sentences)):
        score -= 0.5  # (a symbol with its long form is a name: "MM: Majorization-Minimization")
    if name and spells(name, words) and not any(w.lower() in PREPOSITIONS for w in words):
        return round(max(0.0, min(1.0, score)), 2)  # its own long form: the paper's words for its own name
    k = next((k for k, w in enumerate(words) if w.lower() in PREPOSITIONS), 0)
    if name and k and spells(name, words[:k]) and backing(" ".join(words[k + 1:]), sentences) >= 0.6:
        # "SPORE: Spectral Regularized Orthonormal Embedding for Graph Transduction": its long
        # form, and what it is for in a phrase of its opening or of a sentence of its work (not
        # of a contrast: "Unlike Poker and Dota, ...")
        return round(max(0.0, min(1.0, score - 0.1)), 2)
    # a phrase of the contribution statement keeps the score; of anything else it loses some;
    # words joined from different sentences lose most
    score -= 1.0 - max(backing(tail, sentences), _composed_backing(tail, sentences))
    return round(max(0.0, min(1.0, score)), 2)


def broken(title: str, sentences: Sequence[str], clause: bool = True) -> bool:
    """Is the title broken, not only uncertain? Cut where no phrase ends ("... for Recovering
    Sparse", "... Network for Capturing"), holding a word the abstract never writes
    ("Networksk"), or with an existing method for its name ("CLT: ...") the paper does not give
    itself. (A name the paper does not present as its own in so many words, "SVD-softmax targets
    ...", or one only its code's address holds, "github.com/x/L-OBS", is as often the name the
    paper's real title has: such a title is uncertain, not broken.) With ``clause`` (the default),
    a title that holds words of its sentence's clause is broken too: it opens on a conjunction
    or on a wh-word without its verb (:func:`opens_a_clause`), holds the sentence's verb
    (:func:`holds_a_verb`), or is made of the words of an opening "While ..." or "If ..." clause
    (:func:`in_an_opening_clause`)."""
    if not title or title == UNTITLED:
        return True
    name, colon, tail = title.partition(": ")
    if not colon:
        name, tail = "", title
    words = tail.split()
    text = " ".join(sentences)
    return not (ends_a_phrase(words) or ends_its_clause(words)) or _cut_idiom(words) or _mangled(title, sentences) \
        or (words[-1].lower().endswith("ing") and cut_verb(words[-1], text)) \
        or (clause and (opens_a_clause(words) or holds_a_verb(words, ". ".join(sentences))
                        or (not name and in_an_opening_clause(words, sentences)))) \
        or bool(name and ((symbol(name) and not spells(name, words))
                          or (established(name) and not name_is_ours(name, sentences))))


_CUT_IDIOMS = _W["cut_idioms"]
# Words that open a clause, not a title ("But Highly Accurate Generative Approach", "Both the
# Problem of ...", "Whilst Deep Neural Networks"); a question may ("When Does Learning ...?").
_CLAUSE_OPENERS = _W["clause_openers"]
# Words that open a clause a title may be, when its verb is in it ("How Width Affects the
# Expressiveness of Neural Networks"), not cut before it ("How Inferred Color-Quantity Mappings
# for Colormap Data Visualizations", "Whether Turning the ... Problem into an Optimization Problem").
_WH = frozenset({"how", "whether", "why", "what"})
_AUXILIARIES = frozenset("is are was were be been can could may might will would should must do does did has have had to".split())
# A word in -s that is a verb, not a plural noun: not "-ings", "-tions", "-ers" and the like
# ("Mappings", "Visualizations", "Features": the last word is the subject's, never its verb).
_THIRD_PERSON = re.compile(r"^[a-z]{3,}[^su'’]s$")
_NOUN_PLURALS = ("ings", "tions", "sions", "ments", "isms", "ics", "ness", "ties", "ures", "ances", "ences",
                 "ers", "ors", "ists", "sses", "xes", "ches", "shes")


# Words that open a clause before a sentence's own ("While existing correlation measures are
# suitable for X, they fail ...", "If we aim to deploy these models in Y, they will ..."): what
# the clause names is a contrast, a condition or a setting, not what the paper is about.
_OPENING_CLAUSE = _W["opening_clause_words"]


def in_an_opening_clause(words: Sequence[str], sentences: Sequence[str]) -> bool:
    """Are the title's words those of a sentence's opening "While ...", "If ..." clause, and of no
    other part of the abstract ("Models in Unstructured Visual Environments" of "If we aim to deploy
    these models in unstructured visual environments, they will be unable to cope ...")?"""
    opening, others = _clauses(tuple(sentences))
    if not opening:
        return False
    need = set(_words(" ".join(words)))
    if not need or any(need <= rest for _, rest in opening) or any(need <= other for other in others):
        return False  # the sentence's own clause, or another sentence, says it
    return any(need <= clause for clause, _ in opening)


@lru_cache(maxsize=16)
def _clauses(sentences: tuple[str, ...]) -> tuple[tuple[tuple[frozenset[str], frozenset[str]], ...], tuple[frozenset[str], ...]]:
    """The words of each sentence's opening "While ..." clause and of the rest of it; the words of
    each other sentence."""
    opening, others = [], []
    if not any(s.split(maxsplit=1)[0].lower() in _OPENING_CLAUSE for s in sentences if s.strip()):
        return (), ()  # (most abstracts: nothing to read)
    for s in sentences:
        clause, comma, rest = s.partition(",")
        first = clause.split(maxsplit=1)[0].lower() if clause.strip() else ""
        if comma and first in _OPENING_CLAUSE:
            opening.append((frozenset(_words(clause)), frozenset(_words(rest))))
        else:
            others.append(frozenset(_words(s)))
    return tuple(opening), tuple(others)


def opens_a_clause(words: Sequence[str]) -> bool:
    """Does the title open a clause it does not hold: on a conjunction or a subordinator ("But ...",
    "Both ...", "Whilst ..."), or on a wh-word with no verb after it ("How Inferred Mappings for
    X")? A question the abstract asks is a title ("When Does Learning Elicit ...?")."""
    if not words or words[-1].endswith("?"):
        return False
    low = [w.lower() for w in words]
    if low[0] in _CLAUSE_OPENERS:
        return True
    if low[0] not in _WH or len(low) < 2:
        return False
    # its verb: an auxiliary, "to", a verb that is never a noun, or a word in -s that no preposition
    # follows ("How Width Affects the ...", not "Whether Pruning the Attention Heads of a Model")
    return not (any(w in _AUXILIARIES or w in _CLAUSE_VERBS or w in _VERBS_WITH_OBJECT for w in low[1:])
                or any(_THIRD_PERSON.match(w) and not w.endswith(_NOUN_PLURALS)
                       and (low[k + 1] not in PREPOSITIONS or low[k + 1] == "as")
                       for k, w in enumerate(low[1:-1], 1)))


# What a verb's object or complement opens on, where a noun would not stand ("converges
# globally", "satisfy the"; not "to": "networks to overcome X" is a noun with its purpose); and
# the determiners a noun, never a verb, follows.
_AFTER_A_VERB = r"(?:the|a|an|this|these|its|their|how|whether|well|globally|almost|always)"
_BEFORE_A_NOUN = r"(?:the|a|an|this|these|those|its|their|our|such|each|every)"
_CLAUSE_VERBS = _W["clause_verbs"]
_VERBS_WITH_OBJECT = _W["clause_verbs_with_object"]
# (and a relative clause: "Adversarial Examples That Fool Detectors" holds its own verb)
_INNER = INNER_CLAUSE | {"that", "which", "who"}
_SINGULAR = re.compile(r"(?:tion|sion|ment|ness|ity|ance|ence|ism|ure|ing|ogy|ics|ent)$")


def holds_a_verb(words: Sequence[str], text: str) -> bool:
    """Does the title hold the verb of the sentence it was read from ("Gradient Descent Converges",
    "SGD Converges for Neural Networks in Practice", "... Maximum Inner Product Search to Solve")?
    Not the verb of a clause the title holds whole ("... When Multiple Feature Types Exist"). A verb
    that is never a noun (``clause_verbs``) anywhere after the first word; or at the end, a word
    in -s after a singular noun, or a plain one after a plural, that the abstract writes after that
    noun and before an object or a complement, and never after a determiner; or "to" and a verb
    the abstract writes before its object (not "Learning to Rank", a name for a task)."""
    if len(words) < 2:
        return False
    low = [w.lower() for w in words]
    if low[-1] in _VERBS_WITH_OBJECT:
        return True  # "... Whether an Unknown Discrete Distribution Belongs": to what?
    if not _INNER.isdisjoint(low[1:-1]):
        return False  # "... When Multiple Feature Types Exist": the clause's own verb
    if any(w in _CLAUSE_VERBS or w in _VERBS_WITH_OBJECT for w in low[1:]):
        return True  # "SGD Converges for Neural Networks in Practice"
    last, prev = low[-1], low[-2]
    if not last.isalpha():
        return False
    text = text.lower()
    if f"{prev} {last}" not in text:
        return False
    if prev == "to":
        return (len(low) < 3 or low[-3] != "learning") and not last.endswith("s") \
            and re.search(rf"\bto {re.escape(last)} (?:{_AFTER_A_VERB}|to)\b", text) is not None \
            and re.search(rf"\b{_BEFORE_A_NOUN} {re.escape(last)}\b", text) is None
    if _THIRD_PERSON.match(last) and not last.endswith(_NOUN_PLURALS):
        verb = _SINGULAR.search(prev) is not None
        forms = (last, last[:-1])  # "the model", "a task": a noun's singular follows a determiner
    else:
        verb = prev.endswith("s") and not prev.endswith(("ss", "us", "is")) and not last.endswith(("s", "ed", "ing", "ly"))
        forms = (last,)
    if not verb:
        return False
    # every time the abstract writes the two words, an object or a complement follows
    after = re.findall(rf"\b{re.escape(prev)} {re.escape(last)}\b(?![\w-])(?: (\w+))?", text)
    return bool(after) and all(re.fullmatch(_AFTER_A_VERB, a) for a in after) \
        and not any(re.search(rf"\b{_BEFORE_A_NOUN} (?:[\w-]+ )?{re.escape(f)}\b", text) for f in forms)
# Words that open a relative clause: a title holding one after its first word is a clause cut
# short ("Model Where the Rate of an Inhomogeneous Poisson Process"): uncertain, not broken (its
# options were no better). (Not "that": "Adversarial Examples that Fool ..." is a title.)
_RELATIVE = frozenset({"where", "which", "whose", "whom", "wherein", "whereby"})


def _holds_a_clause(words: Sequence[str]) -> bool:
    """Is the title a clause cut short: a relative clause after its first word, or a gerund with no
    phrase after its object ("Using Causal Models": using them for what)?"""
    low = [w.lower() for w in words]
    if any(w in _RELATIVE for w in low[1:]):
        return True
    return len(low) <= 4 and low[0] == "using" and not any(w in PREPOSITIONS for w in low[1:])


# Words that count what a sentence's subject names, not what a title names.
_QUANTIFIERS = frozenset({"many", "most", "some", "several", "all", "few", "various"})
# How many words a title's end may lose to end where a phrase ends (:func:`mended`); a title cut
# deeper is kept as it is, for the maintainers to see.
_MEND_AT_MOST = 3


def mended(title: str, sentences: Sequence[str]) -> str:
    """The title without the clause words it was cut with, when nothing better replaced it: its
    opening conjunction or wh-word ("Both Upper and Lower Bounds on X" -> "Upper and Lower Bounds
    on X", "How Inferred Mappings for X" -> "Inferred Mappings for X") and its closing verb or cut
    idiom ("... Search to Solve", "... for Robustness with Respect", "Gradient Descent Converges"):
    the phrase it holds, cut at a boundary. The title itself when it needs no mending, or when
    what is left says too little (fewer than two words of substance)."""
    name, colon, tail = title.partition(": ")
    if not colon:
        name, tail = "", title
    words = tail.split()
    if not words:
        return title
    text = ". ".join(sentences)  # ("tasks. These methods": no verb with its object)
    out = list(words)
    if opens_a_clause(out):
        k = 1
        while k < len(out) and out[k].lower() in ARTICLES:
            k += 1  # "Both the Problem of X": "Problem of X"
        out = out[k:]
    while len(out) > 2 and out[0].lower() in _QUANTIFIERS:
        out = out[1:]  # "Many Anomaly Detection Methods Exist": the methods
    # "Gradient Flow Converges for Training Wide Networks": a phrase joined to what it is for,
    # with its sentence's verb
    out = [w for k, w in enumerate(out) if not (1 < k < len(out) - 2 and out[k + 1].lower() == "for"
                                                and (w.lower() in _CLAUSE_VERBS or w.lower() in _VERBS_WITH_OBJECT))]
    cut = 0
    while out and cut <= _MEND_AT_MOST and (holds_a_verb(out, text) or _cut_idiom(out)
                                            or not (ends_a_phrase(out) or ends_its_clause(out))):
        n = 2 if len(out) > 1 and (out[-2].lower() == "to" or " ".join(out[-2:]).lower() in _CUT_IDIOMS) else 1
        cut += n
        out = trim(out[:-n])
    if out == words:
        return title
    content = [w for w in out if w.lower() not in _STOP]
    if cut > _MEND_AT_MOST or len(content) < 2 or not ends_a_phrase(out) or says_little(out):
        return title
    out[0] = out[0][:1].upper() + out[0][1:]
    return f"{name}: {' '.join(out)}" if name else " ".join(out)


def _cut_idiom(words: Sequence[str]) -> bool:
    """Does the title end inside an idiom ("... with Respect", "... in Order", "... Due")?"""
    return bool(words) and (words[-1].lower() in _CUT_IDIOMS or " ".join(words[-2:]).lower() in _CUT_IDIOMS)


# A title composed of two phrases, "X for Y": what the paper offers for what it is about. Each
# phrase whole in its own sentence, the first one of the paper's work, the second of the paper's
# work or its opening: still words of two sentences, so never above this.
COMPOSED = 0.6


def _composed_backing(tail: str, sentences: Sequence[str]) -> float:
    head, sep, rest = tail.partition(" for ")
    if not sep or " for " in rest:
        return 0.0
    first, second = backing(head, sentences), backing(rest, sentences)
    return COMPOSED if first >= 0.7 and second >= 0.6 else 0.0


def ends_a_phrase(words: Sequence[str]) -> bool:
    """Can a title end on the last of ``words``? Not on a word no phrase ends on, nor on an
    adjective whose noun was cut off ("... among Diverse")."""
    return bool(words) and can_end(words[-1]) and words[-1].lower() not in _HANGING


# What opens a verb's object: after "capturing", "satisfying", "considering" the abstract goes on
# with what is captured, satisfied, considered, and a title ending on the verb is cut.
_OBJECT_OPENERS = ARTICLES | _W["object_openers"]


def cut_verb(word: str, text: str) -> bool:
    """Is ``word`` an -ing form the abstract only writes before its object ("... Network for
    Capturing", of "capturing the ...")? Not "Learning" of "deep learning models"."""
    low = word.lower()
    if not low.endswith("ing") or len(low) < 6:
        return False
    after = _words_after(low, text.lower())
    return bool(after) and all(a in _OBJECT_OPENERS for a in after)


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _words_after(word: str, text: str) -> list[str]:
    """The word after each whole ``word`` of ``text`` that a space follows (as the regular
    expression ``\\bword\\s+([\\w-]+)`` finds them, without compiling one per word)."""
    out = []
    i = text.find(word)
    while i >= 0:
        j = i + len(word)
        if i == 0 or not _is_word_char(text[i - 1]):
            k = j
            while k < len(text) and text[k].isspace():
                k += 1
            end = k
            while end < len(text) and (_is_word_char(text[end]) or text[end] == "-"):
                end += 1
            if k > j and end > k:
                out.append(text[k:end])
        i = text.find(word, i + 1)
    return out


def says_little(words: Sequence[str]) -> bool:
    """Does a phrase say nothing specific ("Two Questions", "Much Simpler Approach", "Types of
    Functions")? Every content word a generic head, a vague noun, a filler, a count or a word
    most abstracts use."""
    content = [w for w in (x.lower() for x in words) if w not in _STOP and any(c.isalpha() for c in w)]
    return all(w in GENERIC or w in VAGUE or w in FILLER or w in COUNTS or w in _HANGING or w in PARTITIVE
               or w.rstrip("s") in _VERY_COMMON or w in _VERY_COMMON or w in _LITTLE for w in content)


_LITTLE = _W["says_little_words"]


def _object(sentence: str, at: int = -1) -> list[str]:
    """The object of the sentence's contribution verb ("we propose X ..."), up to where its
    phrase ends; or []. ``at``: where the verb ends, when the caller found it."""
    if at < 0:
        m = _CONTRIBUTION.search(sentence) or _SUBJECT.search(sentence)
        if not m:
            return []
        at = m.end()
    tokens = tokenize(sentence[at:])
    if len(tokens) > 1 and tokens[0].lower() == "to":
        tokens = [_gerund(tokens[1]).capitalize(), *tokens[2:]]  # "we propose to learn X": "Learning X"
    if len(tokens) > 2 and tokens[0].lower() == "the" and tokens[1].lower() == "following":
        tokens = tokens[2:]  # "we consider the following robust low-rank problem"
    while tokens and tokens[0].lower() in ARTICLES | FILLER | {","}:
        tokens = drop_fillers(tokens[1:] if tokens[0].lower() in ARTICLES else tokens)
        if tokens and tokens[0].lower() in FILLER:
            tokens = tokens[1:]
    out: list[str] = []
    i = 0
    while i < len(tokens) and len(out) < _MAX_WORDS:
        t = tokens[i]
        low = t.lower()
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if low in ("and", "or") and out and (nxt.lower() in _NEXT_VERBS or nxt.lower().rstrip("s") in _NEXT_VERBS
                                             or nxt.lower() in ARTICLES | ANAPHORA):
            break  # "X and show that ...": a second verb, not more of the object
        if low == "that" and out and out[-1].lower() not in PREPOSITIONS:
            break  # "X that maximizes ...": a relative clause, not "that" pointing elsewhere
        if low in ANAPHORA or low in ("it", "they", "them"):
            return []  # "this algorithm": the phrase points elsewhere and says nothing on its own
        if low == "to" and out and nxt.islower() and nxt.isalpha() and nxt not in _STOP \
                and not nxt.endswith(("ed", "ing", "ly", "s")) and "for" not in (w.lower() for w in out) \
                and _gerund(nxt) in _COMMON_WORDS:
            # (a verb ML abstracts use: not "approaches to large scale ...", "Larging Scale")
            # "X to resolve catastrophic forgetting": what it is for, said as a title says it
            out += ["for", _gerund(nxt)]
            i += 2
            continue
        if t in _PUNCT_STOP or (low in _STOPS_OBJECT or low in CLAUSE) and out:
            break
        if low in ARTICLES and out and out[-1].lower() not in PREPOSITIONS and not _takes_object(out):
            break  # "X the model learns": a new clause's subject
        if low in ARTICLES and len(out) >= 2 and out[-1].lower() in PREPOSITIONS and nxt.lower() in _HEADS_OF \
                and i + 2 < len(tokens) and tokens[i + 2].lower() == "of":
            i += 3  # "an approach for the task of finding X": for finding X
            continue
        out.append(t)
        i += 1
    if len(out) >= _MAX_WORDS:
        # cut where a phrase ends: before the last preposition that follows a word a title can end on
        for k in range(len(out) - 1, 1, -1):
            if out[k].lower() in PREPOSITIONS and ends_a_phrase(out[:k]):
                out = out[:k]
                break
    out = [w for w in trim(out) if w.lower() not in ARTICLES or w is not out[0]]
    while out and not ends_a_phrase(out):
        out = trim(out[:-1])
    return out


def plain_title(sentences: Sequence[str], name: str = "") -> str:
    """The plain title: what the first sentence of ours says the paper proposes or studies, cut
    where its phrase ends (with the paper's own name when it has one); '' when no sentence says."""
    # (and, where no sentence says it with "we", the work a sentence states in the passive)
    objects = (_object(s) for s in sentences if _own_sentence(s))
    passive = (_object(p, 0) for p in _passive_subjects(tuple(sentences)) if p)
    for words in itertools.chain(objects, passive):
        if len(words) >= 2 and not (name and name.lower() == " ".join(words).lower()):
            if name and name in words:
                words = trim([w for w in words if w != name]) or words
            content = [w for w in words if w.lower() not in _STOP]
            if len(content) < 2 or all(w.lower() in GENERIC or w.lower() in VAGUE for w in content):
                continue  # "a new method": nothing said yet
            low = [w.lower() for w in words]
            if "between" in low and "and" not in low[low.index("between"):]:
                continue  # "Relationship between Gaussian Processes": cut before what it relates them to
            title = _compose(name, words)
            if title and ends_a_phrase(title.split()):
                return title
    return ""


def _takes_object(words: list[str]) -> bool:
    """Does the phrase end on a gerund after a preposition ("method for finding"), whose object
    goes on after an article ("a subspace of ...")?"""
    last = words[-1]
    return len(words) >= 2 and last.islower() and last.endswith("ing") and len(last) > 5 \
        and words[-2].lower() in PREPOSITIONS


# what a statement's object may open on and still name something after its "of"
_HEADS = VAGUE | PARTITIVE | GENERIC


def _past_head(words: list[str]) -> list[str]:
    """The phrase without a head that only says what kind of thing follows: "Problem of
    Leverage Score Sampling" names the sampling, "Task of Clustering Items" the clustering."""
    k = 0
    while k + 2 < len(words) and words[k].lower() in _HEADS | FILLER | COUNTS and words[k].lower() not in ("model", "models"):
        if words[k + 1].lower() == "of" and words[k].lower() in VAGUE | PARTITIVE:
            rest = words[k + 2:]
            while rest and rest[0].lower() in ARTICLES:
                rest = rest[1:]
            return rest
        k += 1
    return words


def statement_phrases(sentences: Sequence[str]) -> list[list[str]]:
    """The objects of the paper's statements of its work, each one phrase of one sentence: what the
    sentences of ours say it proposes, introduces, presents ..., then what they say it studies or
    considers; only those that say something on their own."""
    return [list(w) for _, w in _statement_phrases(tuple(sentences))]


def said_where_named(title: str, sentences: Sequence[str]) -> bool:
    """Does a named title say what the sentence naming the work says it is ("KSTER: Two-Stage
    Reverse-Engineering Attack ..." of "a two-stage reverse-engineering attack named KSTER",
    "ConsMSA: Formalizing Semantic Distribution Consistency ..." of "ConsMSA, which explicitly
    formalizes semantic distribution consistency")? Its words before any "for", in order, in a
    sentence that holds the name."""
    name, colon, tail = title.partition(": ")
    if not colon:
        return False
    need = _words(tail.partition(" for ")[0])
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    return bool(need) and any(pattern.search(s) and _in_order(need, _words(s)) for s in sentences)


@lru_cache(maxsize=16)
def _statement_phrases(sentences: tuple[str, ...]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    out: list[tuple[int, tuple[str, ...]]] = []
    said = [s.lower().split() for s in sentences]
    for pattern, forms in ((_CONTRIBUTION, CONTRIBUTION_FORMS), (_SUBJECT, SUBJECT_FORMS)):
        for i, (s, words) in enumerate(zip(sentences, said)):
            m = None if forms.isdisjoint(words) else pattern.search(s)
            if m is None or not _own_sentence(s):
                continue
            words = _past_head(_object(s, m.end()))
            if _says_something(words, s) and all(w != tuple(words) for _, w in out) \
                    and _holds_a_key_term(words, sentences):
                out.append((i, tuple(words)))
    for i, (s, passive) in enumerate(zip(sentences, _passive_subjects(sentences))):
        # what a sentence states in the passive, where none says it with "we" or "this paper"
        words = _past_head(_object(passive, 0)) if passive else []
        if words and _says_something(words, s) and all(w != tuple(words) for _, w in out) \
                and (_holds_a_key_term(words, sentences) or _abbreviated_again(passive, sentences)):
            out.append((i, tuple(words)))
    return tuple(out)


def _abbreviated_again(subject: str, sentences: Sequence[str]) -> bool:
    """Does the subject give its short form, which another sentence uses ("A novel variational
    autoencoder (VAE) is developed ... The VAE ...")? The abstract comes back to it by that."""
    short = re.search(r"\(([^()\s]{2,})\)", subject)
    if not short:
        return False
    pattern = re.compile(rf"(?<![\w-]){re.escape(short.group(1))}(?![\w-])")
    return sum(bool(pattern.search(s)) for s in sentences) >= 2


def _holds_a_key_term(words: list[str], sentences: Sequence[str]) -> bool:
    """Does the phrase hold a word of substance the abstract comes back to (in another sentence
    too)? "Two Distinct Strategies", "Partitioning Strategy" are said once and in passing."""
    lowered = [s.lower() for s in sentences]
    for w in words:
        low = w.lower()
        if low in _STOP or low in GENERIC or low in VAGUE or low in FILLER or low in COUNTS or low in PARTITIVE \
                or low in _VERY_COMMON or low.rstrip("s") in _VERY_COMMON:
            continue
        stem = _fold(low)
        if sum(stem in s for s in lowered) >= 2:
            return True
    return False


def _says_something(words: list[str], sentence: str) -> bool:
    content = [w for w in words if w.lower() not in _STOP]
    if len(content) < 2 or says_little(words) or not ends_a_phrase(words) or _cut_idiom(words):
        return False
    low = [w.lower() for w in words]
    head = next((low[k - 1] for k in range(1, len(low)) if low[k] in PREPOSITIONS), low[-1])
    if low[0] in _EVALUATION or head in _EVALUATION or head in _RESULTS or any(w in ANAPHORA for w in low):
        return False
    if low[0] in VAGUE or ((low[-1] in PARTITIVE or low[-1] in VAGUE or low[-1] in _LITTLE) and low[-2] in ARTICLES | PREPOSITIONS):
        return False  # "Problem for the Graph Laplacian", "... in the Framework", "... Based on the Concept" (of what?)
    if "between" in low and "and" not in low[low.index("between"):]:
        return False  # "Relationship between Algorithmic Stability": and what?
    if low[-1] in _ORDINALS:
        return False  # "... Leverage Score Sampling and Second": second what?
    return not cut_verb(words[-1], sentence)


# "we give", "this paper concerns", "we generalize": the paper's own voice and the verb of what it
# does (a word that opens a clause or helps a verb is none: "we show that", "we can")
_DOING = re.compile(rf"\b(?:[Ww]e|[Tt]his (?:{_any_of(_W['own_work_nouns'])}))\s+(?:[a-z]+ly\s+)?(?=([a-z]+)\s)")
_TO_DO = re.compile(r"\bto ([a-z]+) (the|an?) ")
_NOT_DOING = _AUXILIARIES | INNER_CLAUSE | frozenset({"that", "how", "whether", "also", "then", "first", "further",
                                                      "we", "here", "now", "thus", "therefore"})


def widened_phrases(phrase: str, sentences: Sequence[str]) -> list[list[str]]:
    """The objects of what the paper says it does that hold ``phrase`` whole and say more: "This
    paper concerns calibrated anomaly detection" widens "Anomaly Detection" to "Calibrated Anomaly
    Detection", "We give an algorithm for approximating the discrete Fourier transform" widens
    "Discrete Fourier Transform". Not an object that only adds what the verb is for ("we extend the
    multinomial logit model to represent ...": the model is not "for representing")."""
    need = _words(phrase)
    out: list[list[str]] = []
    if not need:
        return out
    for s in sentences:
        # what the paper does ("we give X"), and what it sets out to do ("we leverage X to
        # reformulate Y": "Reformulating Y"), in a sentence of its own
        doing = [([], m.end(1)) for m in _DOING.finditer(s) if m.group(1) not in _NOT_DOING]
        if doing:
            doing += [([_gerund(m.group(1)).capitalize(), m.group(2)], m.end()) for m in _TO_DO.finditer(s, doing[0][1])
                      if m.group(1) not in _STOP and m.group(1) not in _NOT_DOING]
        for verb, at in doing:
            words = verb + _past_head(_object(s, at))
            cut = next((k for k in range(1, len(words) - 1) if words[k].lower() in ("and", "or")
                        and words[k + 1].islower() and words[k + 1].endswith("ly")), len(words))
            if cut < len(words):
                # "we learn the local statistics of optical flow and rigorously compare ...": a
                # second verb, not more of the object
                words = trim(words[:cut])
            said = _words(" ".join(words))
            where = next((i for i in range(len(said) - len(need) + 1) if said[i:i + len(need)] == need), -1)
            if where < 0 or len(said) <= len(need) or not _says_something(words, s) or not _holds_a_key_term(words, sentences):
                continue
            low = [w.lower() for w in words]
            k = low.index("for") if "for" in low else -1
            if where == 0 and 0 < k < len(low) - 1 and low[k + 1].endswith("ing") \
                    and re.search(rf"\bto {re.escape(low[k + 1][:-3])}", s.lower()):
                continue
            if words not in out:
                out.append(words)
    return out
