"""Each paper's related-papers row from last time, so that a rebuild tokenises only new abstracts.

Related papers (:mod:`generator.derive.related`) turn every abstract into a row of
weighted terms before scoring them; a row depends on its paper's text and tags alone
(and the tables shipped with the generator), and making them was most of the stage's
time (issue 31: 7.6 s of a one-abstract rebuild at 20,000 papers). The build keeps the
rows in 16 shards by their key's first digit, ``.cache/related-0.json`` ... ``related-f.json``
(:mod:`generator.core.statefile`; a rebuild writes only the shards whose rows changed), each
``{"fingerprint": ..., "terms": [...], "rows": {key: [numbers, weights]}}``, and the lists in
``.cache/related-lists.json``, ``{"fingerprint": ..., "lists": {id: [key, variants, related,
score]}}``, the key a hash of the text and tags
(:func:`generator.derive.related.row_key`), the terms as ``"w word"``, ``"p word word"`` or
``"t tag"``, a row's terms as their numbers in its shard's list (int32) in the row's order and
its weights the single-precision values :func:`generator.derive.related.top_k` reads, both
little-endian in base64 (a list of strings a row read 4.5 s at 20,000 papers; this, a
fraction of it). A row is reused only while the fingerprint (every source and data file
of the generator, and the taxonomy) is the same, so a change of the rules or their tables
starts cold.

Nothing in the file is trusted (a deploy restores it): one that cannot be read, is not
JSON or holds an entry of another shape (a term that is not one the tokenizer makes, a
number that is no term of the list, more terms than a row keeps, a weight that is not in
(0, 1]) is said and ignored, and every row is made again. A well-formed forged row is not
checked against its abstract (that costs seconds at 20,000 papers): all it could do is
change which published papers a page lists as related; no term is ever shown. So could a
forged related list (each paper's list as the last build found it, with the score of its
k-th, which a rebuild keeps unless a new or changed paper may enter it: only papers of the
digest are listed). A file this machine's generator wrote (its hash under the local key
matches) is not checked entry by entry. Each file is written whole to a temporary file and
renamed. The lists are one file, not shards: a list is kept only if every list was
found in one digest (a new paper's absence from a list is what says it does not enter it),
and one new abstract changes lists all over the id range anyway; rows are keyed by what
they are made of, so shards of two builds (one killed between writes) are still true rows.
"""
from __future__ import annotations

import base64
import binascii
import logging
import re
from pathlib import Path

import numpy as np

from generator.core.statefile import (
    by_shard,
    read_shards,
    read_vouched,
    shards_to_write,
    write_shards,
    write_state,
)
from generator.derive.related import TERMS, K, Listed, Row, Rows, Term

log = logging.getLogger(__name__)

RELATED = "related.json"
_WORD = re.compile(r"[a-z][a-z0-9]+")


def related_path(cache: Path) -> Path:
    """Where the rows are kept: beside the derive cache ``cache`` (the shards' name, :func:`generator.core.statefile.shard_path`)."""
    return cache.with_name(RELATED)


def lists_path(path: Path) -> Path:
    """Where the related lists are kept, beside the rows' shards ``path``."""
    return path.with_name(f"{path.stem}-lists{path.suffix}")


def _as_written(text: str) -> Term:
    """A term of a vouched-for shard (written by :func:`_text`)."""
    kind, rest = text[0], text[2:]
    if kind == "p":
        a, b = rest.split(" ")
        return 1, (a, b)
    return (0 if kind == "w" else 2), rest


def _term(text: object) -> Term | None:
    if not isinstance(text, str) or len(text) < 3 or text[1] != " ":
        return None
    kind, rest = text[0], text[2:]
    if kind == "w" and _WORD.fullmatch(rest):
        return 0, rest
    if kind == "p":
        words = rest.split(" ")
        if len(words) == 2 and all(_WORD.fullmatch(w) for w in words):
            return 1, (words[0], words[1])
    if kind == "t" and rest.strip() == rest:
        return 2, rest
    return None


def _text(term: Term) -> str:
    kind, value = term
    return f"p {value[0]} {value[1]}" if kind == 1 else f"{'w' if kind == 0 else 't'} {value}"


def _decode(text: object, dtype: str) -> np.ndarray | None:
    if not isinstance(text, str):
        return None
    try:
        return np.frombuffer(base64.b64decode(text, validate=True), dtype=dtype)
    except (binascii.Error, ValueError):
        return None


def _row(value: object, terms: int) -> Row | str:
    """A cached entry as the build uses it, or what is wrong with it (``terms``: the table's size)."""
    if not (isinstance(value, list) and len(value) == 2):
        return "an entry that is not [terms, weights]"
    numbers, weights = _decode(value[0], "<i4"), _decode(value[1], "<f4")
    if numbers is None or weights is None:
        return "terms or weights that are not base64 numbers"
    if len(numbers) > TERMS or len(numbers) != len(weights):
        return f"not one weight a term, or more than {TERMS} terms"
    if not (np.all((numbers >= 0) & (numbers < terms)) and len(np.unique(numbers)) == len(numbers)):
        return "terms that are not the table's"
    if not np.all((weights > 0) & (weights <= 1)):
        return "weights that are not in (0, 1]"
    return numbers.astype(np.int32), weights.astype(np.float32)


