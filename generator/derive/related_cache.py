"""Each paper's related-papers row from last time, so that a rebuild tokenises only new abstracts.

Related papers (:mod:`generator.derive.related`) turn every abstract into a row of
weighted terms before scoring them; a row depends on its paper's text and tags alone
(and the tables shipped with the generator), and making them was most of the stage's
time (issue 31: 7.6 s of a one-abstract rebuild at 20,000 papers). The build keeps the
rows in ``.cache/related.json``, ``{"fingerprint": ..., "rows": {key: [terms, weights]}}``:
the key a hash of the text and tags (:func:`generator.derive.related.row_key`), the terms
as ``"w word"``, ``"p word word"`` or ``"t tag"`` in the row's order, the weights the
single-precision values :func:`generator.derive.related.top_k` reads, little-endian, in
base64. A row is reused only while the fingerprint (every source and data file of the
generator, and the taxonomy) is the same, so a change of the rules or their tables starts
cold.

Nothing in the file is trusted (a deploy restores it): one that cannot be read, is not
JSON or holds an entry of another shape (a term that is not one the tokenizer makes, more
terms than a row keeps, a weight that is not in (0, 1]) is said and ignored, and every row
is made again; a row whose tags are not its paper's, or whose words are not in its
abstract, is made again (:func:`fits`). Written whole to a temporary file and renamed.
"""
from __future__ import annotations

import base64
import binascii
import contextlib
import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from generator.core.model import Paper
from generator.derive.related import TERMS, Row, Term

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


def _row(value: object) -> Row | str:
    """A cached entry as the build uses it, or what is wrong with it."""
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], list) and isinstance(value[1], str)):
        return "an entry that is not [terms, weights]"
    if len(value[0]) > TERMS:
        return f"more than {TERMS} terms in a row"
    terms = tuple(_term(t) for t in value[0])
    if None in terms or len(set(terms)) != len(terms):
        return "a term the tokenizer does not make"
    try:
        weights = np.frombuffer(base64.b64decode(value[1], validate=True), dtype="<f4").astype(np.float32)
    except (binascii.Error, ValueError):
        return "weights that are not base64 single-precision numbers"
    if len(weights) != len(terms) or not np.all((weights > 0) & (weights <= 1)):
        return "weights that are not one in (0, 1] a term"
    return terms, weights  # type: ignore[return-value]


def read_rows(path: Path, stamp: str) -> dict[str, Row]:
    """The input edge: the rows of ``path`` when written by this generator (``stamp``: its
    fingerprint) and every entry has the shape written (:func:`_row`); else none (said,
    unless there is no file), and every abstract is tokenised."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, ValueError) as e:
        log.info("cannot read %s (%s): tokenising every abstract for related papers", path, e)
        return {}
    if not (isinstance(doc, dict) and doc.keys() == {"fingerprint", "rows"} and isinstance(doc["rows"], dict)):
        log.info("%s is not one this generator writes: tokenising every abstract for related papers", path)
        return {}
    if doc["fingerprint"] != stamp:
        return {}  # another generator's rows: quietly made again, as every cache's are
    rows = {}
    for key, value in doc["rows"].items():
        row = _row(value)
        if isinstance(row, str):
            log.info("%s: %s, which this generator does not write: tokenising every abstract for related papers",
                     path, row)
            return {}
        rows[key] = row
    return rows


def fits(paper: Paper, row: Row) -> bool:
    """Whether ``row`` could be ``paper``'s: its tags are the paper's and its words are in the
    abstract (a word may be folded from a plural: all but its last letter)."""
    text = paper.text.lower()
    for kind, value in row[0]:
        if kind == 2:
            if value not in paper.tags:
                return False
        else:
            for word in ((value,) if kind == 0 else value):
                if word[:-1] not in text:  # type: ignore[index]
                    return False
    return True


def write_rows(path: Path, stamp: str, rows: Mapping[str, Row]) -> None:
    """The output edge: the rows, written to a temporary file beside ``path`` and renamed into
    place. Rows that cannot be written cost the next build time, not this one its result."""
    doc = {"fingerprint": stamp,
           "rows": {key: [[_text(t) for t in terms], base64.b64encode(weights.astype("<f4").tobytes()).decode("ascii")]
                    for key, (terms, weights) in sorted(rows.items())}}
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        log.warning("cannot write %s (%s): the next build tokenises every abstract for related papers again", path, e)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
