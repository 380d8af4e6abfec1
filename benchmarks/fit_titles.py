"""Fit the title stage's choice weights (``generator/derive/title/weights.json``) on real titles.

Two fits, both on the fitted venues only (NeurIPS 2013-2018, see ``benchmarks/titled.py``):

1. The word model (:mod:`generator.derive.title.salience`): every distinct content word of every
   abstract is a row of :data:`~generator.derive.title.salience.WORD_FEATURES`, labelled by whether
   the real title holds it; a logistic regression (Newton's method, numpy: 280,000 rows) gives
   ``word_weights``, and the real titles' mean number of content words is ``title_words``.
2. The choice: every candidate title of every abstract is a row of
   :data:`generator.derive.title.choose.FEATURES` (one of which, ``expected_f``, comes from the word
   model); its target is the ROUGE-1 F of the candidate against the real title. Features and
   targets are centred within each abstract, so the fit learns which of an abstract's
   candidates is better, not which abstracts are easy; then a ridge least-squares fit gives
   one weight per feature.

The script prints the chosen titles' ROUGE-1 on the fitted and on the other venues, and
writes both into ``generator/derive/title/weights.json``.

    .venv/bin/python -m benchmarks.fit_titles [--ridge 1.0] [--dry-run]
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

from benchmarks.titled import FITTED, available, load_titled, skip_message
from benchmarks.titles import content, rouge1

_WORD = re.compile(r"[a-z0-9]+")


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gauss-Jordan elimination with partial pivoting (a is small and square)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


# A title that shares no word with the real one tells a reader nothing of the paper, however
# near its ROUGE-1 of 0 is to another candidate's 0.1: the fit's target counts sharing any word
# at all as this much ROUGE-1 more. Chosen by ``--cv`` (each fitted year left out in turn, on
# the fitted venues only): 0.1 gave the best held-out ROUGE-1 and nearly the fewest titles
# sharing no word (0: 414 of 3398, 0.05: 410, 0.1: 405, 0.2: 411, 0.3: 410).
SHARED = 0.1
SHARED_GRID = (0.0, 0.05, 0.1, 0.2, 0.3)


def fit(groups: list[tuple[list[list[float]], list[float]]], ridge: float, shared: float = 0.0) -> list[float]:
    """Ridge least squares on features and targets centred per group; each target is the
    candidate's ROUGE-1, plus ``shared`` if it shares any word with the real title."""
    k = len(groups[0][0][0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for xs, ys in groups:
        if len(ys) < 2:
            continue  # one candidate: nothing to choose
        mean_x = [statistics.fmean(col) for col in zip(*xs)]
        ys = [y + shared * (y > 0) for y in ys]
        mean_y = statistics.fmean(ys)
        for x, y in zip(xs, ys):
            cx = [v - m for v, m in zip(x, mean_x)]
            cy = y - mean_y
            for i in range(k):
                xty[i] += cx[i] * cy
                row = xtx[i]
                for j in range(k):
                    row[j] += cx[i] * cx[j]
    for i in range(k):
        xtx[i][i] += ridge
    return solve(xtx, xty)


def chosen(groups, weights) -> list[float]:
    """The ROUGE-1 of each group's best-scoring candidate."""
    picks = []
    for xs, ys in groups:
        best = max(range(len(ys)), key=lambda i: (sum(a * b for a, b in zip(xs[i], weights)), -i))
        picks.append(ys[best])
    return picks


def chosen_rouge(groups, weights) -> float:
    return statistics.fmean(chosen(groups, weights))


def chosen_none(groups, weights) -> float:
    """The share of groups whose chosen candidate shares no word with the real title."""
    return statistics.fmean(y == 0 for y in chosen(groups, weights))


def fit_word_model(rows, ridge: float = 1e-3, steps: int = 30) -> tuple[list[float], float]:
    """(word weights, mean content words of a real title) on the rows' abstracts and titles."""
    import numpy as np

    from generator.derive.title.candidates import about_our_work, title_sentences
    from generator.derive.title.choose import LEXICON, RARITY
    from generator.derive.title.salience import word_features

    xs, ys, lengths = [], [], []
    for r in rows:
        real = set(content(r.title))
        lengths.append(len(content(r.title)))
        sentences = title_sentences(r.text)
        # each abstract is left out of the lexicon's counts: its own title must not tell it its words
        for word, values in word_features(sentences, [about_our_work(s) for s in sentences], RARITY, LEXICON, real).items():
            xs.append(values)
            ys.append(float(word in real))
    x, y = np.array(xs), np.array(ys)
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (y - p) - ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w += step
        if float(np.abs(step).max()) < 1e-8:
            break
    return [float(v) for v in w], statistics.fmean(lengths)


def log_loss(rows, model) -> float:
    """Mean log loss of the word model on the rows' words (to compare fitted and other venues)."""
    from generator.derive.title.candidates import about_our_work, title_sentences
    from generator.derive.title.choose import LEXICON, RARITY
    from generator.derive.title.salience import word_features

    total, n = 0.0, 0
    for r in rows:
        real = set(content(r.title))
        sentences = title_sentences(r.text)
        own = real if r.fitted else None
        probs = model.probabilities(word_features(sentences, [about_our_work(s) for s in sentences], RARITY, LEXICON, own))
        for word, p in probs.items():
            p = min(max(p, 1e-9), 1 - 1e-9)
            total -= math.log(p) if word in real else math.log(1 - p)
            n += 1
    return total / max(n, 1)


COMMON_WORDS = 4000


def write_common(rows, path: Path) -> None:
    """The share of the fitted abstracts each of their most common words is in."""
    df = Counter(w for r in rows for w in set(_WORD.findall(r.text.lower())))
    # ties in word order, not in the order of a set (which changes from run to run)
    top = sorted(df.items(), key=lambda kv: (-kv[1], kv[0]))[:COMMON_WORDS]
    share = {w: round(n / len(rows), 5) for w, n in top}
    data = {"about": "Share of the fitted venues' abstracts holding each of their most common words; "
                     "written by benchmarks/fit_titles.py, do not edit.", "abstracts": len(rows), "share": share}
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def write_lexicon(rows, path: Path) -> None:
    """For each word of at least LEXICON_MIN of the rows' abstracts: how many hold it, and how
    many of their titles do too (content words as ROUGE-1 reads them)."""
    from generator.derive.title.candidates import title_sentences
    from generator.derive.title.choose import content_words
    from generator.derive.title.salience import LEXICON_MIN

    held, titled = Counter(), Counter()
    words_total = titles_total = 0
    for r in rows:
        real = set(content(r.title))
        words = {w for s in title_sentences(r.text) for w in content_words(s)}
        held.update(words)
        titled.update(words & real)
        words_total += len(words)
        titles_total += len(words & real)
    kept = sorted((w for w, n in held.items() if n >= LEXICON_MIN), key=lambda w: (-held[w], w))
    data = {"about": "How often the fitted venues' titles hold each word their abstracts hold (words of at least "
                     f"{LEXICON_MIN} abstracts); written by benchmarks/fit_titles.py, do not edit.",
            "abstracts": len(rows), "prior": round(titles_total / words_total, 6), "smoothing": 5.0,
            "words": {w: [held[w], titled[w]] for w in kept}}
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--shared", type=float, default=SHARED,
                    help="added to the target of a candidate that shares any word with the real title")
    ap.add_argument("--cv", action="store_true",
                    help="print each --shared of a grid with every fitted venue left out in turn; write nothing")
    ap.add_argument("--dry-run", action="store_true", help="print the figures, do not write the weights")
    args = ap.parse_args()
    if not available():
        print(skip_message())
        return 0
    from generator.derive.title import choose
    from generator.derive.title.candidates import candidates
    from generator.derive.title.choose import COMMON_FILE, FEATURES, WEIGHTS_FILE
    from generator.derive.title.salience import LEXICON_FILE, WORD_FEATURES, WordModel

    rows = load_titled()
    write_common([r for r in rows if r.fitted], COMMON_FILE)
    importlib.reload(choose)  # the lexicon's words are read as the rarity of the new common words says
    write_lexicon([r for r in rows if r.fitted], LEXICON_FILE)
    importlib.reload(choose)
    word_weights, title_words = fit_word_model([r for r in rows if r.fitted])
    model = WordModel(tuple(word_weights), title_words)
    fitted, reported = [], []
    for r in rows:
        found = choose._named_first(candidates(r.text))
        ctx = choose.context(r.text, model, set(content(r.title)) if r.fitted else None)
        group = ([choose.features(c, ctx) for c in found], [rouge1(c.composed(), r.title) for c in found])
        (fitted if r.fitted else reported).append(group)
    if args.cv:
        venues = sorted({r.venue for r in rows if r.fitted})
        held = [r.venue for r in rows if r.fitted]
        print(f"{'shared':>8}{'held-out ROUGE-1':>18}{'no shared word':>16}")
        for shared in SHARED_GRID:
            picks = []
            for venue in venues:
                train = [g for g, v in zip(fitted, held) if v != venue]
                picks += chosen([g for g, v in zip(fitted, held) if v == venue], fit(train, args.ridge, shared))
            print(f"{shared:>8.2f}{statistics.fmean(picks):>18.4f}{sum(y == 0 for y in picks):>11}/{len(picks)}")
        return 0
    weights = fit(fitted, args.ridge, args.shared)
    oracle = lambda gs: statistics.fmean(max(ys) for _, ys in gs)  # noqa: E731
    first = lambda gs: statistics.fmean(ys[0] for _, ys in gs)  # noqa: E731
    print(f"{'':<28}{'fitted on':>12}{'reported on':>14}")
    print(f"{'abstracts':<28}{len(fitted):>12}{len(reported):>14}")
    print(f"{'ROUGE-1, rules first':<28}{first(fitted):>12.3f}{first(reported):>14.3f}")
    print(f"{'ROUGE-1, fitted choice':<28}{chosen_rouge(fitted, weights):>12.3f}{chosen_rouge(reported, weights):>14.3f}")
    print(f"{'no shared word, fitted':<28}{chosen_none(fitted, weights):>12.3f}{chosen_none(reported, weights):>14.3f}")
    print(f"{'ROUGE-1, best candidate':<28}{oracle(fitted):>12.3f}{oracle(reported):>14.3f}")
    print(f"{'word model log loss':<28}{log_loss([r for r in rows if r.fitted], model):>12.4f}"
          f"{log_loss([r for r in rows if not r.fitted], model):>14.4f}")
    print("\nweights:")
    for f, w in zip(FEATURES, weights):
        print(f"  {f:<16}{w:+.3f}")
    print(f"\nword weights (a real title holds {title_words:.2f} content words):")
    for f, w in zip(WORD_FEATURES, word_weights):
        print(f"  {f:<16}{w:+.3f}")
    if not args.dry_run:
        data = {
            "about": "Weights of generator/derive/title/choose.py's features, fitted by benchmarks/fit_titles.py "
                     "on the titled corpora; regenerate, do not edit.",
            "fitted_on": list(FITTED),
            "ridge": args.ridge,
            "shared": args.shared,
            "weights": {f: round(w, 4) for f, w in zip(FEATURES, weights)},
            "word_weights": {f: round(w, 4) for f, w in zip(WORD_FEATURES, word_weights)},
            "title_words": round(title_words, 3),
        }
        WEIGHTS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
