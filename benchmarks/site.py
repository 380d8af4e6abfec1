"""The whole site at conference scale: generate plus `mkdocs build` for 3,300 papers.

Prints, for a digest of N papers (default 3,300, one ICML): generate seconds,
mkdocs build seconds (medians of --runs), median and largest paper page in KB,
and the search index raw and gzipped next to the abstracts' own text. Targets
(issue: the site): paper page <= 40 KB; generate + build <= 30 s with generate at
most a fifth of it; search index <= 1.5 x the abstracts' text. Asserts nothing.

    .venv/bin/python benchmarks/site.py [--papers 3300] [--runs 3] [--keep DIR]
"""
from __future__ import annotations

import argparse
import gzip
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
HAND_WRITTEN = ("contribute.md", "assets")


def prepare(root: Path) -> None:
    """A copy of the project's site sources (config, templates, hand-written docs)."""
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "overrides", root / "overrides")
    (root / "docs").mkdir()
    for name in HAND_WRITTEN:
        src = REPO / "docs" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / "docs" / name)


def timed(cmd: list[str], cwd: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=3300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="build into this folder and keep it (for the search benchmark)")
    args = ap.parse_args()
    if not (REPO / "docs" / "assets" / "katex" / "katex.min.js").exists():
        sys.exit("docs/assets/katex is missing: run `make docs` first")
    tmp = tempfile.mkdtemp()
    root = args.keep or Path(tmp) / "site-bench"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    prepare(root)
    write_seeds(root / "seeds", args.papers)
    gen, mk = [], []
    for _ in range(args.runs):
        for sub in ("papers", "topics", "venues"):
            shutil.rmtree(root / "docs" / sub, ignore_errors=True)
        gen.append(timed([sys.executable, "-m", "generator", "build"], root))
        mk.append(timed([str(Path(sys.executable).with_name("mkdocs")), "build", "--strict"], root))
    site = root / "site"
    pages = sorted(p.stat().st_size for p in (site / "papers").glob("*/index.html"))
    papers = json.loads((site / "papers.json").read_text(encoding="utf-8"))["papers"]
    abstract_bytes = sum(len(p["abstract"].encode("utf-8")) for p in papers)
    index = (site / "search" / "search_index.json").read_bytes()
    g, m = statistics.median(gen), statistics.median(mk)
    rows = [
        ("papers", f"{len(papers)}", ""),
        ("generate (s, median)", f"{g:.2f}", f"<= {(g + m) / 5:.2f} (a fifth of the total)"),
        ("mkdocs build (s, median)", f"{m:.2f}", ""),
        ("generate + build (s)", f"{g + m:.2f}", "<= 30"),
        ("paper page, median (KB)", f"{statistics.median(pages) / 1000:.1f}", "<= 40"),
        ("paper page, largest (KB)", f"{pages[-1] / 1000:.1f}", "<= 40"),
        ("abstracts' text (MB)", f"{abstract_bytes / 1e6:.2f}", ""),
        ("search index raw (MB)", f"{len(index) / 1e6:.2f}", f"ratio {len(index) / abstract_bytes:.2f} (<= 1.5)"),
        ("search index gzipped (MB)", f"{len(gzip.compress(index)) / 1e6:.2f}", ""),
    ]
    print(f"runs: generate {', '.join(f'{x:.2f}' for x in gen)}; mkdocs {', '.join(f'{x:.2f}' for x in mk)}", file=sys.stderr)
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>8}  {target}")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
