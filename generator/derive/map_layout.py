"""Layout: where each paper sits on the map of the digest (/map/).

Pure: papers (and the previous build's coordinates, if any) in, coordinates out.

1. **Text vectors.** tf-idf over the abstracts (sublinear term frequency, English stop
   words and words of one paper or of more than half of them left out), reduced to
   :data:`DIMENSIONS` dimensions by truncated SVD (latent semantic analysis), each row
   scaled to unit length so that a dot product is a cosine.
2. **Neighbours.** The exact :data:`NEIGHBOURS` nearest papers of every paper by
   cosine, block by block (a 2,048-row slice of the similarity matrix at a time,
   never all pairs at once).
3. **t-SNE** (openTSNE, FFT-accelerated gradients) on those neighbours.

*Stability.* A t-SNE run from scratch places clusters anew, so 5% more papers could
move every existing point. When the previous build's coordinates are given, the
optimisation starts from them instead: a paper already on the map starts where it
was, a new one at the mean place of its nearest neighbours that were; and it runs
without the early-exaggeration phase (which exists to untangle a random start), for
fewer iterations. Existing points then move only as much as the new papers pull
them (benchmarks/map.py measures how much). When no paper is new, the previous
places are kept as they are: a rebuild does not shift the map. Without previous coordinates the start
is the SVD's first two components, scaled as openTSNE's PCA initialisation does.

*Placing.* A build that adds a few papers (at most :data:`PLACE_SHARE` of the map since
its last full layout, counted by the build) does not lay the map out again: every paper
already on it keeps its place exactly, and each new one is put at the mean place of its
related papers that are on the map (:func:`place`), which costs nothing beside the
layout's 5 to 20 CPU-seconds (3,300 to 20,000 papers). Past that share, the map is laid
out again in full (from the previous places, as above), and the build says so.

*Determinism.* Papers are taken sorted by id, every random state is fixed, the
neighbour search is exact with ties broken by index, and t-SNE runs on one thread
(the build runs the layout in a worker process beside the rendering, so the second
core is busy anyway); the same papers and the same previous coordinates give the
same map, byte for byte (benchmarks/map.py checks it at scale, a test on the mission
seeds).

Coordinates are returned normalised: the map's bounding box centred on 0, its larger
side 1 (so a movement of 0.01 is 1% of the map's width).
"""
from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

logging.getLogger("openTSNE").setLevel(logging.WARNING)  # it logs each optimisation phase at INFO

from generator.core.model import Paper

log = logging.getLogger(__name__)

DIMENSIONS = 64
PERPLEXITY = 30
NEIGHBOURS = 3 * PERPLEXITY  # openTSNE's rule: three times the perplexity
BLOCK = 2048
SELECT_ROWS = 128  # rows of a block ranked at a time (:func:`nearest`)
SEED = 0
# From scratch: early exaggeration untangles the start, then the plain phase. With the
# learning rate of N / exaggeration (openTSNE's "auto", after Belkina et al. 2019) a map of
# thousands of papers has its neighbourhoods settled long before openTSNE's 250 + 500: from
# BH_BELOW papers on, 125 + 250 keep as many of each paper's nearest papers and first topics
# as 200 + 400 did, within the spread of runs from different starts, for a third less time
# (handbook/performance.md, benchmarks/map.py). A smaller map learns at a smaller rate and
# needs the longer schedule (with the short one, the 200 papers of tests/test_layout.py moved
# a median 3.7% of the map's width when continued, not 3.1%); it costs a second or two.
EXAGGERATED_ITERATIONS = 200
PLAIN_ITERATIONS = 400
LARGE_EXAGGERATED_ITERATIONS = 125
LARGE_PLAIN_ITERATIONS = 250
# From the previous layout: the start is already untangled.
CONTINUED_ITERATIONS = 150
INTS_IN_INTERVAL = 4
# Below this many papers Barnes-Hut is faster than the FFT grid (whose size has a floor).
BH_BELOW = 2000
# Below this many papers t-SNE has too few neighbours to work with; the SVD's first
# two components are the map.
MIN_TSNE = 12

_URL = re.compile(r"https?://\S+|www\.\S+")
_TEX = re.compile(r"\\[A-Za-z]+|\$[^$]*\$")
# Words of two or more letters; digits, TeX commands and URLs are not topics.
TOKEN = r"(?u)\b[^\W\d_][^\W\d_]+\b"

Coordinates = dict[str, tuple[float, float]]


@dataclass(frozen=True)
class LayoutInfo:
    """How a layout was made, for the build's log and the benchmark."""

    papers: int
    continued: int  # papers that started from their previous place
    method: str  # "t-SNE", "t-SNE (continued)", "previous map", "SVD" or "none"
    span: float = 0.0  # the larger side of the map before normalising, in t-SNE's units


