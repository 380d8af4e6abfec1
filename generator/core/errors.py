"""Errors that speak to people: each names the file and line it is about.

The CLI catches :class:`GeneratorError`, prints ``path:line: message`` for every
problem of the run and exits 1; tracebacks are shown only with ``--debug``.
"""
from __future__ import annotations

from collections.abc import Iterable


class GeneratorError(Exception):
    """Base class of every error the generator reports to a user."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return f"{where}{self.message}"


class SeedError(GeneratorError):
    """A seed file cannot be read as abstracts."""


class TaxonomyError(GeneratorError):
    """The topic taxonomy file is malformed."""


class WordsError(GeneratorError):
    """A word-list data file (such as the title stage's ``words.yml``) is malformed."""


class CurationError(GeneratorError):
    """The maintainers' curation file is malformed or names unknown papers/topics."""


class BuildError(GeneratorError):
    """The site cannot be written."""


class ErrorList(GeneratorError):
    """Several problems found in one run; reported together, in order."""

    def __init__(self, errors: Iterable[GeneratorError]):
        self.errors = sorted(errors, key=lambda e: (e.path or "", e.line or 0, e.message))
        super().__init__(f"{len(self.errors)} problem(s)")

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def raise_all(errors: list[GeneratorError]) -> None:
    """Raise the single error, or all of them as one :class:`ErrorList`."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ErrorList(errors)
