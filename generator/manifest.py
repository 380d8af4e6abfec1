"""The build manifest: whether a build can end before it starts, because nothing changed.

A build's output is a function of its inputs: the generator (code and data, by
:func:`generator.core.fingerprint.fingerprint`), the taxonomy, the working directory (pages
name seed files relative to it), every file of the seed folders (the seeds and the curation file), the MkDocs config and ``SITE_URL`` (the site's
address and repository), the seed files' dates in git (the feeds'), and the Python and
library versions the map is laid out with. After a build, ``.cache/build.json`` records a
hash of all of them, and of the state of ``docs/`` as that build left it (every file's
path, size and modification time). When the next build finds the same two hashes, its
output would be the files that are there: it says so and stops, in a fraction of a second
(no stage is imported, nothing is read but the inputs and a listing of ``docs/``).

Anything else builds: a changed input, a file of ``docs/`` touched, added or removed
since (a build killed while writing included), a manifest that is missing, unreadable or
not the shape written here (reported, and replaced by the build). The manifest is
written after ``docs/``, by renaming a complete file into place, so it never vouches for
a write that did not finish. ``--no-cache`` ignores it.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import GeneratorError
from generator.core.fingerprint import fingerprint, versions
from generator.core.statefile import read_state, write_state
from generator.seeds.read import seed_dates, seed_paths

log = logging.getLogger(__name__)

NAME = "build.json"
VERSION = 1
# What the build depends on beyond the generator's fingerprint, which covers its own files,
# Python and the libraries the derived results are computed with (:func:`generator.core.fingerprint.runtime`).
LIBRARIES = ("mkdocs", "mkdocs-material")


def manifest_path(cache: Path) -> Path:
    """The manifest lives beside the derive cache (``.cache/build.json``)."""
    return cache.with_name(NAME)


@dataclass(frozen=True)
class Manifest:
    key: str  # the inputs' hash
    docs: str  # the hash of docs/ as the build left it
    papers: int
    merged: int
    seed_files: int


def input_key(seed_dirs: list[Path], taxonomy: Path | None, config: Path = Path("mkdocs.yml")) -> str:
    """A hash of everything a build reads (see the module's docstring)."""
    h = hashlib.blake2b(digest_size=16)

    def put(label: str, data: bytes | str) -> None:
        data = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
        h.update(os.fsencode(label) + b"\0" + len(data).to_bytes(8, "big") + data)  # a name as its bytes

    put("generator", fingerprint(taxonomy.read_bytes() if taxonomy is not None else b""))
    put("cwd", os.getcwd())  # sources are named relative to it on the pages
    for folder in seed_dirs:
        put("folder", os.fspath(folder))
        if folder.is_dir():
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                put(path.relative_to(folder).as_posix(), path.read_bytes())
        elif folder.is_file():
            put(folder.name, folder.read_bytes())
    put("config", config.read_bytes() if config.is_file() else b"")
    put("SITE_URL", os.environ.get("SITE_URL", "\0unset"))
    dates, how = seed_dates(seed_paths(seed_dirs))
    put("dates", json.dumps([how, sorted((k, v.isoformat()) for k, v in dates.items())]))
    put("libraries", versions(LIBRARIES))
    return h.hexdigest()


def docs_state(docs: Path) -> str:
    """A hash of every file under ``docs`` by path, size and modification time (not content:
    a listing of 45,000 files costs a tenth of a second, their bytes seconds)."""
    h = hashlib.blake2b(digest_size=16)
    rows = []
    todo = [("", os.fspath(docs))]
    while todo:
        prefix, folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                todo.append((f"{prefix}{e.name}/", e.path))
            else:
                st = e.stat(follow_symlinks=False)
                rows.append(f"{prefix}{e.name}\0{st.st_size}\0{st.st_mtime_ns}\n")
    for row in sorted(rows):
        h.update(row.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def read_manifest(path: Path) -> Manifest | None:
    """The manifest at ``path``, or None when there is none or it is not one this generator writes (said)."""
    doc = read_state(path, "building", name="the build manifest")
    if doc is None:
        return None
    fields = ("key", "docs", "papers", "merged", "seed_files")
    if not (isinstance(doc, dict) and doc.get("version") == VERSION and set(doc) == {"version", *fields}
            and all(isinstance(doc[k], str) for k in fields[:2])
            and all(isinstance(doc[k], int) and not isinstance(doc[k], bool) and doc[k] >= 0 for k in fields[2:])):
        log.info("the build manifest %s is not one this generator writes: building", path)
        return None
    return Manifest(*(doc[k] for k in fields))


def up_to_date(seed_dirs: list[Path], docs: Path, taxonomy: Path | None, path: Path) -> Manifest | None:
    """The manifest at ``path`` if it vouches for ``docs`` as it is, built from the inputs as they are; else None."""
    manifest = read_manifest(path)
    if manifest is None:
        return None
    try:
        key = input_key(seed_dirs, taxonomy)
    except (GeneratorError, OSError, ValueError):
        return None  # the build reports what is wrong
    if key != manifest.key:
        return None
    if docs_state(docs) != manifest.docs:
        log.info("%s changed since the last build: building", docs)
        return None
    return manifest


def write_manifest(path: Path, manifest: Manifest) -> None:
    """The manifest, written whole to a temporary file and renamed into place; a manifest that
    cannot be written costs the next build time, not this one its result."""
    doc = {"version": VERSION, "key": manifest.key, "docs": manifest.docs, "papers": manifest.papers,
           "merged": manifest.merged, "seed_files": manifest.seed_files}
    write_state(path, doc, "the next build runs in full", name="the build manifest")


def forget(path: Path) -> None:
    """Remove the manifest before a build writes ``docs/``: a build stopped half-way then vouches for nothing."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


# How many papers were placed on the map since its last full layout
# (:func:`generator.derive.map_layout.placing`), beside the derive cache.
PLACED = "map-placed.json"


def placed_path(cache: Path) -> Path:
    return cache.with_name(PLACED)


def _map_hash(data: str | bytes) -> str:
    return hashlib.blake2b(data.encode("utf-8") if isinstance(data, str) else data, digest_size=16).hexdigest()


def read_placed(path: Path, map_json: Path) -> int | None:
    """The papers placed on ``map_json`` since its last full layout, as the build that wrote it
    counted them; None when not known (no count, one that is not this generator's, or one
    written for another map.json), and the map is then laid out again in full."""
    doc = read_state(path, "the map is laid out again in full")
    if doc is None:
        return None
    try:
        current = _map_hash(map_json.read_bytes())
    except FileNotFoundError:
        return None
    except OSError as e:
        log.info("cannot read %s (%s): the map is laid out again in full", map_json, e)
        return None
    if not (isinstance(doc, dict) and doc.keys() == {"map", "placed"} and isinstance(doc["map"], str)
            and isinstance(doc["placed"], int) and not isinstance(doc["placed"], bool) and doc["placed"] >= 0):
        log.info("%s is not one this generator writes: the map is laid out again in full", path)
        return None
    return doc["placed"] if doc["map"] == current else None


def write_placed(path: Path, map_json: str, placed: int | None) -> None:
    """The count of papers placed on ``map_json`` since its last full layout; None (not known) removes it."""
    if placed is None:
        forget(path)
        return
    write_state(path, {"map": _map_hash(map_json), "placed": placed}, "the next build lays the map out in full")


# What each paper page on disk was made of (:func:`generator.pages.render.paper_page_keys`),
# with the size and modification time it was left with: a page whose key is the same and
# whose file is as it was left need not be rendered again.
PAGES = "pages.json"
PageState = tuple[str, int, int]  # key, size, mtime in ns


def pages_path(cache: Path) -> Path:
    return cache.with_name(PAGES)


def read_pages(path: Path, stamp: str) -> dict[str, PageState]:
    """The page states of ``path`` when written by this generator (``stamp``: its fingerprint);
    else none (said, unless there is no file), and every page is rendered."""
    doc = read_state(path, "rendering every paper page")
    if doc is None:
        return {}
    if not (isinstance(doc, dict) and doc.keys() == {"fingerprint", "pages"} and isinstance(doc["pages"], dict)):
        log.info("%s is not one this generator writes: rendering every paper page", path)
        return {}
    if doc["fingerprint"] != stamp:
        return {}
    out = {}
    for pid, state in doc["pages"].items():
        if not (isinstance(state, list) and len(state) == 3 and isinstance(state[0], str)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in state[1:])):
            log.info("%s is not one this generator writes: rendering every paper page", path)
            return {}
        out[pid] = (state[0], state[1], state[2])
    return out


def unchanged_pages(docs: Path, keys: dict[str, str], previous: dict[str, PageState]) -> set[str]:
    """The ids whose page key is what it was and whose page ``docs/papers/<id>.md`` is as that build left it."""
    out = set()
    folder = os.path.join(docs, "papers")  # plain strings: two pathlib joins a page were most of this
    for pid, key in keys.items():
        state = previous.get(pid)
        if state is None or state[0] != key:
            continue
        try:
            st = os.stat(os.path.join(folder, f"{pid}.md"))
        except OSError:
            continue
        if (st.st_size, st.st_mtime_ns) == state[1:]:
            out.add(pid)
    return out


def write_pages(path: Path, stamp: str, docs: Path, keys: dict[str, str]) -> None:
    """The state of every paper page of ``keys`` as it now is on disk, written whole and renamed into place."""
    pages = {}
    folder = os.path.join(docs, "papers")
    for pid, key in sorted(keys.items()):
        try:
            st = os.stat(os.path.join(folder, f"{pid}.md"))
        except OSError:
            continue
        pages[pid] = [key, st.st_size, st.st_mtime_ns]
    write_state(path, {"fingerprint": stamp, "pages": pages}, "the next build renders every paper page")
