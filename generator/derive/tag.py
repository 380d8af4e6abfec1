"""The tagging stage: give each paper the topics of the taxonomy its abstract is about.

Two kinds of evidence, read in one pass over the abstract's words:

- **phrases**: the taxonomy's phrases and acronyms, looked up in one dictionary of all
  phrases (longest first); only a word that starts some phrase is looked up, so the cost
  grows with the length of the abstract, not with the size of the taxonomy. A topic's
  phrase score adds up its mentions, weighted by where they occur: the opening sentences
  say what a paper is about, a late sentence often only mentions a related field.
- **terms**: the abstract's words and word pairs, weighted by tf-idf, against each topic's
  profile of terms (``topic_weights.json``): what papers on the topic say, whether or not
  they spell the taxonomy's phrases;
- **classifier**: the same tf-idf vector through each topic's own linear classifier of terms,
  learned from the expert-labelled abstracts: which words tell the topic's papers from the
  others' (a profile only says what its papers say, common words included).

A handful of features of each topic (how strong its phrases, its terms and its classifier
are, and how they compare with the abstract's strongest topic) go through one logistic model
shared by all topics, so a topic with few papers to learn from is still tagged from its
phrases. Topics become tags best first while each one's probability reaches the threshold of
its place (a second tag needs less than a third: the later a tag, the likelier it is only a
field the abstract mentions) and a share of the first tag's, up to ``max_tags`` tags. The model,
the profiles and the rule are fitted by ``benchmarks/fit_topics.py`` on the labelled abstracts of
``benchmarks/data/topic_labels.jsonl`` marked ``fit``.
"""
from __future__ import annotations

import dataclasses
import difflib
import math
import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from generator.core import schema
from generator.core.errors import TaxonomyError
from generator.core.model import Paper, Topic
from generator.core.schema import Report, check
from generator.core.text import sentences
from generator.core.yamlfile import load_yaml

TAXONOMY = Path(__file__).with_name("taxonomy.yml")
WEIGHTS = Path(__file__).with_name("topic_weights.json")

# An expert labels a paper with one main topic and up to three more (../shared/topic_labelling.md).
MAX_TAGS = 4
# Weight of one mention by sentence: the first sentence states the subject, the
# second usually narrows it; later ones add detail, context or experiments.
SENTENCE_WEIGHTS = (3.0, 2.5)
LATER_WEIGHT = 1.0
# The last sentence of a longer abstract often looks beyond the paper ("could serve as fast
# policies for reinforcement learning"): its mentions count this much.
LAST_WEIGHT = 0.25
LAST_FROM = 4  # sentences an abstract needs for its last one to count as an outlook
# Terms of the first two sentences count this much more than later ones (fitted: early_weight).
EARLY_SENTENCES = 2
# The features of a topic, in the order the model's weights are read.
# (Indicators of the strongest topic were tried: collinear with the shares, they took negative
# weights that put a tied second topic first.)
FEATURES = ("bias", "phrase", "phrase_share", "terms", "terms_share", "classifier", "classifier_gap")


_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# A sentence boundary, written into the text as a word no phrase can contain.
_BREAK = "\x00"
# Every other character that is not a letter or digit separates words ("vision–language"
# is "vision language"); mapping them to spaces and splitting is the fastest tokenizer
# CPython has.
_SPACES = str.maketrans({c: " " for c in range(0x3000) if not chr(c).isalnum() and chr(c) != _BREAK})
# URLs and LaTeX macro names (\textbf, \emph) are not words of the abstract.
_SKIP = re.compile(r"(?:https?://|www\.)\S+|\\[A-Za-z]+")


# -- loading ---------------------------------------------------------------------------


