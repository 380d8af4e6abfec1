"""Related papers: for every paper, the papers whose abstracts are most alike, best first.

A pure stage over the finished digest. Each abstract becomes a sparse vector of
weighted terms: its words (a light plural folding, no stop words from
``related_words.yml``), pairs of adjacent words, and its topic tags. Weights are
a sublinear term frequency (``1 + log tf``) times an idf read from a table shipped
with the generator (``related_weights.yml``: document frequencies over real
abstracts, written by ``benchmarks/fit_related.py``), never from the digest itself:
the score of two papers depends on those two papers alone, so adding a paper
changes another's related list only when the new paper enters it (issue 31), and an
incremental build can keep every other score. A term missing from the table is
weighted as one found in a single abstract of it, a pair missing from it is left
out; terms on more than ``MAX_DF`` of the table's abstracts say little and are
pruned. Tags all weigh the same. Each kind of term is normalised on its own and the
kinds are mixed with fixed weights, so a long abstract's many pairs do not drown its
words. Similarity is the cosine of two vectors.

The similarities are summed row by row by a compiled loop (:mod:`generator.derive.topk`)
that keeps each row's best ``k`` and nothing else: no all-pairs matrix is ever
held. Terms are numbered in the order of their text, so a paper's heaviest terms and
the order its scores are summed in do not depend on the other papers; ties are
broken by paper id (the rows are in id order), so the output is the same on every run.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain
from pathlib import Path

import numpy as np
from scipy import sparse

from generator.core import schema
from generator.core.errors import GeneratorError, raise_all
from generator.core.model import ABSTRACTS_CACHED, Digest, Paper, changed
from generator.core.parallel import serial

WORDS_FILE = Path(__file__).with_name("related_words.yml")
WEIGHTS_FILE = Path(__file__).with_name("related_weights.yml")
K = 8
# A term on more than this share of the table's abstracts is pruned (its idf is small,
# and its postings are what makes the product slow).
MAX_DF = 0.2
# Each paper keeps only its this many heaviest terms: rare, telling terms, whose short
# postings keep the product sparse (all terms: 95% of all pairs share one; 60: 40%).
TERMS = 60


@dataclass(frozen=True)
class Weights:
    """How much each kind of term counts in a paper's vector (each kind is normalised first)."""

    words: float = 1.0
    pairs: float = 0.6
    tags: float = 0.3


DEFAULT_WEIGHTS = Weights()

_URL = re.compile(r"(?:https?://|www\.)\S+")
_MACRO = re.compile(r"\\[A-Za-z]+")
_TOKEN = re.compile(r"[a-z][a-z0-9]+")
_STOP_WORD = re.compile(r"[a-z][a-z0-9]*")


@lru_cache(maxsize=4)
def load_stop_words(path: Path = WORDS_FILE) -> frozenset[str]:
    """The stop words of ``related_words.yml`` (shape: :data:`generator.core.schema.RELATED_WORDS`);
    each must be one lower-case word, as the tokenizer makes them."""
    doc = schema.load(path, schema.RELATED_WORDS, GeneratorError)
    words = doc.data["stop_words"]
    bad = [i for i, w in enumerate(words) if not _STOP_WORD.fullmatch(w)]
    if bad:
        raise GeneratorError(f"a stop word must be one lower-case word, not {words[bad[0]]!r}", doc.path, doc.line("stop_words", bad[0]))
    return frozenset(words)


@dataclass(frozen=True)
class TermWeights:
    """The idf of words and word pairs, from document frequencies over ``abstracts`` real abstracts."""

    abstracts: int
    words: dict[str, int]
    pairs: dict[str, int]  # "graph neural": the two folded words, a space between


_TERM = re.compile(r"[a-z][a-z0-9]+")


