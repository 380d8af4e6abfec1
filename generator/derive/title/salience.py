"""Salience: how likely each word of an abstract is to be a word of its title.

A title is made of a few of the abstract's words, and which ones is much easier to learn
word by word (every abstract gives a label for each of its words) than title by title (one
choice per abstract). Each distinct word of the abstract gets a few interpretable features:
how often it occurs, whether in the opening sentence or in a sentence about the paper's own
work, whether the authors capitalise it, how rare it is in ML abstracts, which of the word
lists of ``words.yml`` it belongs to, and how often titles hold it when abstracts do (a
lexicon of the words of at least :data:`LEXICON_MIN` fitted abstracts, ``title_words.json``:
"learning" and "networks" often, "paper" and "results" never). A logistic model of them,
fitted on real titles by
``benchmarks/fit_titles.py`` (``word_weights`` in ``weights.json``), gives each word the
probability that the title holds it. A candidate's expected ROUGE-1 F against the unknown
real title follows: twice the sum of its words' probabilities over its length plus the
usual length of a real title (``title_words``, measured by the same fit).

Reading an abstract's words is one pass over its sentences: linear in its length.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import WordsError
from generator.derive.title.words import (
    _CANNOT_END,
    _STOP,
    BACKGROUND_VERBS,
    FILLER,
    GENERIC,
    NOT_DOMAIN,
    VAGUE,
    VERB_FORMS,
)

WORD_FEATURES = (
    "bias", "log_count", "repeated", "in_opening", "first_position", "in_ours", "capitalised", "acronym",
    "rarity", "rarity_count", "digits", "length", "generic", "vague", "not_domain", "verb", "cannot_end",
    "ing", "ly", "log_ours_count", "log_early_count", "title_prior", "log_abstracts", "in_repeated_pair",
)
LEXICON_FILE = Path(__file__).with_name("title_words.json")
# Only words this many fitted abstracts hold are in the lexicon: a word of a few papers
# would remember those papers' titles rather than say how titles use it.
LEXICON_MIN = 10


@dataclass(frozen=True)
class Lexicon:
    """How often titles hold each common word when their abstracts do."""

    counts: dict[str, tuple[int, int]]  # word -> (abstracts holding it, titles among them holding it)
    prior: float  # the share of all abstract words that titles hold
    smoothing: float  # abstracts' worth of the prior added to each word's counts

    def values(self, word: str, own: Collection[str] | None = None) -> tuple[float, float]:
        """(log-odds that a title holds the word, log of the abstracts holding it). ``own``: the
        real title's words, when the abstract is one of those counted (the fit leaves it out)."""
        n, t = self.counts.get(word, (0, 0))
        if own is not None and n:
            n, t = n - 1, t - (word in own)
        p = (t + self.smoothing * self.prior) / (n + self.smoothing)
        return math.log(p / (1 - p)), math.log1p(n)