def load_taxonomy(path: Path | None = None) -> list[Topic]:
    """Read and validate the taxonomy (default: ``taxonomy.yml`` next to this module).

    The file's shape is :data:`generator.core.schema.TAXONOMY`; on top of it, a slug is
    lower-case words joined by hyphens, phrases hold words, acronyms capitals,
    names and slugs are unique and at most one topic is the catch-all. Every
    problem of the file is reported at once, each naming the file, the line and the
    topic. Acronyms are kept with their capitals in :attr:`Topic.phrases` (see
    :func:`tag_paper`); plain phrases are lower-cased.
    """
    doc = load_yaml(path or TAXONOMY, TaxonomyError)
    problem = check(doc, schema.TAXONOMY, TaxonomyError)
    if problem.fatal:
        problem.raise_all()
    topics = [_read_topic(index, entry, problem) for index, entry in problem.records("topics")]
    _check_unique(doc.data["topics"], problem)
    _check_parents(doc.data["topics"], problem)
    problem.raise_all()
    return [topic for topic in topics if topic is not None]


def _read_topic(index: int, entry: dict, problem: Report) -> Topic | None:
    """The topic of an entry of the right shape, or None after reporting what else is wrong."""
    at = ("topics", index)
    label = f"topic {entry['name']!r}"
    before = len(problem.errors)
    for key in ("phrases", "acronyms"):
        for i, item in enumerate(entry.get(key, [])):
            if not item.translate(_SPACES).split():
                problem(f"{label}: {key!r} entries must be words, not {item!r}", *at, key, i)
            elif key == "acronyms" and item == item.lower():
                problem(f"{label}: acronym {item!r} has no capitals; put it under 'phrases'", *at, key, i)
    slug = entry["slug"]
    if not _SLUG.match(slug):
        problem(f"{label}: slug {slug!r} must be lower-case words joined by hyphens", *at, "slug")
    phrases = entry.get("phrases", [])
    acronyms = entry.get("acronyms", [])
    if entry.get("catch_all") is True:
        if phrases or acronyms:
            problem(f"{label}: the catch-all topic is given only when nothing else matches; it takes no phrases", *at)
    elif not phrases and not acronyms:
        where = "phrases" if "phrases" in entry else "acronyms"
        problem(f"{label}: no phrases or acronyms: the topic could never be given", *at, where)
    if len(problem.errors) != before:
        return None
    return Topic(
        name=entry["name"].strip(),
        slug=slug,
        description=entry["description"].strip(),
        phrases=tuple([p.lower() for p in phrases] + acronyms),
        catch_all=entry.get("catch_all", False),
        parent=entry.get("parent", "").strip(),
    )


def _check_unique(entries: list[object], problem: Report) -> None:
    first_at: dict[tuple[str, str], int] = {}  # the index of the topic that used it first
    catch_all = None
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        for key in ("name", "slug"):
            value = entry.get(key)
            if not isinstance(value, str):
                continue
            first = first_at.setdefault((key, value.strip().casefold()), index)
            if first != index:  # (lines are looked up only for a problem: a shipped file finds them then)
                problem(f"topic {entry.get('name')!r}: duplicate {key} {value!r} "
                        f"(first used on line {problem.doc.line('topics', first, key)})", "topics", index, key)
        if entry.get("catch_all") is True:
            if catch_all is None:
                catch_all = entry.get("name")
            else:
                problem(
                    f"topic {entry.get('name')!r}: only one topic may be the catch-all (already {catch_all!r})",
                    "topics", index, "catch_all",
                )


