"""What the pages stage keeps for the next build (``.cache/written.json``), so that a rebuild
neither renders nor reads what it would write as it is.

- ``files``: every generated file the last build wrote or left (paper pages apart: those are
  ``pages.json``'s), by a hash of its bytes, its size and its modification time. A file whose
  new bytes hash to what it held and whose size and time are as that build left them is not
  opened again (:func:`generator.pages.write.write_tree`): at 20,000 papers that is 20,000
  result files of the search index and a thousand listing pages a rebuild read to find them
  unchanged.
- ``listings``: each listing (a topic's pages, a venue's, the list of all papers) by a hash of
  what its pages are made of (:func:`generator.pages.render.listing_keys`) and the files it
  made. A listing whose key is the same and whose files are as they were left is not rendered.
  Each page of a listing alike (``<listing>#<order>-<k>``,
  :func:`generator.pages.render.listing_page_keys`): of a listing whose key changed, only the
  pages whose own key changed are rendered.
  The feeds are kept alike, as ``feed:<path>`` (:func:`generator.pages.feeds.feed_keys`).
- ``members``: ``papers.json.gz`` is made of gzip members, one per chunk of papers
  (:func:`generator.pages.render.papers_gz`); each chunk by the hash of its JSON, and where its
  member lies in the file. A chunk that is the same is not compressed again.
- ``entries``: each paper's JSON in ``papers.json``, by id: its page key
  (:func:`generator.pages.render.paper_page_keys`, a hash of its record and more) and where it
  lies in the file. A paper whose key is the same is not turned into JSON again (a rebuild
  did so for all 20,000 papers: about half a second).

The keys hold the generator's fingerprint: a state written by another generator is not read.
Equal keys give equal bytes, so a rebuild's output is a cold build's; the state only saves work.
"""
from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.statefile import read_state, write_state

log = logging.getLogger(__name__)

NAME = "written.json"
THEN = "reading what it writes"
FileState = tuple[str, int, int]  # hash of the bytes, size, mtime in ns


def kept_path(cache: Path) -> Path:
    """Beside the derive cache (``.cache/written.json``)."""
    return cache.with_name(NAME)


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class Kept:
    files: dict[str, FileState] = field(default_factory=dict)
    listings: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    members: list[tuple[str, int, int]] = field(default_factory=list)  # chunk hash, offset, length
    entries: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # id -> page key, offset, length

    def as_left(self, docs: Path, rel: str) -> bool:
        """Whether ``docs/rel`` has the size and time the last build left it with."""
        state = self.files.get(rel)
        if state is None:
            return False
        try:
            st = os.stat(os.path.join(docs, rel))
        except OSError:
            return False
        return (st.st_size, st.st_mtime_ns) == state[1:]

    def unchanged_listings(self, docs: Path, keys: dict[str, str]) -> dict[str, list[str]]:
        """Listing -> its files, for the listings whose key is what it was and whose files are as left."""
        out = {}
        for name, key in keys.items():
            old = self.listings.get(name)
            if old is not None and old[0] == key and all(self.as_left(docs, rel) for rel in old[1]):
                out[name] = old[1]
        return out

    def pages_of(self, listings: Iterable[str]) -> dict[str, tuple[str, list[str]]]:
        """The pages of ``listings`` (``<listing>#<order>-<k>``: :func:`generator.pages.render.page_name`) as kept."""
        wanted = set(listings)
        return {name: entry for name, entry in self.listings.items() if "#" in name and name.partition("#")[0] in wanted}

    def previous_members(self, docs: Path, rel: str = "papers.json.gz") -> dict[str, bytes]:
        """Chunk hash -> its gzip member, from ``docs/rel`` when it is as the last build left it."""
        data = self._as_written(docs, rel) if self.members else None
        if data is None:
            return {}
        return {h: data[at : at + n] for h, at, n in self.members if at + n <= len(data)}

    def previous_entries(self, docs: Path, keys: dict[str, str], rel: str = "papers.json") -> dict[str, bytes]:
        """Paper id -> its JSON in ``docs/rel`` when the file is as the last build left it, for the
        papers whose page key (``keys``) is what it was."""
        data = self._as_written(docs, rel) if self.entries else None
        if data is None:
            return {}
        return {pid: data[at : at + n] for pid, (key, at, n) in self.entries.items()
                if keys.get(pid) == key and at + n <= len(data)}

    def _as_written(self, docs: Path, rel: str) -> bytes | None:
        """The bytes of ``docs/rel`` when it is as the last build left it and they hash as it wrote them."""
        if not self.as_left(docs, rel):
            return None
        try:
            data = (docs / rel).read_bytes()
        except OSError:
            return None
        return data if content_hash(data) == self.files[rel][0] else None


def read_kept(path: Path, stamp: str) -> Kept:
    doc = read_state(path, THEN)
    if doc is None:
        return Kept()
    try:
        if doc["fingerprint"] != stamp:
            return Kept()
        files = {str(k): (str(h), int(s), int(t)) for k, (h, s, t) in doc["files"].items()}
        listings = {str(k): (str(key), [str(r) for r in rels]) for k, (key, rels) in doc["listings"].items()}
        members = [(str(h), int(at), int(n)) for h, at, n in doc["members"]]
        entries = {str(k): (str(key), int(at), int(n)) for k, (key, at, n) in doc["entries"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        log.info("%s is not one this generator writes: %s", path, THEN)
        return Kept()
    return Kept(files, listings, members, entries)


def forget_kept(path: Path) -> None:
    """Before a write: a build stopped half-way then vouches for nothing."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        log.warning("cannot remove %s (%s)", path, e)


def write_kept(path: Path, stamp: str, kept: Kept) -> None:
    write_state(path, {"fingerprint": stamp, "files": {k: list(v) for k, v in sorted(kept.files.items())},
                       "listings": {k: [key, rels] for k, (key, rels) in sorted(kept.listings.items())},
                       "members": [list(m) for m in kept.members],
                       "entries": {k: list(v) for k, v in sorted(kept.entries.items())}},
                f"the next build {THEN}")
