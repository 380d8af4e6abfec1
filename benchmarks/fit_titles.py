"""Fit the title stage's choice weights (``generator/title/weights.json``) on real titles.

Every candidate title of every abstract of the fitted venues (NeurIPS 2013-2018, see
``benchmarks/titled.py``) is a row of :data:`generator.title.choose.FEATURES`; its target
is the ROUGE-1 F of the candidate against the real title. Features and targets are
centred within each abstract, so the fit learns which of an abstract's candidates is
better, not which abstracts are easy; then a ridge least-squares fit (plain Python: a
few features) gives one weight per feature. The script prints the chosen titles' ROUGE-1
on the fitted and on the other venues, and writes the weights.

    .venv/bin/python benchmarks/fit_titles.py [--ridge 1.0] [--dry-run]
"""
from __future__ import annotations

import argparse
import importlib
import re
from collections import Counter
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.titled import FITTED, available, load_titled, skip_message  # noqa: E402
from benchmarks.titles import rouge1  # noqa: E402

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


def fit(groups: list[tuple[list[list[float]], list[float]]], ridge: float) -> list[float]:
    """Ridge least squares on features and targets centred per group."""
    k = len(groups[0][0][0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for xs, ys in groups:
        if len(ys) < 2:
            continue  # one candidate: nothing to choose
        mean_x = [statistics.fmean(col) for col in zip(*xs)]
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


def chosen_rouge(groups, weights) -> float:
    picks = []
    for xs, ys in groups:
        best = max(range(len(ys)), key=lambda i: (sum(a * b for a, b in zip(xs[i], weights)), -i))
        picks.append(ys[best])
    return statistics.fmean(picks)


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--dry-run", action="store_true", help="print the figures, do not write the weights")
    args = ap.parse_args()
    if not available():
        print(skip_message())
        return 0
    from generator.title import choose
    from generator.title.choose import COMMON_FILE, FEATURES, WEIGHTS_FILE
    from generator.title.candidates import candidates

    rows = load_titled()
    write_common([r for r in rows if r.fitted], COMMON_FILE)
    importlib.reload(choose)
    fitted, reported = [], []
    for r in rows:
        found = choose._named_first(candidates(r.text))
        ctx = choose.context(r.text)
        group = ([choose.features(c, ctx) for c in found], [rouge1(c.composed(), r.title) for c in found])
        (fitted if r.fitted else reported).append(group)
    weights = fit(fitted, args.ridge)
    oracle = lambda gs: statistics.fmean(max(ys) for _, ys in gs)  # noqa: E731
    first = lambda gs: statistics.fmean(ys[0] for _, ys in gs)  # noqa: E731
    print(f"{'':<28}{'fitted on':>12}{'reported on':>14}")
    print(f"{'abstracts':<28}{len(fitted):>12}{len(reported):>14}")
    print(f"{'ROUGE-1, rules first':<28}{first(fitted):>12.3f}{first(reported):>14.3f}")
    print(f"{'ROUGE-1, fitted choice':<28}{chosen_rouge(fitted, weights):>12.3f}{chosen_rouge(reported, weights):>14.3f}")
    print(f"{'ROUGE-1, best candidate':<28}{oracle(fitted):>12.3f}{oracle(reported):>14.3f}")
    print("\nweights:")
    for f, w in zip(FEATURES, weights):
        print(f"  {f:<16}{w:+.3f}")
    if not args.dry_run:
        data = {
            "about": "Weights of generator/title/choose.py's features, fitted by benchmarks/fit_titles.py "
                     "on the titled corpora; regenerate, do not edit.",
            "fitted_on": list(FITTED),
            "ridge": args.ridge,
            "weights": {f: round(w, 4) for f, w in zip(FEATURES, weights)},
        }
        WEIGHTS_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {WEIGHTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