def _check_parents(entries: list[object], problem: Report) -> None:
    """A parent is another topic's slug, not the catch-all's, and no topic is its own ancestor."""
    slugs = {e["slug"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("slug"), str)}
    parent_of: dict[str, str] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("parent"), str):
            continue
        label, parent = f"topic {entry.get('name')!r}", entry["parent"].strip()
        if parent not in slugs:
            near = difflib.get_close_matches(parent, list(slugs), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            problem(f"{label}: parent {parent!r} is not the slug of a topic ({hint}a parent is named by its slug)",
                    "topics", index, "parent")
        elif parent == entry.get("slug"):
            problem(f"{label}: a topic cannot be its own parent", "topics", index, "parent")
        elif slugs[parent].get("catch_all") is True or entry.get("catch_all") is True:
            problem(f"{label}: the catch-all topic cannot be a parent or have one", "topics", index, "parent")
        elif isinstance(entry.get("slug"), str):
            parent_of[entry["slug"]] = parent
    reported: set[str] = set()
    for index, entry in enumerate(entries):
        slug = entry.get("slug") if isinstance(entry, dict) else None
        if slug not in parent_of or slug in reported:
            continue
        path, at = [slug], parent_of[slug]
        while at in parent_of and at not in path:
            path.append(at)
            at = parent_of[at]
        if at == slug:
            reported.update(path)
            problem(f"topic {entry.get('name')!r}: parents go round in a circle: {' -> '.join([*path, slug])}",
                    "topics", index, "parent")


# -- the fitted model --------------------------------------------------------------------


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the matcher is cached per model
class TopicModel:
    """What ``topic_weights.json`` holds: the shared logistic model over :data:`FEATURES`,
    the rule that turns probabilities into tags, and each topic's profile of terms."""

    weights: tuple[float, ...]  # one per feature of FEATURES
    threshold: float  # the first tag's probability must reach this (a later tag's, its place's below)...
    share_of_top: float  # ...and every tag's this share of the first tag's
    early_weight: float  # how much more a term of the first sentences counts
    idf: dict[str, float]  # the vocabulary: term -> inverse document frequency
    profiles: dict[str, dict[str, float]]  # topic slug -> term -> weight (unit length)
    # topic slug -> term -> weight of the topic's linear classifier, and its intercept (a topic
    # without one has a classifier score of 0)
    classifiers: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)
    intercepts: dict[str, float] = dataclasses.field(default_factory=dict)
    max_tags: int = MAX_TAGS  # at most this many tags
    # what the second, third, ... tag's probability must reach (a place past the end: the last
    # entry); none given: ``threshold`` for every place
    later_thresholds: tuple[float, ...] = ()

    def place_threshold(self, place: int) -> float:
        """What the probability of the tag at ``place`` (0: the first) must reach."""
        if place == 0 or not self.later_thresholds:
            return self.threshold
        return self.later_thresholds[min(place, len(self.later_thresholds)) - 1]


NO_MODEL = TopicModel((0.0,) * len(FEATURES), 1.0, 1.0, 1.0, {}, {})


@lru_cache(maxsize=4)
def load_topic_model(path: Path = WEIGHTS) -> TopicModel:
    """The fitted model, checked against :data:`generator.core.schema.TOPIC_WEIGHTS`; every problem
    raised at once as a :class:`TaxonomyError` naming the file."""
    shown = f"generator/{path.name}" if path.parent == WEIGHTS.parent else str(path)
    doc = schema.load_json(path, schema.TOPIC_WEIGHTS, TaxonomyError, shown)
    data = doc.data
    missing = [f for f in FEATURES if f not in data["weights"]]
    unknown = [f for f in data["weights"] if f not in FEATURES]
    if missing or unknown:
        raise TaxonomyError(f"'weights' must give a number for each feature: {', '.join(FEATURES)} "
                            f"(missing: {', '.join(missing) or '-'}; unknown: {', '.join(unknown) or '-'}); "
                            "run benchmarks/fit_topics.py", shown)
    places = data.get("place_thresholds", {})
    if sorted(places) != [str(p) for p in range(2, len(places) + 2)] or len(places) >= MAX_TAGS:
        raise TaxonomyError(f"'place_thresholds' must map the places of the tags after the first, from 2 up to at most "
                            f"{MAX_TAGS} with none left out, to numbers, not {', '.join(map(repr, places))}; "
                            "run benchmarks/fit_topics.py", shown)
    return TopicModel(
        weights=tuple(float(data["weights"][f]) for f in FEATURES),
        threshold=float(data["threshold"]),
        share_of_top=float(data["share_of_top"]),
        early_weight=float(data["early_weight"]),
        idf={t: float(v) for t, v in data["idf"].items()},
        profiles={slug: {t: float(v) for t, v in terms.items()} for slug, terms in data["profiles"].items()},
        classifiers={slug: {t: float(v) for t, v in terms.items()} for slug, terms in data.get("classifiers", {}).items()},
        intercepts={slug: float(v) for slug, v in data.get("intercepts", {}).items()},
        max_tags=min(MAX_TAGS, int(data.get("max_tags", MAX_TAGS))),
        later_thresholds=tuple(float(places[str(p)]) for p in range(2, len(places) + 2)),
    )


