"""Choice: each candidate title scored by a handful of interpretable features, with weights
fitted on real titles (``weights.json``, written by ``benchmarks/fit_titles.py``).

The features say what kind of candidate it is, where the rules put it, how long it is,
and how much its words are the abstract's own: repeated in the abstract, in its opening
sentence, or only words every abstract uses; and its expected ROUGE-1 F against the real
title from how likely each of its words is to be a title word (:mod:`.salience`). The
best-scoring candidate is the title; the others, best first, tell clashing papers apart.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from generator.core.errors import WordsError
from generator.core.text import first_sentence, plain
from generator.derive.title.candidates import (
    COMBINED,
    CONTRIBUTION,
    KINDS,
    NAME_ONLY,
    NAMED,
    NAMED_OTHER,
    PHRASE,
    SUBJECT,
    TERM,
    TOPIC,
    Candidate,
    _spells,
    about_our_work,
    candidates,
    parted_small_words,
    rejoined,
    title_sentences,
)
from generator.derive.title.compose import _compose
from generator.derive.title.statement import TRUSTED, anothers, statement_title
from generator.derive.title.faithful import (
    CONFIDENT,
    backing,
    broken,
    confidence,
    established,
    holds_a_verb,
    in_an_opening_clause,
    long_form,
    mended,
    name_is_ours,
    opens_a_clause,
    plain_title,
    said_where_named,
    says_little,
    spells,
    statement_phrases,
    symbol,
    widened_phrases,
)
from generator.derive.title.phrases import can_end, ends_its_clause, trim
from generator.derive.title.salience import WORD_FEATURES, AbstractWords, Salience, WordModel, load_lexicon
from generator.derive.title.words import _STOP, _W, ANAPHORA, COUNTS, GENERIC, MAX_LENGTH, NOT_DOMAIN, PARTITIVE, PREPOSITIONS, VAGUE, VERB_FORMS

_NAMING_WORDS = frozenset(v for v in _W["naming_verbs"] if " " not in v)

WEIGHTS_FILE = Path(__file__).with_name("weights.json")
FEATURES = (*KINDS, "prior", "words", "words_squared", "repeated", "frequency", "opening", "generic", "fragment",
            "late", "rarity", "key_terms", "coverage", "ours", "expected_f")
COMMON_FILE = Path(__file__).with_name("common_words.json")
# A word in more than this share of abstracts says little about any one of them.
# (4%, not the benchmark's 5%: what is common on NeurIPS is commoner still at other venues,
# and with the word model the choice took "Recurrent Neural Networks" for 1.9% of the
# held-out abstracts; at 4% 0.6%, for 0.002 of ROUGE-1.)
COMMON_SHARE = 0.04
_WORD = re.compile(r"[a-z0-9]+")
_COMMON = GENERIC | VAGUE | NOT_DOMAIN


@dataclass(frozen=True)
class Context:
    """What the features need of the abstract itself."""

    counts: Counter
    opening: frozenset[str]
    keys: frozenset[str]  # the abstract's key terms: its repeated, rare words
    values: dict  # word -> its per-word feature values, filled as candidates are scored
    salience: Salience  # word -> the probability that the real title holds it
    model: WordModel


KEY_TERMS = 6


def context(text: str, model: WordModel | None = None, own_title: Collection[str] | None = None) -> Context:
    """What the features need of the abstract; ``own_title`` only for the fit (the real title's
    words of an abstract the title-word lexicon counted, which it then leaves out)."""
    body = parted_small_words(rejoined(plain(text)))
    first = first_sentence(body)
    counts = Counter(_WORD.findall(body.lower()))
    weight = {w: min(n, 5) * RARITY.get(w, 1.0) for w, n in counts.items()
              if n >= 2 and w not in _STOP and w not in _COMMON and not w.isdigit()}
    keys = sorted(weight, key=lambda w: (-weight[w], w))[:KEY_TERMS]
    model = model or fitted_word_model()
    sentences = title_sentences(text)
    salience = Salience(AbstractWords(sentences, [about_our_work(s) for s in sentences], RARITY, LEXICON, own_title), model)
    return Context(counts, frozenset(_WORD.findall(first.lower())), frozenset(keys), {}, salience, model)


def content_words(title: str) -> list[str]:
    """A title's words that carry meaning: lower-cased runs of letters and digits, no stop words."""
    return [w for w in _WORD.findall(title.lower()) if w not in _STOP]


def _word_values(w: str, ctx: Context) -> tuple[float, ...]:
    """The per-word parts of the features: repeated, frequency, opening, generic, rarity, key terms."""
    n = ctx.counts[w]
    rarity = RARITY.get(w, 1.0)
    return (float(n >= 2), min(n, 6) / 6, float(w in ctx.opening), float(w in _COMMON), rarity, rarity * min(n, 4) / 4)