@lru_cache(maxsize=4)
def load_term_weights(path: Path = WEIGHTS_FILE) -> TermWeights:
    """The document-frequency table of ``related_weights.yml`` (shape:
    :data:`generator.core.schema.RELATED_WEIGHTS`): each frequency a number, each word one
    lower-case word as the tokenizer makes them, each pair two such words joined by ``+``."""
    doc = schema.load(path, schema.RELATED_WEIGHTS, GeneratorError)
    errors: list[GeneratorError] = []
    found: dict[str, dict[str, int]] = {"words": {}, "pairs": {}}
    for kind, parts in (("words", 1), ("pairs", 2)):
        for df, listed in doc.data[kind].items():
            if not df.isdigit() or int(df) < 1:
                errors.append(GeneratorError(f"{kind!r}: a document frequency must be a number above 0, not {df!r}",
                                             doc.path, doc.line(kind, df)))
                continue
            for term in listed.split():
                words = term.split("+")
                if len(words) != parts or not all(_TERM.fullmatch(w) for w in words):
                    errors.append(GeneratorError(f"{kind!r}: {term!r} is not {'a word' if parts == 1 else 'two words joined by +'}",
                                                 doc.path, doc.line(kind, df)))
                    break
                found[kind][" ".join(words)] = int(df)
    raise_all(errors)
    return TermWeights(doc.data["abstracts"], found["words"], found["pairs"])


@lru_cache(maxsize=1 << 16)
def _fold(word: str) -> str:
    """A plural as its singular, roughly: enough to make "networks" and "network" one term."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_PIECE = re.compile(r"[a-z][a-z0-9]+|[.;:!?()\[\]]")


class _Columns(dict):
    """Raw token -> the number of its folded word, 0 for a stop word or punctuation (a
    break: no pair spans it). Words are numbered in order of first appearance."""

    def __init__(self, stop: frozenset[str]):
        super().__init__()
        self.stop = stop
        self.words: dict[str, int] = {"": 0}

    def __missing__(self, tok: str) -> int:
        word = "" if len(tok) == 1 or tok in self.stop else _fold(tok)
        number = self[tok] = self.words.setdefault(word, len(self.words))
        return number


def _pieces(text: str) -> list[str]:
    """An abstract's tokens: lower-case words and clause punctuation; URLs and LaTeX macro names dropped."""
    return _PIECE.findall(_MACRO.sub(" ", _URL.sub(" ", text.lower())))


def terms(text: str, stop: frozenset[str]) -> tuple[list[str], list[str]]:
    """(words, adjacent word pairs) of an abstract, as :func:`vectors` counts them: a pair
    never spans a stop word or a clause end."""
    columns = _Columns(stop)
    seq = [columns[t] for t in _pieces(text)]
    names = {number: word for word, number in columns.words.items()}
    words = [names[c] for c in seq if c]
    pairs = [f"{names[a]} {names[b]}" for a, b in zip(seq, seq[1:]) if a and b]
    return words, pairs


def _weighted(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int], idf: np.ndarray) -> sparse.csr_matrix:
    """Sublinear tf times the term's ``idf`` (0: left out) of the (paper, term) occurrences, rows L2-normalised."""
    counts = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=shape)
    counts.sum_duplicates()
    counts.data = (1.0 + np.log(counts.data)) * idf[counts.indices]
    counts.eliminate_zeros()
    return _normalise(counts)


def _idf(terms: Iterable[str], table: dict[str, int], weights: TermWeights, max_df: float,
         unseen: bool = True, count: int | None = None) -> np.ndarray:
    """Each term's idf from the shipped table, smoothed: a term the table has not seen weighs
    as one seen once, or 0 (left out) without ``unseen``; 0 for one on more than ``max_df`` of
    its abstracts. ``count``: how many ``terms`` there are, when they come one at a time."""
    df = np.fromiter((table.get(t, 0) for t in terms), dtype=np.float64, count=len(terms) if count is None else count)
    idf = np.log((weights.abstracts + 1) / (np.maximum(df, 1) + 1))
    return np.where((df > max_df * weights.abstracts) | (not unseen and df == 0), 0.0, idf)


def _normalise(m: sparse.csr_matrix) -> sparse.csr_matrix:
    norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(sparse.diags(1.0 / norms) @ m)