# -- matching --------------------------------------------------------------------------


def tag_paper(paper: Paper, topics: Sequence[Topic], model: TopicModel | None = None) -> Paper:
    """The paper with ``tags`` (1 to the model's ``max_tags`` topic names, best first) and their ``tag_evidence``.

    A phrase matches whole words, ignoring case, hyphens and a plural ending on its
    last word; a phrase written with capitals (an acronym such as ``RL`` or ``NeRF``)
    matches only with exactly those capitals, plus a plural ``s``. A topic with phrase
    evidence is always preferred to the catch-all, which is given only when no topic
    has phrases and none is likely from its terms. ``model`` defaults to the fitted one.
    """
    return _tag(paper, _matcher(tuple(topics), model or load_topic_model()))


def tag_papers(papers: Iterable[Paper], topics: Sequence[Topic], model: TopicModel | None = None) -> list[Paper]:
    """Tag every paper, leaving alone those whose tags a maintainer curated."""
    matcher = _matcher(tuple(topics), model or load_topic_model())
    return [paper if "tags" in paper.curated else _tag(paper, matcher) for paper in papers]


# (topic index, the phrase as the taxonomy writes it, the capitals an acronym needs or "")
Hit = tuple[int, str, str]


@dataclass(frozen=True)
class _Matcher:
    topics: tuple[Topic, ...]
    # a phrase's words, lower-cased and joined by spaces -> what it is evidence of
    hits: dict[str, tuple[Hit, ...]]
    # the words phrases start with, and the sentence break: every other word is skipped at once
    firsts: frozenset[str]
    # the first two words of longer phrases -> their numbers of words, longest first
    lengths: dict[str, tuple[int, ...]]
    catch_all: int | None
    model: TopicModel
    # term -> its row of ``profiles``; empty when no topic of this taxonomy has a profile
    rows: dict[str, int]
    # the weight of each term (row) in each topic's profile (the first len(topics) columns) and in
    # each topic's classifier (the next ones): one matrix, so an abstract's scores are one product
    profiles: np.ndarray
    # each topic's classifier intercept
    intercepts: np.ndarray


@lru_cache(maxsize=8)
def _matcher(topics: tuple[Topic, ...], model: TopicModel = NO_MODEL) -> _Matcher:
    hits: dict[str, list[Hit]] = {}
    lengths: dict[str, set[int]] = {}
    for index, topic in enumerate(topics):
        for phrase in topic.phrases:
            case_sensitive = phrase != phrase.lower()
            words = phrase.translate(_SPACES).split()
            for last in _inflections(words[-1], case_sensitive):
                written = " ".join([*words[:-1], last])
                entries = hits.setdefault(written.lower(), [])
                if all(i != index for i, _, _ in entries):
                    entries.append((index, phrase, written if case_sensitive else ""))
                if len(words) > 1:
                    lengths.setdefault(" ".join(written.lower().split()[:2]), set()).add(len(words))
    # the profiles as one matrix (term row x topic column): an abstract's term scores are one product
    rows = {term: row for row, term in enumerate(model.idf)}
    profiles = np.zeros((len(rows), len(topics)), dtype=np.float64)
    classifiers = np.zeros((len(rows), len(topics)), dtype=np.float64)
    intercepts = np.zeros(len(topics), dtype=np.float64)
    for index, topic in enumerate(topics):
        if not topic.catch_all:
            for term, weight in model.profiles.get(topic.slug, {}).items():
                if term in rows:
                    profiles[rows[term], index] = weight
            for term, weight in model.classifiers.get(topic.slug, {}).items():
                if term in rows:
                    classifiers[rows[term], index] = weight
            intercepts[index] = model.intercepts.get(topic.slug, 0.0)
    return _Matcher(
        topics=topics,
        hits={k: tuple(v) for k, v in hits.items()},
        firsts=frozenset([_BREAK, *(key.split()[0] for key in hits)]),
        lengths={two: tuple(sorted(ns, reverse=True)) for two, ns in lengths.items()},
        catch_all=next((i for i, t in enumerate(topics) if t.catch_all), None),
        model=model,
        rows=rows if profiles.any() or classifiers.any() else {},
        profiles=np.hstack([profiles, classifiers]),
        intercepts=intercepts,
    )


