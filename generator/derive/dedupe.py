"""Deduplicate: one paper per abstract, however often it was submitted.

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

Papers already known (published before, or named by the curation file) are
*anchors* (:class:`Anchor`): a submission that is a near duplicate of one joins it
and the paper keeps its id, however many variants arrive and however their ids
sort. Submissions are compared with an anchor's own texts only, never through
another submission, and two anchors never merge. A sketch value is skipped only
when many *anchors* share it: submissions alone cannot make a bucket too big to
look in (seventy one-word variants of a published abstract once became seventy
papers that way).
"""
from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from generator.core.errors import GeneratorError, SeedError, raise_all
from generator.core.model import Link, Paper, changed
from generator.seeds.identify import normalize, paper_id

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


@dataclass(frozen=True)
class Anchor:
    """A paper known before this build: published (:mod:`generator.derive.published`) or curated.

    ``ids`` are the ids whose texts are this paper exactly (its id and every alias);
    ``texts`` are texts it showed that may no longer be submitted (an abstract edited
    since), which a submission is compared with too. Whatever joins it keeps ``id``,
    unless ``keeps_id`` is false (a paper the curation file names but that was not
    published: its group is kept together, and takes the smallest id as any other).
    """

    id: str
    ids: frozenset[str]
    texts: tuple[str, ...] = ()
    keeps_id: bool = True


class _Words(dict):
    """Deterministic word hashes (CRC-32), cached: abstracts share most of their vocabulary."""

    def __missing__(self, word: str) -> int:
        value = self[word] = zlib.crc32(word.encode("utf-8", "surrogatepass"))
        return value

    def ids(self, words: list[str]) -> list[int]:
        return list(map(self.__getitem__, words))


# A shingle is a 40-bit hash of three word hashes; the index of its abstract goes above it
# in one 64-bit key, so one sort of every key orders the shingles by abstract and by value.
_BITS = 40
SHINGLE_BITS = _BITS  # a shingle's hash, and so a sketch's values, are this many bits
_MASK = np.uint64((1 << _BITS) - 1)
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0xFF51AFD7ED558CCD))


def _hash3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """A 40-bit hash of each (a, b, c) of word hashes: the same on every machine and run."""
    with np.errstate(over="ignore"):
        h = a * _MIX[0] + b * _MIX[1] + c
        h ^= h >> np.uint64(31)
        h *= _MIX[2]
        h ^= h >> np.uint64(29)
    return h >> np.uint64(64 - _BITS)


def _sorted_unique(a: np.ndarray) -> np.ndarray:
    """``a``'s distinct values, sorted (np.unique may hash, several times slower here)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


class Shingles:
    """The word 3-gram shingles of many abstracts at once (numpy, no per-shingle Python).

    Each abstract's normalized text becomes word hashes (:class:`_Words`); every three
    adjacent words hash to a shingle (:func:`_hash3`); a text of one or two words has one
    shingle (its words padded), a text with no word one made from its whole text. Keys
    ``abstract << 40 | shingle``, sorted and unique, hold every abstract's set in order.
    """

    def __init__(self, texts: Sequence[str], words: _Words | None = None):
        words = words or _Words()
        ids = [words.ids(_WORD.findall(normalize(t))) for t in texts]
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        # each text's word hashes and then two zeros, so a gram never joins two texts
        flat = np.fromiter(chain.from_iterable(x + [0, 0] for x in ids), dtype=np.uint64)
        firsts = np.concatenate(([0], np.cumsum(lengths + 2)[:-1])).astype(np.int64)
        grams = np.maximum(lengths - 2, 1)  # a text of fewer than three words: one padded gram
        starts = np.repeat(firsts, grams) + (np.arange(grams.sum()) - np.repeat(np.cumsum(grams) - grams, grams))
        doc = np.repeat(np.arange(len(texts), dtype=np.uint64), grams)
        h = _hash3(flat[starts], flat[starts + 1], flat[starts + 2]) if len(flat) else np.zeros(0, np.uint64)
        for i in np.flatnonzero(lengths == 0).tolist():  # no word at all (only symbols)
            h[np.searchsorted(doc, i)] = (1 << (_BITS - 1)) | zlib.crc32(texts[i].encode("utf-8", "surrogatepass"))
        self.keys = _sorted_unique((doc << np.uint64(_BITS)) | h)
        self.bounds = np.searchsorted(self.keys >> np.uint64(_BITS), np.arange(len(texts) + 1, dtype=np.uint64))
        self._sets: dict[int, frozenset[int]] = {}

    def sketches(self) -> list[list[int]]:
        """Each abstract's bottom-k MinHash sketch: its SKETCH smallest shingles."""
        values = self.keys & _MASK
        return [values[a:min(b, a + SKETCH)].tolist() for a, b in zip(self.bounds[:-1].tolist(), self.bounds[1:].tolist())]

    def __getitem__(self, i: int) -> frozenset[int]:
        """The shingle set of abstract ``i`` (made when first asked: only candidates are)."""
        found = self._sets.get(i)
        if found is None:
            found = self._sets[i] = frozenset((self.keys[self.bounds[i]:self.bounds[i + 1]] & _MASK).tolist())
        return found


