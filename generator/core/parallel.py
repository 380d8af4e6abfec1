"""Use both cores for the stages that work paper by paper.

A full conference is thousands of independent abstracts; parsing, titling,
tagging and rendering one does not depend on another. :func:`map_chunks` splits
a list into one chunk per core and runs a pure function on each chunk in a
forked worker: the inputs are inherited through fork (nothing is pickled on the
way in) and only the results come back. Small inputs, a single core, or a
platform without fork run in this process, with the same results in the same
order, so parallelism never changes the output.
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 400  # below this, starting a worker costs more than it saves

_job: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def workers() -> int:
    """How many processes to use: the cores this process may run on, at most 4."""
    if os.environ.get("DIGEST_SERIAL"):
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(cores, 4))


def _run(index: int) -> Any:
    fn, chunks = _job  # type: ignore[misc]
    return fn(chunks[index])


def split(items: Sequence[T], n: int) -> list[Sequence[T]]:
    """``n`` contiguous chunks of nearly equal size, in order."""
    size, extra = divmod(len(items), n)
    out, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append(items[start:end])
        start = end
    return out


def serial(fn: Callable[[Sequence[T]], list[R]], items: Sequence[T]) -> list[R]:
    """The mapper that runs ``fn(items)`` here: the default of the stages that accept one."""
    return list(fn(items))


class Later:
    """The in-process stand-in for :class:`Pending`: ``fn(items)`` runs when the result is asked for."""

    def __init__(self, fn: Callable[[Sequence[T]], list[R]], items: Sequence[T]):
        self._fn, self._items = fn, items

    def result(self) -> list[R]:
        return list(self._fn(self._items))


def map_chunks(fn: Callable[[Sequence[T]], list[R]], items: Sequence[T]) -> list[R]:
    """``fn`` over chunks of ``items``, results concatenated in order: ``fn(items)`` but faster."""
    return Pending(fn, items).result()


class _Workers:
    """Forked workers (``self._pool``, None when the work runs in this process) that can be stopped."""

    _pool = None

    def cancel(self) -> None:
        """Stop the workers: their result is no longer wanted (the build failed)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class Pending(_Workers):
    """``fn`` over chunks of ``items``, running in forked workers while this process
    does other work; :meth:`result` waits and gives what ``fn(items)`` would."""

    def __init__(self, fn: Callable[[Sequence[T]], list[R]], items: Sequence[T], worth_it: bool | None = None,
                 pieces: int = 1):
        """``worth_it`` overrides the rule that only MIN_ITEMS items or more are worth a worker.
        ``pieces``: chunks a worker, each sent back on its own; more for large results, which
        this process receives whole (as pickled bytes, then as objects) before it unpickles them."""
        global _job
        self._fn, self._items = fn, items
        self._pool = None
        n = workers()
        if n > 1 and len(items) > 1 and (worth_it if worth_it is not None else len(items) >= MIN_ITEMS):
            chunks = split(items, n * pieces)
            _job = (fn, chunks)
            try:
                self._pool = multiprocessing.get_context("fork").Pool(n)
                self._async = self._pool.map_async(_run, range(len(chunks)), chunksize=1)
            finally:
                _job = None

    def result(self) -> list[R]:
        if self._pool is None:
            return list(self._fn(self._items))
        try:
            return [r for chunk in self._async.get() for r in chunk]
        finally:
            self._pool.close()
            self._pool.join()


class Background(_Workers):
    """``fn()`` in one forked worker while this process does other work; :meth:`result`
    waits for it. In this process (when it is called) on one core or when not ``worth_it``."""

    def __init__(self, fn: Callable[[], R], worth_it: bool = True):
        global _job
        self._fn = fn
        self._pool = None
        if workers() > 1 and worth_it:
            _job = (lambda _: fn(), [None])
            try:
                self._pool = multiprocessing.get_context("fork").Pool(1)
                self._async = self._pool.apply_async(_run, (0,))
            finally:
                _job = None

    def result(self) -> R:
        if self._pool is None:
            return self._fn()
        try:
            return self._async.get()
        finally:
            self._pool.close()
            self._pool.join()
