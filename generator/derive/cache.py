"""What was derived from each abstract's text last time, so that a rebuild does not derive it again.

Titling and tagging need an abstract's text alone, and they are most of the
generator's time (about 2.6 ms an abstract). A digest grows a seed file at a time,
so nearly every abstract of a build was in the previous one. Like Pelican's content
cache, the build keeps what it derived in one JSON file, ``{"fingerprint": ...,
"derived": {text key: [tags, evidence, title]}}``, with a fourth item, the abstract's
other titles best first, for those whose title another paper held (making titles
unique needs them, and they cost a second analysis), and reuses an entry only while
the fingerprint is the same: a hash of every source and data file of the generator
and of the taxonomy, so any change to the rules, their word lists or the topics
throws the whole cache away. The text key is a 128-bit BLAKE2b of the text.

A cache that cannot be read, is not JSON or has another shape is ignored (the build
says so and derives everything); it is written whole to a temporary file and then
renamed, so a build stopped half-way never leaves half a cache. It holds the
abstracts of the latest build only, and a build that derived nothing new and dropped
no text leaves it as it is.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

log = logging.getLogger(__name__)

PACKAGE = Path(__file__).resolve().parent.parent  # the whole generator: any change of it starts cold
SUFFIXES = (".py", ".yml", ".yaml", ".json")

# tags, evidence ((topic, (phrase, ...)), ...), title, the other titles (None: not derived)
Entry = tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...], str, tuple[str, ...] | None]


def text_key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def fingerprint(taxonomy: bytes) -> str:
    """A hash of the generator's own files (code and data) and of the taxonomy's bytes."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(p for p in PACKAGE.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(b"taxonomy\0" + taxonomy)
    return h.hexdigest()


def _entry(value: object) -> Entry | None:
    """A cached value as the build uses it, or None when it does not have the shape written."""
    if not (isinstance(value, list) and len(value) in (3, 4)):
        return None
    tags, evidence, title, *more = value
    others = more[0] if more else None
    if not (isinstance(title, str) and isinstance(tags, list) and all(isinstance(t, str) for t in tags)
            and isinstance(evidence, list)):
        return None
    if others is not None and not (isinstance(others, list) and all(isinstance(t, str) for t in others)):
        return None
    out = []
    for item in evidence:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], list)
                and all(isinstance(x, str) for x in item[1])):
            return None
        out.append((item[0], tuple(item[1])))
    return tuple(tags), tuple(out), title, None if others is None else tuple(others)


def read_cache(path: Path, expected: str) -> dict[str, Entry]:
    """The input edge: the entries of the cache at ``path`` when its fingerprint is ``expected``, else none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as e:
        log.info("cannot read the cache %s (%s): deriving every title and tag", path, e)
        return {}
    if not isinstance(data, dict) or not isinstance(data.get("derived"), dict):
        log.info("the cache %s is not one this generator writes: deriving every title and tag", path)
        return {}
    if data.get("fingerprint") != expected:
        log.info("the generator or the taxonomy changed since the cache %s was written: deriving every title and tag", path)
        return {}
    entries = {}
    for key, value in data["derived"].items():
        entry = _entry(value)
        if entry is None:
            log.info("the cache %s holds an entry of another shape: deriving every title and tag", path)
            return {}
        entries[key] = entry
    return entries


def write_cache(path: Path, stamp: str, entries: Mapping[str, Entry] | Iterable[tuple[str, Entry]]) -> None:
    """The output edge: the cache, written to a temporary file beside it and renamed into place.
    A cache that cannot be written costs the next build time, not this one its result."""
    items = entries.items() if isinstance(entries, Mapping) else entries
    doc = {"fingerprint": stamp, "derived": {k: [list(tags), [[t, list(p)] for t, p in ev], title,
                                                 *([] if others is None else [list(others)])]
                                              for k, (tags, ev, title, others) in sorted(items)}}
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        log.warning("cannot write the cache %s (%s): the next build derives every title and tag again", path, e)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
