"""What the search index made of each paper last time, so that a rebuild reads only new ones.

The index (:mod:`generator.pages.search_index`) splits every abstract's plain text into
words and writes every paper's result file: at 20,000 papers that was 6.6 of the index
worker's seconds on every build, while one appended abstract changes one paper's words and
result (issue 31). ``make serve`` keeps them in memory (:class:`~generator.pages.search_index.Known`);
a one-shot build keeps them in 16 shards, ``.cache/search-0.json`` ... ``search-f.json``
(:mod:`generator.core.statefile`), each ``{"fingerprint": ..., "papers": {key: [words,
result]}}``: the key a BLAKE2b of everything a paper's result is made of (its id, title,
venue, year, shown topics and text), the words joined by spaces and the result file's JSON
as written. A rebuild writes only the shards whose keys changed.

Unlike the other kept state, what is here is published as it is (the result files are the
search's snippets, the words are what a query finds), and checking an entry costs what
making it does. So only a shard this machine's generator wrote (its hash under the local
key matches) is used: any other (restored from a deploy's cache, another fingerprint, another
shape) is left aside and its papers indexed from their text, as a build from nothing does.
The deploy does not keep these files for that reason.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.model import Paper, Topic
from generator.core.statefile import by_shard, read_shards, shards_to_write, write_shards
from generator.pages.search_index import Known, result_key, search_files_kept

NAME = "search.json"
THEN = "the next build indexes every paper for search again"


def search_cache_path(cache: Path) -> Path:
    """Where it is kept: beside the derive cache ``cache`` (the shards' name, :func:`generator.core.statefile.shard_path`)."""
    return cache.with_name(NAME)


def paper_key(shown: tuple) -> str:
    """The key of a paper's entry: a hash of all its result is made of (:func:`~generator.pages.search_index.result_key`)."""
    body = json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(body, digest_size=16).hexdigest()


@dataclass
class KeptSearch:
    """The entries read, by key, and the shards they came from (all vouched for)."""

    papers: dict[str, tuple[str, str]] = field(default_factory=dict)
    vouched: frozenset[str] = frozenset()


def read_search_cache(path: Path, stamp: str) -> KeptSearch:
    """The input edge: the entries of the shards of ``path`` that this machine's generator
    wrote under the fingerprint ``stamp``; the others are left aside (see the module's note)."""
    papers: dict[str, tuple[str, str]] = {}
    vouched = set()
    for shard, (doc, trusted) in read_shards(path, "indexing those papers for search from their text").items():
        if not (trusted and isinstance(doc, dict) and doc.get("fingerprint") == stamp
                and isinstance(doc.get("papers"), dict)):
            continue
        papers.update((k, (v[0], v[1])) for k, v in doc["papers"].items())
        vouched.add(shard)
    return KeptSearch(papers, frozenset(vouched))


def search_files_cached(papers: Sequence[Paper], topics: Sequence[Topic], kept: KeptSearch, stamp: str,
                        ) -> tuple[dict[str, bytes | str], dict[str, dict]]:
    """:func:`~generator.pages.search_index.search_files`, reusing ``kept``'s words and results;
    and the shards to write for the next build (:func:`write_search_cache`): those whose keys
    are not the ones read."""
    slugs = {t.name: t.slug for t in topics}
    shown = [result_key(p, slugs) for p in papers]
    keys = [paper_key(s) for s in shown]
    known = Known()
    for p, s, k in zip(papers, shown, keys):
        entry = kept.papers.get(k)
        if entry is not None:
            known.words[p.text] = entry[0]
            known.docs[s] = entry[1].encode("utf-8")
    files, learned = search_files_kept(papers, topics, known)
    words = {**known.words, **learned.words}
    docs = {**known.docs, **learned.docs}
    entries = ((k, [words[p.text], docs[s].decode("utf-8")]) for p, s, k in zip(papers, shown, keys))
    shards = shards_to_write(by_shard(sorted(entries)), kept.papers, kept.vouched, same=lambda a, b: a.keys() == b.keys())
    return files, {s: {"fingerprint": stamp, "papers": part} for s, part in shards.items()}


def write_search_cache(path: Path, shards: Mapping[str, dict]) -> None:
    """The output edge: the shards :func:`search_files_cached` made, each written whole and renamed."""
    write_shards(path, dict(shards), THEN, name="the search index's kept papers")
