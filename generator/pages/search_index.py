"""The index stage: the search index, split so that a query fetches only what it needs.

Material's search plugin puts every page's text into one ``search_index.json`` that each
reader downloads before the first answer (29.5 MB at 20,000 papers). Here the papers are
indexed at build time into small files under ``search/`` that the digest's search worker
(``docs/assets/search-worker.js``) fetches as a query needs them:

- ``meta.json``: the number of papers, the size of the paper numbers' space, the shard keys
  and the pair-bucket count. Loaded once.
- ``t/<hex>.bin``, one per *term shard*, named by its key's UTF-8 bytes in hex (so that a
  shard split or merged elsewhere renames no other): the terms that start with the shard's key (1 to
  ``MAX_KEY`` characters; a key is split into longer keys while its shard is over
  ``SHARD_BYTES``) and, per term, its papers and a one-byte score per paper. A query
  word of ``MAX_KEY + 1`` or more characters finds every term it is a prefix of in one file.
- ``p/<n>.bin``: pairs of adjacent words, by a 32-bit FNV-1a hash of ``"first second"``,
  in ``pairs`` buckets (a power of two: the count changes, and every pair moves, only
  when the pairs double or halve): what a ``"quoted phrase"`` needs, without word positions. A bucket
  is its number of hashes (u32), the sorted hashes (u32 each), how many papers each has
  (unsigned LEB128: most pairs are in one paper, and a u32 offset a pair was 14 MB of
  the 46 MB at 50,000 papers), padding to the paper numbers' width, then the papers.
- ``d/<n>.json``: one paper's result data (title, url, venue, topics, text for snippets),
  fetched only for the results shown.
- ``facets.json``: the papers of each topic, venue, year and of "has code", for filters and
  their counts; fetched after the first answer, or with the first filtered query.
- ``order.bin``: the paper numbers in title order (``width`` bytes each), for a query of
  filters alone, whose results are listed newest first and then by title.

Words are runs of Unicode letters and digits, lower-cased, as the worker splits them; a
shard lists its terms in JavaScript's string order (by UTF-16 code units), which the
worker's binary search assumes.

A paper's number is its slot in a hash table of ``slots`` (:func:`numbers`): it depends on
the paper's id and on the few papers whose ids hash next to it, not on the others. So a
paper added, edited or removed changes its own result file, the term shards and pair
buckets holding its words, ``meta.json``, ``facets.json`` and ``order.bin``, and moves a
paper or two beside it in the table; numbered in title order, one new title renumbered
every paper after it, and with it almost every file of the index (6,700 files for one
abstract at 20,000 papers). The numbers are a function of the set of papers alone, so
a rebuild numbers them as a build from nothing does.

Pure: :func:`search_files` returns ``{path under docs/: bytes or str}``.
"""
from __future__ import annotations

import hashlib
import json
import re
from array import array
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from generator.core.markup import to_plain
from generator.core.model import Paper, Topic, parent_names, with_parents
from generator.seeds.venues import venue_slug

VERSION = 3
MAX_KEY = 4
SHARD_BYTES = 48_000
PAIR_BUCKET_POSTINGS = 6_000  # at most, on average: the bucket count is the next power of two
# The paper numbers' space: a power of two, at least MIN_SLOTS, filled to at most LOAD. Up to
# 52,428 papers that is 65,536 slots, so a number still fits in two bytes, and the space
# doubles (renumbering every paper, once) only past that.
MIN_SLOTS = 1 << 16
LOAD = 0.8
K1, B = 1.2, 0.75
# BM25's average length, in words of an abstract: a constant, not the digest's mean, so that a
# posting's score depends on its own paper alone. The mean moved with every new paper and
# re-rounded scores in hundreds of term shards (a third of them for one new abstract at 20,000
# papers); abstracts average 179 words there, and about as many in the seeds.
AVERAGE_WORDS = 180.0
SCORE_MAX = 2.2  # K1 + 1: the largest text part of a BM25 score
TITLE_BIT, TAG_BIT = 64, 128

# The worker's stop words (docs/assets/search-worker.js STOP): never indexed as terms.
STOP = frozenset((
    "a an and are as at be been but by can could did do does for from had has have "
    "he her his how i if in into is it its me my no nor not of on or our she so "
    "than that the their them then there these they this those to too us was we "
    "were what when where which while who whom why will with would you your"
).split())

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over UTF-8: the worker computes the same for a phrase's pairs."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def _utf16(text: str) -> bytes:
    """The sort key of JavaScript's string comparison (UTF-16 code units, big-endian bytes)."""
    return text.encode("utf-16-be")


