"""Generation speed: does `python -m generator build` scale near-linearly, and is one ICML fast?

Each run is a fresh `python -m generator build` process into an empty docs folder,
timed from start to exit (what a contributor waits for, imports included). Prints
medians; asserts nothing (machines here are shared and noisy).

    .venv/bin/python benchmarks/pipeline.py [--runs 3] [--sizes 2000 3300 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.corpus import write_seeds  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def time_build(seeds: Path, work: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the child, papers) of one build into a new docs folder."""
    docs = work / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    docs.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = os.times()
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--seeds", str(seeds), "--docs", str(docs)],
        cwd=work, env=env, capture_output=True, text=True,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if run.returncode:
        sys.exit(f"build failed:\n{run.stderr}")
    papers = len(json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, papers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=[2000, 3300, 20000])
    args = ap.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            seeds = Path(tmp) / f"seeds-{n}"
            write_seeds(seeds, n)
            runs = [time_build(seeds, Path(tmp) / f"work-{n}") for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            rows[n] = (wall, cpu, runs[0][2])
            print(f"  {n} abstracts: runs {', '.join(f'{r[0]:.2f}s' for r in runs)}", file=sys.stderr)
    print(f"{'abstracts':>10} {'papers':>7} {'median wall s':>14} {'median CPU s':>13} {'ms/paper':>9}")
    for n, (wall, cpu, papers) in rows.items():
        print(f"{n:>10} {papers:>7} {wall:>14.2f} {cpu:>13.2f} {1000 * wall / n:>9.3f}")
    if 2000 in rows and 20000 in rows:
        ratio = rows[20000][0] / rows[2000][0]
        print(f"\n20,000 vs 2,000 abstracts: {ratio:.1f}x the time for 10x the papers (target: at most 12x)")
    if 3300 in rows:
        print(f"one ICML (3,300 abstracts): {rows[3300][0]:.2f} s median (target: under 2 s)")


if __name__ == "__main__":
    main()