def vectors(papers: Sequence[Paper], weights: Weights = DEFAULT_WEIGHTS, max_df: float = MAX_DF,
            stop: frozenset[str] | None = None, table: TermWeights | None = None) -> sparse.csr_matrix:
    """One unit-length row per paper (in the given order): the weighted mix of its words, pairs and tags."""
    return _named_vectors(papers, weights, max_df, stop, table)[0]


# A column's term: (kind, text): 0 a word, 1 a pair (its two words), 2 a tag. Sorted, they are
# in the order :func:`vectors` numbers its columns in, whatever the other papers.
Term = tuple[int, "str | tuple[str, str]"]


def _named_vectors(papers: Sequence[Paper], weights: Weights = DEFAULT_WEIGHTS, max_df: float = MAX_DF,
                   stop: frozenset[str] | None = None, table: TermWeights | None = None,
                   ) -> tuple[sparse.csr_matrix, Sequence[Term]]:
    """:func:`vectors`, and the term of each of its columns.

    A row depends on its paper alone (and the shipped tables), whatever the other papers.
    Tokens become word numbers in one pass (:class:`_Columns`), renumbered in the order
    of the words' text; pairs are then read off the number sequence with numpy: two
    adjacent non-zero numbers, each paper's sequence ending in a 0 so that no pair joins
    two papers.
    """
    n = len(papers)
    table = load_term_weights() if table is None else table
    columns = _Columns(load_stop_words() if stop is None else stop)
    number = columns.__getitem__
    seqs = [list(map(number, _pieces(p.text))) + [0] for p in papers]
    vocabulary = sorted(columns.words)  # "" (stop words, breaks) sorts first and stays 0
    rank = np.empty(len(vocabulary), dtype=np.int64)
    rank[[columns.words[w] for w in vocabulary]] = np.arange(len(vocabulary))
    flat = rank[np.fromiter(chain.from_iterable(seqs), dtype=np.int64)]
    rows = np.repeat(np.arange(n), [len(s) for s in seqs])
    parts = []
    named = _Named()
    if weights.words:
        keep = flat != 0
        idf = _idf(vocabulary, table.words, table, max_df)
        parts.append(weights.words * _weighted(rows[keep], flat[keep], (n, len(vocabulary)), idf))
        named.words(vocabulary)
    if weights.pairs:
        keep = (flat[:-1] != 0) & (flat[1:] != 0)
        codes = flat[:-1][keep] * len(vocabulary) + flat[1:][keep]
        unique, pair = np.unique(codes, return_inverse=True)  # in the order of the pairs' text
        first, second = np.divmod(unique, len(vocabulary))
        # Millions of pairs at 20,000 papers: their texts are made one at a time, and their
        # terms only for the columns a row keeps (:class:`_Named`), not held all at once.
        names = (f"{vocabulary[a]} {vocabulary[b]}" for a, b in _pairs_of(first, second))
        # a pair the table has not seen (most of a paper's pairs) would crowd its telling
        # terms out of its TERMS: left out (keyword agreement on ICLR 2017 0.317 -> 0.343)
        idf = _idf(names, table.pairs, table, max_df, unseen=False, count=len(unique))
        parts.append(weights.pairs * _weighted(rows[:-1][keep], pair.ravel(), (n, len(unique)), idf))
        named.pairs(vocabulary, first, second)
    if weights.tags:
        names = sorted({t for p in papers for t in p.tags})
        tag = {t: i for i, t in enumerate(names)}
        tag_rows = np.array([i for i, p in enumerate(papers) for _ in p.tags], dtype=np.int64)
        tag_cols = np.array([tag[t] for p in papers for t in p.tags], dtype=np.int64)
        parts.append(weights.tags * _weighted(tag_rows, tag_cols, (n, len(names)), np.ones(len(names))))
        named.tags(names)
    return _normalise(_heaviest(sparse.hstack(parts, format="csr"), TERMS)), named


