"""Seed files parsed before, so that a rebuild checks and scans only the files that changed.

Parsing a seed file checks every line (control characters, piles of combining marks, the
header, each paragraph's length) and looks for the links of every abstract: about 0.2 ms
an abstract, 4 s of a 20,000-paper rebuild in which one file changed. A file whose bytes
(and path) are those of a file parsed without a problem by this generator passed those
checks and had those links; so the build keeps, in ``.cache/parsed.json``, ``{"fingerprint":
..., "files": {key: [links of each abstract]}, "ids": {key: [id of each abstract]}}``, the key a BLAKE2b of the path and the
bytes, and :func:`generator.seeds.parse.parse_all` makes such a file's papers from its bytes
without the checks.

Nothing of a paper's text or place comes from the file: those are made from the seed's
bytes every time; so are the ids, unless this machine's generator wrote the file (below). A link is taken only if it is a URL the link rules accept, of the kind they
give it, and (:func:`generator.seeds.parse.parse_all`) written in its abstract; the deploy
restores the file from a cache, so nothing in it is trusted, unless its hash under the local
key says this machine's generator wrote it (:mod:`generator.core.statefile`): then its links
are taken as written. A file of another shape or fingerprint is ignored, said, and parsing
is done in full.
"""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

from generator.core.markup import link_kind, valid_url
from generator.core.model import Link, Paper
from generator.core.statefile import read_vouched, write_state

log = logging.getLogger(__name__)

NAME = "parsed.json"
MAX_LINKS = 256  # far more links than one abstract of at most 10,000 characters holds


def parsed_path(cache: Path) -> Path:
    """Where it is kept: beside the derive cache ``cache``."""
    return cache.with_name(NAME)


def file_key(path: str, data: bytes) -> str:
    h = hashlib.blake2b(path.encode("utf-8", "surrogatepass") + b"\0", digest_size=16)
    h.update(data)
    return h.hexdigest()


def _links(value: object) -> tuple[Link, ...] | None:
    """One abstract's links as cached, or None if they are not what this generator writes."""
    if not (isinstance(value, list) and len(value) <= MAX_LINKS):
        return None
    out = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)):
            return None
        url, kind = item
        if not valid_url(url) or link_kind(url) != kind:
            return None
        out.append(Link(url=url, kind=kind))
    return tuple(out)


class Checked(dict):
    """(path, bytes) -> the links of each abstract of a file parsed before; ``held``: how many
    files the cache held (more than were found: some are gone, and it is written again);
    ``ids``: (path, bytes) -> the id of each abstract, for the files of a cache this machine's
    generator wrote (an id is a hash of the abstract's normalized text, 0.45 s of a one-shot
    rebuild at 20,000 papers; a cache from elsewhere has every id made again)."""

    held = 0

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[tuple[str, bytes], tuple[str, ...]] = {}


def read_parsed(path: Path, expected: str, seeds: Sequence[tuple[str, bytes]]) -> Checked:
    """The input edge: for each of ``seeds`` parsed before under the fingerprint ``expected``,
    the links of its abstracts; the others are parsed in full."""
    doc, vouched = read_vouched(path, "parsing every seed file", name="the parsed seeds")
    if doc is None:
        return Checked()
    if not (isinstance(doc, dict) and isinstance(doc.get("files"), dict)):
        log.info("the parsed seeds %s are not what this generator writes: parsing every seed file", path)
        return Checked()
    if doc.get("fingerprint") != expected:
        return Checked()  # another generator or taxonomy: the derive cache says so
    files = doc["files"]
    out = Checked()
    out.held = len(files)
    for name, data in seeds:
        value = files.get(file_key(name, data))
        if value is None:
            continue
        if vouched:  # this machine's generator wrote it (the local key says so): not checked
            out[(name, data)] = tuple(tuple(Link(url=u, kind=k) for u, k in v) for v in value)
            if isinstance(ids := doc.get("ids"), dict) and (made := ids.get(file_key(name, data))) is not None:
                out.ids[(name, data)] = tuple(made)
            continue
        links = [_links(v) for v in value] if isinstance(value, list) else [None]
        if any(x is None for x in links):
            log.info("the parsed seeds %s hold links this generator does not make: parsing every seed file", path)
            return Checked()
        out[(name, data)] = tuple(links)  # type: ignore[arg-type]
    return out


def write_parsed(path: Path, stamp: str, seeds: Sequence[tuple[str, bytes]], papers: Iterable[Paper]) -> None:
    """The output edge: the links of each seed file's abstracts (``papers`` as
    :func:`generator.seeds.parse.parse_all` returned them: in file order, one source each)."""
    by_file: dict[str, list[list[list[str]]]] = {name: [] for name, _ in seeds}
    ids: dict[str, list[str]] = {name: [] for name, _ in seeds}
    for p in papers:
        by_file[p.source.file].append([[link.url, link.kind] for link in p.links])
        ids[p.source.file].append(p.id)
    keys = {name: file_key(name, data) for name, data in seeds}
    doc = {"fingerprint": stamp, "files": {keys[name]: by_file[name] for name, _ in seeds},
           "ids": {keys[name]: ids[name] for name, _ in seeds}}
    write_state(path, doc, "the next build parses every seed file again", name="the parsed seeds")