def _pad(buf: bytearray, to: int = 4) -> None:
    buf.extend(b"\0" * (-len(buf) % to))


def _split(terms: list[str], size: dict[str, int]) -> dict[str, list[str]]:
    """Shard key -> its terms: by first character, each key split by one more character
    while its shard is over SHARD_BYTES and the key is shorter than MAX_KEY. A term no
    longer than a split key stays in that key's shard."""
    out: dict[str, list[str]] = {}
    pending = defaultdict(list)
    for t in terms:
        pending[t[:1]].append(t)
    while pending:
        key, group = pending.popitem()
        if len(key) >= MAX_KEY or sum(size[t] for t in group) <= SHARD_BYTES:
            out[key] = group
            continue
        here = [t for t in group if len(t) <= len(key)]
        if here:
            out[key] = here
        longer = defaultdict(list)
        for t in group:
            if len(t) > len(key):
                longer[t[: len(key) + 1]].append(t)
        pending.update(longer)
    return out


class _Numbers(dict):
    """Word -> its number, numbered in order of first appearance (``numbers[w]`` adds ``w``)."""

    def __missing__(self, word: str) -> int:
        value = self[word] = len(self)
        return value


def result_data(p: Paper, slugs: dict[str, str], text: str) -> dict:
    """What a search result shows of a paper (plain text; the worker escapes it)."""
    return {
        "title": p.title,
        "url": f"papers/{p.id}/",
        "venue": f"{p.venue} {p.year}",
        "tags": [t for t in p.tags if t in slugs],
        "text": text,
    }


