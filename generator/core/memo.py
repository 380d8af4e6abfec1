"""Results kept from one build to the next, for a long-lived builder (``make serve``).

A build asks for each paper's JSON, card and keys (:mod:`generator.pages.render`); at the next
save of the preview all but a few papers are equal to ones it asked for. :class:`PerBuild`
answers a call from the results of the last build when its arguments are equal to one of
them, and keeps only what the current build asked for: memory holds one build's results, not
every version of every paper since the builder started (as a large ``lru_cache`` would).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

R = TypeVar("R")
_ALL: list[PerBuild] = []
_MISSING = object()
_storing = [True]  # False in a one-shot build: nothing is kept, not even within the build


class PerBuild(Generic[R]):
    """``fn`` with its results kept by its (hashable) arguments until the build after next."""

    def __init__(self, fn: Callable[..., R]) -> None:
        self.fn = fn
        self.last: dict[tuple[Hashable, ...], R] = {}
        self.now: dict[tuple[Hashable, ...], R] = {}
        self.__doc__ = fn.__doc__
        _ALL.append(self)

    def __call__(self, *args: Hashable) -> R:
        if not _storing[0]:
            return self.fn(*args)
        try:
            return self.now[args]
        except KeyError:
            pass
        value = self.last.pop(args, _MISSING)
        if value is _MISSING:
            value = self.fn(*args)
        self.now[args] = value
        return value


def next_build(keep: bool = True, store: bool = True) -> None:
    """A build begins: what the last one asked for is what it may reuse (``keep``), the rest
    goes; with ``keep`` False nothing is kept (no build follows in this process). With ``store``
    False the build keeps nothing at all: a one-shot build asks for each paper's results about
    once, and holding 20,000 papers' JSON beside papers.json raised a cold build's peak."""
    _storing[0] = store
    for memo in _ALL:
        memo.last, memo.now = (memo.now, {}) if keep else ({}, {})
