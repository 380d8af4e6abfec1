"""The output edge: put the rendered files into the docs folder, all or nothing.

The generator owns ``docs/papers/``, ``docs/topics/``, ``docs/venues/`` and the
files ``index.md``, ``list.md`` and ``papers.json`` at the top of ``docs/``; every
other file there is hand-written and never touched.

Everything is rendered in memory before this runs, and the write itself is a small
transaction, so a build that fails at any point leaves ``docs/`` as it was:

1. **compare**: list the generated folders once and read every target already
   there (a target not listed is new, and not opened); files whose content is unchanged are left alone
   (so ``mkdocs serve`` reloads only what changed). With the states the last build left
   (:mod:`generator.pages.kept`), a file whose new bytes hash as its old ones did, and that is
   as that build left it, is not opened either. Nothing is written yet, so a
   target that cannot be read (a folder where a page must go, say) stops here.
2. **stage**: a new page is written in place (there is no old one to keep, and a
   fresh build of a conference is thousands of them, so no temporary file and
   rename); a changed page goes to a hidden temporary file beside it. Pages the old
   site had and the new one has not are read, to be restorable.
3. **commit**: every temporary file is renamed over its page (a reader never sees
   half a page), then stale pages are deleted and emptied folders removed.

If anything fails, what was done is undone in reverse: replaced and deleted pages
get their old bytes back, new pages, temporary files and new folders are removed.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import BuildError
from generator.core.outputs import DIRS as GENERATED_DIRS
from generator.core.outputs import FILES as GENERATED_FILES
from generator.core.outputs import OPTIONAL as OPTIONAL_FILES
from generator.pages.kept import FileState, content_hash

log = logging.getLogger(__name__)


def _owned(rel: str) -> bool:
    """Whether ``rel`` names a file the generator owns, and nothing outside it.

    A path such as ``papers/../contribute.md`` starts in a generated folder but ends
    at a hand-written page, so every part must be a plain name.
    """
    parts = rel.split("/")
    if any(part in ("", ".", "..") or "\\" in part for part in parts):
        return False
    return rel in GENERATED_FILES or (len(parts) > 1 and parts[0] in GENERATED_DIRS)


def _temporary(path: str) -> str:
    """The hidden file beside ``path`` that its new content is staged in (MkDocs skips dotfiles)."""
    return os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp")


@dataclass
class _Transaction:
    """What one write did so far, in order, so that a failure can undo it."""

    made_dirs: list[str] = field(default_factory=list)  # created, parents first
    new_files: list[str] = field(default_factory=list)
    staged: list[tuple[str, str, bytes]] = field(default_factory=list)  # (temporary, page, old bytes)
    replaced: list[tuple[str, bytes]] = field(default_factory=list)  # (page, old bytes)
    deleted: list[tuple[str, bytes]] = field(default_factory=list)
    removed_dirs: list[str] = field(default_factory=list)
    known_dirs: set[str] = field(default_factory=set)

    def ensure_dir(self, path: str) -> None:
        """Create ``path`` and any missing parents, remembering which were created."""
        if path in self.known_dirs:
            return
        missing = []
        at = path
        while at and not os.path.isdir(at):
            missing.append(at)
            parent = os.path.dirname(at)
            if parent == at:
                break
            at = parent
        for d in reversed(missing):
            os.mkdir(d)
            self.made_dirs.append(d)
        self.known_dirs.add(path)

    def rollback(self) -> None:
        """Undo everything, newest first; each step is tried even if another fails."""
        for d in reversed(self.removed_dirs):
            _quietly(os.makedirs, d, exist_ok=True)
        for path, old in reversed(self.deleted):
            _quietly(_put_back, path, old)
        for path, old in reversed(self.replaced):
            _quietly(_put_back, path, old)
        for tmp, _, _ in self.staged[len(self.replaced):]:
            _quietly(os.unlink, tmp)
        for path in reversed(self.new_files):
            _quietly(os.unlink, path)
        for d in reversed(self.made_dirs):
            _quietly(os.rmdir, d)


def _put_back(path: str, old: bytes) -> None:
    tmp = _temporary(path)
    with open(tmp, "wb") as f:
        f.write(old)
    os.replace(tmp, path)


def _quietly(step, *args, **kwargs) -> None:
    try:
        step(*args, **kwargs)
    except FileNotFoundError:
        pass
    except OSError as e:  # the build fails anyway; say what could not be undone
        log.error("could not undo a partial write: %s (%s)", e.strerror, e.filename)


def write_tree(docs: Path, files: dict[str, str | bytes], keep: Set[str] = frozenset(),
               states: dict[str, FileState] | None = None) -> tuple[int, int]:
    """Write ``files`` under ``docs``; return (files written, stale files removed). The generated
    files ``keep`` names are neither written nor stale: a build that knows they are as it would
    write them (:func:`generator.pages.render.paper_page_keys`) leaves them as they are.
    ``states`` (:class:`generator.pages.kept.Kept`'s files), when given, is what the last build
    left, by path; it is updated to what this write leaves (the files of ``keep`` keep theirs).

    All or nothing: on any failure ``docs`` is left as it was and :class:`BuildError`
    names the file that failed.
    """
    for rel in files:
        if not _owned(rel):
            raise BuildError(f"refusing to write {rel}: it is not a generated path", str(docs))
    done = _Transaction()
    try:
        hashes: dict[str, str] = {}
        folders: list[str] = []
        new, changed, stale = _compare(docs, files, keep, states, hashes, folders)
        _stage(done, new, changed)
        _commit(done, stale, folders)
        if states is not None:
            _record(docs, files, keep, states, hashes, {p for p, _ in new} | {p for p, _, _ in changed})
    except OSError as e:
        done.rollback()
        raise BuildError(f"cannot write the site: {e.strerror} ({e.filename})", str(docs)) from None
    except BaseException:
        done.rollback()
        raise
    written, removed = len(new) + len(changed), len(stale)
    log.debug("wrote %d file(s), removed %d stale file(s) in %s", written, removed, docs)
    return written, removed


def _record(docs: Path, files: dict[str, str | bytes], keep: Set[str], states: dict[str, FileState],
            hashes: dict[str, str], written: set[str]) -> None:
    """``states`` made what this write left: the files written by their new hash and stat, the
    others as they were; files neither written nor kept are forgotten."""
    base = os.fspath(docs)
    for rel in list(states):
        if rel not in files and rel not in keep:
            del states[rel]
    for rel, content in files.items():
        path = os.path.join(base, rel)
        if path in written or rel not in states or states[rel][0] != hashes.get(rel):
            st = os.stat(path)
            h = hashes.get(rel) or content_hash(content if isinstance(content, bytes) else content.encode("utf-8"))
            states[rel] = (h, st.st_size, st.st_mtime_ns)


def _compare(docs: Path, files: dict[str, str | bytes], keep: Set[str] = frozenset(),
             states: dict[str, FileState] | None = None, hashes: dict[str, str] | None = None,
             folders: list[str] | None = None,
             ) -> tuple[list[tuple[str, str | bytes]], list[tuple[str, bytes, bytes]], list[tuple[str, bytes]]]:
    """(new pages with their content as given, changed pages with their new and old bytes, stale
    pages with their bytes); reads only. A file ``states`` says held the same bytes, and that is
    as it was left, is not read (its hash goes into ``hashes``). A new page is encoded only when
    it is written: a fresh build's pages, all encoded at once, were 200 MB at 20,000 papers.
    ``folders`` is given the path of every folder inside the generated folders."""
    # Plain os calls: pathlib's overhead shows at tens of thousands of pages.
    base = os.fspath(docs)
    # The generated folders are listed once: a page not there is new without trying to open
    # it (a fresh build is 100,000 of them at 50,000 papers), and one there but not among
    # ``files`` is stale.
    existing: set[str] = set()
    listed: set[str] = set()  # files and folders: a folder where a page must go is opened, and refused
    for d in GENERATED_DIRS:
        for folder, subfolders, names in os.walk(os.path.join(base, d)):
            rel_folder = os.path.relpath(folder, base).replace(os.sep, "/")
            existing.update(f"{rel_folder}/{name}" for name in names)
            listed.update(f"{rel_folder}/{name}" for name in subfolders)
            if folders is not None:
                folders.extend(os.path.join(folder, name) for name in subfolders)
    # The files at the top that a build writes only sometimes (the sitemaps, with a site_url)
    # are stale when it does not; the others are written by every build.
    existing.update(name for name in OPTIONAL_FILES if os.path.isfile(os.path.join(base, name)))
    # A build killed between staging and renaming leaves its temporary files; those in the
    # generated folders are listed above, those of the files at the top are found here.
    existing.update(tmp for name in GENERATED_FILES if os.path.isfile(os.path.join(base, tmp := _temporary(name))))
    listed |= existing
    new: list[tuple[str, str | bytes]] = []
    changed: list[tuple[str, bytes, bytes]] = []
    for rel, content in sorted(files.items()):
        path = os.path.join(base, rel)
        if "/" in rel and rel.split("/", 1)[0] in GENERATED_DIRS and rel not in listed:
            new.append((path, content))
            continue
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        if states is not None and (state := states.get(rel)) is not None and state[1] == len(data):
            h = hashes[rel] = content_hash(data)
            if h == state[0]:
                try:
                    st = os.stat(path)
                except OSError:
                    st = None
                if st is not None and (st.st_size, st.st_mtime_ns) == state[1:]:
                    continue  # as the last build left it, with the same bytes
        try:
            with open(path, "rb") as f:
                old = f.read()
        except FileNotFoundError:
            new.append((path, content))
            continue
        if old != data:
            changed.append((path, data, old))
    # A temporary file a killed build left for a page that changes now is staged over (and
    # renamed away) by this write: not stale.
    staged_over = {_temporary(path) for path, _, _ in changed}
    stale: list[tuple[str, bytes]] = []
    for rel in sorted(existing - files.keys() - keep):
        path = os.path.join(base, rel)
        if path in staged_over:
            continue
        if os.path.isfile(path):
            with open(path, "rb") as f:
                stale.append((path, f.read()))
    return new, changed, stale


def _stage(done: _Transaction, new: list[tuple[str, str | bytes]], changed: list[tuple[str, bytes, bytes]]) -> None:
    """Write new pages in place and changed pages to temporary files beside them."""
    for path, content in new:
        done.ensure_dir(os.path.dirname(path))
        f = open(path, "xb")
        done.new_files.append(path)  # only once it is ours: never undo someone else's file
        with f:
            f.write(content if isinstance(content, bytes) else content.encode("utf-8"))
    for path, data, old in changed:
        tmp = _temporary(path)
        f = open(tmp, "wb")
        done.staged.append((tmp, path, old))
        with f:
            f.write(data)


def _commit(done: _Transaction, stale: list[tuple[str, bytes]], folders: list[str]) -> None:
    """Rename the staged files over their pages, delete stale pages, remove emptied folders
    (of ``folders``, the folders inside the generated ones before the write: a folder the write
    made holds what it wrote there). Only the folders are looked at, not the 20,000 pages."""
    for tmp, path, old in done.staged:
        os.replace(tmp, path)
        done.replaced.append((path, old))
    for path, old in stale:
        os.unlink(path)
        done.deleted.append((path, old))
    for path in sorted(folders, reverse=True):  # a folder after those inside it
        with os.scandir(path) as entries:
            if next(entries, None) is None:
                os.rmdir(path)
                done.removed_dirs.append(path)
