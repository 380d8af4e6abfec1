"""Stage 3, deduplicate: one paper per abstract, however often it was submitted.

Exact duplicates share an id (same normalized text). Near duplicates (the same
abstract re-wrapped, re-quoted, with a typo fixed or a sentence added) are found
without comparing all pairs:

1. each abstract becomes the set of its word 3-gram shingles, hashed with a
   hash that does not depend on the process (so builds are reproducible);
2. its sketch is the ``SKETCH`` smallest shingle hashes (bottom-k MinHash);
   abstracts sharing a sketch value become candidate pairs through an index;
3. candidates are verified on the full shingle sets.

Work is near-linear in the number of abstracts: each is hashed once and only
compared with the few that share a sketch value. Sketch values shared by very
many abstracts (boilerplate such as "in this paper we") are skipped: a true
duplicate shares most of its other sketch values too.
"""
from __future__ import annotations

import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import replace

from .errors import GeneratorError, SeedError, raise_all
from .identify import normalize
from .model import Link, Paper

SHINGLE = 3
SKETCH = 16
MAX_BUCKET = 64
# Thresholds checked against shared/corpora, where no two abstracts are one paper
# (benchmarks/dedupe_thresholds.py prints the margins).
MIN_CONTAINMENT = 0.8  # shared shingles / shingles of the shorter abstract
MIN_JACCARD = 0.5  # shared shingles / all shingles (stops a short text matching inside a long one)
# Candidates must share this many sketch values before they are verified in full:
# a true duplicate (Jaccard >= MIN_JACCARD) shares about half of its 16 (fewer
# than 3 with probability 0.2%), while abstracts that share a stock phrase share one.
MIN_SHARED_SKETCH = 3
# The most submissions of one abstract merged into one paper: merging checks every pair.
MAX_GROUP = 64

_WORD = re.compile(r"\w+")


class _Words:
    """Deterministic word hashes, cached: abstracts share most of their vocabulary."""

    def __init__(self) -> None:
        self.cache: dict[str, int] = {}

    def ids(self, words: list[str]) -> list[int]:
        cache = self.cache
        for w in set(words).difference(cache):
            cache[w] = zlib.crc32(w.encode("utf-8"))
        return list(map(cache.__getitem__, words))


def shingles(text: str, words: _Words | None = None) -> frozenset[int]:
    """Hashes of the word 3-grams of the normalized text."""
    ids = (words or _Words()).ids(_WORD.findall(normalize(text)))
    if len(ids) < SHINGLE:
        return frozenset([hash(tuple(ids))])
    # Tuples of ints hash the same in every process (no PYTHONHASHSEED salt).
    return frozenset(map(hash, zip(ids, ids[1:], ids[2:])))


def similarity(a: frozenset[int], b: frozenset[int]) -> tuple[float, float]:
    """(containment, Jaccard) of two shingle sets."""
    shared = len(a & b)
    return shared / min(len(a), len(b)), shared / (len(a) + len(b) - shared)


def is_duplicate(a: frozenset[int], b: frozenset[int]) -> bool:
    containment, jaccard = similarity(a, b)
    return containment >= MIN_CONTAINMENT and jaccard >= MIN_JACCARD


def sketch(s: frozenset[int]) -> list[int]:
    """The bottom-k MinHash sketch: the SKETCH smallest shingle hashes."""
    return sorted(s)[:SKETCH]


def candidate_pairs(sketches: list[list[int]]) -> list[tuple[int, int]]:
    """Index pairs (i < j) that share at least MIN_SHARED_SKETCH sketch values, sorted."""
    buckets: dict[int, list[int]] = defaultdict(list)
    for i, sk in enumerate(sketches):
        for h in sk:
            buckets[h].append(i)
    shared: Counter[tuple[int, int]] = Counter()
    for members in buckets.values():
        if 1 < len(members) <= MAX_BUCKET:
            for x, i in enumerate(members):
                for j in members[x + 1 :]:
                    shared[i, j] += 1
    return sorted(pair for pair, n in shared.items() if n >= MIN_SHARED_SKETCH)


