"""Each abstract's MinHash sketch, kept between builds, so that a rebuild reads only new texts
to find near duplicates.

Finding near duplicates (:func:`generator.derive.dedupe.duplicate_pairs`) hashes every
three-word shingle of every abstract and keeps each abstract's :data:`~generator.derive.dedupe.SKETCH`
smallest: about 3 s at 20,000 papers, every build. A sketch depends on its text alone (its
paper's id names it), so the build keeps them in 16 shards by the id's first digit,
``.cache/sketches-0.json`` ... ``sketches-f.json``, each ``{"fingerprint": ..., "sketches":
{id: [value, ...]}}`` (:mod:`generator.core.statefile`), makes only the new texts' sketches
and writes only the shards whose sketches changed.

A sketch only proposes candidates; every candidate pair is verified on the two texts' full
shingle sets, made from the texts. A wrong sketch could hide a duplicate, never invent one;
still, nothing in the file is trusted: a file of another shape or fingerprint, or any sketch
that is not what this generator makes (sorted distinct 40-bit values, at most SKETCH), means
none of it is used, and every sketch is made again; a shard this machine's generator wrote
(its hash under the local key matches) is not checked.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from generator.core.statefile import (
    by_shard,
    read_shards,
    shards_to_write,
    write_shards,
)
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


class Sketches(dict):
    """Id -> sketch, as read (:func:`read_sketches`); ``vouched``: the shards read as this
    machine's generator wrote them."""

    vouched: frozenset[str] = frozenset()


def read_sketches(path: Path, expected: str) -> Sketches:
    """The input edge: the sketches in the shards of ``path`` written under the fingerprint
    ``expected`` and each of the shape this generator writes (unless vouched for), else none."""
    found = Sketches()
    vouched = set()
    for shard, (doc, trusted) in read_shards(path, "making every abstract's sketch", name="the sketches").items():
        if not (isinstance(doc, dict) and isinstance(doc.get("sketches"), dict)) or doc.get("fingerprint") != expected:
            continue
        part = doc["sketches"]
        if not trusted and not all(_ID.fullmatch(k) and _fine(v) for k, v in part.items()):
            log.info("the sketches %s are not what this generator writes: making every abstract's sketch", path)
            return Sketches()
        found.update(part)
        if trusted:
            vouched.add(shard)
    found.vouched = frozenset(vouched)
    return found


def write_sketches(path: Path, stamp: str, sketches: Mapping[str, Sequence[int]], before: Sketches | None = None) -> None:
    """The output edge: the sketches of this build's texts, by id, in their shards; with
    ``before`` (what :func:`read_sketches` read), only the shards that differ from it or
    that it did not read as vouched for."""
    shards = shards_to_write(by_shard((k, list(sketches[k])) for k in sorted(sketches)), before,
                             before.vouched if before is not None else frozenset())
    write_shards(path, {s: {"fingerprint": stamp, "sketches": part} for s, part in shards.items()},
                 "the next build makes every abstract's sketch again", name="the sketches")