def features(c: Candidate, ctx: Context) -> list[float]:
    """The candidate's feature values, in the order of :data:`FEATURES`."""
    words = content_words(c.text) or content_words(c.name)
    n = len(words) or 1
    last = c.text.rstrip("?").split()[-1] if c.text.split() else ""
    cache = ctx.values
    per_word = [cache[w] if w in cache else cache.setdefault(w, _word_values(w, ctx)) for w in words]
    sums = [sum(col) / n for col in zip(*per_word)] if per_word else [0.0] * 6
    length = min(len(words), 12) / 10
    return [
        *(float(c.kind == k) for k in KINDS),
        1.0 / (1 + c.rank),
        length,
        length * length,
        *sums[:4],
        float(not can_end(last)) if last else 1.0,
        min(c.sentence, 5) / 5,
        *sums[4:],
        len(ctx.keys.intersection(words)) / KEY_TERMS,
        float(c.ours),
        ctx.model.expected_f(words, ctx.salience),
    ]


def _read_weights(path: Path) -> dict:
    shown = f"generator/derive/title/{path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise WordsError(f"cannot read the fitted title weights: {e}", shown) from None
    return data if isinstance(data, dict) else {}


def _numbers(data: dict, key: str, names: Sequence[str], path: Path) -> tuple[float, ...]:
    weights = data.get(key)
    if not isinstance(weights, dict) or set(weights) != set(names) \
            or not all(isinstance(v, (int, float)) for v in weights.values()):
        raise WordsError(f"'{key}' must give a number for each feature: {', '.join(names)}; "
                         "run benchmarks/fit_titles.py", f"generator/derive/title/{path.name}")
    return tuple(float(weights[f]) for f in names)


def load_weights(path: Path = WEIGHTS_FILE) -> tuple[float, ...]:
    """The fitted weights, one per feature; an error naming the file if they do not fit."""
    return _numbers(_read_weights(path), "weights", FEATURES, path)


def load_word_model(path: Path = WEIGHTS_FILE) -> WordModel:
    """The fitted word model (``word_weights``, ``title_words``); an error naming the file if it does not fit."""
    data = _read_weights(path)
    weights = _numbers(data, "word_weights", WORD_FEATURES, path)
    length = data.get("title_words")
    if not isinstance(length, (int, float)) or length <= 0:
        raise WordsError("'title_words' must be a positive number; run benchmarks/fit_titles.py", f"generator/derive/title/{path.name}")
    return WordModel(weights, float(length))


def load_rarity(path: Path = COMMON_FILE) -> dict[str, float]:
    """How rare each common word of ML abstracts is, from 0 (in every abstract) to 1 (in
    none): the idf of ``common_words.json`` (written by the fit), scaled by its largest."""
    shown = f"generator/derive/title/{path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        total, share = int(data["abstracts"]), data["share"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise WordsError(f"cannot read the word frequencies: {e}", shown) from None
    top = math.log(total)
    return {w: min(1.0, math.log(1 / max(s, 1 / total)) / top) for w, s in share.items()}


RARITY = load_rarity()
LEXICON = load_lexicon()
_VERY_COMMON = frozenset(w for w, share in json.loads(COMMON_FILE.read_text(encoding="utf-8"))["share"].items()
                         if share > COMMON_SHARE)


@cache
def fitted_weights() -> tuple[float, ...]:
    """The weights of ``weights.json``, read on first use (the fit itself runs without them)."""
    return load_weights()


@cache
def fitted_word_model() -> WordModel:
    return load_word_model()


def score(values: Sequence[float], weights: Sequence[float]) -> float:
    return sum(v * w for v, w in zip(values, weights))


class Scorer:
    """``score(features(c, ctx), weights)`` computed fast: the per-word features are averaged,
    so their weighted sum is the average of each word's own weighted sum, computed once per
    word of the abstract instead of once per candidate."""

    def __init__(self, ctx: Context, weights: Sequence[float]):
        self.ctx = ctx
        k = len(KINDS)
        self.kind = dict(zip(KINDS, weights[:k]))
        (self.prior, self.length, self.length2, *self.word_weights) = weights[k:k + 7]
        self.fragment, self.late, rarity, key, self.coverage, self.ours, self.expected = weights[k + 7:]
        self.word_weights += [rarity, key]
        self.words: dict[str, float] = {}

    def __call__(self, c: Candidate) -> float:
        words = content_words(c.text) or content_words(c.name)
        cache = self.words
        for w in words:
            if w not in cache:
                cache[w] = sum(a * b for a, b in zip(_word_values(w, self.ctx), self.word_weights))
        total = math.fsum(cache[w] for w in words)  # exact: the same words score the same in any order
        length = min(len(words), 12) / 10
        last = c.text.rstrip("?").split()[-1] if c.text.split() else ""
        return (self.kind[c.kind] + self.prior / (1 + c.rank) + self.length * length + self.length2 * length * length
                + total / (len(words) or 1) + self.fragment * (float(not can_end(last)) if last else 1.0)
                + self.late * min(c.sentence, 5) / 5 + self.coverage * len(self.ctx.keys.intersection(words)) / KEY_TERMS
                + self.ours * c.ours + self.expected * self.ctx.model.expected_f(words, self.ctx.salience))


