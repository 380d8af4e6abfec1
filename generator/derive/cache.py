"""What was derived from each abstract's text last time, so that a rebuild does not derive it again.

Titling and tagging need an abstract's text alone, and they are most of the
generator's time (about 2.6 ms an abstract). A digest grows a seed file at a time,
so nearly every abstract of a build was in the previous one. Like Pelican's content
cache, the build keeps what it derived, ``{"fingerprint": ..., "derived": {text key: [tags,
evidence, title]}}``, with a fourth item, the abstract's
other titles best first, for those whose title another paper held (making titles
unique needs them, and they cost a second analysis), and reuses an entry only while
the fingerprint is the same: a hash of every source and data file of the generator
and of the taxonomy, so any change to the rules, their word lists or the topics
throws the whole cache away. The text key is a 128-bit BLAKE2b of the text. The cache
is kept in 16 shards by the key's first digit (``derived-0.json`` ... ``derived-f.json``,
:mod:`generator.core.statefile`): a rebuild writes only the shards whose entries changed.

A cache that cannot be read, is not JSON or has another shape is ignored (the build
says so and derives everything), as is one with a tag that is no topic or evidence that
is not its topic's phrases: the deploy restores
the files from a cache, so nothing in them is trusted. A title is reused only if the
title stage could have made it of its abstract's words (:func:`reusable`); else that
text alone is derived again. Those checks are skipped for a shard this machine's
generator wrote (its hash under the local key matches: :func:`generator.core.statefile.read_vouched`):
its entries are what this generator derived from the texts their keys name. Each shard is
written whole to a temporary file and then renamed, so a build stopped half-way never leaves
half a shard; a shard of the build before is still true (its entries are keyed by their
texts). It holds the abstracts of the latest build only, and a shard whose entries are
the same is left as it is.
"""
from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from generator.core.fingerprint import fingerprint  # noqa: F401  (the cache's key, here since it was first)
from generator.core.model import ABSTRACTS_CACHED, Topic
from generator.core.statefile import (
    by_shard,
    read_shards,
    shards_to_write,
    write_shards,
)
from generator.derive.tag import MAX_TAGS
from generator.derive.title import could_be_titles

log = logging.getLogger(__name__)


# tags, evidence ((topic, (phrase, ...)), ...), title, the other titles (None: not derived)
Entry = tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...], str, tuple[str, ...] | None]


@lru_cache(maxsize=ABSTRACTS_CACHED)
def text_key(text: str) -> str:
    """A BLAKE2b of ``text``: kept per text, since a rebuild asks for each abstract's key
    several times (deriving, checking the cache, writing it)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


# A term shown as evidence (generator/derive/tag.py: the abstract's words and word pairs that
# made a tag, beside the topic's phrases): a few plain words, each of which the abstract holds
# (:func:`reusable`), never markup.
_TERM = re.compile(r"[^\W_](?:[\w'.+-]| (?! )){0,58}[\w+.]?")
TERM_WORD = re.compile(r"[^\W_]+")
# More titles than an abstract's analysis offers: 66 were seen at 20,000 synthetic papers,
# where the limit was 64 and the whole cache was refused on every rebuild. The writer
# leaves out an entry over it (that text is derived again), never the cache.
MAX_OTHERS = 512


def _entry(value: object, topics: Mapping[str, Topic]) -> Entry | str:
    """A cached value as the build uses it, or what is wrong with it: not the shape written,
    a tag that is no topic of ``topics`` (by name), or evidence that is not the tags' phrases.
    Whether a title is one the abstract could have (a hostile abstract's title may hold a
    control character, and is derived again, not the whole cache) is for :func:`reusable`,
    which has the text."""
    if not (isinstance(value, list) and len(value) in (3, 4)):
        return "an entry that is not a list of three or four items"
    tags, evidence, title, *more = value
    others = more[0] if more else None
    if not (isinstance(tags, list) and all(isinstance(t, str) for t in tags) and isinstance(evidence, list)):
        return "tags that are not a list of names"
    if not all(t in topics for t in tags) or len(set(tags)) != len(tags) or len(tags) > MAX_TAGS:
        return f"tags that are not up to {MAX_TAGS} topics of the taxonomy"
    out = []
    for item in evidence:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], list)
                and all(isinstance(x, str) for x in item[1])):
            return "evidence of another shape"
        topic = topics.get(item[0])
        if topic is None or not all(x in topic.phrases or _TERM.fullmatch(x) for x in item[1]):
            return "evidence that is not phrases of its topic or words"
        out.append((item[0], tuple(item[1])))
    if [name for name, _ in out] != tags:
        return "evidence that is not for the tags"
    if not isinstance(title, str) or not (others is None or (isinstance(others, list) and len(others) <= MAX_OTHERS
                                                              and all(isinstance(t, str) for t in others))):
        return "titles that are not strings"
    return tuple(tags), tuple(out), title, None if others is None else tuple(others)


class Known(dict):
    """Text key -> :data:`Entry`, as read (:func:`read_cache`). ``vouched``: the keys of the
    shards this machine's generator wrote (their entries need no check); ``shards``: the
    shards read as they were written; ``vouched_shards``: those of them vouched for."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.vouched: set[str] = set()
        self.shards: set[str] = set()
        self.vouched_shards: set[str] = set()