def _inflections(word: str, case_sensitive: bool) -> tuple[str, ...]:
    if case_sensitive:
        return (word, word + "s")
    forms = [word, word + "s", word + "es"]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        forms.append(word[:-1] + "ies")
    return tuple(forms)


def tag_texts(texts: Iterable[str], topics: Sequence[Topic],
              model: TopicModel | None = None) -> list[tuple[tuple[str, ...], tuple]]:
    """(tags, evidence) for each abstract text: what :func:`tag_papers` sets, for work on texts alone."""
    matcher = _matcher(tuple(topics), model or load_topic_model())
    return [_choose(text, matcher) for text in texts]


def _tag(paper: Paper, m: _Matcher) -> Paper:
    tags, evidence = _choose(paper.text, m)
    return dataclasses.replace(paper, tags=tags, tag_evidence=evidence)


# How many of a tag's strongest terms are shown as its evidence, after its phrases.
EVIDENCE_TERMS = 3


def _choose(text: str, m: _Matcher) -> tuple[tuple[str, ...], tuple]:
    candidates, features, phrase_evidence, term_parts = topic_features(text, m)
    logits = features @ np.asarray(m.model.weights) if len(candidates) else np.zeros(0)
    chosen = pick(dict(zip(candidates.tolist(), logits.tolist())), m.model, phrase_evidence)
    if len(chosen) > 1:
        chosen = not_by_the_outlook(chosen, text, m)
    if not chosen and m.catch_all is not None:
        chosen = [m.catch_all]
    return (
        tuple(m.topics[i].name for i in chosen),
        tuple((m.topics[i].name, _evidence(phrase_evidence.get(i, []), term_parts(i))) for i in chosen),
    )


def not_by_the_outlook(chosen: list[int], text: str, m: _Matcher) -> list[int]:
    """The tags ``chosen`` (best first), less a later one that only the abstract's last sentence
    names ("could serve as fast policies for reinforcement learning" says what the paper might be
    used for, not what it is about): such a tag must keep its place with that sentence's terms
    counting :data:`LAST_WEIGHT`, as its phrases do. The first tag stays, and an abstract with
    no outlook sentence (fewer than :data:`LAST_FROM`) keeps its tags."""
    suspects = outlook_only(text, m)
    if not suspects.intersection(chosen[1:]):
        return chosen
    candidates, features, _, _ = topic_features(text, m, last_weight=LAST_WEIGHT)
    return outlook_checked(chosen, dict(zip(candidates.tolist(), (features @ np.asarray(m.model.weights)).tolist())),
                           suspects, m.model)


def outlook_only(text: str, m: _Matcher) -> set[int]:
    """The topics whose phrases the abstract's outlook sentence (its last, of :data:`LAST_FROM` or
    more) names and no sentence before it."""
    lower, written = _words(text)
    if lower.count(_BREAK) + 1 < LAST_FROM:
        return set()
    cut = len(lower) - 1 - lower[::-1].index(_BREAK)
    return set(_score(lower, written, m)[0]) - set(_score(lower[:cut], written, m)[0])


def outlook_checked(chosen: list[int], logits: dict[int, float], suspects: Container[int],
                    model: TopicModel) -> list[int]:
    """The tags ``chosen``, less the ``suspects`` that do not keep their places by ``logits``, the
    abstract's with its outlook sentence's terms counting :data:`LAST_WEIGHT`
    (:func:`not_by_the_outlook`); the first stays."""
    kept = chosen[:1]
    for i in chosen[1:]:
        if i not in suspects or (i in logits and _sigmoid(logits[i]) >= model.place_threshold(len(kept))):
            kept.append(i)
    return kept