# What the authors state outright: the question their abstract opens with (too rare in the
# titled corpora to fit: a handful of abstracts). Such a first candidate of the rules is the
# title unless it is cut or says nothing; the fitted choice decides the rest. Neither "we study
# X" nor the named method with what it is is locked in any more: with the word model the
# choice among all candidates (among those holding the name, when there is one) beat both on
# the fitted venues and as much on the others (ROUGE-1 held-out 0.338 -> 0.342).
STATED = ("question",)


def _stated(c: Candidate) -> bool:
    """Is this the rules' first candidate, stated by the authors, whole and saying something?"""
    return c.rank == 0 and (c.kind in STATED or (c.stated and c.kind == SUBJECT)) and not _says_little(c) and _whole(c)


def _whole(c: Candidate) -> bool:
    """Does the candidate open and end where a title can? Not on "We ..." or a verb
    ("Propose New Input Features"), not on "... Global Rather"."""
    words = c.text.rstrip("?").split()
    if not words:
        return False
    first = words[0].lower()
    low = {w.lower() for w in words}
    name = (c.name or (c.title.partition(": ")[0] if ": " in c.title else "")).lower()
    # "WAGE: Method Termed as WAGE for ...": the tail names the method again instead of saying what it is
    if not _NAMING_WORDS.isdisjoint(low) or (name and name in low):
        return False
    if name and _repeats_name(name, words):
        return False  # "Multimodal Interaction Gate: Multimodal Interactions" says nothing the name does not
    if any(words[k - 1].lower() in GENERIC and sum(ch.isupper() for ch in words[k]) >= 2 for k in range(1, len(words))):
        return False  # "CR: Unlearning Framework CPU for ...": the tail is another contribution, with its own name
    if any(_NOTATION.match(w) for w in words if w.lower() not in ("a", "i")) \
            and not (name and _spells("".join(ch for ch in name if ch.isalpha()).lower(), words)):
        # "Rank-k Matrix B", "Convex Function F", "Measurements Yi=xi F": notation, not words
        # (the Q of "SQIL: Soft Q Imitation Learning" spells the name)
        return False
    last = words[-1]
    if c.title and last[:1].isupper() and last[1:].islower():
        last = last.lower()  # a composed title's capitals are Title Case: "... in Numerous" ends on an adjective
    # "In a Multi-Armed Bandit Problem a Gambler Needs": an adverbial, not a noun phrase, opens it
    # (titles may open on "On the", "Towards", "Beyond")
    opens_adverbial = first in _ADVERBIAL_OPENERS and len(words) > 1 and words[1].lower() in ANAPHORA | {"a", "an", "the"}
    return (can_end(last) or ends_its_clause(words)) and first not in ANAPHORA and (first not in VERB_FORMS or c.kind == "question") \
        and not opens_adverbial


# A symbol of the abstract's mathematics: one letter, perhaps with a digit or a prime ("B", "H0",
# "Θ1"), or a formula ("N×n", "Yi=xi", "R^d"). (Not a number: "Deep Voice 3" is a name.)
_NOTATION = re.compile(r"^(?:[^\W\d_][0-9]?'?|.*[=×^|].*)$")


_ADVERBIAL_OPENERS = frozenset("in at by with for from as to of into via under over through during within".split())


def _folded_words(words) -> set[str]:
    """Content words, lower case, without a plural s: "Interactions" is "interaction"."""
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in (x.lower() for x in words) if w not in _STOP and w[:1].isalnum()}


def _repeats_name(name: str, tail: Sequence[str]) -> bool:
    """Are all the tail's content words words of a name of several words? Such a tail only
    says the name again, not what it is."""
    named = _folded_words(name.split())
    said = _folded_words(tail)
    return len(name.split()) > 1 and bool(said) and said <= named


def _is_named(c: Candidate) -> bool:
    return c.kind in (NAMED, NAMED_OTHER, NAME_ONLY) or bool(c.name)