def _prose(text: str) -> str:
    return _TEX.sub(" ", _URL.sub(" ", text))


def text_vectors(texts: Sequence[str]) -> np.ndarray:
    """Unit-length LSA vectors (tf-idf, then truncated SVD) of ``texts``, one row each."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    n = len(texts)
    docs = [_prose(t) for t in texts]
    try:
        tfidf = TfidfVectorizer(
            sublinear_tf=True, stop_words="english", token_pattern=TOKEN,
            min_df=2 if n >= 50 else 1, max_df=0.5 if n >= 50 else 1.0, dtype=np.float64,
        ).fit_transform(docs)
    except ValueError:  # no word at all survived (tiny or empty corpus)
        return np.zeros((n, 1))
    k = min(DIMENSIONS, tfidf.shape[1] - 1, n - 1)
    if k < 2:
        dense = tfidf.toarray()
    else:
        dense = TruncatedSVD(n_components=k, algorithm="randomized", n_iter=5, random_state=SEED).fit_transform(tfidf)
    norms = np.linalg.norm(dense, axis=1, keepdims=True)
    # Rounded to a millionth: numpy's sums can differ in the last bits with the memory
    # alignment of their arrays, and t-SNE would carry such a difference into a whole
    # other map. A rounding step is a billion times coarser than that noise.
    return np.round(dense / np.where(norms > 0, norms, 1.0), 6)


def nearest(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` nearest rows of every row by cosine (itself excluded), nearest first:
    (indices, Euclidean distances between the unit vectors). Exact, block by block;
    ties go to the smaller index."""
    n = len(vectors)
    vectors = vectors.astype(np.float32)  # a fifth of the time of float64; ranks barely differ
    idx = np.empty((n, k), dtype=np.int64)
    dist = np.empty((n, k), dtype=np.float64)
    for start in range(0, n, BLOCK):
        # The negated similarities, in place: a 2,048-row block of 20,000 papers is 164 MB.
        sims = vectors[start : start + BLOCK] @ vectors.T
        np.negative(sims, out=sims)
        rows = np.arange(sims.shape[0])
        sims[rows, start + rows] = np.inf
        # argpartition works row by row, so a few rows at a time give the same result with a
        # fraction of its index array (8 bytes a pair: 328 MB for the whole block).
        for at in range(0, len(rows), SELECT_ROWS):
            block = sims[at : at + SELECT_ROWS]
            # argpartition is deterministic for the same input; the k found are then ordered
            # by similarity, equal ones by index.
            part = np.argpartition(block, k - 1, axis=1)[:, :k]
            part_sims = np.take_along_axis(block, part, axis=1)
            ranks = np.lexsort((part, part_sims), axis=1)
            first = start + at
            idx[first : first + len(part)] = np.take_along_axis(part, ranks, axis=1)
            best = -np.take_along_axis(part_sims, ranks, axis=1)
            dist[first : first + len(part)] = np.sqrt(np.maximum(0.0, 2.0 - 2.0 * best.astype(np.float64)))
        del sims, block, part  # before the next block's are made
    return idx, dist


def _span(points: np.ndarray) -> float:
    return float((points.max(axis=0) - points.min(axis=0)).max())


def _normalise(points: np.ndarray) -> np.ndarray:
    lo, hi = points.min(axis=0), points.max(axis=0)
    span = _span(points)
    return (points - (lo + hi) / 2) / (span if span > 0 else 1.0)