def read_rows(path: Path, stamp: str) -> Rows:
    """The input edge: the rows of the shards of ``path`` (and the lists beside them) written
    by this generator (``stamp``: its fingerprint), when every term and entry has the shape
    written (:func:`_term`, :func:`_row`, :func:`_listed`; not checked in a file vouched for
    by the local key); else none (said, unless there is no file), and every abstract is tokenised."""
    then = "tokenising every abstract for related papers"
    none = Rows([], {})
    number: dict[Term, int] = {}
    rows: dict[str, Row] = {}
    vouched: set[str] = set()
    problem = ""
    for shard, (doc, trusted) in read_shards(path, then).items():
        if not (isinstance(doc, dict) and doc.keys() == {"fingerprint", "terms", "rows"}
                and isinstance(doc["terms"], list) and isinstance(doc["rows"], dict)):
            log.info("%s is not one this generator writes: %s", path, then)
            return none
        if doc["fingerprint"] != stamp:
            continue  # another generator's rows: quietly made again, as every cache's are
        if trusted:
            local = [_as_written(t) for t in doc["terms"]]
        else:
            local = [_term(t) for t in doc["terms"]]  # type: ignore[misc]
            problem = ("a term the tokenizer does not make" if None in local else
                       "a term listed twice" if len(set(local)) != len(local) else "")
            if problem:
                break
        to_global = np.array([number.setdefault(t, len(number)) for t in local], dtype=np.int32)
        for key, value in doc["rows"].items():
            if trusted:
                numbers = np.frombuffer(base64.b64decode(value[0]), dtype="<i4")
                row: Row | str = numbers, np.frombuffer(base64.b64decode(value[1]), dtype="<f4").astype(np.float32)
            else:
                row = _row(value, len(local))
            if isinstance(row, str):
                problem = row
                break
            rows[key] = to_global[row[0]], row[1]
        if problem:
            break
        if trusted:
            vouched.add(shard)
    lists: dict[str, Listed] = {}
    doc, trusted = read_vouched(lists_path(path), then) if not problem else (None, False)
    if doc is not None:
        if not (isinstance(doc, dict) and doc.keys() == {"fingerprint", "lists"} and isinstance(doc["lists"], dict)):
            log.info("%s is not one this generator writes: %s", lists_path(path), then)
            return none
        if doc["fingerprint"] == stamp:
            for pid, value in doc["lists"].items():
                if trusted:
                    key, banned, listed, kth = value
                    lists[pid] = key, tuple(banned), tuple(listed), float(kth)
                    continue
                entry = _listed(pid, value)
                if isinstance(entry, str):
                    problem = entry
                    break
                lists[pid] = entry
            if trusted:
                vouched.add("lists")
    if problem:
        log.info("%s: %s, which this generator does not write: %s", path, problem, then)
        return none
    return Rows(list(number), rows, lists, frozenset(vouched))


_ID = re.compile(r"[0-9a-f]{12}")
_KEY = re.compile(r"[0-9a-f]{32}")


def _ids(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) and _ID.fullmatch(x) for x in value)


def _listed(pid: str, value: object) -> Listed | str:
    """A cached related list as the build uses it, or what is wrong with it."""
    if not (_ID.fullmatch(pid) and isinstance(value, list) and len(value) == 4):
        return "a related list that is not [key, variants, related, score]"
    key, banned, listed, kth = value
    if not (isinstance(key, str) and _KEY.fullmatch(key) and _ids(banned) and _ids(listed)
            and len(listed) <= K and pid not in listed and type(kth) in (int, float) and 0 <= kth <= 1.5):
        return "a related list of another shape"
    return key, tuple(banned), tuple(listed), float(kth)


def write_rows(path: Path, stamp: str, table: Rows, before: Rows | None = None) -> None:
    """The output edge: the rows in their shards, each shard's terms only those its rows use,
    and the lists, each file written to a temporary file beside it and renamed into place;
    with ``before`` (what :func:`read_rows` read), only the shards whose rows differ from it
    or that it did not read as vouched for. Rows that cannot be written cost the next build
    time, not this one its result."""
    then = "the next build tokenises every abstract for related papers again"
    # a row's key is a hash of what it was made of: the same keys are the same rows
    shards = shards_to_write(by_shard(sorted(table.rows.items())), before.rows if before is not None else None,
                             before.vouched if before is not None else frozenset(), same=lambda a, b: a.keys() == b.keys())
    b64 = lambda a: base64.b64encode(a.tobytes()).decode("ascii")  # noqa: E731
    docs = {}
    for shard, part in shards.items():
        items = part.items()
        used = np.unique(np.concatenate([t for _, (t, _) in items])) if items else np.empty(0, dtype=np.int32)
        number = np.zeros(len(table.terms), dtype="<i4")
        number[used] = np.arange(len(used))
        docs[shard] = {"fingerprint": stamp, "terms": [_text(table.terms[i]) for i in used.tolist()],
                       "rows": {key: [b64(number[t]), b64(w.astype("<f4"))] for key, (t, w) in items}}
    write_shards(path, docs, then)
    if before is None or "lists" not in before.vouched or table.lists != before.lists:
        write_state(lists_path(path), {"fingerprint": stamp, "lists": {
            pid: [key, list(banned), list(listed), kth] for pid, (key, banned, listed, kth) in sorted(table.lists.items())}},
            then)
