"""The generator's version, as a hash of its own files: what every cache is keyed by.

Any change to the rules, their word lists, weights or the topics changes it, so a cache
written by another generator is never read as this one's.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # the whole generator: any change of it starts cold
SUFFIXES = (".py", ".yml", ".yaml", ".json")


def fingerprint(taxonomy: bytes) -> str:
    """A hash of the generator's own files (code and data) and of the taxonomy's bytes."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(p for p in PACKAGE.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(b"taxonomy\0" + taxonomy)
    return h.hexdigest()