def _align(points: np.ndarray, target: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``points`` turned, scaled and shifted (no reflection) to fit ``target`` best on ``rows``
    (least squares, Umeyama's solution): a map that turned or grew as a whole is put
    back in the previous map's frame, so only real moves remain."""
    a, b = points[rows], target[rows]
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    u, s, vt = np.linalg.svd((b - cb).T @ (a - ca))
    d = np.sign(np.linalg.det(u @ vt)) or 1.0
    rotation = u @ np.diag([1.0, d]) @ vt
    scale = (s * [1.0, d]).sum() / max(((a - ca) ** 2).sum(), 1e-12)
    return (points - ca) @ rotation.T * scale + cb


def _fit_box(points: np.ndarray) -> np.ndarray:
    """Shrunk about the centre, only if needed, to stay within the unit box."""
    reach = float(np.abs(points).max()) * 2
    return points / reach if reach > 1 else points


def _start(vectors: np.ndarray, ids: Sequence[str], idx: np.ndarray,
           previous: Mapping[str, tuple[float, float]], scale: float) -> tuple[np.ndarray, int]:
    """The initial embedding: previous places where known, else the mean previous place of
    the nearest papers that have one (else the centre); scaled like the previous map."""
    known = np.array([i in previous for i in ids])
    start = np.zeros((len(ids), 2))
    for row, paper_id in enumerate(ids):
        if known[row]:
            start[row] = previous[paper_id]
    for row in np.flatnonzero(~known):
        placed = [j for j in idx[row] if known[j]][:5]
        if placed:
            start[row] = start[placed].mean(axis=0)
    return start * scale, int(known.sum())


def _svd_start(vectors: np.ndarray) -> np.ndarray:
    """The first two principal directions, scaled to a standard deviation of 1e-4 as
    openTSNE's own PCA initialisation is (a larger start slows t-SNE's convergence)."""
    centred = vectors - vectors.mean(axis=0)
    if centred.shape[1] < 2:
        centred = np.hstack([centred, np.zeros((len(centred), 2))])
    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    # A component's sign is arbitrary; fix it so that its largest entry is positive.
    signs = np.sign(vt[np.arange(2), np.abs(vt[:2]).argmax(axis=1)])
    points = u[:, :2] * s[:2] * np.where(signs == 0, 1, signs)
    std = points[:, 0].std()
    return points / std * 1e-4 if std > 0 else points


def _tsne(vectors: np.ndarray, idx: np.ndarray, dist: np.ndarray, start: np.ndarray, continued: bool) -> np.ndarray:
    import openTSNE
    from openTSNE.nearest_neighbors import PrecomputedNeighbors

    n = len(vectors)
    perplexity = min(PERPLEXITY, (idx.shape[1]) / 3)
    affinities = openTSNE.affinity.PerplexityBasedNN(
        knn_index=PrecomputedNeighbors(idx, dist), perplexity=perplexity, n_jobs=1, random_state=SEED,
    )
    # FFT interpolation cells four units wide instead of openTSNE's default one: a
    # sixteenth of the grid, 12 times faster at 20,000 papers; the repulsion is less
    # exact at short range, which a point a few pixels wide does not show.
    embedding = openTSNE.TSNEEmbedding(
        start, affinities, negative_gradient_method="fft" if n >= BH_BELOW else "bh", n_jobs=1, random_state=SEED,
        ints_in_interval=INTS_IN_INTERVAL,
    )
    if continued:
        embedding = embedding.optimize(n_iter=CONTINUED_ITERATIONS, momentum=0.8, learning_rate=max(n / 12, 50.0))
    else:
        large = n >= BH_BELOW
        embedding = embedding.optimize(n_iter=LARGE_EXAGGERATED_ITERATIONS if large else EXAGGERATED_ITERATIONS,
                                       exaggeration=12, momentum=0.5)
        embedding = embedding.optimize(n_iter=LARGE_PLAIN_ITERATIONS if large else PLAIN_ITERATIONS, momentum=0.8)
    return np.asarray(embedding)


def layout_texts(
    ids: Sequence[str], texts: Sequence[str], previous: Mapping[str, tuple[float, float]] | None = None,
    previous_span: float = 0.0,
) -> tuple[Coordinates, LayoutInfo]:
    """Map coordinates (normalised, see the module's docstring) of each id, from its text.

    ``previous`` holds last build's normalised coordinates by id, and ``previous_span``
    its :attr:`LayoutInfo.span`; papers found in it start there (ids of papers no longer
    present are ignored).
    """
    order = sorted(range(len(ids)), key=lambda i: ids[i])
    ids = [ids[i] for i in order]
    texts = [texts[i] for i in order]
    n = len(ids)
    if n == 0:
        return {}, LayoutInfo(0, 0, "none")
    if n == 1:
        return {ids[0]: (0.0, 0.0)}, LayoutInfo(1, 0, "none")
    if not plausible_span(previous_span, n):
        previous_span = 0.0  # the start is scaled as for an unknown span (see plausible_span)
    if previous and all(i in previous for i in ids):
        # No paper is new (some may have left): the map stays exactly as it was, so a
        # rebuild changes nothing and costs nothing.
        return {i: (float(previous[i][0]), float(previous[i][1])) for i in ids}, LayoutInfo(n, n, "previous map", previous_span)
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    # One BLAS thread: the same sums in the same order wherever the build runs (a worker
    # process or this one), and no threads fighting the build's other process for a core.
    with threadpool_limits(limits=1):
        return _layout_sorted(ids, texts, previous, previous_span)


def _layout_sorted(ids: list[str], texts: list[str], previous: Mapping[str, tuple[float, float]] | None,
                   previous_span: float) -> tuple[Coordinates, LayoutInfo]:
    n = len(ids)
    vectors = text_vectors(texts)
    if n < MIN_TSNE:
        points, method, continued = _normalise(_svd_start(vectors)), "SVD", 0
        span = 0.0
    else:
        k = min(NEIGHBOURS, n - 1)
        idx, dist = nearest(vectors, k)
        usable = {i: xy for i, xy in (previous or {}).items()}
        continued = sum(1 for i in ids if i in usable)
        if continued >= n // 2:
            # The previous map is normalised; scaled back to the size t-SNE gave it (or about
            # that, if it is not known): a start of another scale would spread or shrink first.
            scale = previous_span or _typical_span(n)
            start, continued = _start(vectors, ids, idx, usable, scale=scale)
            points, method = _tsne(vectors, idx, dist, start, continued=True), "t-SNE (continued)"
            known = np.array([i in usable for i in ids])
            span = _span(points)
            points = _fit_box(_align(points, start / scale, known))
        else:
            points, method, continued = _tsne(vectors, idx, dist, _svd_start(vectors), continued=False), "t-SNE", 0
            span = _span(points)
            points = _normalise(points)
    # Rounded to a millionth of the width: numpy's sums may differ in the last bits with
    # the memory alignment of their arrays, and that noise must not reach the output.
    points = np.round(points, 6)
    out = {paper_id: (float(x), float(y)) for paper_id, (x, y) in zip(ids, points)}
    info = LayoutInfo(n, continued, method, span)
    log.debug("layout: %d papers by %s, %d from their previous place", n, method, continued)
    return out, info


# New papers are placed on the map as it is while the papers placed since its last full layout
# are at most this part of the papers on it; past it the map is laid out again.
PLACE_SHARE = 0.10
PLACE_NEIGHBOURS = 5
# How far a placed paper sits from the mean of its neighbours, as a part of the map's width:
# enough not to hide under one of them, far less than a cluster.
PLACE_OFFSET = 0.003


def placing(new: int, placed_before: int | None, on_map: int) -> bool:
    """Whether ``new`` papers are placed on a map of ``on_map`` papers, ``placed_before`` of which
    were placed since its last full layout (None: not known, so the map is laid out again)."""
    return (new > 0 and placed_before is not None and on_map >= MIN_TSNE
            and placed_before + new <= PLACE_SHARE * on_map)


def place(new: Mapping[str, Sequence[str]], previous: Mapping[str, tuple[float, float]]) -> Coordinates:
    """Places for the papers of ``new`` (id: related ids, best first) on the map ``previous``
    (normalised coordinates by id), which is kept as it is: each at the mean place of its
    first :data:`PLACE_NEIGHBOURS` related papers on the map (the centre if none is), moved
    :data:`PLACE_OFFSET` in a direction given by its id. Depends on each paper alone, so
    papers placed one build at a time sit where they would have sat placed together."""
    out = {}
    for paper_id in sorted(new):
        near = [previous[r] for r in new[paper_id] if r in previous][:PLACE_NEIGHBOURS]
        x, y = (sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near)) if near else (0.0, 0.0)
        turn = int(paper_id[:4], 16) / 65536 * 2 * math.pi
        x, y = x + PLACE_OFFSET * math.cos(turn), y + PLACE_OFFSET * math.sin(turn)
        out[paper_id] = (round(min(0.5, max(-0.5, x)), 6), round(min(0.5, max(-0.5, y)), 6))
    return out


def _typical_span(n: int) -> float:
    """About the width of a finished t-SNE map of ``n`` papers, in t-SNE's units (fitted on
    the benchmark corpora: 3,300 papers span about 155 units, 20,000 about 205). Only the
    start's scale: the result is normalised, and a map scaled as a whole has not moved."""
    return 44.5 * n ** 0.154


# How far a span may be from the typical one of its size (about 0.1 to 2.1 times it on the
# mission seeds and the corpora, from 20 to 548 papers) and still start a layout.
SPAN_FACTOR = 10


def plausible_span(span: float, papers: int) -> bool:
    """Whether ``span`` can be the size of a t-SNE map of ``papers`` papers, to start the next
    layout at that scale: finite, and within :data:`SPAN_FACTOR` of :func:`_typical_span`.

    A span comes back from the previous build's map.json, which the deploy restores from a
    cache: an infinite one crashed openTSNE (a segmentation fault), and a huge one froze
    every point where it started, to be written back for good. Refusing one costs nothing
    but a start at the typical scale, as for a map whose span is not known (0).
    """
    if not isinstance(span, (int, float)) or isinstance(span, bool) or not math.isfinite(span):
        return False
    typical = _typical_span(max(papers, 1))
    return span == 0 or typical / SPAN_FACTOR <= span <= typical * SPAN_FACTOR


def layout(papers: Sequence[Paper], previous: Mapping[str, tuple[float, float]] | None = None,
           previous_span: float = 0.0) -> tuple[Coordinates, LayoutInfo]:
    """:func:`layout_texts` of the papers' abstracts (with their titles, which are words of the paper too)."""
    return layout_texts([p.id for p in papers], [f"{p.title}. {p.text}" for p in papers], previous, previous_span)