def _pairs_of(first: np.ndarray, second: np.ndarray, chunk: int = 65536) -> Iterator[tuple[int, int]]:
    """The pairs of word numbers ``first[i], second[i]`` as Python ints, a chunk at a time."""
    for at in range(0, len(first), chunk):
        yield from zip(first[at : at + chunk].tolist(), second[at : at + chunk].tolist())


class _Named(Sequence):
    """The term (:data:`Term`) of each column of :func:`_named_vectors`, made when asked for: the
    words, then the pairs (two word numbers each), then the tags, as their parts were stacked."""

    def __init__(self) -> None:
        self._parts: list[tuple[int, int, Callable[[int], Term]]] = []  # (first column, columns, term of one)
        self._size = 0

    def _add(self, count: int, term: Callable[[int], Term]) -> None:
        self._parts.append((self._size, count, term))
        self._size += count

    def words(self, vocabulary: Sequence[str]) -> None:
        self._add(len(vocabulary), lambda i: (0, vocabulary[i]))

    def pairs(self, vocabulary: Sequence[str], first: np.ndarray, second: np.ndarray) -> None:
        self._add(len(first), lambda i: (1, (vocabulary[first[i]], vocabulary[second[i]])))

    def tags(self, names: Sequence[str]) -> None:
        self._add(len(names), lambda i: (2, names[i]))

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, column):  # type: ignore[override]
        if isinstance(column, slice):
            return [self[c] for c in range(*column.indices(self._size))]
        if column < 0:
            column += self._size
        for start, count, term in self._parts:
            if start <= column < start + count:
                return term(column - start)
        raise IndexError(column)


# A paper's row as :func:`top_k` reads it: the numbers of its terms in a :class:`Rows`'
# table (in the order the row holds them) and their weights in single precision (top_k's
# own), which a rebuild keeps for an unchanged paper instead of tokenising its abstract
# again (:mod:`generator.derive.related_cache`).
Row = tuple[np.ndarray, np.ndarray]


# A paper's related list as a build left it: its row's key, the ids it may not list (its
# merged variants), the ids it lists best first, and its k-th score (0 when it lists fewer
# than k): what :func:`related_rows` needs to tell whether a new paper enters the list.
Listed = tuple[str, tuple[str, ...], tuple[str, ...], float]


@dataclass
class Rows:
    """Rows by :func:`row_key`, their terms numbered in ``terms`` (in no particular order);
    ``lists``, by paper id, the related lists made of these rows (:data:`Listed`)."""

    terms: list[Term]
    rows: dict[str, Row]
    lists: dict[str, Listed] = field(default_factory=dict)
    # the shards of the kept rows (and "lists") read as this machine's generator wrote them
    # (:mod:`generator.derive.related_cache`): a shard of the same rows need not be written again
    vouched: frozenset[str] = frozenset()


def row_key(p: Paper) -> str:
    """What a paper's row depends on besides the shipped tables: its text and its tags."""
    return _row_key(p.text, p.tags)


