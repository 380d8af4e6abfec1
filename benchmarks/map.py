"""The map's layout (generator/derive/map_layout.py): its time, and how far points move when papers are added.

For each size N (default 3,300 and 20,000 abstracts of benchmarks/corpus.py):

- layout time from scratch for N papers (median of --runs, in this process, text
  vectors and neighbours included), and the time to lay out N + 5% papers continuing
  from the N-paper map (what a build after adding a seed file does);
- movement: the median distance an existing paper moves, as a share of the map's
  width, when 5% more papers (a random 5% of the corpus, held out) are added, for
  the continued layout and, for comparison, for a layout from scratch (raw, as a
  reader sees it, and after the best rotation, reflection and scale, which shows how
  much of it is the map turning as a whole);
- that two runs on the same input give the same coordinates.

Prints a table; asserts nothing (the machines here are shared and noisy).

    .venv/bin/python -m benchmarks.map [--sizes 3300 20000] [--runs 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

from benchmarks.corpus import abstracts
from generator.derive.map_layout import layout_texts
from generator.seeds.identify import paper_id

GROWTH = 0.05


def corpus(n: int) -> tuple[list[str], list[str], set[str]]:
    """ids and texts of N + 5% abstracts, and the ids of a random 5% held out as 'new'."""
    total = round(n * (1 + GROWTH))
    texts = [a.text for a in abstracts(total)]
    ids = [paper_id(t) for t in texts]
    held = set(random.Random(13).sample(ids, total - n))
    return ids, texts, held


def timed(ids, texts, previous=None, span=0.0):
    """(wall s, coordinates, info, CPU s of this process): the layout runs on one thread, so
    its CPU time is what it costs on an idle core, whatever else the machine is doing."""
    start, cpu = time.perf_counter(), time.process_time()
    coords, info = layout_texts(ids, texts, previous, span)
    return time.perf_counter() - start, coords, info, time.process_time() - cpu


def movement(before: dict, after: dict) -> float:
    """Median distance between the two maps' places of the papers of ``before``."""
    common = sorted(before)
    a = np.array([before[i] for i in common])
    b = np.array([after[i] for i in common])
    return float(np.median(np.linalg.norm(a - b, axis=1)))


def aligned(before: dict, after: dict) -> dict:
    """``after`` turned, reflected, scaled and shifted to fit ``before`` best (Procrustes)."""
    common = sorted(before)
    a = np.array([before[i] for i in common])
    b = np.array([after[i] for i in common])
    a0, b0 = a - a.mean(0), b - b.mean(0)
    u, s, vt = np.linalg.svd(b0.T @ a0)
    rot = u @ vt
    scale = s.sum() / (b0 ** 2).sum()
    fitted = b0 @ rot * scale + a.mean(0)
    return dict(zip(common, map(tuple, fitted)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3300, 20000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rows = []
    for n in args.sizes:
        ids, texts, held = corpus(n)
        base = [(i, t) for i, t in zip(ids, texts) if i not in held]
        base_ids, base_texts = [i for i, _ in base], [t for _, t in base]
        scratch = [timed(base_ids, base_texts) for _ in range(args.runs)]
        before = scratch[0][1]
        same = all(run[1] == before for run in scratch[1:])
        grown = [timed(ids, texts, before, scratch[0][2].span) for _ in range(args.runs)]
        fresh = timed(ids, texts)
        rows.append({
            "n": len(base_ids),
            "scratch": statistics.median(r[0] for r in scratch),
            "runs": [r[0] for r in scratch],
            "continued": statistics.median(r[0] for r in grown),
            "scratch_cpu": statistics.median(r[3] for r in scratch),
            "continued_cpu": statistics.median(r[3] for r in grown),
            "grown_runs": [r[0] for r in grown],
            "info": grown[0][2],
            "move": movement(before, grown[0][1]),
            "move_fresh": movement(before, fresh[1]),
            "move_fresh_aligned": movement(before, aligned(before, fresh[1])),
            "same": same and all(r[1] == grown[0][1] for r in grown[1:]),
        })
        print(f"  {n}: from scratch {', '.join(f'{t:.1f}s' for t in rows[-1]['runs'])}; "
              f"continued {', '.join(f'{t:.1f}s' for t in rows[-1]['grown_runs'])}", file=sys.stderr)
    print(f"layout time (median of {args.runs}) and movement of existing papers when {GROWTH:.0%} more are added")
    print("(movement: median distance, as a share of the map's width)")
    print("(time: wall seconds, and CPU seconds, which is the wall time on an idle core)")
    print(f"{'papers':>7} {'scratch s':>10} {'CPU s':>6} {'+5% cont. s':>12} {'CPU s':>6} {'moved, cont.':>13} "
          f"{'moved, scratch':>15} {'scratch aligned':>16} {'deterministic':>14}")
    for r in rows:
        print(f"{r['n']:>7} {r['scratch']:>10.1f} {r['scratch_cpu']:>6.1f} {r['continued']:>12.1f} {r['continued_cpu']:>6.1f} "
              f"{r['move']:>13.2%} {r['move_fresh']:>15.2%} {r['move_fresh_aligned']:>16.2%} {'yes' if r['same'] else 'NO':>14}")


if __name__ == "__main__":
    main()