def shingles(text: str, words: _Words | None = None) -> frozenset[int]:
    """The shingle set of one normalized text (as :class:`Shingles` makes it)."""
    return Shingles([text], words)[0]


def similarity(a: frozenset[int], b: frozenset[int]) -> tuple[float, float]:
    """(containment, Jaccard) of two shingle sets."""
    shared = len(a & b)
    return shared / min(len(a), len(b)), shared / (len(a) + len(b) - shared)


def is_duplicate(a: frozenset[int], b: frozenset[int]) -> bool:
    containment, jaccard = similarity(a, b)
    return containment >= MIN_CONTAINMENT and jaccard >= MIN_JACCARD


def candidate_pairs(sketches: Sequence[Sequence[int]], anchored: Sequence[bool] | None = None) -> list[tuple[int, int]]:
    """Index pairs (i < j) that share at least MIN_SHARED_SKETCH sketch values, sorted.

    In bulk: every (value, abstract) sorted by value; the abstracts of a value that at
    most MAX_BUCKET share are paired by looking 1, 2, ... places ahead in that order;
    the pairs are counted with one sort. ``anchored`` marks the abstracts of known
    papers: in a bigger bucket, each of them is paired with every abstract that is not
    one, as long as at most MAX_BUCKET of them share the value (a stock phrase of the
    digest is shared by many known papers; a flood of submitted variants by none).
    """
    sizes = np.fromiter(map(len, sketches), dtype=np.int64, count=len(sketches))
    if sizes.sum() == 0:
        return []
    n = len(sketches)
    values = np.fromiter(chain.from_iterable(sketches), dtype=np.uint64, count=int(sizes.sum()))
    docs = np.repeat(np.arange(n, dtype=np.int64), sizes)
    order = np.lexsort((docs, values))
    values, docs = values[order], docs[order]
    first = np.concatenate(([True], values[1:] != values[:-1]))
    group = np.cumsum(first) - 1
    group_size = np.bincount(group)
    small = group_size[group] <= MAX_BUCKET
    codes = []
    for ahead in range(1, min(MAX_BUCKET, len(values))):
        same = (group[ahead:] == group[:-ahead]) & small[ahead:]
        if not same.any():
            break
        codes.append(docs[:-ahead][same] * n + docs[ahead:][same])
    if anchored is not None and (group_size > MAX_BUCKET).any():
        codes += _anchored_codes(docs, group, group_size, np.flatnonzero(first), np.asarray(anchored, dtype=bool), n)
    if not codes:
        return []
    codes = np.sort(np.concatenate(codes))
    # a pair that shares n values is n equal codes in a row: keep the n-th of each
    kept = codes[MIN_SHARED_SKETCH - 1:][codes[MIN_SHARED_SKETCH - 1:] == codes[:len(codes) - MIN_SHARED_SKETCH + 1]]
    kept = _sorted_unique(kept)
    return list(zip((kept // n).tolist(), (kept % n).tolist()))


def _anchored_codes(docs: np.ndarray, group: np.ndarray, group_size: np.ndarray, starts: np.ndarray,
                    anchored: np.ndarray, n: int) -> list[np.ndarray]:
    """Pair codes (i * n + j, i < j) of each anchored abstract with every other one in the
    buckets over MAX_BUCKET that at most MAX_BUCKET anchored abstracts share."""
    held = np.bincount(group, weights=anchored[docs], minlength=len(group_size))
    out = []
    for g in np.flatnonzero((group_size > MAX_BUCKET) & (held > 0) & (held <= MAX_BUCKET)).tolist():
        members = docs[starts[g]:starts[g] + group_size[g]]
        mine = anchored[members]
        a, others = members[mine], members[~mine]
        out.append((np.minimum.outer(a, others) * n + np.maximum.outer(a, others)).ravel())
    return out


def _alike(a: list[int], b: list[int], sets: _Sets) -> bool:
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


def merge(variants: list[Paper], anchor: Anchor | None = None) -> Paper:
    """One paper from the submitted variants of an abstract.

    It lists every source, keeps the union of links, shows the most complete text
    (most words; ties go to the first submitted) and keeps the smallest id, so
    adding a variant rarely changes the paper's URL; the others become aliases.
    With an ``anchor`` (a paper known before), it keeps the anchor's id instead, and
    every id the anchor had stays an alias: a published address never changes.
    """
    if len(variants) == 1 and (same := _as_merged(variants[0], anchor)) is not None:
        return same
    sources = tuple(sorted({s for p in variants for s in p.sources}))
    ordered = sorted(variants, key=lambda p: (p.sources[0]))
    shown = ordered[0] if len(ordered) == 1 else max(ordered, key=lambda p: len(p.text.split()))
    first = min(ordered, key=lambda p: p.sources[0])
    ids = sorted({p.id for p in variants} | {a for p in variants for a in p.aliases})
    if anchor is not None and anchor.keeps_id:
        ids = [anchor.id, *sorted((set(ids) | anchor.ids) - {anchor.id})]
    return changed(
        shown,
        id=ids[0],
        aliases=tuple(ids[1:]),
        sources=sources,
        venue=first.venue,
        year=first.year,
        links=_union_links(ordered),
    )


def _as_merged(p: Paper, anchor: Anchor | None) -> Paper | None:
    """``p`` itself when :func:`merge` of it alone (and ``anchor``) would give a record equal to
    it: one source, no link twice, its id and aliases those the merge keeps. Every paper of a
    rebuild is merged with the anchor it was published as: 20,000 copies made for nothing."""
    if len(p.sources) != 1 or len({link.url for link in p.links}) != len(p.links):
        return None
    ids = sorted({p.id, *p.aliases})
    if anchor is not None and anchor.keeps_id:
        ids = [anchor.id, *sorted((set(ids) | anchor.ids) - {anchor.id})]
    if ids[0] != p.id or tuple(ids[1:]) != p.aliases:
        return None
    return p


def _same_text(by_id: dict[str, list[Paper]]) -> None:
    """Refuse different abstracts that share an id, naming both.

    An id is a 48-bit prefix of a SHA-256 (:mod:`generator.seeds.identify`): by chance two
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


def duplicate_pairs(texts: Iterable[str], anchored: Collection[str] = frozenset(),
                    known: Mapping[str, Sequence[int]] | None = None,
                    keep: dict[str, list[int]] | None = None, text_ids: Sequence[str] | None = None,
                    ) -> list[tuple[str, str]]:
    """The near duplicates among ``texts``: pairs of their paper ids (first < second), each
    pair's shingle sets verified, in order. Exact duplicates are one id, so not a pair.
    ``anchored`` holds the ids of known papers (:attr:`Anchor.ids`; see :func:`candidate_pairs`):
    two of them are never a pair, as :func:`deduplicate` never merges two known papers.

    ``known`` holds sketches made before, by id (:mod:`generator.derive.sketches`): those texts
    are not read again, unless they are a candidate; ``keep`` receives every text's sketch.
    It needs the texts alone, so a build finds them in a worker from the seed bytes while
    it parses (:func:`generator.pipeline.start_early`): most of deduplication's time. ``text_ids``,
    when given, are the texts' ids (:func:`generator.seeds.identify.paper_id`), in order, as
    the parse made them."""
    distinct: dict[str, str] = {}
    for pid, t in zip(text_ids, texts) if text_ids is not None else ((paper_id(t), t) for t in texts):
        distinct.setdefault(pid, t)
    ids = sorted(distinct)
    missing = [i for i in ids if known is None or i not in known]
    made = dict(zip(missing, Shingles([distinct[i] for i in missing]).sketches())) if missing else {}
    sketches = [made[i] if i in made else list(known[i]) for i in ids]  # type: ignore[index]
    if keep is not None:
        keep.update(zip(ids, sketches))
    flags = [i in anchored for i in ids] if anchored else None
    candidates = candidate_pairs(sketches, flags)
    if flags is not None:
        candidates = [(i, j) for i, j in candidates if not (flags[i] and flags[j])]
    sets = _Sets([distinct[i] for i in ids])
    return [(ids[i], ids[j]) for i, j in candidates if is_duplicate(sets[i], sets[j])]


def anchored_ids(anchors: Iterable[Anchor]) -> frozenset[str]:
    """Every id of the known papers: what :func:`duplicate_pairs` needs to know of them."""
    return frozenset(i for a in anchors for i in a.ids)


class _Sets:
    """Shingle sets of some texts, each made when first asked (only merged groups need them)."""

    def __init__(self, texts: Sequence[str]):
        self.texts, self.words, self.made = texts, _Words(), {}

    def __getitem__(self, i: int) -> frozenset[int]:
        if i not in self.made:
            self.made[i] = shingles(self.texts[i], self.words)
        return self.made[i]


class _Joins:
    """For each submitted abstract, the known paper it is nearest to among those it duplicates."""

    def __init__(self, anchors: Sequence[Anchor]):
        self.anchors = anchors
        self.best: dict[int, tuple[float, float, str, int]] = {}

    def offer(self, node: int, anchor: int, a: frozenset[int], b: frozenset[int]) -> None:
        containment, jaccard = similarity(a, b)
        if containment < MIN_CONTAINMENT or jaccard < MIN_JACCARD:
            return
        # the most similar wins; between equals, the smallest id: the same choice every time
        key = (-jaccard, -containment, self.anchors[anchor].id, anchor)
        if node not in self.best or key < self.best[node]:
            self.best[node] = key

    def owners(self) -> dict[int, int]:
        return {node: key[3] for node, key in self.best.items()}


def _owners(index: Mapping[str, int], anchors: Sequence[Anchor], claims: Mapping[str, str]) -> dict[int, int]:
    """Abstract -> anchor, for the abstracts that are a known paper exactly or were edited in
    place (``claims``: the id of the edited text -> the id of the paper it was)."""
    owner: dict[int, int] = {}
    for k, a in enumerate(anchors):
        for i in sorted(a.ids):
            if i in index:
                owner.setdefault(index[i], k)
    by_id = {a.id: k for k, a in enumerate(anchors)}
    for text_id, pid in sorted(claims.items()):
        if text_id in index and pid in by_id:
            owner.setdefault(index[text_id], by_id[pid])
    return owner


def _phantom_joins(joins: _Joins, exact: Sequence[Paper], index: Mapping[str, int], free: Sequence[int]) -> None:
    """Offer the free abstracts to the known papers whose shown texts no seed holds any longer."""
    # a text a seed holds as it is has its id among them: hashed only if not (20,000 texts, 0.5 s)
    held = {p.text for p in exact}
    phantoms = [(k, t) for k, a in enumerate(joins.anchors) for t in a.texts if t not in held and paper_id(t) not in index]
    if not phantoms or not free:
        return
    texts = [t for _, t in phantoms] + [exact[i].text for i in free]
    sets = Shingles(texts)
    flags = [True] * len(phantoms) + [False] * len(free)
    for i, j in candidate_pairs(sets.sketches(), flags):
        if i < len(phantoms) <= j:
            joins.offer(free[j - len(phantoms)], phantoms[i][0], sets[i], sets[j])


def deduplicate(papers: Iterable[Paper], pairs: Iterable[tuple[str, str]] | None = None,
                anchors: Sequence[Anchor] = (), claims: Mapping[str, str] | None = None) -> list[Paper]:
    """Merge exact and near duplicates; every source ends up in exactly one paper.
    Different abstracts with one id are refused (:class:`SeedError`). ``pairs`` is
    :func:`duplicate_pairs` of the papers' texts (with :func:`anchored_ids` of the
    anchors) when it was found beforehand.

    ``anchors`` are the papers known before (:class:`Anchor`): an abstract that is one
    exactly, or was edited in place from one (``claims``), or is a near duplicate of one
    of its texts, joins it and keeps its id; the abstract nearest to none are grouped
    among themselves as before. Two anchors never merge."""
    by_id: dict[str, list[Paper]] = defaultdict(list)
    for p in papers:
        by_id[p.id].append(p)
    _same_text(by_id)
    ids = sorted(by_id)
    exact = [merge(by_id[i]) if len(by_id[i]) > 1 else by_id[i][0] for i in ids]

    if pairs is None:
        pairs = duplicate_pairs((p.text for p in exact), anchored_ids(anchors))
    index = {pid: i for i, pid in enumerate(ids)}
    sets = _Sets([p.text for p in exact])
    owner = _owners(index, anchors, claims or {})
    joins = _Joins(anchors)
    loose: list[tuple[int, int]] = []
    for i, j in sorted((index[a], index[b]) for a, b in pairs if a in index and b in index):
        oi, oj = owner.get(i), owner.get(j)
        if oi is None and oj is None:
            loose.append((i, j))
        elif oi is None or oj is None:  # a submission and a known paper; two known papers never merge
            node, ref, k = (i, j, oj) if oi is None else (j, i, oi)
            joins.offer(node, k, sets[ref], sets[node])
    if anchors:
        _phantom_joins(joins, exact, index, [i for i in range(len(exact)) if i not in owner])
    for node, k in joins.owners().items():
        owner.setdefault(node, k)

    parent = list(range(len(exact)))
    members = {i: [i] for i in range(len(exact))}  # root -> its group
    # in the order of the candidates (by index, as the ids are sorted): the same groups every time
    for i, j in loose:
        if i in owner or j in owner:
            continue
        ri, rj = _find(parent, i), _find(parent, j)
        if ri != rj and _alike(members[ri], members[rj], sets):
            root, other = min(ri, rj), max(ri, rj)
            parent[other] = root
            members[root] += members.pop(other)

    groups: dict[int, list[Paper]] = defaultdict(list)
    known: dict[int, list[Paper]] = defaultdict(list)
    for i, p in enumerate(exact):
        if i in owner:
            known[owner[i]].append(p)
        else:
            groups[_find(parent, i)].append(p)
    merged = [merge(g) if len(g) > 1 else g[0] for g in groups.values()]
    merged += [merge(g, anchors[k]) for k, g in known.items()]
    return sorted(merged, key=lambda p: p.id)