@lru_cache(maxsize=ABSTRACTS_CACHED)
def _row_key(text: str, tags: tuple[str, ...]) -> str:
    # :func:`generator.derive.cache.text_key` of the two, kept: asked three times a paper by a
    # build (the cached rows, the rows, the lists)
    return hashlib.blake2b((text + "\0" + "\n".join(tags)).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def rows_of(papers: Sequence[Paper], known: Rows | None = None, weights: Weights = DEFAULT_WEIGHTS,
            max_df: float = MAX_DF, keys: Sequence[str] | None = None) -> Rows:
    """Each paper's row: from ``known`` where it holds it, the others made together by
    :func:`vectors` (a row depends on its paper alone, so either way it is the same).
    ``keys``: the papers' :func:`row_key`, when made already."""
    keys = [row_key(p) for p in papers] if keys is None else keys
    old = known.rows if known else {}
    terms = list(known.terms) if known else []
    out = {k: old[k] for k in keys if k in old}
    missing: dict[str, Paper] = {}
    for key, p in zip(keys, papers):
        if key not in out:
            missing.setdefault(key, p)
    if missing:
        m, named = _named_vectors(list(missing.values()), weights, max_df)
        number = {t: i for i, t in enumerate(terms)}
        used = np.unique(m.indices)
        column = np.zeros(len(named), dtype=np.int32)
        for c in used.tolist():
            column[c] = number.setdefault(named[c], len(number))
        terms += list(number)[len(terms):]
        data = m.data.astype(np.float32)
        indices = column[m.indices]
        for key, a, b in zip(missing, m.indptr[:-1].tolist(), m.indptr[1:].tolist()):
            out[key] = (indices[a:b], data[a:b])
    return Rows(terms, out)


def assemble(table: Rows, keys: Sequence[str]) -> sparse.csr_matrix:
    """The rows of ``keys`` as one single-precision matrix, its columns numbered in the order of
    their terms (:data:`Term`): the matrix :func:`vectors` makes of their papers but for its empty columns."""
    rank = np.empty(len(table.terms), dtype=np.int32)
    rank[sorted(range(len(table.terms)), key=table.terms.__getitem__)] = np.arange(len(table.terms), dtype=np.int32)
    rows = [table.rows[k] for k in keys]
    indptr = np.concatenate(([0], np.cumsum([len(t) for t, _ in rows], dtype=np.int64)))
    indices = rank[np.concatenate([t for t, _ in rows])] if rows else np.empty(0, dtype=np.int32)
    data = np.concatenate([w for _, w in rows]) if rows else np.empty(0, dtype=np.float32)
    return sparse.csr_matrix((data, indices, indptr), shape=(len(rows), len(table.terms)))


def _heaviest(m: sparse.csr_matrix, terms: int) -> sparse.csr_matrix:
    """Each row's ``terms`` largest entries (equal weights by column: by the term's text), the rest dropped."""
    keep = np.ones(m.nnz, dtype=bool)
    for a, b in zip(m.indptr[:-1].tolist(), m.indptr[1:].tolist()):
        if b - a > terms:
            order = np.lexsort((m.indices[a:b], -m.data[a:b]))
            keep[a + order[terms:]] = False
    rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))[keep]
    return sparse.csr_matrix((m.data[keep], (rows, m.indices[keep])), shape=m.shape)


def top_k(m: sparse.csr_matrix, k: int, excluded: Sequence[Sequence[int]] = (),
          mapper: Callable = serial) -> list[list[int]]:
    """For each row i of ``m`` (unit rows), the indexes of the ``k`` rows most similar to it,
    best first, ties by index; never i itself nor one of ``excluded[i]``; only similarities above 0.

    Exact: each row's scores against all rows are summed in single precision by the compiled
    loop of :mod:`generator.derive.topk`, which keeps only the best k. ``mapper`` may share the rows
    among worker processes (:func:`generator.core.parallel.map_chunks`); each row's answer is the
    same either way.
    """
    from generator.derive.topk import best_rows  # numba: imported when related papers are computed, not by every command

    arrays = _loop_arrays(m, excluded)
    best_rows(0, 0, *arrays, np.empty((0, k), dtype=np.int64))  # compiled (or loaded) here, before workers fork
    return mapper(partial(_top_rows, arrays=arrays, k=k), range(m.shape[0]))


def _loop_arrays(m: sparse.csr_matrix, excluded: Sequence[Sequence[int]]) -> tuple:
    """What :func:`generator.derive.topk.best_rows` reads: the rows, their transpose and the
    excluded pairs as CSR arrays, one array type each (so the compiled loop has one signature)."""
    m = sparse.csr_matrix(m, dtype=np.float32)
    mt = sparse.csr_matrix(m.T)
    rows = (m.indptr.astype(np.int64), m.indices.astype(np.int32), m.data)
    terms = (mt.indptr.astype(np.int64), mt.indices.astype(np.int32), mt.data)
    lengths = [len(x) for x in excluded] if excluded else [0] * m.shape[0]
    xptr = np.concatenate(([0], np.cumsum(lengths, dtype=np.int64)))
    xidx = np.fromiter(chain.from_iterable(excluded), dtype=np.int32, count=int(xptr[-1]))
    return (*rows, *terms, xptr, xidx)


