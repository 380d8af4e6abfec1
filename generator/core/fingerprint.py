"""The generator's version, as a hash of its own files: what every cache is keyed by.

Any change to the rules, their word lists, weights or the topics changes it, so a cache
written by another generator is never read as this one's. So does a change of what runs
them (:func:`runtime`): Python's version and its Unicode tables (how ``re``'s ``\\w`` and
``str.lower`` split and fold words: a character unassigned in Python 3.11's tables is a
letter in 3.12's, so the search index's kept words, the derive cache's tags and the
related rows of a text would differ from a build from nothing), and the versions of the
libraries whose numbers the derived results are made of.
"""
from __future__ import annotations

import hashlib
import platform
import unicodedata
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # the whole generator: any change of it starts cold
SUFFIXES = (".py", ".yml", ".yaml", ".json")
# The distributions the derived results are computed with (pinned in requirements.txt, which
# is not part of the generator's files): tags and related scores (numpy, scipy), the map
# (scikit-learn, openTSNE), venue slugs (python-slugify), the data files (PyYAML).
LIBRARIES = ("numpy", "scipy", "scikit-learn", "openTSNE", "python-slugify", "PyYAML")


def versions(names: Iterable[str]) -> str:
    """The installed version of each distribution of ``names`` ("-" for one not installed), a line each."""
    out = []
    for name in names:
        try:
            out.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name} -")
    return "\n".join(out)


def runtime() -> str:
    """What runs the generator, as far as its results depend on it (see the module's note)."""
    return f"python {platform.python_version()}\nunicode {unicodedata.unidata_version}\n{versions(LIBRARIES)}"


def fingerprint(taxonomy: bytes) -> str:
    """A hash of the generator's own files (code and data), of the taxonomy's bytes and of :func:`runtime`."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(p for p in PACKAGE.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(b"taxonomy\0" + taxonomy)
    h.update(b"runtime\0" + runtime().encode("utf-8"))
    return h.hexdigest()
