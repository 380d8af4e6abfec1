"""What a long-lived builder keeps in memory between builds (``make serve``: :mod:`generator.serve`).

A build starts by reading what the last one left: the state kept in ``.cache/`` (the derive
cache, the related rows and lists, the sketches, the page and file states) and the previous
``docs/papers.json`` and ``docs/map.json``. At 20,000 papers decoding them is seconds, the
same seconds at every save of a preview. :class:`Warm` keeps what each reader returned,
with the signature (inode, size, modification and change times) of every file and folder
the reader opened while it ran: recorded as they are opened (an audit hook,
:func:`sys.addaudithook`), so the reader's own code says which files it depends on, and a
reader changed to read one more file is still kept right. A read whose files all have the
signatures they had is answered from memory; any other is read again. A reader that raised
is not kept.

This is exact as long as a reader is a function of its arguments and the bytes of the
files it opens, and its caller does not change what it returns (the pipeline copies what
it changes). The state files are written whole under a new name (:mod:`generator.core.statefile`)
and docs/ files as new files (:mod:`generator.pages.write`), so a rewritten file has a new
inode and a new change time. Between builds, :meth:`Warm.refresh` reads again what the last
build rewrote, while the preview waits for the next save, so that the save finds it decoded.
"""
from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

R = TypeVar("R")
Sig = tuple[int, int, int, int] | None  # inode, size, mtime, ctime in ns; None: not there

_recording = threading.local()  # .files: the set the reader running in this thread adds to
_EVENTS = frozenset({"open", "os.scandir", "os.listdir"})


def _audit(event: str, args: tuple) -> None:
    files = getattr(_recording, "files", None)
    if files is not None and event in _EVENTS and args:
        path = args[0]
        if isinstance(path, (str, bytes, os.PathLike)):
            files.add(os.path.abspath(os.fsdecode(path)))


_hooked = False


def _hook() -> None:
    global _hooked
    if not _hooked:  # an audit hook cannot be removed: one for the process, idle unless recording
        sys.addaudithook(_audit)
        _hooked = True


def signature(path: str) -> Sig:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


@dataclass
class _Entry:
    fn: Callable[..., Any]
    args: tuple
    cwd: str  # relative paths among the arguments name files from here
    files: dict[str, Sig]
    value: Any

    def fresh(self) -> bool:
        return all(signature(path) == sig for path, sig in self.files.items())


def _key(arg: object) -> Hashable:
    """An argument as part of a key: itself when hashable, else its identity (the entry keeps
    the argument alive, so the identity is not reused while it is kept)."""
    try:
        hash(arg)
    except TypeError:
        return ("id", id(arg))
    return arg


class Warm:
    """Readers' results kept by the signatures of the files they read (see the module's docstring)."""

    def __init__(self) -> None:
        _hook()
        self._kept: dict[tuple, _Entry] = {}
        self.hits = 0
        self.reads = 0
        # What a stage made of the last build's papers, by name, for the next build to reuse
        # where a paper is the same (the search index's words and results: made in a worker,
        # which sends back what it made anew). Each value is checked paper by paper when used.
        self.made: dict[str, Any] = {}

    def read(self, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)``, from memory when the files it read the last time are unchanged."""
        key = (os.getcwd(), fn, *map(_key, args))
        entry = self._kept.get(key)
        if entry is not None and entry.fresh():
            self.hits += 1
            return entry.value
        self._kept.pop(key, None)  # before reading: not two of it in memory at once
        entry = self._run(fn, args)
        self._kept[key] = entry
        return entry.value

    def _run(self, fn: Callable[..., Any], args: tuple) -> _Entry:
        self.reads += 1
        files: set[str] = set()
        outer = getattr(_recording, "files", None)
        _recording.files = files
        try:
            value = fn(*args)
        finally:
            _recording.files = outer
            if outer is not None:
                outer |= files
        # signatures taken after the read: a file changed while it was read is read again next time
        return _Entry(fn, args, os.getcwd(), {path: signature(path) for path in files}, value)

    def refresh(self, stop: Callable[[], bool] = lambda: False) -> int:
        """Read again what changed since it was read (what the last build rewrote), until ``stop()``
        says a build is wanted; a read that fails now is dropped (the build reads it and says why).
        Returns how many were read."""
        done = 0
        for key, entry in list(self._kept.items()):
            if stop():
                break
            if entry.cwd != os.getcwd() or entry.fresh():  # read where it was read, or not at all
                continue
            del self._kept[key]
            try:
                self._kept[key] = self._run(entry.fn, entry.args)
            except Exception:  # noqa: BLE001 - the build reads it again and reports the problem
                continue
            done += 1
        return done

    def __len__(self) -> int:
        return len(self._kept)
