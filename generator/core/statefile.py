"""State a build keeps for the next one (``.cache/*.json``): written whole or not at all.

Each file is written to a temporary name beside it and renamed into place, so a build killed
while writing leaves the last file or the new one, never half of one. A file that cannot be
written costs the next build time, not this one its result: it is said, with what follows,
and the build goes on.

**The local key.** The deploy restores some of these files from GitHub's Actions cache, so
their readers check every entry (a corrupt or foreign file is said and rebuilt, never
published): at 20,000 papers that is seconds of every rebuild. A file this machine's
generator wrote itself need not be checked again, and a keyed hash says which those are:
``local.key`` beside the state (32 random bytes, mode 0600, made on first need) keys a
BLAKE2b of each file's name and JSON, written as the document's last member ``"mac"``. A
reader that finds the key and a matching hash is told the file is vouched for
(:func:`read_vouched`) and may skip its costly checks; no key, another key, no hash or a
wrong one, and the reader checks everything as before. The key must never leave the machine
(no workflow saves or restores it, which ``tests/test_workflows.py`` checks): a key from a
cache would let whoever wrote that cache vouch for its files. A key file that cannot be read
or is not 32 bytes is said and replaced; the state written under the old one is then checked
in full, once.

**Shards.** The large files (the derive cache, the related rows, the sketches) are kept in
16 shards by the first hex digit of their entries' keys (``derived-0.json`` ...
``derived-f.json``, :func:`shard_path`), so that a rebuild writes only the shards whose
entries changed. Each shard is written whole, with its fingerprint and hash, and checked
alone; their entries are keyed by hashes of what they were made of, so shards of two builds
(one killed between shard writes) are still true entries.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
from collections.abc import Callable, Iterable, Mapping, Set
from pathlib import Path
from typing import TypeVar

log = logging.getLogger(__name__)

KEY = "local.key"
KEY_BYTES = 32
SHARDS = tuple("0123456789abcdef")
V = TypeVar("V")
_MAC = b',"mac":"'


def shard_path(path: Path, shard: str) -> Path:
    """The file of one shard of the state kept at ``path`` (``derived.json`` -> ``derived-3.json``)."""
    return path.with_name(f"{path.stem}-{shard}{path.suffix}")


def local_key(folder: Path) -> bytes | None:
    """This machine's key for the state in ``folder``, made on first need; None (nothing is
    vouched for) when it can be neither read nor made."""
    where = folder / KEY
    try:
        key = where.read_bytes()
        if len(key) == KEY_BYTES:
            return key
        problem = f"{len(key)} bytes, not {KEY_BYTES}"
    except FileNotFoundError:
        problem = ""
    except OSError as e:
        problem = str(e)
    if problem:
        log.warning("cannot use the local key %s (%s): a new one is made, and the kept state is checked in full",
                    where, problem)
    key = secrets.token_bytes(KEY_BYTES)
    tmp = where.with_name(KEY + ".tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        os.replace(tmp, where)
    except OSError as e:
        log.warning("cannot make the local key %s (%s): the kept state is checked in full", where, e)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return None
    return key


def _mac(key: bytes, name: str, body: bytes) -> bytes:
    h = hashlib.blake2b(key=key, digest_size=32)
    h.update(name.encode("utf-8", "surrogatepass") + b"\0")
    h.update(body)
    return h.hexdigest().encode("ascii")


def write_state(path: Path, doc: object, then: str, name: str = "") -> None:
    """``doc`` as JSON at ``path``, whole, with its hash under the local key when ``doc`` is
    a non-empty object and there is a key; on failure say so and ``then`` (what the next
    build does without it). ``name`` says what the file is ("the cache"), before its path."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if isinstance(doc, dict) and doc and "mac" not in doc and (key := local_key(path.parent)) is not None:
            body = body[:-1] + _MAC + _mac(key, path.name, body) + b'"}'
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(body)
        os.replace(tmp, path)
    except OSError as e:
        log.warning("cannot write %s (%s): %s", f"{name} {path}" if name else path, e, then)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def read_vouched(path: Path, then: str, name: str = "") -> tuple[object | None, bool]:
    """The JSON at ``path`` (its ``"mac"`` taken out), or None: silently when there is no file,
    said (with ``then``, what the build does without it) when it cannot be read; and whether
    this machine's generator wrote it (its hash matches under the local key). Its shape is
    the caller's to check, and its entries too unless it is vouched for."""
    try:
        data = path.read_bytes()
        doc = json.loads(data.decode("utf-8"))
    except FileNotFoundError:
        return None, False
    except (OSError, UnicodeDecodeError, ValueError) as e:
        log.info("cannot read %s (%s): %s", f"{name} {path}" if name else path, e, then)
        return None, False
    if not (isinstance(doc, dict) and "mac" in doc):
        return doc, False
    mac = doc.pop("mac")
    if not isinstance(mac, str) or not mac.isascii():
        return doc, False
    tail = _MAC + mac.encode("ascii") + b'"}'
    if not data.endswith(tail):
        return doc, False
    key = local_key(path.parent)
    return doc, key is not None and hmac.compare_digest(_mac(key, path.name, data[: -len(tail)] + b"}"), tail[8:-2])


def read_state(path: Path, then: str, name: str = "") -> object | None:
    """The JSON at ``path``, or None: silently when there is no file, said (with ``then``, what
    the build does without it) when it cannot be read. Its shape and entries are the caller's
    to check (:func:`read_vouched` tells which files need not be)."""
    return read_vouched(path, then, name)[0]


def read_shards(path: Path, then: str, name: str = "") -> dict[str, tuple[object, bool]]:
    """Each shard of the state at ``path`` that could be read (:func:`read_vouched`), by shard."""
    out = {}
    for shard in SHARDS:
        doc, vouched = read_vouched(shard_path(path, shard), then, name)
        if doc is not None:
            out[shard] = (doc, vouched)
    return out


def by_shard(items: Iterable[tuple[str, V]]) -> dict[str, dict[str, V]]:
    """Entries by the shard their key falls in (its first hex digit), in the order given; every
    shard is there, empty or not."""
    out: dict[str, dict[str, V]] = {s: {} for s in SHARDS}
    for key, value in items:
        out.setdefault(key[:1], {})[key] = value
    return out


def shards_to_write(parts: dict[str, dict[str, V]], before: Mapping[str, object] | None, vouched: Set[str],
                    same: Callable[[dict, dict], bool] = lambda a, b: a == b) -> dict[str, dict[str, V]]:
    """The shards of ``parts`` (:func:`by_shard`) a build writes: every one without ``before``
    (what was read); else those not read as this machine's generator wrote them (``vouched``),
    and those whose entries are not ``same`` as ``before``'s."""
    if before is None:
        return parts
    old = by_shard(before.items())
    return {s: part for s, part in parts.items() if s not in vouched or not same(part, old.get(s, {}))}


def write_shards(path: Path, docs: dict[str, object], then: str, name: str = "") -> None:
    """The shards of ``docs`` (by shard) written each whole (:func:`write_state`); the state's
    file of before shards, ``path`` itself, removed."""
    for shard, doc in sorted(docs.items()):
        write_state(shard_path(path, shard), doc, then, name)
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