def varints(values: np.ndarray) -> bytes:
    """Non-negative integers (below 2**35) as unsigned LEB128: 7 bits a byte, low first,
    the high bit set on every byte but a number's last."""
    v = values.astype(np.uint64)
    length = np.ones(len(v), dtype=np.int64)
    for bits in (7, 14, 21, 28):
        length += v >= np.uint64(1 << bits)
    out = np.empty(int(length.sum()), dtype=np.uint8)
    start = np.cumsum(length) - length
    for k in range(int(length.max(initial=0))):
        has = length > k
        more = (length[has] > k + 1).astype(np.uint8) << 7
        out[start[has] + k] = ((v[has] >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8) | more
    return out.tobytes()


def _delta(ids: Sequence[int]) -> list[int]:
    return [b - a for a, b in zip((0, *ids), ids)]


def facets(papers: Sequence[Paper], topics: Sequence[Topic], number: dict[str, int] | None = None) -> dict:
    """Each filter value with its papers (by number, ``number``: their place in ``papers`` when
    not given; delta-encoded). A topic holds the papers tagged with it or with a topic inside
    it, as its page does."""
    if number is not None:
        papers = sorted(papers, key=lambda p: number[p.id])
    slugs = {t.name: t.slug for t in topics}
    parents = parent_names(topics)
    by_topic: dict[str, list[int]] = defaultdict(list)
    by_venue: dict[tuple[str, int], list[int]] = defaultdict(list)
    by_year: dict[int, list[int]] = defaultdict(list)
    code: list[int] = []
    for k, p in enumerate(papers):
        d = number[p.id] if number is not None else k
        for t in with_parents(p.tags, parents):
            if t in slugs:
                by_topic[t].append(d)
        by_venue[(p.venue, p.year)].append(d)
        by_year[p.year].append(d)
        if any(link.kind == "code" for link in p.links):
            code.append(d)
    return {
        "topic": [[slugs[t.name], t.name, _delta(by_topic[t.name])] for t in topics if by_topic.get(t.name)],
        "venue": [[venue_slug(v, y), f"{v} {y}", _delta(ids)]
                  for (v, y), ids in sorted(by_venue.items(), key=lambda kv: (-kv[0][1], kv[0][0].casefold()))],
        "year": [[str(y), str(y), _delta(by_year[y])] for y in sorted(by_year, reverse=True)],
        "code": [["code", "Has code", _delta(code)]] if code else [],
    }


def order(papers: Sequence[Paper]) -> list[Paper]:
    """The papers by title, as the lists sort them (``order.bin``)."""
    return sorted(papers, key=lambda p: (p.title.casefold(), p.id))


def slots(n: int) -> int:
    """The size of the paper numbers' space for ``n`` papers."""
    space = MIN_SLOTS
    while n > space * LOAD:
        space *= 2
    return space


def home(paper_id: str, space: int) -> int:
    """Where a paper's number is sought first: a hash of its id (ids are not all hashes)."""
    return int.from_bytes(hashlib.blake2b(paper_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "little") % space


def numbers(papers: Sequence[Paper]) -> dict[str, int]:
    """Paper id -> its number: linear probing in a table of :func:`slots`, filled in the order of
    (home slot, id), so the table is the same whatever order the papers came in (a build from
    nothing and a rebuild agree). A paper takes its home slot or the first free one after it;
    adding one moves only the papers after it in its run of full slots (about half a paper on
    average at 20,000 papers in 65,536 slots). Papers pushed past the end take the first free
    slots from the start."""
    space = slots(len(papers))
    placed = sorted((home(p.id, space), p.id) for p in papers)
    out: dict[str, int] = {}
    following = 0
    over = []
    for h, pid in placed:
        at = max(h, following)
        if at >= space:
            over.append(pid)
            continue
        out[pid] = at
        following = at + 1
    if over:
        taken = set(out.values())
        free = (s for s in range(space) if s not in taken)
        for pid in over:
            out[pid] = next(free)
    return out


def _fmix32(h):
    """MurmurHash3's finaliser on uint32 arrays: spreads a pair's hash over the buckets."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def _unique(a: np.ndarray, counts: bool = False):
    """Sorted distinct values (and how often each occurs), by sorting: numpy's hash-based
    np.unique was slower than the rest of the index together."""
    a = np.sort(a, kind="stable")
    if not len(a):
        return (a, np.zeros(0, dtype=np.int64)) if counts else a
    heads = np.flatnonzero(np.concatenate(([True], a[1:] != a[:-1])))
    if counts:
        return a[heads], np.diff(np.concatenate((heads, [len(a)])))
    return a[heads]


def _member(keys: np.ndarray, sorted_values: np.ndarray) -> np.ndarray:
    at = np.searchsorted(sorted_values, keys)
    ok = at < len(sorted_values)
    out = np.zeros(len(keys), dtype=bool)
    out[ok] = sorted_values[at[ok]] == keys[ok]
    return out


def pair_hash(first: str, second: str) -> int:
    """The hash a pair of adjacent words is filed under (the worker's pairHash)."""
    h = np.array([fnv1a(first)], dtype=np.uint32) * np.uint32(0x01000193) ^ np.uint32(fnv1a(second))
    return int(_fmix32(h)[0])


def shard_name(key: str) -> str:
    """A term shard's file name: its key's UTF-8 bytes in hex (the worker's shardPath)."""
    return key.encode("utf-8", "surrogatepass").hex()


@dataclass
class Known:
    """What :func:`search_files` made of each paper, kept by a long-lived builder (``make serve``)
    between builds, for the papers that come again: the words of each abstract's plain text
    (joined by spaces, which no word holds), by text, and each result's JSON, by
    :func:`result_key`. ``learned``: what a build made that was not known (a worker's, sent back)."""

    words: dict[str, str] = field(default_factory=dict)
    docs: dict[tuple, bytes] = field(default_factory=dict)
    learned: Known | None = None

    def after(self, papers: Sequence[Paper], topics: Sequence[Topic], learned: Known) -> Known:
        """What to keep for the next build: what this one knew or learned of ``papers``."""
        slugs = {t.name: t.slug for t in topics}
        words = {**self.words, **learned.words}
        docs = {**self.docs, **learned.docs}
        return Known({p.text: words[p.text] for p in papers if p.text in words},
                     {k: docs[k] for k in map(partial(result_key, slugs=slugs), papers) if k in docs})


def result_key(p: Paper, slugs: dict[str, str]) -> tuple:
    """All that a paper's search result (:func:`result_data`) is made of."""
    return p.id, p.title, p.venue, p.year, tuple(t for t in p.tags if t in slugs), p.text


def search_files_kept(papers: Sequence[Paper], topics: Sequence[Topic], known: Known) -> tuple[dict[str, bytes | str], Known]:
    """:func:`search_files`, reusing what ``known`` holds; and what was made that it did not."""
    learned = Known()
    files = search_files(papers, topics, replace(known, learned=learned))
    return files, learned


def search_files(papers: Sequence[Paper], topics: Sequence[Topic], known: Known | None = None) -> dict[str, bytes | str]:
    known = known if known is not None else Known()
    number = numbers(papers)
    papers = sorted(papers, key=lambda p: number[p.id])
    slugs = {t.name: t.slug for t in topics}
    n = len(papers)
    space = slots(n)
    width = 2 if space <= 0x10000 else 4
    id_type = np.uint16 if width == 2 else np.uint32
    slot = np.array([number[p.id] for p in papers], dtype=np.int64)
    files: dict[str, bytes | str] = {}

    # Every word of every paper as a number in one array, with its paper and whether it is
    # in the title; numpy then counts, groups and sorts them all at once. The numbers go
    # straight into C arrays: as lists of Python ints (3.6 million words at 20,000 papers)
    # they were the largest part of this worker's memory (issue 31).
    vocab = _Numbers()
    number_of = vocab.__getitem__
    shown = [result_key(p, slugs) for p in papers]
    docs = [known.docs.get(key) for key in shown]
    plain: dict[int, str] = {}  # the plain text of the papers whose result is made here
    sequence, tag_sequence = array("q"), array("q")
    lengths, title_len, tag_sizes = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for i, p in enumerate(papers):
        title = words(p.title)
        before = len(sequence)
        sequence.extend(map(number_of, title))
        joined = known.words.get(p.text)
        if docs[i] is None:
            plain[i] = to_plain(p.text)
        if joined is None:
            found = words(plain[i] if i in plain else to_plain(p.text))
            if known.learned is not None:
                known.learned.words[p.text] = " ".join(found)
        else:
            found = joined.split(" ") if joined else []
        sequence.extend(map(number_of, found))
        lengths[i] = len(sequence) - before
        title_len[i] = len(title)
        tagged = {number_of(w) for t in p.tags for w in words(t)}
        tag_sequence.extend(tagged)
        tag_sizes[i] = len(tagged)
    terms = sorted(vocab)
    # Term and paper numbers fit in 32 bits (a posting's key, term * space + paper, needs 64),
    # and each array is dropped once used: the worker's peak is these arrays at once.
    rank = np.empty(len(vocab), dtype=np.int32)
    rank[[vocab[t] for t in terms]] = np.arange(len(terms), dtype=np.int32)
    stop = np.zeros(len(terms), dtype=bool)
    stop[[rank[vocab[w]] for w in STOP if w in vocab]] = True
    del vocab

    tokens = rank[np.frombuffer(sequence, dtype=np.int64)]
    del sequence
    doc = np.repeat(slot.astype(np.int32), lengths)  # each word's paper, by number

    # Adjacent word pairs (stop words included) for "phrases", by hash: the distinct
    # (hash, paper) postings, made first so that the words' arrays can go after the terms'.
    word_hash = np.array([fnv1a(t) for t in terms], dtype=np.uint32)
    same = np.repeat(np.arange(n, dtype=np.int32), lengths)
    same = same[1:] == same[:-1] if len(same) else np.zeros(0, dtype=bool)
    hashes = word_hash[tokens[:-1][same]]
    hashes *= np.uint32(0x01000193)
    hashes ^= word_hash[tokens[1:][same]]
    del word_hash
    pairs = _fmix32(hashes).astype(np.uint64) << np.uint64(32)
    del hashes
    pairs |= doc[:-1][same].astype(np.uint64)
    del same
    unique = _unique(pairs)
    del pairs

    starts = np.cumsum(lengths) - lengths
    # a word is in the title when its place in its paper's sequence is before the title's end
    in_title = np.arange(len(tokens)) - np.repeat(starts, lengths) < np.repeat(title_len, lengths)
    del starts
    body_len = np.zeros(space, dtype=np.int64)
    body_len[slot] = lengths - title_len
    average = AVERAGE_WORDS

    def postings(where: np.ndarray) -> np.ndarray:
        out = tokens[where].astype(np.int64)
        out *= space
        out += doc[where]
        return out

    keep = ~stop[tokens]
    body_keys, tf = _unique(postings(keep & ~in_title), counts=True)
    title_keys = _unique(postings(keep & in_title))
    del keep, in_title, tokens, doc
    tag_terms = rank[np.frombuffer(tag_sequence, dtype=np.int64)].astype(np.int64)
    tag_docs = np.repeat(slot, tag_sizes)
    tag_keys = _unique((tag_terms * space + tag_docs)[~stop[tag_terms]])
    del tag_terms, tag_docs
    keys = _unique(np.concatenate((body_keys, title_keys, tag_keys)))
    term_of, doc_of = keys // space, keys % space
    in_body = _member(keys, body_keys)
    f = np.zeros(len(keys), dtype=np.float64)
    f[in_body] = tf[np.searchsorted(body_keys, keys[in_body])]
    del in_body, body_keys, tf
    norm = K1 * (1 - B + B * body_len[doc_of] / average)
    part = np.where(f > 0, f * (K1 + 1) / (f + norm), 0.0)
    del f, norm
    score = np.minimum(63, np.rint(part / SCORE_MAX * 63)).astype(np.uint8)
    del part
    score |= np.where(_member(keys, title_keys), TITLE_BIT, 0).astype(np.uint8)
    score |= np.where(_member(keys, tag_keys), TAG_BIT, 0).astype(np.uint8)
    del title_keys, tag_keys
    docs_bytes = doc_of.astype(id_type)
    del doc_of

    # Terms with postings, and each one's slice of the postings.
    bounds = np.flatnonzero(np.diff(term_of)) + 1
    first = np.concatenate(([0], bounds)) if len(keys) else np.zeros(0, dtype=np.int64)
    last = np.concatenate((bounds, [len(keys)])) if len(keys) else np.zeros(0, dtype=np.int64)
    indexed = [terms[t] for t in term_of[first].tolist()]
    del term_of, keys
    span = dict(zip(indexed, zip(first.tolist(), last.tolist())))
    size = {t: len(t.encode("utf-8")) + 8 + (b - a) * (width + 1) for t, (a, b) in span.items()}
    shards = _split(indexed, size)
    keys_sorted = sorted(shards)
    for key in keys_sorted:
        # in the order the worker's binary search compares strings, by UTF-16 code units: a
        # character past U+FFFF sorts before U+E000..U+FFFF there, after them by code point
        group = sorted(shards[key], key=_utf16)
        header = json.dumps([[t, span[t][1] - span[t][0]] for t in group], ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        buf = bytearray(len(header).to_bytes(4, "little"))
        buf += header
        _pad(buf)
        for t in group:
            a, b = span[t]
            buf += docs_bytes[a:b].astype("<" + docs_bytes.dtype.str[1:]).tobytes()
        for t in group:
            a, b = span[t]
            buf += score[a:b].tobytes()
        files[f"search/t/{shard_name(key)}.bin"] = bytes(buf)
    del docs_bytes, score

    pair_h = (unique >> np.uint64(32)).astype(np.uint32)
    pair_d = (unique & np.uint64(0xFFFFFFFF)).astype(id_type)
    buckets = 1
    while len(unique) > buckets * PAIR_BUCKET_POSTINGS:
        buckets *= 2
    bucket = pair_h % np.uint32(buckets)
    # ``unique`` is in (hash, paper) order already: a stable sort by bucket alone keeps it so
    # within each bucket (radix sort on 16-bit keys; a lexsort of the three keys took 1.8 s at 50,000)
    by = np.argsort(bucket.astype(np.uint16) if buckets <= 0x10000 else bucket, kind="stable")
    pair_h, pair_d, bucket = pair_h[by], pair_d[by], bucket[by]
    cuts = np.searchsorted(bucket, np.arange(buckets + 1))
    for b in range(buckets):
        a, z = cuts[b], cuts[b + 1]
        h = pair_h[a:z]
        heads = np.flatnonzero(np.concatenate(([True], h[1:] != h[:-1]))) if z > a else np.zeros(0, dtype=np.int64)
        buf = bytearray(len(heads).to_bytes(4, "little"))
        buf += h[heads].astype("<u4").tobytes()
        buf += varints(np.diff(np.concatenate((heads, [z - a]))))
        _pad(buf, width)
        buf += pair_d[a:z].astype("<" + pair_d.dtype.str[1:]).tobytes()
        files[f"search/p/{b}.bin"] = bytes(buf)

    for i, (p, key, doc) in enumerate(zip(papers, shown, docs)):
        if doc is None:
            # as bytes: encoded here in the worker, not by the write in the main process (20,000 files)
            doc = json.dumps(result_data(p, slugs, plain[i]), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            if known.learned is not None:
                known.learned.docs[key] = doc
        files[f"search/d/{number[p.id]}.json"] = doc
    files["search/facets.json"] = json.dumps(facets(papers, topics, number), ensure_ascii=False, separators=(",", ":"))
    files["search/order.bin"] = np.array([number[p.id] for p in order(papers)], dtype="<" + np.dtype(id_type).str[1:]).tobytes()
    files["search/meta.json"] = json.dumps(
        {"version": VERSION, "docs": n, "slots": space, "width": width, "maxKey": MAX_KEY, "keys": keys_sorted,
         "pairs": buckets},
        ensure_ascii=False, separators=(",", ":"))
    return files
