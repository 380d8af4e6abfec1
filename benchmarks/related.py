"""Related papers: are they related, and how long do they take?

Quality, on the titled corpora (``../shared/titled/iclr2017`` and ``iclr2018``, whose
papers carry their authors' keywords): the share of a paper's top 5 related papers
that share a keyword with it. Keywords are case- and whitespace-folded; a keyword on
more than 10% of the venue's papers ("deep learning") is left out, and papers left
with no keyword are not asked. Three rows per venue: the digest's related papers
(generator/derive/related.py), plain tf-idf cosine over the abstracts (the baseline, written
here independently: raw counts, every word, no pruning), and 5 random papers of the
venue (seeded). Speed: ``related()`` alone on 3,300 and 20,000 synthetic abstracts
(benchmarks/corpus.py), median of 3.

    .venv/bin/python -m benchmarks.related [--venues iclr2017 iclr2018] [--sizes 3300 20000] [--runs 3]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks.corpus import abstracts
from generator.core.model import Paper, Source
from generator.core.parallel import map_chunks, workers
from generator.derive.related import related
from generator.derive.tag import load_taxonomy, tag_texts
from generator.seeds.identify import paper_id
from generator.seeds.parse import parse_seed

REPO = Path(__file__).resolve().parents[1]
TITLED = REPO.parent / "shared" / "titled"
TOP = 5
COMMON = 0.10


def load_venue(name: str, topics) -> tuple[list[Paper], dict[str, frozenset[str]]]:
    """The venue's papers (parsed and tagged as the build does) and each paper's kept keywords."""
    truth = {}
    for line in (TITLED / name / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        truth[(row["file"], row["line"])] = {" ".join(k.casefold().split()) for k in row["keywords"]} - {""}
    papers: list[Paper] = []
    for path in sorted((TITLED / name / "seeds").glob("*.txt")):
        papers += parse_seed(path.read_bytes(), f"{name}/seeds/{path.name}")
    tags = tag_texts([p.text for p in papers], topics)
    papers = [Paper(id=p.id, text=p.text, venue=p.venue, year=p.year, sources=p.sources, tags=t) for p, (t, _) in zip(papers, tags)]
    # one paper per id (a venue's file may hold an exact repeat)
    unique = {p.id: p for p in reversed(papers)}
    papers = sorted(unique.values(), key=lambda p: p.id)
    kw = {p.id: truth.get((p.source.file, p.source.line), set()) for p in papers}
    counts = Counter(k for ks in kw.values() for k in ks)
    common = {k for k, c in counts.items() if c > COMMON * len(papers)}
    return papers, {pid: frozenset(ks - common) for pid, ks in kw.items()}


def share(neighbours: dict[str, list[str]], keywords: dict[str, frozenset[str]]) -> float:
    """Mean over papers with keywords of the share of their top-5 neighbours sharing one."""
    scores = []
    for pid, ks in keywords.items():
        if not ks:
            continue
        top = neighbours[pid][:TOP]
        scores.append(sum(1 for q in top if keywords[q] & ks) / TOP)
    return statistics.fmean(scores)


def plain_tfidf(papers: list[Paper]) -> dict[str, list[str]]:
    """The baseline: raw term counts times log(N/df) over every lower-case word, cosine, top 5."""
    docs = [Counter(re.findall(r"\w+", p.text.lower())) for p in papers]
    df = Counter(t for d in docs for t in d)
    vocab = {t: i for i, t in enumerate(sorted(df))}
    n = len(papers)
    m = np.zeros((n, len(vocab)))
    for r, d in enumerate(docs):
        for t, c in d.items():
            m[r, vocab[t]] = c * math.log(n / df[t])
    m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    sims = m @ m.T
    np.fill_diagonal(sims, -1.0)
    order = np.argsort(-sims, axis=1, kind="stable")[:, :TOP]
    return {p.id: [papers[j].id for j in row] for p, row in zip(papers, order)}


def random_neighbours(papers: list[Paper], seed: int = 13) -> dict[str, list[str]]:
    rng = random.Random(seed)
    ids = [p.id for p in papers]
    out = {}
    for pid in ids:
        others = [q for q in ids if q != pid]
        out[pid] = rng.sample(others, TOP)
    return out


def synthetic(n: int, topics) -> list[Paper]:
    texts = [a.text for a in abstracts(n)]
    tags = tag_texts(texts, topics)
    out = {}
    for i, (text, (t, _)) in enumerate(zip(texts, tags)):
        pid = paper_id(text)
        out[pid] = Paper(id=pid, text=text, venue="Bench", year=2026, sources=(Source(f"bench/{i // 100:03d}.txt", 3),), tags=t)
    return list(out.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--venues", nargs="+", default=["iclr2017", "iclr2018"])
    ap.add_argument("--sizes", type=int, nargs="*", default=[3300, 20000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    topics = load_taxonomy()
    if not TITLED.is_dir():
        sys.exit(f"{TITLED} is absent: the quality benchmark needs the shared titled corpora")
    print(f"share of a paper's top {TOP} related papers that share an author keyword with it "
          f"(keywords on more than {COMMON:.0%} of a venue's papers left out)")
    print(f"{'venue':<10} {'papers':>6} {'asked':>6} {'digest':>7} {'tf-idf':>7} {'random':>7} "
          f"{'digest/random':>14} {'tf-idf/random':>14} {'digest/tf-idf':>14}")
    for venue in args.venues:
        papers, keywords = load_venue(venue, topics)
        ours = {pid: list(ids) for pid, ids in related(papers, k=TOP).items()}
        base = plain_tfidf(papers)
        rand = random_neighbours(papers)
        a, b, c = share(ours, keywords), share(base, keywords), share(rand, keywords)
        asked = sum(1 for ks in keywords.values() if ks)
        print(f"{venue:<10} {len(papers):>6} {asked:>6} {a:>7.3f} {b:>7.3f} {c:>7.3f} {a / c:>14.2f} {b / c:>14.2f} {a / b:>14.2f}")
    if args.sizes:
        print(f"\nrelated() alone (tokenising, weighting, top 8 per paper) as the build runs it, on {workers()} "
              f"worker(s); median of {args.runs}; CPU s counts the workers too; load is the 1-minute load average")
        print(f"{'papers':>7} {'wall s':>7} {'CPU s':>6} {'load':>5} {'wall s of each run':>24}")
        for n in args.sizes:
            papers = synthetic(n, topics)
            runs, cpus = [], []
            for _ in range(args.runs):
                before = os.times()
                start = time.perf_counter()
                related(papers, mapper=map_chunks)
                runs.append(time.perf_counter() - start)
                after = os.times()
                cpus.append(sum(after[i] - before[i] for i in range(4)))
            shown = " ".join(f"{r:.2f}" for r in runs)
            print(f"{len(papers):>7} {statistics.median(runs):>7.2f} {statistics.median(cpus):>6.2f} "
                  f"{os.getloadavg()[0]:>5.1f} {shown:>24}")


if __name__ == "__main__":
    main()