def load_lexicon(path: Path = LEXICON_FILE) -> Lexicon:
    shown = f"generator/derive/title/{path.name}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        counts = {w: (int(n), int(t)) for w, (n, t) in data["words"].items()}
        return Lexicon(counts, float(data["prior"]), float(data["smoothing"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise WordsError(f"cannot read the title-word lexicon: {e}; run benchmarks/fit_titles.py", shown) from None
_WORD = re.compile(r"[A-Za-z0-9]+")


class AbstractWords:
    """The statistics of an abstract's content words, gathered in one pass over its sentences
    (counted in bulk: a record per word updated per token was the stage's slowest part), and
    each word's :data:`WORD_FEATURES` computed when asked for: only the words of candidates are."""

    def __init__(self, sentences: Sequence[str], ours: Sequence[bool], rarity: dict[str, float], lexicon: Lexicon,
                 own: Collection[str] | None = None):
        self.rarity, self.lexicon, self.own = rarity, lexicon, own
        self.n = len(sentences) or 1
        self.count: Counter[str] = Counter()
        self.ours: Counter[str] = Counter()
        self.early: Counter[str] = Counter()
        self.first: dict[str, int] = {}
        self.opening: frozenset[str] = frozenset()
        self.capitalised: set[str] = set()  # written with a capital other than at a sentence's start
        self.acronym: set[str] = set()  # written with two capitals or more
        pairs: Counter[tuple[str, str]] = Counter()  # adjacent content words ("gradient descent")
        for i, sentence in enumerate(sentences):
            tokens = _WORD.findall(sentence)
            lowered = _WORD.findall(sentence.lower())
            pairs.update((a, b) for a, b in zip(lowered, lowered[1:]) if a not in _STOP and b not in _STOP)
            words = [t for t in lowered if t not in _STOP]
            self.count.update(words)
            if ours[i]:
                self.ours.update(words)
            if i < 2:
                self.early.update(words)
            if i == 0:
                self.opening = frozenset(words)
            for w in words:
                self.first.setdefault(w, i)
            for k, token in enumerate(tokens):
                if not token.islower() and not token.isdigit():
                    low = token.lower()
                    if k and token[:1].isupper():
                        self.capitalised.add(low)
                    if sum(c.isupper() for c in token) >= 2:
                        self.acronym.add(low)
        # words of a term the abstract repeats: its multiword terms are what titles name
        self.paired = {w for pair, n in pairs.items() if n >= 2 for w in pair}

    def __contains__(self, word: str) -> bool:
        return word in self.count

    def features(self, word: str) -> list[float]:
        """The word's values of :data:`WORD_FEATURES` (it must be a content word of the abstract)."""
        count, ours = self.count[word], self.ours[word]
        r = self.rarity.get(word, 1.0)
        log_count = math.log1p(count)
        return [
            1.0, log_count, float(count >= 2), float(word in self.opening), self.first[word] / self.n, float(ours > 0),
            float(word in self.capitalised), float(word in self.acronym), r, r * log_count, float(word.isdigit()),
            min(len(word), 12) / 12, float(word in GENERIC), float(word in VAGUE), float(word in NOT_DOMAIN),
            float(word in VERB_FORMS or word in BACKGROUND_VERBS), float(word in _CANNOT_END or word in FILLER),
            float(word.endswith("ing")), float(word.endswith("ly")), math.log1p(ours), math.log1p(self.early[word]),
            *self.lexicon.values(word, self.own), float(word in self.paired),
        ]


def word_features(sentences: Sequence[str], ours: Sequence[bool], rarity: dict[str, float], lexicon: Lexicon,
                  own: Collection[str] | None = None) -> dict[str, list[float]]:
    """Each content word of the sentences (lower-cased, as :func:`.choose.content_words` reads
    a title) with its values of :data:`WORD_FEATURES`; ``ours`` marks the sentences in which
    the paper speaks of its own work; ``own`` is for the fit (see :meth:`Lexicon.values`)."""
    words = AbstractWords(sentences, ours, rarity, lexicon, own)
    return {w: words.features(w) for w in words.count}


class Salience:
    """The probability that the real title holds each word, computed on first asking (0 for a
    word the abstract does not hold)."""

    def __init__(self, words: AbstractWords, model: "WordModel"):
        self.words, self.model, self.known = words, model, {}

    def get(self, word: str, default: float = 0.0) -> float:
        p = self.known.get(word)
        if p is None:
            p = self.known[word] = self.model.probability(self.words.features(word)) if word in self.words else default
        return p

    def __getitem__(self, word: str) -> float:
        return self.get(word)


@dataclass(frozen=True)
class WordModel:
    """The fitted logistic model: one weight per word feature, and a real title's usual length
    in content words."""

    weights: tuple[float, ...]
    title_words: float

    def probability(self, values: Sequence[float]) -> float:
        z = sum(v * w for v, w in zip(values, self.weights))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def probabilities(self, features: dict[str, list[float]]) -> dict[str, float]:
        return {word: self.probability(values) for word, values in features.items()}

    def expected_f(self, words: Sequence[str], probabilities) -> float:
        """The expected ROUGE-1 F of a title of these content words (repeats count once)."""
        if not words:
            return 0.0
        # summed in a fixed order: a set's order moves with the hash seed, and so would the last
        # bit of the sum, which decides between two titles of the same words ("X for Y", "Y for X")
        return 2 * math.fsum(probabilities.get(w, 0.0) for w in set(words)) / (len(words) + self.title_words)
