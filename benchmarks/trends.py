"""The trends page at scale (generator/derive/trends.py, generator/pages/trends.py): its size and build time.

Synthetic papers (no text is read: the trends need venue, year and tags only) spread over
VENUES x YEARS venue-years, tagged with the shipped taxonomy's topics: one to three tags a
paper, from a skewed distribution whose weights drift from year to year, so that there are
rises, falls and venues that lean. Times the figures and the rendering (median of --runs)
and prints the sizes of trends.md, of the HTML it becomes (the Markdown body is the
page's HTML; Material's frame adds about 10 KB) and of trends.json.

Targets (issue 30): at 50,000 papers over 30 venue-years, the page under 300 KB and under
2 s of build. Prints figures; asserts nothing (the machines here are shared and noisy).

    .venv/bin/python -m benchmarks.trends [--papers 50000] [--venues 5] [--years 6] [--runs 3]
"""
from __future__ import annotations

import argparse
import gzip
import random
import statistics
import time

from generator.core.model import Digest, Paper, Source
from generator.derive.tag import load_taxonomy
from generator.derive.trends import compute
from generator.pages.trends import TRENDS_JSON, TRENDS_PAGE, render_trends

FRAME_KB = 10  # Material's frame around a page's content (handbook/performance.md)


def synthetic(n: int, venues: int, years: int, seed: int = 30) -> Digest:
    """``n`` papers over ``venues`` x ``years`` venue-years, with drifting topic weights."""
    rng = random.Random(seed)
    topics = load_taxonomy()
    names = [t.name for t in topics]
    base = [rng.paretovariate(1.2) for _ in names]
    drift = [rng.uniform(-0.25, 0.25) for _ in names]
    lean = [[rng.uniform(0.6, 1.6) for _ in names] for _ in range(venues)]
    papers = []
    for i in range(n):
        v, y = rng.randrange(venues), rng.randrange(years)
        weights = [b * max(0.05, 1 + d * y) * lean[v][k] for k, (b, d) in enumerate(zip(base, drift))]
        tags = tuple(dict.fromkeys(rng.choices(names, weights, k=rng.choice((1, 1, 2, 2, 3)))))
        papers.append(Paper(id=f"{i:012x}", text="", venue=f"Venue{v}", year=2000 + y,
                            sources=(Source("seeds/synthetic.txt", i + 1),), title=f"Paper {i}", tags=tags))
    return Digest(papers, topics)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=50_000)
    ap.add_argument("--venues", type=int, default=5)
    ap.add_argument("--years", type=int, default=6)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    digest = synthetic(args.papers, args.venues, args.years)
    times, files = [], {}
    for _ in range(args.runs):
        start = time.perf_counter()
        files = render_trends(compute(digest))
        times.append(time.perf_counter() - start)
    page = files[TRENDS_PAGE].encode("utf-8")
    data = files[TRENDS_JSON].encode("utf-8")
    t = compute(digest)
    print(f"trends at {args.papers:,} papers, {len(t.venue_years)} venue-years, {len(t.series)} topics "
          f"({sum(1 for s in t.series for c in s.counts if c):,} bars):")
    print(f"  build (figures + page + json): {statistics.median(times):.3f} s (median of {args.runs}; target < 2 s)")
    print(f"  trends.md: {len(page) / 1000:.0f} KB ({len(gzip.compress(page)) / 1000:.0f} KB gzipped); "
          f"as a page with Material's frame about {len(page) / 1000 + FRAME_KB:.0f} KB (target < 300 KB)")
    print(f"  trends.json: {len(data) / 1000:.0f} KB ({len(gzip.compress(data)) / 1000:.0f} KB gzipped)")


if __name__ == "__main__":
    main()