def pick(logits: dict[int, float], model: TopicModel, phrased: Container[int]) -> list[int]:
    """The tags (topic indexes, best first) of an abstract whose candidate topics have ``logits``
    (``phrased``: those its phrases name); empty when only the catch-all fits."""
    ranked = sorted(logits, key=lambda i: (-logits[i], i))
    if not ranked:
        return []
    top = _sigmoid(logits[ranked[0]])
    chosen: list[int] = []
    for place, i in enumerate(ranked[: model.max_tags]):
        if _sigmoid(logits[i]) < max(model.place_threshold(place), model.share_of_top * top):
            break
        chosen.append(i)
    if not chosen and (ranked[0] in phrased or top >= model.threshold / 2):
        # Nothing reaches the threshold: the likeliest topic still says more than the catch-all,
        # if its phrases name it or its terms make it half as likely as a tag must be.
        chosen = ranked[:1]
    return chosen


def _evidence(phrases: list[str], terms: dict[str, float]) -> tuple[str, ...]:
    """The phrases that matched, in text order, then the strongest terms they do not already say."""
    said = {p.lower() for p in phrases}
    strongest = sorted(terms, key=lambda t: (-terms[t], t))
    return (*phrases, *[t for t in strongest if t not in said][:EVIDENCE_TERMS])


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def topic_features(text: str, m: _Matcher, last_weight: float = 1.0) -> tuple[
        np.ndarray, np.ndarray, dict[int, list[str]], Callable[[int], dict[str, float]]]:
    """The topics with phrase or term evidence or a positive classifier score (their indexes, ascending) and a row of their
    :data:`FEATURES` each; topic index -> the phrases found; and a function giving, for a topic
    index, each term's part of the topic's term score (computed only for the topics shown).
    ``last_weight``: how much the terms of an outlook sentence (:func:`not_by_the_outlook`) count."""
    lower, written = _words(text)
    found, phrase_evidence = _score(lower, written, m)
    terms, classified, term_parts = _terms(lower, m, last_weight)
    phrases = np.zeros(len(m.topics))
    if found:
        phrases[list(found)] = list(found.values())
    candidates = np.flatnonzero((phrases > 0) | (terms > 0) | (classified > 0))
    p, t, c = phrases[candidates], terms[candidates], classified[candidates]
    features = np.empty((len(candidates), len(FEATURES)))
    if len(candidates):
        top_p, top_t = p.max(), t.max()
        features[:, 0] = 1.0
        features[:, 1] = np.log1p(p)
        features[:, 2] = p / top_p if top_p > 0 else 0.0
        features[:, 3] = t
        features[:, 4] = t / top_t if top_t > 0 else 0.0
        features[:, 5] = c
        features[:, 6] = c - c.max()
    return candidates, features, phrase_evidence, term_parts


def _words(text: str) -> tuple[list[str], str]:
    """The abstract's words lower-cased, with a sentence break between sentences, and the
    text they were split from (whose words keep their capitals)."""
    # Checked with `in` first: few abstracts have either, and the scan would cost more than the rest.
    if "\\" in text or "http" in text or "www." in text:
        text = _SKIP.sub(" ", text)
    text = f" {_BREAK} ".join(sentences(text))
    text = text.translate(_SPACES)
    return text.lower().split(), text


def term_counts(lower: Sequence[str], early_weight: float, vocabulary: Container[str] | None = None,
                last_weight: float = 1.0) -> dict[str, float]:
    """Term -> weighted count: every word and every pair of neighbouring words of a sentence
    (``"radiance field"``), those of the first sentences counting ``early_weight`` times, and
    those of the last ``last_weight`` times if the abstract has :data:`LAST_FROM` sentences or
    more; only the terms of ``vocabulary`` if given."""
    end = 0
    for _ in range(EARLY_SENTENCES):
        end = lower.index(_BREAK, end) + 1 if _BREAK in lower[end:] else len(lower)
    last = len(lower)
    if last_weight != 1.0 and lower.count(_BREAK) + 1 >= LAST_FROM:
        last = len(lower) - 1 - lower[::-1].index(_BREAK)
    counts: dict[str, float] = {}
    for part, weight in ((lower[:end], early_weight), (lower[end:last], 1.0), (lower[last:], last_weight)):
        # a pair across a sentence break holds the break, which no vocabulary term does
        found = Counter(part)
        found.update(map(" ".join, zip(part, part[1:])))
        for term, n in found.items():
            if vocabulary is None or term in vocabulary:
                counts[term] = counts.get(term, 0.0) + n * weight
    if vocabulary is None:
        counts = {t: c for t, c in counts.items() if _BREAK not in t}
    return counts