def _named_first(found: list[Candidate]) -> list[Candidate]:
    """The candidates that compete. What the authors state outright (:data:`STATED`) when
    there is such a candidate, whole and saying something. When the abstract names its method, only titles holding
    the name: real titles name it ("GenDICE: ..."), and it is what a reader searches for.
    Then, while any is left, none that ends where a phrase cannot end ("... Global Rather")
    and none made only of words most abstracts use ("Deep Neural Networks")."""
    if found and _stated(found[0]):
        return found[:1]
    named = [c for c in found if _is_named(c)] or found
    # "a two-stage reverse-engineering attack named KSTER": the title says what the authors
    # say it is, alone or with what it is for
    named = [c for c in named if c.stated and _whole(c) and not _says_little(c)] or named
    whole = [c for c in named if _whole(c)] or named
    return [c for c in whole if not _says_little(c)] or whole


def _field_words(c: Candidate) -> frozenset[str]:
    """The folded content words of a candidate that only names the paper's field: the subject of
    its opening sentence, or a phrase of it not about the paper's work, of at most three content
    words and no preposition ("Importance Sampling", "Determinantal Point Processes"); else none."""
    if c.name or not (c.kind == TOPIC or (c.kind in (PHRASE, TERM) and c.sentence == 0 and not c.ours)):
        return frozenset()
    words = c.text.split()
    if any(w.lower() in PREPOSITIONS for w in words):
        return frozenset()
    folded = _folded_words(words)
    return frozenset(folded) if 0 < len(folded) <= 3 else frozenset()


def _in_the_field(top: Candidate, pool: list[Candidate], score_of) -> Candidate:
    """The chosen title, or when it only names the paper's field ("Importance Sampling") the best
    of those that say what the paper does in it ("Maximum Induced Cardinality for Determinantal
    Point Processes"): a title names the paper, not its field."""
    field = _field_words(top)
    if not field:
        return top
    more = [c for c in pool if c is not top and _whole(c) and field < _folded_words(c.composed().replace(":", " ").split())]
    return min(more, key=lambda c: (-score_of(c), c.rank)) if more else top


def _says_little(c: Candidate) -> bool:
    words = set(content_words(c.composed() if c.kind in (NAMED, NAMED_OTHER, NAME_ONLY) else c.text))
    # what the authors say they propose or study, in four common words or more, names something
    # ("we propose an efficient approximation of gradient-based sampling")
    # (not "Deep Neural Network Model": "network" and "model" say what kind of thing, not which)
    stated = c.kind in (SUBJECT, CONTRIBUTION) and c.rank <= 1 and len(words - _COMMON) >= 4
    return len(words) < 2 or (not stated and all(w in _VERY_COMMON for w in words))


# The title of an abstract with nothing to make one of (no candidates, or none that composes).
UNTITLED = "Untitled"


def ranked(text: str, weights: Sequence[float] | None = None) -> list[str]:
    """The abstract's candidate titles, best first (those with the method's name before the others)."""
    score_of = Scorer(context(text), weights or fitted_weights())
    found = candidates(text)
    first = _named_first(found)
    rest = [c for c in found if c not in first]
    # after the chosen, the other titles with the method's name, then the rest: clashes are told
    # apart by the paper's own words
    key = lambda c: (-score_of(c), c.rank)  # noqa: E731
    scored = sorted(first, key=key) + sorted((c for c in rest if _is_named(c)), key=key) \
        + sorted((c for c in rest if not _is_named(c)), key=key)
    out: list[str] = []
    seen: set[str] = set()
    for c in scored:
        title = c.composed()
        if title and title.lower() not in seen:
            seen.add(title.lower())
            out.append(title)
    return out


# How much less the word model may expect an uncertain title's statement phrase to share with the
# real title than the title itself, and still replace it (:func:`_stated_instead`): words of two
# sentences joined as "X for Y", none; any other uncertain title, 0.05. (On the fitted venues'
# 3,398 abstracts about 70 titles are replaced, 8 of them among the 92 the editor graded bad and
# none among the 108 graded good or acceptable, and 359 share no word with the real title against
# 363 before. A margin of 0.1 for joined titles replaced about twice as many but made 375 share
# none; 0.1 for titles no one sentence backs, 4 more.)
MARGINS = {COMBINED: 0.0, "other": 0.05}
# How many of the best-scoring candidates are composed to find one the abstract backs.
TRIES = 8
# A title the abstract does not back (below CONFIDENT) yields only to one it backs at least this
# well: the paper's name with its own long form, or a phrase of one sentence about its work.
REPLACES = CONFIDENT


