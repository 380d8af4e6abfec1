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
- that two runs on the same input give the same coordinates;
- quality, of the map from scratch and of the continued one: kNN preservation (for each
  paper, the share of its 10 nearest papers by the layout's own text vectors that are
  among its 10 nearest on the map) and topic agreement (the share of its 10 nearest on
  the map whose first topic, as the tag stage gives it, is its own; beside it the same
  share for its 10 nearest by text, which a map can hardly beat, and for papers drawn
  at random). A faster layout must keep these, not only the time.

``--jitter SEED`` moves the start of each layout by a random tenth of its spread (a
different SEED, a different start): two such runs of the same code show how much of a
difference in quality is the optimisation's own noise.

Prints a table; asserts nothing (the machines here are shared and noisy).

    .venv/bin/python -m benchmarks.map [--sizes 3300 20000] [--runs 3] [--jitter SEED]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

from benchmarks.corpus import abstracts
from generator.derive import map_layout
from generator.derive.map_layout import layout_texts, nearest, text_vectors
from generator.derive.tag import load_taxonomy, tag_texts
from generator.seeds.identify import paper_id

GROWTH = 0.05
QUALITY_K = 10


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


def first_topics(ids: list[str], texts: list[str]) -> dict[str, str]:
    """Each paper's first topic, as the tag stage gives it."""
    return {i: tags[0] for i, (tags, _) in zip(ids, tag_texts(texts, load_taxonomy()))}


def quality(ids: list[str], texts: list[str], coords: dict, topic: dict[str, str]) -> dict[str, float]:
    """kNN preservation and topic agreement of the map ``coords`` of these papers (see the module's docstring)."""
    from scipy.spatial import cKDTree

    order = sorted(range(len(ids)), key=lambda i: ids[i])  # as the layout orders them
    ids = [ids[i] for i in order]
    vectors = text_vectors([texts[i] for i in order])
    by_text, _ = nearest(vectors, QUALITY_K)
    points = np.array([coords[i] for i in ids])
    _, on_map = cKDTree(points).query(points, k=QUALITY_K + 1)
    on_map = [[j for j in row if j != r][:QUALITY_K] for r, row in enumerate(on_map)]
    kept = [len(set(a) & set(b)) / QUALITY_K for a, b in zip(by_text, on_map)]
    first = np.array([topic[i] for i in ids])
    agree = lambda near: float(np.mean([np.mean(first[row] == first[r]) for r, row in enumerate(near)]))
    _, counts = np.unique(first, return_counts=True)
    return {"knn": float(np.mean(kept)), "topic": agree(on_map), "topic_text": agree(by_text),
            "topic_chance": float(((counts / counts.sum()) ** 2).sum())}


def jittered(seed: int) -> None:
    """Make every later layout start from a randomly moved start (see the module's docstring);
    the same move for the same start, so the determinism check still holds."""
    svd_start, start = map_layout._svd_start, map_layout._start

    def shaken(points: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(seed)
        return points + rng.normal(0.0, 0.1 * points.std(axis=0), points.shape)

    def shaken_start(*args, **kwargs):
        points, continued = start(*args, **kwargs)
        return shaken(points), continued

    map_layout._svd_start = lambda vectors: shaken(svd_start(vectors))
    map_layout._start = shaken_start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[3300, 20000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jitter", type=int, help="start each layout from a randomly moved start (this seed)")
    args = ap.parse_args()
    if args.jitter is not None:
        jittered(args.jitter)
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
        topic = first_topics(ids, texts)
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
            "quality": quality(base_ids, base_texts, before, topic),
            "quality_cont": quality(ids, texts, grown[0][1], topic),
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
    print(f"\nquality ({QUALITY_K} nearest; higher is better): kNN kept = share of a paper's nearest by text that are")
    print("among its nearest on the map; topic = share of its nearest on the map with its first topic")
    print(f"{'papers':>7} {'scratch s':>10} {'CPU s':>6} {'kNN kept':>9} {'topic':>6} {'+5% cont.: kNN kept':>20} {'topic':>6} "
          f"{'topic, by text':>15} {'topic, chance':>14}")
    for r in rows:
        q, c = r["quality"], r["quality_cont"]
        print(f"{r['n']:>7} {r['scratch']:>10.1f} {r['scratch_cpu']:>6.1f} {q['knn']:>9.1%} {q['topic']:>6.1%} "
              f"{c['knn']:>20.1%} {c['topic']:>6.1%} {q['topic_text']:>15.1%} {q['topic_chance']:>14.1%}")


if __name__ == "__main__":
    main()
