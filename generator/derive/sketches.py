"""Each abstract's MinHash sketch, kept between builds, so that a rebuild reads only new texts
to find near duplicates.

Finding near duplicates (:func:`generator.derive.dedupe.duplicate_pairs`) hashes every
three-word shingle of every abstract and keeps each abstract's :data:`~generator.derive.dedupe.SKETCH`
smallest: about 3 s at 20,000 papers, every build. A sketch depends on its text alone (its
paper's id names it), so the build keeps them in ``.cache/sketches.json``, ``{"fingerprint":
..., "sketches": {id: [value, ...]}}``, and makes only the new texts' sketches.

A sketch only proposes candidates; every candidate pair is verified on the two texts' full
shingle sets, made from the texts. A wrong sketch could hide a duplicate, never invent one;
still, nothing in the file is trusted: a file of another shape or fingerprint, or any sketch
that is not what this generator makes (sorted distinct 40-bit values, at most SKETCH), means
none of it is used, and every sketch is made again.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.core.statefile import read_state, write_state
from generator.derive.dedupe import SHINGLE_BITS, SKETCH

log = logging.getLogger(__name__)

NAME = "sketches.json"
_ID = re.compile(r"[0-9a-f]{12}")


def sketches_path(cache: Path) -> Path:
    """Where it is kept: beside the derive cache ``cache``."""
    return cache.with_name(NAME)


def _fine(value: object) -> bool:
    return (isinstance(value, list) and 0 < len(value) <= SKETCH
            and all(type(v) is int and 0 <= v < 1 << SHINGLE_BITS for v in value)
            and all(a < b for a, b in zip(value, value[1:])))


def read_sketches(path: Path, expected: str) -> dict[str, list[int]]:
    """The input edge: the sketches at ``path`` when written under the fingerprint ``expected``
    and each of the shape this generator writes, else none."""
    doc = read_state(path, "making every abstract's sketch", name="the sketches")
    if doc is None:
        return {}
    if not (isinstance(doc, dict) and isinstance(doc.get("sketches"), dict)) or doc.get("fingerprint") != expected:
        return {}
    found = doc["sketches"]
    if not all(_ID.fullmatch(k) and _fine(v) for k, v in found.items()):
        log.info("the sketches %s are not what this generator writes: making every abstract's sketch", path)
        return {}
    return found


def write_sketches(path: Path, stamp: str, sketches: Mapping[str, Sequence[int]]) -> None:
    """The output edge: the sketches of this build's texts, by id."""
    write_state(path, {"fingerprint": stamp, "sketches": {k: list(sketches[k]) for k in sorted(sketches)}},
                "the next build makes every abstract's sketch again", name="the sketches")
