"""The two site builders side by side: `python -m generator site` (MkDocs + Material, the paper
pages filled into one rendered frame) and a plain `zensical build` (Zensical renders every page
itself), on the same generated docs/.

Seeds: the NeurIPS 2013-2018 abstracts of the shared corpus (3,300 papers after deduplication)
by default, or a synthetic digest of --papers N (benchmarks/corpus.py). The docs are generated
once; each builder then builds the site --runs times into an empty site/ (median printed), and
the table gives seconds, pages written and the site's size. Asserts nothing.

    .venv/bin/python -m benchmarks.builders [--papers N] [--runs 1] [--keep]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.corpus import write_seeds
from benchmarks.site import prepare, timed

REPO = Path(__file__).resolve().parents[1]
NEURIPS = sorted((REPO.parent / "shared" / "titled").glob("neurips20*/seeds"))


def site_size(site: Path) -> tuple[int, float]:
    files = [p for p in site.rglob("*") if p.is_file()]
    return sum(p.suffix == ".html" for p in files), sum(p.stat().st_size for p in files) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, help="a synthetic digest of N papers instead of the NeurIPS seeds")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the temporary project and print where it is")
    args = ap.parse_args()
    zensical = Path(sys.executable).with_name("zensical")
    if not zensical.exists():
        sys.exit("zensical is not installed: `.venv/bin/pip install -r requirements-test.txt`")
    root = Path(tempfile.mkdtemp(prefix="bench-builders-"))
    try:
        prepare(root)
        if args.papers:
            seeds = [root / "seeds"]
            write_seeds(seeds[0], args.papers)
        else:
            if not NEURIPS:
                sys.exit(f"no NeurIPS seeds under {REPO.parent / 'shared' / 'titled'}")
            seeds = NEURIPS
        cmd = [sys.executable, "-m", "generator", "build", "--docs", str(root / "docs")]
        for s in seeds:
            cmd += ["--seeds", str(s)]
        generate = timed(cmd, root)
        papers = len(list((root / "docs" / "papers").glob("*.md")))
        rows = []
        for name, build in (
            ("`python -m generator site` (MkDocs + Material)",
             [sys.executable, "-m", "generator", "site", "--config", str(root / "mkdocs.yml")]),
            ("`zensical build` (plain)", [str(zensical), "build", "-f", str(root / "mkdocs.yml")]),
        ):
            times = []
            for _ in range(args.runs):
                shutil.rmtree(root / "site", ignore_errors=True)
                times.append(timed(build, root))
            pages, mb = site_size(root / "site")
            rows.append((name, statistics.median(times), pages, mb))
        print(f"{papers:,} paper pages; generated in {generate:.1f} s (cold)\n")
        print("| builder | site step | HTML pages | site |")
        print("| --- | ---: | ---: | ---: |")
        for name, sec, pages, mb in rows:
            print(f"| {name} | {sec:.1f} s | {pages:,} | {mb:.1f} MB |")
    finally:
        if args.keep:
            print(f"\nkept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
