"""Generation speed: does `python -m generator build` scale near-linearly, and is one ICML fast?

Each run is a fresh `python -m generator build` process into an empty docs folder,
timed from start to exit (what a contributor waits for, imports included). Prints
medians; asserts nothing (machines here are shared and noisy).

    .venv/bin/python -m benchmarks.pipeline [--runs 3] [--sizes 2000 3300 20000]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import write_seeds

REPO = Path(__file__).resolve().parents[1]


STAGE = re.compile(r"^\s+(\w+)\s+([\d.]+)s$", re.M)


def time_build(seeds: Path, work: Path) -> tuple[float, float, int, dict[str, float]]:
    """(wall s, CPU s of the child, papers, seconds per stage) of one build into a new docs folder.

    Each run gets a folder of its own, removed only after all runs: deleting
    thousands of files just before a run slows the run's own writes (the disk
    is busy discarding them) and would be measured as generation time.
    """
    docs = Path(tempfile.mkdtemp(dir=work))
    os.sync()  # start from a settled disk: earlier runs' writes are not this run's cost
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = os.times()
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "generator", "--debug", "build", "--seeds", str(seeds), "--docs", str(docs)],
        cwd=work, env=env, capture_output=True, text=True,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if run.returncode:
        sys.exit(f"build failed:\n{run.stderr}")
    papers = len(json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    stages = {name: float(sec) for name, sec in STAGE.findall(run.stderr)}
    stages["probe"] = disk_probe(docs, work)
    return wall, cpu, papers, stages


def disk_probe(docs: Path, work: Path) -> float:
    """Seconds for plain Python to write the same files into another new folder: what the
    disk itself costs. On the machines here that swings between 0.1 s and 2 s for the
    same 3,400 files, depending on where the filesystem places a new folder."""
    files = {p.relative_to(docs): p.read_bytes() for p in docs.rglob("*") if p.is_file()}
    target = Path(tempfile.mkdtemp(dir=work))
    os.sync()
    start = time.perf_counter()
    for rel, data in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return time.perf_counter() - start


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
            work = Path(tmp) / f"work-{n}"
            work.mkdir()
            runs = [time_build(seeds, work) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            memory = statistics.median(sum(v for k, v in r[3].items() if k != "write") for r in runs)
            memory = statistics.median(sum(v for k, v in r[3].items() if k not in ("write", "probe")) for r in runs)
            write = statistics.median(r[3].get("write", 0.0) for r in runs)
            probe = statistics.median(r[3]["probe"] for r in runs)
            rest = statistics.median(r[0] - r[3].get("write", 0.0) for r in runs)
            rows[n] = (wall, cpu, runs[0][2], memory, write, probe, rest)
            shown = ", ".join(f"{r[0]:.2f}s (write {r[3].get('write', 0.0):.2f}s, probe {r[3]['probe']:.2f}s)" for r in runs)
            print(f"  {n} abstracts: runs {shown}", file=sys.stderr)
    print("medians; 'generate' is read+parse+derive+render in memory, 'write' puts the files on disk,")
    print("'probe' is plain Python writing the same files into another new folder (the disk's own cost),")
    print("'process' is the whole `python -m generator build` from start to exit, 'process-write' without its write")
    print(f"{'abstracts':>10} {'papers':>7} {'generate s':>11} {'write s':>8} {'probe s':>8} {'process s':>10} {'process-write s':>16} {'CPU s':>6} {'ms/paper':>9}")
    for n, (wall, cpu, papers, memory, write, probe, rest) in rows.items():
        print(f"{n:>10} {papers:>7} {memory:>11.2f} {write:>8.2f} {probe:>8.2f} {wall:>10.2f} {rest:>16.2f} {cpu:>6.2f} {1000 * memory / n:>9.3f}")
    if 2000 in rows and 20000 in rows:
        ratio = rows[20000][3] / rows[2000][3]
        whole = rows[20000][0] / rows[2000][0]
        print(f"\n20,000 vs 2,000 abstracts: generate {ratio:.1f}x, whole process {whole:.1f}x, for 10x the papers (target: at most 12x)")
    if 3300 in rows:
        r = rows[3300]
        print(f"one ICML (3,300 abstracts): generate {r[3]:.2f} s, whole process {r[0]:.2f} s of which writing {r[4]:.2f} s "
              f"(the disk alone: {r[5]:.2f} s); without the write {r[6]:.2f} s (target: under 2 s)")


if __name__ == "__main__":
    main()
