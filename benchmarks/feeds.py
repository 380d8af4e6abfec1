"""Feeds: how long the Atom feeds take to render, and the git pass that dates them.

Renders the digest's feed and one per topic for 3,300 and 20,000 synthetic abstracts
(benchmarks/corpus.py, tagged as the build tags them; every paper dated by its own
fake seed file), median of 3; then times ``seed_dates`` over this repository's seeds.

    .venv/bin/python -m benchmarks.feeds [--sizes 3300 20000] [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from benchmarks.related import synthetic
from generator.derive.tag import load_taxonomy
from generator.pages.feeds import render_feeds
from generator.seeds.read import seed_dates, seed_paths

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[3300, 20000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    topics = load_taxonomy()
    print(f"render_feeds: the digest's feed and {len(topics)} topic feeds of 50 entries, median of {args.runs}")
    print(f"{'papers':>7} {'median s':>9} {'feeds':>6} {'bytes':>9}")
    for n in args.sizes:
        papers = synthetic(n, topics)
        start = datetime(2025, 1, 1, tzinfo=timezone.utc)
        added = {p.source.file: start + timedelta(hours=i) for i, p in enumerate(papers)}
        runs = []
        for _ in range(args.runs):
            t = time.perf_counter()
            files = render_feeds(papers, topics, added)
            runs.append(time.perf_counter() - t)
        print(f"{len(papers):>7} {statistics.median(runs):>9.3f} {len(files):>6} {sum(len(v.encode()) for v in files.values()):>9}")
    paths = seed_paths([REPO / "seeds"])
    t = time.perf_counter()
    dates, how = seed_dates(paths)
    print(f"\nseed_dates over {len(paths)} seed file(s) of this repository: {time.perf_counter() - t:.3f} s ({how}, {len(dates)} dated)")


if __name__ == "__main__":
    main()