def derived(text: str, weights: Sequence[float] | None = None) -> tuple[str, float]:
    """The abstract's title with its confidence (:func:`.faithful.confidence`).

    The best-scoring candidate; unless it is broken (:func:`.faithful.broken`: cut, mangled, an
    existing method's name) and the abstract backs another of the next candidates or the plain
    title of the contribution statement, or the abstract backs it less than the paper's own name
    with its own long form ("SAD: Simplified Action Decoder"), or it is uncertain (words of two
    sentences, a passing phrase) and the phrase the paper states its work in may replace it."""
    title, sentences, conf = _chosen(text, weights)
    return title, confidence(sentences, title) if conf is None else conf


def _chosen(text: str, weights: Sequence[float] | None) -> tuple[str, list[str], float | None]:
    """The title, the sentences it was read from, and its confidence when it had to be known:
    the paper's own name with what it is, when it has one; else the paper's own statement of
    its work (:mod:`.statement`), when that reads as a title; else the best-scoring candidate."""
    title, sentences, conf = _scored(text, weights)
    if not sentences:
        return title, sentences, conf
    name, colon, tail = title.partition(": ")
    if colon:
        if not anothers(name, sentences) or len(content_words(tail)) < 2:
            named = _named_as_stated(name, tail, sentences)
            return (named, sentences, None) if named else (title, sentences, conf)
        # another's name the paper studies or uses (:func:`.statement.anothers`: "we analyze
        # skip-gram with negative-sampling (SGNS)"): an editor reads it as the paper's name, and
        # marks it bad (3 of the 4 such on the fit split's graded titles; the other acceptable)
        title, conf = tail[:1].upper() + tail[1:], None
    stated = statement_title(sentences[:STATED_BY + 2])  # (a statement after those is not read)
    # (only one about what the scored title is about: a statement sharing no word of substance
    # with it named a part of the work, not the work, more often than not; a first version without
    # this check made 17.8% of the reported-on venues' titles share no word with the real title)
    if stated is not None and stated.confidence >= TRUSTED \
            and (stated.sentence <= STATED_BY or (stated.sentence == STATED_BY + 1 and stated.confidence >= 1.0)):
        said = _substance(stated.title.split())
        subject = _substance(title.split())
        if 2 * len(said & subject) >= len(subject) or len(said & _key_terms(tuple(sentences))) >= 2:
            return stated.title, sentences, None
    return title, sentences, conf


_KIND_OF_WORK = _W["statement_generic_heads"]


def _named_as_stated(name: str, tail: str, sentences: list[str]) -> str:
    """The paper's name with what its statement says it is, when the statement says that
    outright: it ends on the name ("we propose a fast incremental gradient method SAGA" ->
    "SAGA: Fast Incremental Gradient Method"), or its head phrase is the name's long form ("we
    propose Graph Attention Networks (GAT)" -> "GAT: Graph Attention Networks", where the scored
    title had "GAT: Spectral-Based Graph Neural Networks"); '' otherwise, or when the title says
    the long form already."""
    stated = statement_title(sentences[:STATED_BY + 2])
    if stated is None or stated.confidence < TRUSTED or " " in name or spells(name, tail.split()):
        return ""  # (a name of several words is its own long form: "Hindsight Experience Replay")
    words = stated.title.split()
    if len(words) > 2 and words[-1] == name and words[-2].lower() in _KIND_OF_WORK:
        return f"{name}: {' '.join(words[:-1])}"  # not "CatBoost: Key Algorithmic Techniques Behind"
    head = words[:next((k for k, w in enumerate(words) if w.lower() in PREPOSITIONS), len(words))]
    if name not in words and len(head) >= 2 and spells(name, head):
        return f"{name}: {stated.title}"
    return ""


# A statement of the work gives the title when it is in one of the abstract's first two sentences,
# or read whole in the third (a later one most often states a part: "We also derive ...", "Topic
# Specific Catchwords"), and holds at least half the words of substance of the scored title, or
# two words of substance the abstract comes back to in three sentences or more (:func:`_key_terms`).
# On the reported-on venues, any shared word in any sentence let 12.9% of the titles share no
# word with the real title (11.7% before, 12% the limit); these tests, 11.9% (fitted on: 10.5%
# before, 10.8%).
STATED_BY = 1


@lru_cache(maxsize=16)
def _key_terms(sentences: tuple[str, ...]) -> frozenset[str]:
    """The folded words of substance that three sentences of the abstract or more hold."""
    counts = Counter(w for s in sentences for w in _substance(s.split()))
    return frozenset(w for w, n in counts.items() if n >= 3)