def term_vector(lower: Sequence[str], idf: dict[str, float], early_weight: float,
                last_weight: float = 1.0) -> dict[str, float]:
    """The abstract's terms of the vocabulary ``idf``, weighted (1 + log count) * idf, of unit length."""
    vector = {}
    for term, count in term_counts(lower, early_weight, idf, last_weight).items():
        weight = idf[term]
        vector[term] = (1.0 + math.log(count)) * weight if count >= 1 else count * weight
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {t: v / norm for t, v in vector.items()} if norm else {}


def _terms(lower: Sequence[str], m: _Matcher,
           last_weight: float = 1.0) -> tuple[np.ndarray, np.ndarray, Callable[[int], dict[str, float]]]:
    """Each topic's score of the abstract's terms against its profile (a cosine) and its classifier's
    score, and a function giving a topic's terms with their parts of its logit (through the two)."""
    vector = term_vector(lower, m.model.idf, m.model.early_weight, last_weight) if m.rows else {}
    if not vector:
        return np.zeros(len(m.topics)), m.intercepts.copy(), lambda topic: {}
    terms = list(vector)
    values = np.fromiter(vector.values(), dtype=np.float64, count=len(terms))
    weights = m.profiles[[m.rows[t] for t in terms]]
    n = len(m.topics)
    w_terms, w_classifier = m.model.weights[3], m.model.weights[5]

    def parts(topic: int) -> dict[str, float]:
        logit = values * (w_terms * weights[:, topic] + w_classifier * weights[:, n + topic])
        return {t: float(v) for t, v in zip(terms, logit) if v > 0}

    scores = values @ weights
    return scores[:n], m.intercepts + scores[n:], parts


def _score(lower: list[str], text: str, m: _Matcher) -> tuple[dict[int, float], dict[int, list[str]]]:
    """Topic index -> weighted mentions, and topic index -> the phrases found, in text order."""
    words: list[str] = []  # as written, split only when an acronym needs its capitals checked
    scores: dict[int, float] = {}
    evidence: dict[int, list[str]] = {}
    counted: set[tuple[int, int]] = set()  # (topic, sentence) already scored once
    sentence, weight, resume = 0, SENTENCE_WEIGHTS[0], 0
    firsts, lengths, table = m.firsts, m.lengths, m.hits
    last = len(lower) - 1
    final = lower.count(_BREAK) if lower.count(_BREAK) + 1 >= LAST_FROM else -1
    for i, word in enumerate(lower):
        if word not in firsts or i < resume:
            continue
        if word == _BREAK:
            sentence += 1
            weight = SENTENCE_WEIGHTS[sentence] if sentence < len(SENTENCE_WEIGHTS) else LATER_WEIGHT
            if sentence == final:
                weight = LAST_WEIGHT
            continue
        # The longest phrase starting here wins: "vision language model" is not also a "language model".
        longer = lengths.get(f"{word} {lower[i + 1]}") if i < last else None
        for n in (*longer, 1) if longer else (1,):
            hits = table.get(" ".join(lower[i : i + n]) if n > 1 else word)
            if hits is None:
                continue
            found = False
            for topic, phrase, capitals in hits:
                if capitals:
                    words = words or text.split()
                    if " ".join(words[i : i + n]) != capitals:
                        continue
                found = True
                # "reinforcement learning (RL)": more mentions in one sentence add less
                key = (topic, sentence)
                scores[topic] = scores.get(topic, 0.0) + (weight / 2 if key in counted else weight)
                counted.add(key)
                phrases = evidence.setdefault(topic, [])
                if phrase not in phrases:
                    phrases.append(phrase)
            if found:
                resume = i + n
                break
    return scores, evidence