def top_some(m: sparse.csr_matrix, k: int, excluded: Sequence[Sequence[int]], which: Sequence[int]) -> list[list[int]]:
    """:func:`top_k` for the rows ``which`` alone, in this process, with numpy: each the same
    answer as there. A rebuild finds a few dozen rows again, and loading numba's compiled loop
    (and numba) took longer than those rows do so (0.6 of a one-shot append's 11 s at 20,000
    papers). The sums are the loop's: each term's postings added in order, in single precision,
    one product and one sum per score (numba adds no fused multiply-add: tests compare the two)."""
    indptr, indices, data, tptr, tidx, tdat, xptr, xidx = _loop_arrays(m, excluded)
    scores = np.zeros(len(indptr) - 1, dtype=np.float32)
    found = []
    for i in which:
        scores[:] = 0
        for term, weight in zip(indices[indptr[i]:indptr[i + 1]].tolist(), data[indptr[i]:indptr[i + 1]]):
            a, b = tptr[term], tptr[term + 1]
            scores[tidx[a:b]] += weight * tdat[a:b]  # a term's postings name each row once
        scores[i] = 0
        scores[xidx[xptr[i]:xptr[i + 1]]] = 0
        held = np.flatnonzero(scores > 0)
        best = held[np.lexsort((held, -scores[held]))][:k]  # best first, ties by index
        found.append(best.tolist())
    return found


def _top_rows(rows: Sequence[int], arrays: tuple, k: int) -> list[list[int]]:
    """:func:`top_k` for a contiguous run of rows."""
    from generator.derive.topk import best_rows

    first, last = (rows[0], rows[-1] + 1) if len(rows) else (0, 0)
    out = np.empty((last - first, k), dtype=np.int64)
    best_rows(first, last, *arrays, out)
    return [[j for j in row if j >= 0] for row in out.tolist()]


def related(papers: Sequence[Paper], k: int = K, weights: Weights = DEFAULT_WEIGHTS,
            max_df: float = MAX_DF, mapper: Callable = serial) -> dict[str, tuple[str, ...]]:
    """Paper id -> the ids of up to ``k`` related papers, best first.

    Never the paper itself, nor a paper that is one of its merged variants (by
    either's ``aliases``). The same papers in any order give the same answer.
    """
    return related_rows(papers, None, k, weights, max_df, mapper)[0]


def related_rows(papers: Sequence[Paper], known: Rows | None, k: int = K,
                 weights: Weights = DEFAULT_WEIGHTS, max_df: float = MAX_DF, mapper: Callable = serial,
                 ) -> tuple[dict[str, tuple[str, ...]], Rows]:
    """:func:`related`, reusing the rows of ``known`` (by :func:`row_key`); and the rows of these papers."""
    ordered = sorted(papers, key=lambda p: p.id)
    if not ordered:
        return {}, Rows([], {})
    index = {p.id: i for i, p in enumerate(ordered)}
    excluded: list[list[int]] = [[] for _ in ordered]
    for i, p in enumerate(ordered):
        for alias in p.aliases:
            j = index.get(alias)
            if j is not None and j != i:
                excluded[i].append(j)
                excluded[j].append(i)
    keys = [row_key(p) for p in ordered]
    rows = rows_of(ordered, known, weights, max_df, keys)
    m = assemble(rows, keys)
    banned = [tuple(sorted(ordered[j].id for j in x)) for x in excluded]
    stale = _stale_rows(index, keys, banned, m, k, known.lists) if known is not None and known.lists else None
    # the rows found again; the others keep the lists they had (each naming papers still here)
    if stale is None:
        redone: Sequence[int] = range(len(ordered))
        found = top_k(m, k, excluded, mapper)
    else:
        redone = stale
        found = top_some(m, k, excluded, stale)
    lists = dict(known.lists) if stale is not None else {}  # type: ignore[union-attr]
    kth = _kth_scores(m, found, list(redone), k)
    for i, js, score in zip(redone, found, kth):
        lists[ordered[i].id] = (keys[i], banned[i], tuple(ordered[j].id for j in js), score)
    rows.lists = {p.id: lists[p.id] for p in ordered}
    return {pid: listed[2] for pid, listed in rows.lists.items()}, rows


