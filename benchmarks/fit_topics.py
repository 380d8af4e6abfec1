"""Fit the tagger's model (``generator/derive/topic_weights.json``) on the fit split of the labelled topics.

Nothing here uses the report split's papers (ICLR 2017-18, VIS, SIGDIAL, EEML, ISMIR): its rows
are dropped as the labels are read. What is used:

- the **fit** split of ``benchmarks/data/topic_labels.jsonl`` (4,980 abstracts an expert labelled:
  NeurIPS 2013-2018, the neural-fields corpus, and other papers of the report venues);
- the **pool**: every other abstract of those venues and of the repository's ``seeds/``,
  unlabelled, less any abstract resubmitted to a report venue
  (``../shared/titled/resubmissions.jsonl``): 38 since every abstract of the corpora outside
  the report split was labelled (batches 22 to 39; it held about 3,700 before).

Steps:

1. The vocabulary's idf comes from the pool and the fit abstracts together: words and pairs of
   neighbouring words in at least ``MIN_DF`` abstracts and at most half of them.
2. Each topic's profile of terms is the sum of the tf-idf vectors of its abstracts: in the pool,
   the topics its phrases give (the first at full weight, the others at half), which is noisy but
   plentiful; among the fit abstracts, the expert's topics (``GOLD`` times as much: primary, and
   ``also`` at ALSO of that); and the topic's own name, description and phrases (``OWN``), so
   that every topic has a profile. Only its ``TERMS`` strongest terms are kept.
3. Each topic's classifier: an L2-penalised logistic regression, classes balanced, over the
   tf-idf vectors the tagger computes (on the profiles' vocabulary) of the fit abstracts, positive
   where the expert gave the topic (primary or also); its ``TOP_TERMS`` largest weights are kept.
4. Every (fit abstract, topic with evidence) pair is a row of :data:`generator.derive.tag.FEATURES`,
   with the profiles and classifiers built without the abstract's own fold (a fold is a venue:
   neural-fields, NeurIPS by pairs of years, VIS, SIGDIAL, EEML, ISMIR, ICLR), and its label is
   whether the expert gave the topic. One logistic regression, shared by all topics, gives the weights.
5. The classifiers' C and the rule (``threshold`` of the first tag, ``place_thresholds`` of the
   second to fourth, ``share_of_top``, ``max_tags``) are chosen on the same folds: each fold tagged
   by the model fitted on the others, the setting maximising F1 (micro over tags) wins; of
   settings within half a point of it, the one with the expert's primary topic among the tags
   most often. The grid of rules is scored at once from each abstract's four likeliest topics.

It prints the cross-validated figures on the fit split (those of ``benchmarks/topics.py``) and
writes the file; ``--dry-run`` writes nothing. To compare settings, ``--terms``, ``--own``,
``--gold``, ``--early``, ``--c``, ``--top-terms`` and ``--pool`` override the constants below, still
scored on the fit split only; ``--random-folds`` deals each venue round 5 folds instead (a paper
held out, its venue seen: how the report venues' papers are met now that the fit split holds
other papers of theirs).

    .venv/bin/python benchmarks/fit_topics.py [--dry-run]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.topics import SHARED, Labelled, figures, load_labels, read_abstracts, scores, table, tally  # noqa: E402
from generator.core.model import Topic  # noqa: E402
from generator.derive import tag  # noqa: E402
from generator.derive.related import load_stop_words  # noqa: E402

FIT_DIRS = ("titled/neurips2013/seeds", "titled/neurips2014/seeds", "titled/neurips2015/seeds",
            "titled/neurips2016/seeds", "titled/neurips2017/seeds", "titled/neurips2018/seeds",
            "corpora/neural-fields")
MIN_DF = 3
MAX_DF = 0.5
TERMS = 800  # terms kept per topic profile (CV by venue on fit, 4,980 labels: best F1 0.742 at 500, 0.745 at 800,
# 0.747 at 1,200, whose file is over the 5 MB budget)
OWN = 0.3  # weight of the topic's own words in its profile, against its abstracts' (CV on fit: 0.1-0.3 best, 3 worst)
GOLD = 4.0  # an expert-labelled abstract counts this many pool abstracts
ALSO = 0.6  # an "also" topic of the expert, against the primary
EARLY = 1.5  # terms of the first two sentences count this much more
FOLDS = 5  # with --random-folds
# One fold a venue (NeurIPS by pairs of years, ICLR's two years together): each fold is scored by a
# model that never saw a paper of its venue, as the report venues' papers would be met if the digest
# had no fit labels of theirs.
VENUE_FOLDS = (("neural-fields",), ("neurips2013", "neurips2014"), ("neurips2015", "neurips2016"),
               ("neurips2017", "neurips2018"), ("vis2020",), ("sigdial2023",), ("eeml2020",), ("ismir2024",),
               ("iclr2017", "iclr2018"))
C = 1.0  # inverse strength of the shared logistic regression's L2 penalty
# The topics' own classifiers of terms: their inverse L2 strength is chosen among these by the
# venue-held-out folds; a topic with fewer than MIN_POSITIVES expert papers (and pool papers
# weighted POOL) gets none; only the TOP_TERMS largest weights of each are kept (the file's size
# and the tagging time).
CLASSIFIER_CS = (1000.0, 10000.0)  # (CV by venue on fit: 0.654 at 1, 0.67 at 30, 0.70 at 1000 and 10,000 with 1,475 labels)
MIN_POSITIVES = 3
POOL = 0.0  # (CV on fit: the pool's phrase-made labels at 0.2 lost a point of F1, by venue and at random)
TOP_TERMS = 3000  # (CV by venue on fit, C 10,000: F1 0.705 at 1,500 and at 600, 0.710 at 3,000)
NO_CLASSIFIER = -2.0  # the classifier score of a topic without one: "its words are not this topic's"
# The rule's grid: the first tag's threshold, each later place's (not below the place before it; None:
# no tag at that place, so at most 2 or 3 tags), and the share of the first tag's probability.
THRESHOLDS = [round(0.05 * i, 2) for i in range(2, 15)]
SHARES = [round(0.1 * i, 1) for i in range(0, 10)]


def pool_texts(labelled: set[tuple[str, int]]) -> list[str]:
    """The unlabelled abstracts of the fit venues and of ``seeds/``, less report-venue resubmissions."""
    fit_venues = {d.split("/")[1] for d in FIT_DIRS if d.startswith("titled/")}
    resubmitted = set()
    for line in (SHARED / "titled" / "resubmissions.jsonl").read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        for ours, theirs in ((pair["a"], pair["b"]), (pair["b"], pair["a"])):
            if ours.split("/")[0] in fit_venues and theirs.split("/")[0] not in fit_venues:
                file, _, number = ours.partition(":")
                resubmitted.add((f"titled/{file}", int(number)))
    texts = []
    for folder in FIT_DIRS:
        for path in sorted((SHARED / folder).glob("*.txt")):
            rel = path.relative_to(SHARED).as_posix()
            texts += [t for line, t in sorted(read_abstracts(rel).items())
                      if (rel, line) not in labelled and (rel, line) not in resubmitted]
    for path in sorted((REPO / "seeds").glob("*.txt")):
        texts += [t for _, t in sorted(read_abstracts_at(path).items())]
    return texts


def read_abstracts_at(path: Path) -> dict[int, str]:
    from generator.seeds.parse import parse_seed
    return {p.source.line: p.text for p in parse_seed(path.read_bytes(), path.name)}


def phrase_topics(lower: list[str], written: str, m) -> list[tuple[int, float]]:
    """The pool's noisy labels: (topic index, weight) of the topics the phrases alone give, as
    the tagger of 2026-12 did (a score of 2.5, a fifth of the top's), the first at full weight."""
    found, _ = tag._score(lower, written, m)
    if not found:
        return []
    top = max(found.values())
    ranked = sorted((i for i in found if found[i] >= 2.5 and found[i] >= 0.2 * top), key=lambda i: (-found[i], i))
    return [(i, 1.0 if n == 0 else 0.5) for n, i in enumerate(ranked[:4])]


def tfidf(counts: dict[str, float], idf: dict[str, float]) -> dict[str, float]:
    v = {t: (1.0 + math.log(c) if c >= 1 else c) * idf[t] for t, c in counts.items() if t in idf}
    norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
    return {t: x / norm for t, x in v.items()}


def own_words(topic: Topic) -> list[str]:
    text = f"{topic.name}. {topic.description}. " + ". ".join(topic.phrases)
    return tag._words(text)[0]


class Fitter:
    def __init__(self, topics: list[Topic], fit: list[Labelled], pool: list[str], args):
        self.topics, self.fit, self.args = topics, fit, args
        self.index = {t.slug: i for i, t in enumerate(topics)}
        m = tag._matcher(tuple(topics))
        pool_words = [tag._words(t) for t in pool]
        fit_words = [tag._words(r.text) for r in fit]
        self.fit_lower = [lw for lw, _ in fit_words]
        self.outlook_only = [tag.outlook_only(r.text, m) for r in fit]  # phrases are not fitted: the same in every fold
        self.pool_lower = [lw for lw, _ in pool_words]
        pool_counts = [tag.term_counts(lw, args.early) for lw, _ in pool_words]
        self.fit_counts = [tag.term_counts(lw, args.early) for lw, _ in fit_words]
        df = Counter(t for c in (*pool_counts, *self.fit_counts) for t in c)
        n = len(pool_counts) + len(self.fit_counts)
        # a term holding a function word ("the influence", "a trained") says nothing of a topic and
        # would be shown as evidence
        stop = load_stop_words()
        self.idf = {t: math.log(n / d) for t, d in df.items()
                    if MIN_DF <= d <= MAX_DF * n and not any(w in stop or w.isdigit() or len(w) < 2 for w in t.split())}
        self.pool_vectors = [tfidf(c, self.idf) for c in pool_counts]
        self.pool_labels = [phrase_topics(lw, w, m) for lw, w in pool_words]
        self.fit_vectors = [tfidf(c, self.idf) for c in self.fit_counts]
        self.own = [tfidf(tag.term_counts(own_words(t), 1.0), self.idf) for t in topics]
        # the pool's part of every profile does not change between folds: summed once
        self.pool_sums: list[dict[str, float]] = [{} for _ in topics]
        for vector, labels in zip(self.pool_vectors, self.pool_labels):
            for i, w in labels:
                add(self.pool_sums[i], vector, w)

    def gold(self, row: Labelled) -> list[tuple[int, float]]:
        return [(self.index[row.primary], 1.0)] + [(self.index[s], ALSO) for s in row.also]

    def model(self, rows: Sequence[int], weights=None, threshold=1.0, share=1.0) -> tag.TopicModel:
        """The model whose profiles are built from the pool and the fit abstracts ``rows``."""
        sums = [dict(s) for s in self.pool_sums]
        for k in rows:
            for i, w in self.gold(self.fit[k]):
                add(sums[i], self.fit_vectors[k], self.args.gold * w)
        profiles, vocabulary = {}, set()
        for i, topic in enumerate(self.topics):
            if topic.catch_all:
                continue
            total = dict(sums[i])
            add(total, self.own[i], self.args.own * max(1.0, math.sqrt(sum(v * v for v in total.values()))))
            kept = sorted(total, key=lambda t: (-total[t], t))[: self.args.terms]
            norm = math.sqrt(sum(total[t] ** 2 for t in kept)) or 1.0
            profiles[topic.slug] = {t: round(total[t] / norm, 4) for t in kept if total[t] / norm >= 5e-5}
            vocabulary.update(profiles[topic.slug])
        idf = {t: round(self.idf[t], 4) for t in sorted(vocabulary)}
        return tag.TopicModel(tuple(weights) if weights is not None else (0.0,) * len(tag.FEATURES),
                              threshold, share, self.args.early, idf, profiles)

    def with_classifiers(self, model: tag.TopicModel, rows: Sequence[int], c: float) -> tag.TopicModel:
        """The model with each topic's classifier of terms, learned from the fit abstracts ``rows``
        (and the pool at weight ``--pool``) on the vectors the tagger computes over the model's vocabulary."""
        from scipy.sparse import csr_matrix
        from sklearn.linear_model import LogisticRegression

        vocabulary = {t: j for j, t in enumerate(model.idf)}
        docs = [self.fit_lower[k] for k in rows]
        weights = [1.0] * len(docs)
        labels = [self.fit[k].topics for k in rows]
        if self.args.pool > 0:
            docs += self.pool_lower
            weights += [self.args.pool] * len(self.pool_lower)
            labels += [frozenset(self.topics[i].slug for i, _ in found) for found in self.pool_labels]
        data, cols, ptr = [], [], [0]
        for lower in docs:
            vector = tag.term_vector(lower, model.idf, model.early_weight)
            cols += [vocabulary[t] for t in vector]
            data += list(vector.values())
            ptr.append(len(cols))
        x = csr_matrix((data, cols, ptr), shape=(len(docs), len(vocabulary)))
        sample = np.array(weights)
        terms = list(model.idf)
        classifiers, intercepts = {}, {}
        for topic in self.topics:
            if topic.catch_all:
                continue
            y = np.array([topic.slug in gold for gold in labels], dtype=float)
            if (y * sample).sum() < MIN_POSITIVES:
                intercepts[topic.slug] = NO_CLASSIFIER
                continue
            lr = LogisticRegression(C=c, class_weight="balanced", solver="liblinear", max_iter=1000)
            lr.fit(x, y, sample_weight=sample)
            coef = lr.coef_[0]
            kept = sorted(np.argsort(-np.abs(coef), kind="stable")[: self.args.top_terms].tolist())
            classifiers[topic.slug] = {terms[j]: round(float(coef[j]), 3) for j in kept if round(float(coef[j]), 3)}
            intercepts[topic.slug] = round(float(lr.intercept_[0]), 3)
        return dataclasses.replace(model, classifiers=classifiers, intercepts=intercepts)

    def rows(self, model: tag.TopicModel, which: Sequence[int]):
        """(features, labels, (row, topic) ids) of every pair with evidence among fit rows ``which``, and
        (row, topic, features) with the outlook sentence's terms at ``tag.LAST_WEIGHT``, for the rows
        whose outlook sentence alone names a topic (``tag.outlook_only``)."""
        m = tag._matcher(tuple(self.topics), model)
        xs, ys, ids, outlook = [], [], [], []
        for k in which:
            candidates, features, _, _ = tag.topic_features(self.fit[k].text, m)
            gold = self.fit[k].topics
            for i, values in zip(candidates.tolist(), features.tolist()):
                xs.append(values)
                ys.append(float(self.topics[i].slug in gold))
                ids.append((k, i))
            if self.outlook_only[k]:
                candidates, features, _, _ = tag.topic_features(self.fit[k].text, m, last_weight=tag.LAST_WEIGHT)
                outlook += [(k, i, values) for i, values in zip(candidates.tolist(), features.tolist())]
        return np.array(xs), np.array(ys), ids, outlook


def add(into: dict[str, float], vector: dict[str, float], weight: float) -> None:
    for t, v in vector.items():
        into[t] = into.get(t, 0.0) + weight * v


def logistic(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Weights of FEATURES (the first, a constant 1, is the bias) of an L2-penalised logistic regression."""
    from sklearn.linear_model import LogisticRegression

    lr = LogisticRegression(C=C, max_iter=2000)
    lr.fit(x[:, 1:], y)
    return [float(lr.intercept_[0]), *map(float, lr.coef_[0])]


def choose(logits: dict[int, float], model: tag.TopicModel, has_phrase: set[int], catch_all: int | None) -> list[int]:
    """The tags of one abstract as :func:`generator.derive.tag._choose` picks them, from its logits."""
    return tag.pick(logits, model, has_phrase) or ([catch_all] if catch_all is not None else [])


@dataclass
class Outcomes:
    """What every rule can make of the cross-validated logits, to score a grid of rules at once: for
    each fit abstract, the probabilities of its 4 likeliest topics (-1: no such candidate), whether
    its phrases name the likeliest, and the :data:`benchmarks.topics.COUNTS` of its 0 (the catch-all)
    to 4 best topics as tags."""

    probs: np.ndarray  # abstracts x 4
    top_phrased: np.ndarray  # abstracts
    counts: np.ndarray  # abstracts x 5 x counts

    @classmethod
    def of(cls, logits, phrased, fit, topics, parents, catch_all):
        n = len(fit)
        probs = np.full((n, tag.MAX_TAGS), -1.0)
        top_phrased = np.zeros(n, dtype=bool)
        counts = np.zeros((n, tag.MAX_TAGS + 1, 8))
        catch_slug = [topics[catch_all].slug] if catch_all is not None else []
        for k in range(n):
            ranked = sorted(logits[k], key=lambda i: (-logits[k][i], i))[: tag.MAX_TAGS]
            probs[k, : len(ranked)] = [tag._sigmoid(logits[k][i]) for i in ranked]
            top_phrased[k] = bool(ranked) and ranked[0] in phrased[k]
            slugs = [topics[i].slug for i in ranked]
            counts[k, 0] = tally(fit[k], catch_slug, parents, catch_slug[0] if catch_slug else None)
            for most in range(1, tag.MAX_TAGS + 1):
                counts[k, most] = tally(fit[k], slugs[:most], parents, catch_slug[0] if catch_slug else None)
        return cls(probs, top_phrased, counts)

    def score(self, threshold: float, places: Sequence[float], share: float, most: int) -> dict[str, float]:
        """The figures of the tags :func:`generator.derive.tag.pick` gives with this rule."""
        floors = [threshold, *places][: tag.MAX_TAGS]
        floors += [floors[-1]] * (tag.MAX_TAGS - len(floors))
        reach = self.probs >= np.maximum(np.array(floors)[None, :], share * self.probs[:, :1])
        reach[:, most:] = False
        n = np.cumprod(reach, axis=1).sum(axis=1)
        top = self.probs[:, 0]
        n[(n == 0) & (top >= 0) & (self.top_phrased | (top >= threshold / 2))] = 1
        return figures(self.counts[np.arange(len(n)), n].sum(axis=0).tolist(), len(n))


def same(result) -> bool:
    """Whether a result's rule asks every place for the first tag's threshold (the rule before places had their own)."""
    return all(t == result[2] for t in result[3])


def rules():
    """(threshold, later places' thresholds, share of top, most tags) of the grid."""
    for threshold in THRESHOLDS:
        for second in THRESHOLDS:
            for third in [None, *(t for t in THRESHOLDS if t >= second)]:
                for fourth in [None, *(t for t in THRESHOLDS if third is not None and t >= third)]:
                    places = tuple(t for t in (second, third, fourth) if t is not None)
                    for share in SHARES:
                        yield threshold, places, share, len(places) + 1


def cross_logits(fold_rows, n: int) -> tuple[dict[int, dict[int, float]], dict[int, set[int]], dict[int, dict[int, float]]]:
    """Each fold's (row -> topic -> logit) by the shared logistic model fitted on the other folds' rows,
    row -> the topics with phrase evidence, and row -> topic -> logit with the outlook sentence's
    terms counting ``tag.LAST_WEIGHT`` (what :func:`generator.derive.tag.outlook_checked` reads)."""
    logits: dict[int, dict[int, float]] = {k: {} for k in range(n)}
    phrased: dict[int, set[int]] = {k: set() for k in range(n)}
    outlook: dict[int, dict[int, float]] = {k: {} for k in range(n)}
    for k in range(len(fold_rows)):
        x = np.vstack([fold_rows[j][0] for j in range(len(fold_rows)) if j != k])
        y = np.concatenate([fold_rows[j][1] for j in range(len(fold_rows)) if j != k])
        w = np.array(logistic(x, y))
        xk, _, ids, outlook_rows = fold_rows[k]
        for (row, topic), z, values in zip(ids, xk @ w, xk):
            logits[row][topic] = float(z)
            if values[1] > 0:
                phrased[row].add(topic)
        for row, topic, values in outlook_rows:
            outlook[row][topic] = float(np.asarray(values) @ w)
    return logits, phrased, outlook


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--grid", type=int, default=0, help="print this many rules (threshold / share) of the best F1")
    ap.add_argument("--random-folds", action="store_true", help=f"cross-validate on {FOLDS} random folds, not by venue")
    ap.add_argument("--terms", type=int, default=TERMS)
    ap.add_argument("--own", type=float, default=OWN)
    ap.add_argument("--gold", type=float, default=GOLD)
    ap.add_argument("--early", type=float, default=EARLY)
    ap.add_argument("--c", type=float, nargs="+", help=f"the classifiers' C to try (default {CLASSIFIER_CS}; 0: none)")
    ap.add_argument("--top-terms", type=int, default=TOP_TERMS, help="weights kept of each classifier")
    ap.add_argument("--pool", type=float, default=POOL, help="weight of a pool abstract in the classifiers")
    args = ap.parse_args(argv)
    topics = tag.load_taxonomy()
    parents = {t.slug: t.parent for t in topics if t.parent}
    catch_all = next((i for i, t in enumerate(topics) if t.catch_all), None)
    labels = load_labels()
    fit = [r for r in labels if r.split == "fit"]  # the report split is never looked at below
    pool = pool_texts({(r.file, r.line) for r in fit})
    print(f"{len(fit)} labelled fit abstracts, {len(pool)} unlabelled pool abstracts")
    f = Fitter(topics, fit, pool, args)

    if args.random_folds:
        # each venue dealt round the folds: every held-out paper's venue has labelled papers in the
        # others, as the report venues' papers have in the fit split
        order = list(range(len(fit)))
        random.Random(26).shuffle(order)
        order.sort(key=lambda k: fit[k].venue)
        folds = [sorted(order[k::FOLDS]) for k in range(FOLDS)]
    else:
        # A fold is a venue group, whose papers the profiles and the model never saw: what the tagger
        # meets at a new venue. Random folds mix each venue into every fold and flatter what fits
        # the fit venues' words (a classifier of terms per topic gained F1 on them and lost the
        # primary topic of more papers of held-out venues).
        folds = [[k for k, r in enumerate(fit) if r.venue in group] for group in VENUE_FOLDS]
    catch_slug = topics[catch_all].slug if catch_all is not None else None
    # The profiles of a fold are built without it; so are the classifiers, for each C of the grid.
    base = []
    for k in range(len(folds)):
        others = [i for j, fold in enumerate(folds) if j != k for i in fold]
        base.append((others, f.model(others)))
    cs = args.c if args.c is not None else CLASSIFIER_CS
    results = []  # (figures, C, threshold, later places' thresholds, share, max tags)
    cv_logits = {}
    for c in cs:
        fold_rows = []
        for k, held in enumerate(folds):
            others, model = base[k]
            if c > 0:
                model = f.with_classifiers(model, others, c)
            fold_rows.append(f.rows(model, held))
        logits, phrased, outlook = cross_logits(fold_rows, len(fit))
        cv_logits[c] = (logits, phrased, outlook, fold_rows)
        outcomes = Outcomes.of(logits, phrased, fit, topics, parents, catch_all)
        results += [(outcomes.score(*rule), c, *rule) for rule in rules()]
        print(f"C {c}: best cross-validated F1 {max(r[0]['F1'] for r in results if r[1] == c):.3f}, "
              f"with one threshold for every place {max(r[0]['F1'] for r in results if r[1] == c and same(r)):.3f}")
    # F1 first; between settings within half a point of the best (the noise of thousands of papers), the one
    # that misses the expert's primary topic least, then leaves fewest papers with no right tag
    # (the targets besides F1), then fewer tags, the highest thresholds
    top = max(r[0]["F1"] for r in results)
    best = max((r for r in results if r[0]["F1"] >= top - 0.005),
               key=lambda r: (r[0]["prim∈"], -r[0]["none"], r[0]["F1"], -r[5], r[2], r[3], -r[4]))
    if args.grid:
        print("the settings of the best cross-validated F1:")
        print(table({f"C {c} / {t} / {'+'.join(map(str, pl))} / {sh} / {m}": g
                     for g, c, t, pl, sh, m in sorted(results, key=lambda r: -r[0]["F1"])[: args.grid]}))
    s, c, threshold, places, share, most = best
    print(f"cross-validated on the fit split ({len(folds)} folds{'' if args.random_folds else ' by venue'}), "
          f"classifiers' C {c}, threshold {threshold}, later places {', '.join(map(str, places))}, "
          f"share of top {share}, at most {most} tags:")
    print(table({"fit (cv)": s}))
    logits, phrased, outlook, fold_rows = cv_logits[c]
    rule = tag.TopicModel((), threshold, share, args.early, {}, {}, max_tags=most, later_thresholds=places)
    if not args.random_folds:
        tagged = [tuple(topics[i].slug for i in choose(logits[k], rule, phrased[k], catch_all)) for k in range(len(fit))]
        check = scores(fit, tagged, parents, catch_slug)
        assert abs(check["F1"] - s["F1"]) < 1e-9, "the grid's scoring and the tagger's rule disagree"
        checked = [tuple(topics[i].slug for i in tag.outlook_checked(choose(logits[k], rule, phrased[k], catch_all),
                                                                     outlook[k], f.outlook_only[k], rule)) for k in range(len(fit))]
        print("the same tags, less those the outlook sentence made (as the tagger gives them):")
        print(table({"fit (cv), outlook checked": (after := scores(fit, checked, parents, catch_slug))}))
        print("F1 {:.4f} -> {:.4f}, primary among the tags {:.4f} -> {:.4f}, first {:.4f} -> {:.4f}, tags {:.3f} -> {:.3f}".format(
            s["F1"], after["F1"], s["prim∈"], after["prim∈"], s["1st=prim"], after["1st=prim"], s["tags"], after["tags"]))
        print("each venue held out:")
        print(table({"+".join(group): scores([fit[k] for k in fold], [tagged[k] for k in fold], parents, catch_slug)
                     for group, fold in zip(VENUE_FOLDS, folds)}))

    x = np.vstack([r[0] for r in fold_rows])
    y = np.concatenate([r[1] for r in fold_rows])
    weights = logistic(x, y)
    model = f.model(range(len(fit)), weights, threshold, share)
    if c > 0:
        model = f.with_classifiers(model, range(len(fit)), c)
    print("weights: " + ", ".join(f"{n} {v:+.3f}" for n, v in zip(tag.FEATURES, weights)))
    data = {
        "about": "The tagger's model (generator/derive/tag.py), fitted by benchmarks/fit_topics.py on the fit split of "
                 "benchmarks/data/topic_labels.jsonl and the unlabelled abstracts of its venues; regenerate, do not edit.",
        "fitted_on": sorted({r.venue for r in fit} | {"seeds"}),
        "weights": {n: round(v, 4) for n, v in zip(tag.FEATURES, weights)},
        "threshold": threshold,
        "share_of_top": share,
        "early_weight": args.early,
        "max_tags": most,
        "place_thresholds": {str(place): t for place, t in enumerate(places, start=2)},
        "idf": model.idf,
        "profiles": model.profiles,
        "classifiers": model.classifiers,
        "intercepts": model.intercepts,
    }
    text = json.dumps(data, ensure_ascii=False, indent=0, sort_keys=False) + "\n"
    print(f"{len(model.idf)} terms, {len(text) / 1e6:.2f} MB")
    if not args.dry_run:
        tag.WEIGHTS.write_text(text, encoding="utf-8")
        print(f"wrote {tag.WEIGHTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
