"""The whole site at conference scale: generate plus `mkdocs build` for 3,300 papers (or --papers N).

Prints, for a digest of N papers: generate seconds, cold (no previous map: the map is
laid out from scratch) and warm (the previous build's docs/map.json and .cache/derived.json kept, as
the deploy workflow restores them), build seconds (`python -m generator site`, as `make site`:
mkdocs build, the paper pages filled into their frame, compaction; median of --runs), the largest HTML page
and the median paper page in KB, the whole site in MB, and the split search index.
Targets (issue: fifty thousand papers): generate + build <= 12 s at 3,300 papers and
<= 75 s at 20,000; no HTML page over 300 KB; median paper page <= 12 KB; the site at
50,000 papers <= 800 MB. Asserts nothing.

    .venv/bin/python -m benchmarks.site [--papers 3300] [--runs 3] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import ALL_SOURCES, SOURCES, write_seeds

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


STAGE = re.compile(r"^\s+(\w+)\s+([\d.]+)s$", re.M)  # the generator's --debug stopwatch lines


def timed(cmd: list[str], cwd: Path, stages: list | None = None) -> float:
    """Seconds ``cmd`` took; with ``stages``, the generator's seconds per stage are appended to it."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    run = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    if stages is not None:
        stages.append({name: float(sec) for name, sec in STAGE.findall(run.stderr)})
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=3300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="build into this folder and keep it (for the search benchmark)")
    ap.add_argument("--all-abstracts", action="store_true",
                    help="make the synthetic digest from every real abstract in ../shared (titled set included), "
                         "about 5,700 originals rather than 546")
    args = ap.parse_args()
    if not (REPO / "docs" / "assets" / "katex" / "katex.min.js").exists():
        sys.exit("docs/assets/katex is missing: run `make docs` first")
    tmp = tempfile.mkdtemp()
    root = args.keep or Path(tmp) / "site-bench"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    prepare(root)
    write_seeds(root / "seeds", args.papers, ALL_SOURCES if args.all_abstracts else SOURCES)
    gen, mk, site_stages, stages = [], [], [], []
    for run in range(args.runs):
        for sub in ("papers", "topics", "venues", "search", "list"):
            shutil.rmtree(root / "docs" / sub, ignore_errors=True)
        if run == 0:  # the first run is cold: no previous map, no derive cache
            (root / "docs" / "map.json").unlink(missing_ok=True)
            shutil.rmtree(root / ".cache", ignore_errors=True)
        gen.append(timed([sys.executable, "-m", "generator", "--debug", "build"], root, stages))
        # `make site`'s second step (generator/site/build.py): mkdocs build of all but the paper
        # pages when what it renders changed, the changed pages filled into their frames, the
        # rest linked from the last site. The first run builds cold (no site/, no .cache/).
        mk.append(timed([sys.executable, "-m", "generator", "--debug", "site"], root, site_stages))
    site = root / "site"
    pages = sorted(p.stat().st_size for p in (site / "papers").glob("*/index.html"))
    html = sorted((p.stat().st_size, p) for p in site.rglob("*.html"))
    everything = [p for p in site.rglob("*") if p.is_file()]
    index = [p for p in (site / "search").rglob("*") if p.is_file()]
    shards = [p.stat().st_size for p in (site / "search" / "t").glob("*.bin")]
    papers = json.loads((root / "docs" / "papers.json").read_text(encoding="utf-8"))["papers"]
    g_cold, g_warm = gen[0], statistics.median(gen[1:] or gen)
    m = statistics.median(mk)
    part = {k: statistics.median(s.get(k, 0.0) for s in site_stages) for k in site_stages[0]}
    target = "<= 12" if args.papers <= 3300 else "<= 75" if args.papers <= 20_000 else ""
    biggest = html[-1]
    rows = [
        ("papers", f"{len(papers)}", ""),
        ("generate, cold (s)", f"{g_cold:.2f}", "no previous map or derive cache"),
        ("generate, warm (s, median)", f"{g_warm:.2f}", "previous map.json and .cache/derived.json kept"),
        ("build: generator site (s, median)", f"{m:.2f}", ", ".join(f"{k} {v:.2f}" for k, v in part.items())),
        ("generate + build, cold (s)", f"{g_cold + m:.2f}", target),
        ("generate + build, warm (s)", f"{g_warm + m:.2f}", target),
        ("largest HTML page (KB)", f"{biggest[0] / 1000:.1f}", f"<= 300 ({biggest[1].relative_to(site).parent}/)"),
        ("paper page, median (KB)", f"{statistics.median(pages) / 1000:.1f}", "<= 12"),
        ("site (MB, files' bytes)", f"{sum(p.stat().st_size for p in everything) / 1e6:.1f}", f"{len(everything)} files; <= 800 at 50,000"),
        ("search index (MB)", f"{sum(p.stat().st_size for p in index) / 1e6:.1f}", f"{len(index)} files"),
        ("largest term shard (KB)", f"{max(shards) / 1000:.1f}", f"{len(shards)} shards"),
    ]
    print(f"runs: generate {', '.join(f'{x:.2f}' for x in gen)}; site {', '.join(f'{x:.2f}' for x in mk)}; "
          
          f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for label, laps in (("cold", stages[0]), ("warm", stages[-1])):
        print(f"generate {label}, by stage: " + ", ".join(f"{k} {v:.2f}" for k, v in laps.items()), file=sys.stderr)
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>8}  {note}")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