# A new paper is checked against a row in double precision; within this of the row's k-th
# score (the compiled loop's single-precision sums differ from it in the last bits), the
# row is found again by that loop, which decides.
MARGIN = 1e-4
# Past this share of new or changed rows, every row is found again: it is as quick.
MOST_NEW = 0.1


def _stale_rows(index: dict[str, int], keys: Sequence[str], banned: Sequence[tuple[str, ...]],
                m: sparse.csr_matrix, k: int, previous: dict[str, Listed]) -> list[int] | None:
    """The rows whose related list may differ from the one ``previous`` holds, in order; None
    when there is no telling (too much is new: every row is found again).

    A row keeps its list when its paper, its text and tags (its key) and its variants are as
    they were, none of the papers it lists is gone or changed, and no new or changed paper
    scores with it within :data:`MARGIN` of its k-th score (above 0, when it lists fewer
    than k). Then the list is what :func:`top_k` would find: the papers that left scored no
    more than its k-th, and none that came scores as much. ``index``: each paper's row, by id."""
    new = [i for pid, i in index.items() if (e := previous.get(pid)) is None or e[0] != keys[i]]
    if len(new) > MOST_NEW * len(index):
        return None
    gone = {pid for pid, e in previous.items() if pid not in index or keys[index[pid]] != e[0]}
    # a list naming a paper gone or changed, or one not among these (which the lists read may
    # name, whatever wrote them): the ids to look for, tested a list at a time
    gone.update(set().union(*(e[2] for e in previous.values())).difference(index))
    stale = set(new)
    floor = np.zeros(len(index))
    full = np.zeros(len(index), dtype=bool)
    for pid, i in index.items():
        if i in stale:
            continue
        _, was_banned, listed, kth = previous[pid]
        if was_banned != banned[i] or len(listed) > k or not gone.isdisjoint(listed):
            stale.add(i)
            continue
        full[i] = len(listed) == k
        floor[i] = kth - MARGIN if full[i] else 0.0
    if new:
        a = m[new].astype(np.float64)
        scores = (a @ m.astype(np.float64).T).toarray()  # new paper x every paper
        near = np.where(full[None, :], scores >= floor[None, :], scores > 0).any(axis=0)
        stale.update(np.flatnonzero(near).tolist())
    return sorted(stale)


def _kth_scores(m: sparse.csr_matrix, found: Sequence[Sequence[int]], rows: Sequence[int], k: int) -> list[float]:
    """Each of ``rows``' score with the k-th paper it lists (double precision), 0 when it lists fewer."""
    full = [(i, js[-1]) for i, js in zip(rows, found) if len(js) == k]
    out = dict.fromkeys(rows, 0.0)
    if full:
        mm = m.astype(np.float64)
        a, b = zip(*full)
        sums = np.asarray(mm[list(a)].multiply(mm[list(b)]).sum(axis=1)).ravel()
        out.update(zip(a, sums.tolist()))
    return [out[i] for i in rows]


def add_related(digest: Digest, k: int = K, mapper: Callable = serial) -> Digest:
    """The digest with each visible paper's ``related`` ids set; hidden papers have no
    page, so they are neither given related papers nor offered as one."""
    return add_related_rows(digest, None, k, mapper)[0]


def add_related_rows(digest: Digest, known: Rows | None, k: int = K,
                     mapper: Callable = serial) -> tuple[Digest, Rows]:
    """:func:`add_related`, reusing the rows of ``known``; and the visible papers' rows."""
    found, rows = related_rows(digest.visible(), known, k=k, mapper=mapper)
    return Digest([changed(p, related=found.get(p.id, ())) for p in digest], digest.topics), rows
