"""Identify: a stable short id per paper from its normalized text.

The id depends on the abstract alone, so it does not change when seed files are
added, renamed or reordered; it names the paper's page (``papers/<id>/``).
"""
from __future__ import annotations

import hashlib
import unicodedata
from functools import lru_cache

from generator.core.model import ABSTRACTS_CACHED

ID_LENGTH = 12  # hex digits: 48 bits, no collision expected below millions of papers

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4\u0060", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
    }
)


@lru_cache(maxsize=ABSTRACTS_CACHED)  # identify and dedupe both need it, for every abstract
def normalize(text: str) -> str:
    """Unicode NFKC, case folded, quote and dash variants folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().translate(_FOLD).split())


@lru_cache(maxsize=ABSTRACTS_CACHED)  # parse, dedupe (the published texts) and identity ask for each
def paper_id(text: str) -> str:
    """The id of an abstract: a prefix of the SHA-256 of its normalized text."""
    return hashlib.sha256(normalize(text).encode("utf-8")).hexdigest()[:ID_LENGTH]