def _as_written(value: list) -> Entry:
    """An entry of a vouched-for shard (written by :func:`write_cache`), as the build uses it."""
    tags, evidence, title, *more = value
    return tuple(tags), tuple((t, tuple(p)) for t, p in evidence), title, tuple(more[0]) if more else None


def read_cache(path: Path, expected: str, topics: Sequence[Topic]) -> Known:
    """The input edge: the entries of the cache's shards at ``path`` (``derived.json``:
    ``derived-0.json`` ...) written under the fingerprint ``expected``, when every entry
    checks out against ``topics`` (:func:`_entry`), else none.

    The deploy restores the cache from GitHub's: one entry that is not what this
    generator writes means the files are not, and none of them is used. A shard this
    machine's generator wrote (vouched for by the local key) is not checked."""
    then = "deriving every title and tag"
    by_name = {t.name: t for t in topics}
    entries = Known()
    stale = False
    for shard, (data, vouched) in read_shards(path, then, name="the cache").items():
        if not isinstance(data, dict) or not isinstance(data.get("derived"), dict):
            log.info("the cache %s is not one this generator writes: %s", path, then)
            return Known()
        if data.get("fingerprint") != expected:
            if not stale:
                log.info("the generator or the taxonomy changed since the cache %s was written: %s", path, then)
            stale = True
            continue
        found = data["derived"]
        if vouched:
            entries.update((key, _as_written(value)) for key, value in found.items())
            entries.vouched.update(found)
            entries.vouched_shards.add(shard)
        else:
            for key, value in found.items():
                entry = _entry(value, by_name)
                if isinstance(entry, str):
                    log.info("%s: %s, which this generator does not write: %s", path, entry, then)
                    return Known()
                entries[key] = entry
        entries.shards.add(shard)
    return entries


def reusable(known: Mapping[str, Entry], text: str) -> Entry | None:
    """What ``known`` holds for ``text``, if its titles are ones the title stage could make of
    the text (:func:`generator.derive.title.could_be_title`); else None, and the text is derived again.

    A cache could be written by anyone who can compute its keys and fingerprint, which
    are hashes of the text and of the generator's public source: a signature keyed by
    them would keep out a stale file, not a forged one. This check is the one that
    holds: a title of the cache is made of the abstract's own words, or not used. The one
    exception is an entry of a shard hashed under the local key, which never leaves the
    machine (:mod:`generator.core.statefile`): this generator wrote it, and it is used as is."""
    key = text_key(text)
    entry = known.get(key) if known else None
    if entry is None:
        return None
    if key in getattr(known, "vouched", ()):
        return entry  # this generator derived it from this text (the local key says so)
    _, evidence, title, others = entry
    words = text.casefold()
    # a phrase matches its plural too ("capability" in "capabilities"): its last letter may differ
    stems = {w[:-1] if len(w) > 3 else w for _, shown in evidence for x in shown for w in TERM_WORD.findall(x.casefold())}
    if not all(w in words for w in stems):
        return None  # evidence the abstract does not hold: derived again (the tagger's terms are its words)
    if not could_be_titles((title, *(others or ())), text):
        return None
    return entry


def write_cache(path: Path, stamp: str, entries: Mapping[str, Entry] | Iterable[tuple[str, Entry]],
                known: Known | None = None) -> None:
    """The output edge: the cache's shards, each written to a temporary file beside it and
    renamed into place; with ``known`` (what :func:`read_cache` read), only the shards whose
    entries differ from it or that it did not read as vouched for. A cache that cannot be
    written costs the next build time, not this one its result."""
    items = [(k, e) for k, e in (entries.items() if isinstance(entries, Mapping) else entries)
             if e[3] is None or len(e[3]) <= MAX_OTHERS]
    shards = shards_to_write(by_shard(items), known, known.vouched_shards if known is not None else frozenset())
    docs = {shard: {"fingerprint": stamp, "derived": {k: [list(tags), [[t, list(p)] for t, p in ev], title,
                                                          *([] if others is None else [list(others)])]
                                                      for k, (tags, ev, title, others) in sorted(part.items())}}
            for shard, part in shards.items()}
    write_shards(path, docs, "the next build derives every title and tag again", name="the cache")
