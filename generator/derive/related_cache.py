"""Each paper's related-papers row from last time, so that a rebuild tokenises only new abstracts.

Related papers (:mod:`generator.derive.related`) turn every abstract into a row of
weighted terms before scoring them; a row depends on its paper's text and tags alone
(and the tables shipped with the generator), and making them was most of the stage's
time (issue 31: 7.6 s of a one-abstract rebuild at 20,000 papers). The build keeps the
rows in ``.cache/related.json``: ``{"fingerprint": ..., "terms": [...], "rows": {key:
[numbers, weights]}, "lists": {id: [key, variants, related, score]}}``, the key a hash of the text and tags
(:func:`generator.derive.related.row_key`), the terms as ``"w word"``, ``"p word word"`` or
``"t tag"``, a row's terms as their numbers in that list (int32) in the row's order and
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
digest are listed). Written whole to a temporary file and renamed.
"""
from __future__ import annotations

import base64
import binascii
import logging
import re
from pathlib import Path

import numpy as np

from generator.core.statefile import read_state, write_state
from generator.derive.related import TERMS, K, Listed, Row, Rows, Term

log = logging.getLogger(__name__)

RELATED = "related.json"
_WORD = re.compile(r"[a-z][a-z0-9]+")


def related_path(cache: Path) -> Path:
    """Where the rows are kept: beside the derive cache ``cache``."""
    return cache.with_name(RELATED)


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
    """The input edge: the rows of ``path`` when written by this generator (``stamp``: its
    fingerprint) and every term and entry has the shape written (:func:`_term`, :func:`_row`);
    else none (said, unless there is no file), and every abstract is tokenised."""
    none = Rows([], {})
    doc = read_state(path, "tokenising every abstract for related papers")
    if doc is None:
        return none
    if not (isinstance(doc, dict) and doc.keys() == {"fingerprint", "terms", "rows", "lists"}
            and isinstance(doc["terms"], list) and isinstance(doc["rows"], dict) and isinstance(doc["lists"], dict)):
        log.info("%s is not one this generator writes: tokenising every abstract for related papers", path)
        return none
    if doc["fingerprint"] != stamp:
        return none  # another generator's rows: quietly made again, as every cache's are
    terms = [_term(t) for t in doc["terms"]]
    problem = ("a term the tokenizer does not make" if None in terms else
               "a term listed twice" if len(set(terms)) != len(terms) else "")
    rows = {}
    for key, value in doc["rows"].items():
        if problem:
            break
        row = _row(value, len(terms))
        if isinstance(row, str):
            problem = row
        rows[key] = row
    lists = {}
    for pid, value in doc["lists"].items():
        if problem:
            break
        listed = _listed(pid, value)
        if isinstance(listed, str):
            problem = listed
        lists[pid] = listed
    if problem:
        log.info("%s: %s, which this generator does not write: tokenising every abstract for related papers",
                 path, problem)
        return none
    return Rows(terms, rows, lists)  # type: ignore[arg-type]


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


def write_rows(path: Path, stamp: str, table: Rows) -> None:
    """The output edge: the rows, their terms only those they use, written to a temporary file
    beside ``path`` and renamed into place. Rows that cannot be written cost the next build
    time, not this one its result."""
    items = sorted(table.rows.items())
    used = np.unique(np.concatenate([t for _, (t, _) in items])) if items else np.empty(0, dtype=np.int32)
    number = np.zeros(len(table.terms), dtype="<i4")
    number[used] = np.arange(len(used))
    b64 = lambda a: base64.b64encode(a.tobytes()).decode("ascii")  # noqa: E731
    doc = {"fingerprint": stamp, "terms": [_text(table.terms[i]) for i in used.tolist()],
           "rows": {key: [b64(number[t]), b64(w.astype("<f4"))] for key, (t, w) in items},
           "lists": {pid: [key, list(banned), list(listed), kth] for pid, (key, banned, listed, kth) in sorted(table.lists.items())}}
    write_state(path, doc, "the next build tokenises every abstract for related papers again")