def _alike(a: list[int], b: list[int], sets: list[frozenset[int]]) -> bool:
    """Whether two groups may merge: every abstract of one is a duplicate of every abstract
    of the other, and together they stay within MAX_GROUP.

    Duplicates of a duplicate are not all duplicates of each other: "X Y" (two different
    abstracts one after the other) is a near duplicate of X and of Y when they are as long,
    and a few steps of such texts lead from any abstract to any other. Merged through them,
    X and Y would be one paper showing the longest text; so every pair is checked (the
    size bound keeps that cheap: a paper is not submitted 64 times).
    """
    if len(a) + len(b) > MAX_GROUP:
        return False
    return all(is_duplicate(sets[x], sets[y]) for x in a for y in b)


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _union_links(variants: Iterable[Paper]) -> tuple[Link, ...]:
    seen: dict[str, Link] = {}
    for p in variants:
        for link in p.links:
            seen.setdefault(link.url, link)
    return tuple(seen.values())


def merge(variants: list[Paper]) -> Paper:
    """One paper from the submitted variants of an abstract.

    It lists every source, keeps the union of links, shows the most complete text
    (most words; ties go to the first submitted) and keeps the smallest id, so
    adding a variant rarely changes the paper's URL; the others become aliases.
    """
    sources = tuple(sorted({s for p in variants for s in p.sources}))
    ordered = sorted(variants, key=lambda p: (p.sources[0]))
    shown = max(ordered, key=lambda p: len(p.text.split()))
    first = min(ordered, key=lambda p: p.sources[0])
    ids = sorted({p.id for p in variants} | {a for p in variants for a in p.aliases})
    return replace(
        shown,
        id=ids[0],
        aliases=tuple(ids[1:]),
        sources=sources,
        venue=first.venue,
        year=first.year,
        links=_union_links(ordered),
    )


def _same_text(by_id: dict[str, list[Paper]]) -> None:
    """Refuse different abstracts that share an id, naming both.

    An id is a 48-bit prefix of a SHA-256 (:mod:`generator.identify`): by chance two
    abstracts share one with odds of one in billions, but a text with a chosen paper's id
    costs about 2**48 hashes, hours on a GPU. Merged as an exact duplicate, the longer
    would be shown in place of the other, whatever its words.
    """
    errors: list[GeneratorError] = []
    for pid, group in by_id.items():
        if len(group) > 1:
            first, *rest = sorted(group, key=lambda p: p.source)
            for p in rest:
                if normalize(p.text) != normalize(first.text):
                    errors.append(SeedError(f"this abstract has the id {pid} of a different one, at {first.source} "
                                            "(their texts' hashes begin alike): change a word of it", p.source.file, p.source.line))
    raise_all(errors)


def deduplicate(papers: Iterable[Paper]) -> list[Paper]:
    """Merge exact and near duplicates; every source ends up in exactly one paper.
    Different abstracts with one id are refused (:class:`SeedError`)."""
    by_id: dict[str, list[Paper]] = defaultdict(list)
    for p in papers:
        by_id[p.id].append(p)
    _same_text(by_id)
    ids = sorted(by_id)
    exact = [merge(by_id[i]) if len(by_id[i]) > 1 else by_id[i][0] for i in ids]

    word_hash = _Words()
    sets = [shingles(p.text, word_hash) for p in exact]
    parent = list(range(len(exact)))
    members = {i: [i] for i in range(len(exact))}  # root -> its group
    for i, j in candidate_pairs([sketch(s) for s in sets]):
        if is_duplicate(sets[i], sets[j]):
            ri, rj = _find(parent, i), _find(parent, j)
            if ri != rj and _alike(members[ri], members[rj], sets):
                root, other = min(ri, rj), max(ri, rj)
                parent[other] = root
                members[root] += members.pop(other)

    groups: dict[int, list[Paper]] = defaultdict(list)
    for i, p in enumerate(exact):
        groups[_find(parent, i)].append(p)
    merged = [merge(g) if len(g) > 1 else g[0] for g in groups.values()]
    return sorted(merged, key=lambda p: p.id)