def _scored(text: str, weights: Sequence[float] | None) -> tuple[str, list[str], float | None]:
    """The best-scoring candidate, mended."""
    title, sentences, conf = _chosen_untidied(text, weights)
    # A phrase cut where its clause ends keeps the clause's comma ("... Gradient-Type
    # Algorithms,"): no title ends on one.
    tidy = title.rstrip(" ,;:")
    # A title still broken by the words of its clause (nothing backed replaced it) keeps the
    # phrase it holds: "But Highly Accurate ...", "... Search to Solve" lose those words.
    if sentences and broken(tidy, sentences):
        mend = mended(tidy, sentences)
        if mend != tidy:
            return mend, sentences, None
    wider = _widened(tidy, sentences)
    if wider:
        return wider, sentences, None
    return tidy, sentences, conf


def _chosen_untidied(text: str, weights: Sequence[float] | None) -> tuple[str, list[str], float | None]:
    found = candidates(text, stop=_stated)
    if not found:
        return UNTITLED, [], 0.0  # nothing but a word too long for any title
    sentences = title_sentences(text)
    first = found[0]
    pool: list[Candidate] = []
    scores: dict[int, float] = {}
    if len(found) > 1:
        score_of = Scorer(context(text), weights or fitted_weights())
        pool = _named_first(found)
        scores = {id(c): score_of(c) for c in pool}
        first = _in_the_field(min(pool, key=lambda c: (-scores[id(c)], c.rank)), pool, score_of)
    title = first.composed() or next(iter(ranked(text, weights)), UNTITLED)
    # A title that is only uncertain (words of two sentences, a passing phrase) yields to the
    # phrase the paper states its work in when the word model expects that to share as many words
    # with the real title (:func:`_stated_instead`). Letting any backed title that kept two thirds
    # of its words replace it, and dropping names only a code link holds, had made 13.1% of the
    # reported-on venues' titles share no word with the real title (11.9% without), and 3 fewer of
    # 140 hold the real title's method name.
    is_broken = broken(title, sentences)
    own_long = [] if is_broken else _own_long_forms(title, found, sentences)
    if not is_broken and not own_long:
        stated = _stated_instead(title, first.kind, sentences, score_of.ctx) if len(found) > 1 else ""
        return (stated, sentences, None) if stated else (title, sentences, None)
    conf = confidence(sentences, title)
    if conf >= CONFIDENT:
        return title, sentences, conf
    if not is_broken:
        # the paper's own long form, with what the title said it is for when the abstract backs that
        return next(((o, sentences, c) for o in own_long
                     if _whole(Candidate(o, CONTRIBUTION, 0)) and (c := confidence(sentences, o)) >= REPLACES and c > conf),
                    (title, sentences, conf))
    if not broken(title, sentences, clause=False):
        # broken only by the words of its sentence's clause: the phrase it holds, when that is whole
        # ("Both Upper and Lower Bounds on X" -> "Upper and Lower Bounds on X"; "MIPS: Maximum Inner
        # Product Search to Solve" -> "MIPS: Maximum Inner Product Search")
        mend = mended(title, sentences)
        if mend != title and not broken(mend, sentences):
            return mend, sentences, None
    options = _options(title, first, pool, scores, found, sentences)
    keep = set(content_words(title))
    # a name the abstract gives its own work is what a reader looks the paper up by: a title
    # that drops it mends nothing ("UNIT: Unsupervised Image-to-Image Translation" is not
    # replaced by "Unsupervised Image-to-Image Translation Framework Based on Coupled GANs")
    name, colon, _ = title.partition(": ")
    own_name = name if colon and not established(name) and not symbol(name) else ""
    # a title of a "While ...", "If ..." clause's words names a contrast or a condition: the
    # plain title, of three words of substance at least, says more of the paper; when that is
    # all that is wrong with the title, only the plain title replaces it (a title that shares
    # the clause's words keeps the contrast: "Pair of Operators" of "... bottom-up local operators")
    in_clause = not colon and in_an_opening_clause(title.split(), sentences)
    misplaced = [t for t in _plain(found, sentences) if len(content_words(t)) >= 3] if in_clause else []
    if in_clause and not broken(title, sentences, clause=False) and not opens_a_clause(title.split()) \
            and not holds_a_verb(title.split(), ". ".join(sentences)):
        options = iter(misplaced)
    backed: list[tuple[int, int, int, int, str, float]] = []
    for k, option in enumerate(options):
        if not option or option == title or not _whole(Candidate(option, CONTRIBUTION, 0)):
            continue
        if colon and not own_name and option.partition(": ")[0] == name:
            continue  # "KK: Mixture Model" mends nothing of "KK: Sample Complexity ..."
        if own_name and own_name not in option.split(": ")[0].split():
            continue
        shared = len(keep.intersection(content_words(option)))
        if not shared and not long_form(option) and option not in misplaced:
            # the same subject, mended, not another one (unless the title's is no subject of the
            # paper: then what the paper says it proposes or studies)
            continue
        c = confidence(sentences, option)
        if c >= REPLACES and c > conf and not (opens_a_clause(option.split()) or holds_a_verb(option.split(), ". ".join(sentences))):
            # (not one that opens or holds a sentence's clause itself)
            # the paper's long form first, then the one that keeps most of the title's subject
            # (for a title of an opening clause's words, the plain title first: its shared words
            # are the contrast's)
            backed.append((-(option in misplaced), -(long_form(option) and c >= 1.0), -shared, k, option, c))
    if not backed:
        return title, sentences, conf
    *_, best_title, best_conf = min(backed)
    return best_title, sentences, best_conf


