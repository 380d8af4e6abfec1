"""How well the near-duplicate thresholds of generator/derive/dedupe.py separate one paper's edited
resubmission from two different papers, on the titled corpora (``../shared/titled``).

``resubmissions.jsonl`` lists the 12 pairs of abstracts that are one paper resubmitted with
its abstract edited; no other two abstracts there are the same paper. Every pair that shares
a sketch value is verified on its full shingle sets, as the build does; the script prints
the true pairs' similarities, the closest pairs that are not one paper (the margin), and
precision and recall at the current thresholds and a few others. It asserts nothing.

    .venv/bin/python -m benchmarks.dedupe_thresholds
"""
from __future__ import annotations

import json
import sys

from benchmarks.titled import TITLED, available, load_titled, skip_message
from generator.derive import dedupe


def main() -> int:
    if not available():
        print(skip_message())
        return 0
    rows = load_titled()
    at = {r.where: i for i, r in enumerate(rows)}
    lines = (TITLED / "resubmissions.jsonl").read_text(encoding="utf-8").splitlines()
    truth = {tuple(sorted((at[p["a"]], at[p["b"]]))) for p in map(json.loads, lines) if p}
    sets = dedupe.Shingles([r.text for r in rows])  # as the build makes them
    sketches = sets.sketches()
    shared = {pair for pair in dedupe.candidate_pairs(sketches)}
    saved = dedupe.MIN_SHARED_SKETCH
    dedupe.MIN_SHARED_SKETCH = 1  # every pair with anything in common, to count what the thresholds let through
    pairs = set(dedupe.candidate_pairs(sketches)) | truth
    dedupe.MIN_SHARED_SKETCH = saved
    sim = {p: dedupe.similarity(sets[p[0]], sets[p[1]]) for p in pairs}
    print(f"{len(rows)} abstracts, {len(truth)} true pairs, {len(pairs)} pairs sharing a sketch value\n")
    print("true pairs (containment, Jaccard), and whether the sketch index proposes them:")
    for p in sorted(truth, key=lambda p: sim[p]):
        c, j = sim[p]
        print(f"  {c:.2f}  {j:.2f}  {'proposed' if p in shared else 'NOT proposed'}  {rows[p[0]].where} ~ {rows[p[1]].where}")
    others = sorted((sim[p] for p in pairs - truth), reverse=True)[:5]
    print("closest other pairs:", ", ".join(f"({c:.2f}, {j:.2f})" for c, j in others))
    print(f"\n{'containment':>12}{'Jaccard':>9}{'found':>7}{'wrong':>7}{'precision':>11}{'recall':>8}")
    for c_min, j_min in ((0.8, 0.5), (0.6, 0.4), (0.5, 0.3), (0.4, 0.25), (0.3, 0.2), (0.9, 0.7)):
        found = {p for p in pairs if sim[p][0] >= c_min and sim[p][1] >= j_min}
        right = len(found & truth)
        precision = right / len(found) if found else float("nan")
        mark = "  <- current" if (c_min, j_min) == (dedupe.MIN_CONTAINMENT, dedupe.MIN_JACCARD) else ""
        print(f"{c_min:>12.2f}{j_min:>9.2f}{len(found):>7}{len(found) - right:>7}{precision:>11.2f}{right / len(truth):>8.2f}{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