# A bare title: at most this many words of substance, with no name ("Multinomial Distributions",
# "Matrix Completion Problem", "Adversarial Sample Attacks").
BARE_WORDS = 3


def _substance(words: Sequence[str]) -> set[str]:
    """The folded words of a phrase that name something: not a stop word, a generic head, a vague
    noun, a count or a word of every field ("Three Families of Heuristics": heuristic)."""
    return {w for w in _folded_words(words) if w not in _COMMON and w not in COUNTS and w not in PARTITIVE
            and any(ch.isalpha() for ch in w)}


def _widened(title: str, sentences: list[str]) -> str:
    """What the paper says it proposes or studies, in place of a bare title of its background
    ("Adversarial Sample Attacks" -> "Adversarial Sample Detection Technique for Face Recognition
    Models", "Probabilistic Word Embeddings" -> "Density Order Embeddings"), or its phrase with what
    the paper does to it ("Anomaly Detection" -> "Calibrated Anomaly Detection"); '' when the title
    says that already or nothing replaces it.

    Only a title of at most :data:`BARE_WORDS` words of substance, no name, and words no statement
    of the paper's work holds (its phrase is the field, a setting, an object met on the way: the
    abstract backs it below 1); and only by a phrase of the statement (or the plain title) that the
    abstract backs (:data:`CONFIDENT`), whole, sharing a word of substance with the title and
    naming no less: the same subject with what the paper does to it, not another one."""
    if ": " in title or not sentences:
        return ""
    words = title.split()
    own = _substance(words)
    if not own or len([w for w in words if w.lower() not in _STOP]) > BARE_WORDS or backing(title, sentences) >= 1.0:
        return ""
    options = [_compose("", list(w)) for w in statement_phrases(sentences)] + [plain_title(sentences)]
    best_option, best_shared = "", 0
    for option in dict.fromkeys(o for o in options if o and o != title):
        low = [w.lower() for w in option.split()]
        said = _substance(option.split())
        # the title's subject is what the phrase is about, not a word of its tail: not "Generally
        # Applicable Form of Attention Mechanism" for "High-Order Attention Mechanism"
        head = next((k for k, w in enumerate(low) if w in PREPOSITIONS), len(low))
        shared = len(own & _substance(option.split()[:head]))
        if not shared or len(said) < len(own) or len(content_words(option)) < len(content_words(title)) \
                or shared <= best_shared:
            continue
        if ANAPHORA.intersection(low) or low[0] in _REFERRING or not _whole(Candidate(option, CONTRIBUTION, 0)) \
                or broken(option, sentences) or confidence(sentences, option) < CONFIDENT:
            continue
        best_option, best_shared = option, shared
    if best_option:
        return best_option
    # else the title's phrase with what the paper does to it, where a sentence of its own says so:
    # "This paper concerns calibrated anomaly detection" (a phrase of a sentence about the paper's
    # work, backed as such: no less than the title)
    # (what it adds must say something: not "... with a Novel Deep Learning Approach"; and the
    # phrase opens on a word of its own, not the verb's preposition: "On Quality of Word Embeddings")
    least = max(WIDENED, confidence(sentences, title))
    folded = _folded_words(words)
    for phrase in widened_phrases(title, sentences):
        option = _compose("", phrase)
        added = [w for w in option.split() if _folded_words([w]).isdisjoint(folded)]
        if option and option.split()[0].lower() not in PREPOSITIONS and not says_little(added) \
                and _whole(Candidate(option, CONTRIBUTION, 0)) and not _REFERRING.intersection(option.lower().split()) \
                and all(w.isascii() for w in option.split()) and not broken(option, sentences) \
                and confidence(sentences, option) >= least:
            return option
    return ""


# How well the abstract must back a bare title's phrase widened by what the paper does to it: as a
# phrase of a sentence about the paper's work (:func:`.faithful.backing`).
WIDENED = 0.7


# Words that point at a phrase a title lacks ("Above Problem", "Following Favorable Guarantees").
_REFERRING = frozenset({"above", "following", "latter", "former", "same", "aforementioned"})


def _stated_instead(title: str, kind: str, sentences: list[str], ctx: Context) -> str:
    """The phrase the paper states its work in ("we propose X", "we study X"), as a title, when it
    may replace an uncertain title: the abstract backs it (one phrase of one sentence, whole) and
    the word model expects it to share nearly as many words with the real title (:data:`MARGINS`);
    with the title's name when the paper presents that as its own. '' when there is none.
    (The cheap tests first: most titles have no such phrase, or none the word model likes as well.)"""
    phrases = statement_phrases(sentences)
    if not phrases:
        return ""
    name, colon, _ = title.partition(": ")
    name = name if colon else ""
    if name and (not name_is_ours(name, sentences) or said_where_named(title, sentences)):
        # a name the paper may be known by, or another's, is not dropped here; and what the
        # sentence naming the work says it is, is what it is, not a part of it found later
        return ""

    def expected(t: str) -> float:
        return ctx.model.expected_f(content_words(t.partition(": ")[2] or t), ctx.salience)

    least = expected(title) - MARGINS.get(kind, MARGINS["other"])
    options: list[tuple[float, str]] = []
    for words in phrases:
        if name in words:
            words = trim([w for w in words if w != name]) or words  # "a new method SAGA": "SAGA: New Method"
        stated = _compose(name, words)
        if stated and (f := expected(stated)) >= least:
            options.append((f, stated))
    if not options or confidence(sentences, title) >= CONFIDENT:
        return ""
    for _, stated in sorted(options, key=lambda o: -o[0]):
        if _whole(Candidate(stated, CONTRIBUTION, 0)) and confidence(sentences, stated) >= CONFIDENT:
            return stated
    return ""


def _own_long_forms(title: str, found: Sequence[Candidate], sentences: list[str]) -> list[str]:
    """The paper's own name with its own long form ("SAD: Simplified Action Decoder"), when the
    candidates hold it, the title is another, and the long form says some of what the title says.
    (A long form sharing no word of the title's is most often another thing the paper names: of
    the 62 such on the fitted venues that replaced an uncertain title, 37 shared fewer words with
    the real title, "SAA: Sample Average Approximation" for "SAA: Robust Policies for Uncertain
    Markov Decision Processes", and 19 more.)"""
    tail = title.partition(": ")[2] or title
    said = set(content_words(tail))
    purpose = tail.partition(" for ")[2]
    out = []
    for c in found:
        if c.title and ": " in c.title or c.name and spells(c.name, c.words):  # composed only if it may be one
            option = c.composed()
            if option != title and long_form(option) and said.intersection(content_words(option.partition(": ")[2])) \
                    and name_is_ours(option.partition(": ")[0], sentences):
                if purpose and len(option) + len(purpose) + 5 <= MAX_LENGTH \
                        and not set(content_words(purpose)).intersection(content_words(option)):
                    # with what the title said it is for: "SDCB: Stochastically Dominant
                    # Confidence Bound for Stochastic Combinatorial Multi-Armed Bandits"
                    out.append(f"{option} for {purpose}")
                out.append(option)
    return out


def _options(title: str, first: Candidate, pool: list[Candidate], scores: dict[int, float],
             found: Sequence[Candidate], sentences: list[str]):
    """The titles a broken title may yield to, composed one by one."""
    name, colon, tail = title.partition(": ")
    if colon and (established(name) or symbol(name)):
        yield tail[:1].upper() + tail[1:]  # "CLT: ...", "KK: ...": an existing method or a symbol is no name of the paper's
    others = sorted((c for c in pool if c is not first), key=lambda c: (-scores[id(c)], c.rank))
    for c in others[:TRIES - 1]:
        yield c.composed()
    yield from _plain(found, sentences)


def _plain(found: Sequence[Candidate], sentences: list[str]) -> list[str]:
    """The plain titles of the contribution statement, with the paper's own name when it has one."""
    name = next((c.name or c.title.partition(": ")[0] for c in found if _is_named(c) and (c.name or ": " in c.title)), "")
    if name and not name_is_ours(name, sentences):
        name = ""
    return [t for t in dict.fromkeys(plain_title(sentences, n) for n in dict.fromkeys((name, ""))) if t]


def best(text: str, weights: Sequence[float] | None = None) -> str:
    """The abstract's title (:func:`derived` without its confidence)."""
    return _chosen(text, weights)[0]


def derive_title(text: str) -> str:
    """A title for one abstract."""
    return best(text)


def first_titles(texts: Sequence[str]) -> list[str]:
    """Each abstract's preferred title, before titles are made unique (pure, per abstract)."""
    return [best(t) for t in texts]


def first_derived(texts: Sequence[str]) -> list[tuple[str, float]]:
    """Each abstract's preferred title with its confidence (pure, per abstract)."""
    return [derived(t) for t in texts]
