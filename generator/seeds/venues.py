"""Venues: what counts as the same venue, and the one slug each venue's page gets.

A venue is the ``<Venue> <Year>`` of a seed header. Its page is
``venues/<slug>.md``, and two venues must never share a page (one venue's papers
would be on no venue page). Two rules make that so:

- **Variants are refused.** Headers that differ only in case, spacing or Unicode
  compatibility form (``ICML 2026`` and ``icml  2026``) name the same venue written
  two ways; the build stops with a message naming both headers, rather than
  guessing which spelling the site should show. So are headers that differ only by
  Cyrillic, Greek or Armenian letters drawn as Latin ones (``ІСМL`` beside ``ICML``):
  a second venue that looks like the first on every page (:func:`lookalike_key`).
- **Slugs are injective and stable.** A venue written in plain ASCII words
  (letters and digits separated by single spaces, as nearly every venue is) gets
  the plain slug: ``ICML 2026`` is ``icml-2026``. Plain names map to distinct slugs,
  since the slug only lowercases and joins the words with hyphens. Any other name
  loses something in a slug (``C++`` and ``C`` are both ``c``, emoji vanish), so its
  slug also carries the first six hex digits of the SHA-256 of its name:
  ``C++ 2026`` is ``c-2026-`` plus six digits. That suffix depends on the venue
  alone, so a URL never changes when another venue is added; and a plain slug
  ends in the four-digit year, so it never equals a suffixed one. Should two
  suffixes still collide, the build stops naming both headers.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from slugify import slugify

from generator.core.errors import GeneratorError, SeedError, raise_all
from generator.core.model import Paper, Source

_PLAIN = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")


def venue_key(venue: str, year: int) -> tuple[str, int]:
    """What identifies a venue: its name with case, spacing and compatibility forms folded."""
    return " ".join(unicodedata.normalize("NFKC", venue).casefold().split()), year


# Letters of other scripts drawn as Latin ones, after case folding (so by their capitals
# too: Cyrillic "м" is "М", drawn as "M"): Cyrillic, Greek and Armenian. Only for telling
# whether two venues look alike; no name is changed.
_LOOKALIKE = str.maketrans(dict(pair.split(":") for pair in (
    # Cyrillic
    "а:a в:b е:e ё:e і:i ї:i ј:j к:k м:m н:h о:o р:p с:c т:t у:y х:x ѕ:s һ:h ԁ:d ԛ:q ԝ:w ӏ:l ү:y "
    # Greek
    "α:a β:b ε:e η:h ι:i κ:k μ:m ν:n ο:o ρ:p τ:t υ:y χ:x ζ:z ϲ:c ϳ:j "
    # Armenian
    "օ:o ս:u ց:g հ:h ո:n"
).split()))

def lookalike_key(venue: str, year: int) -> tuple[str, int]:
    """:func:`venue_key` with letters of other scripts that look Latin read as those."""
    name, year = venue_key(venue, year)
    return name.translate(_LOOKALIKE), year


@lru_cache(maxsize=4096)
def venue_slug(venue: str, year: int) -> str:
    """The venue page's slug, ``venues/<slug>.md``: plain for plain names, suffixed otherwise."""
    slug = slugify(f"{venue} {year}")
    if _PLAIN.fullmatch(venue):
        return slug
    name, _ = venue_key(venue, year)
    digest = hashlib.sha256(f"{name} {year}".encode("utf-8")).hexdigest()[:6]
    return f"{slug}-{digest}"


def _header(source: Source) -> str:
    return f"{source.file}:1"


def check_venues(papers: Iterable[Paper]) -> None:
    """Refuse venues written two ways, and venues whose slugs collide, naming both headers.

    Raises :class:`SeedError` (or an ``ErrorList`` of them) at the header of the
    later file; the message names the header of the earlier one.
    """
    # Every source of a file holds its header's venue and year: the first of each file, venue
    # and year decides what the others would (sorting all 20,000 sources was most of this).
    firsts: dict[tuple[str, str, int], Source] = {}
    for p in papers:
        for s in p.sources:
            if (f := firsts.get(k := (s.file, s.venue, s.year))) is None or s.line < f.line:
                firsts[k] = s
    sources = sorted(firsts.values(), key=lambda s: (s.file, s.line))
    first_by_key: dict[tuple[str, int], Source] = {}
    first_by_slug: dict[str, Source] = {}
    first_by_look: dict[tuple[str, int], Source] = {}
    reported: set[str] = set()  # files whose header was already reported
    errors: list[GeneratorError] = []

    def refuse(s: Source, message: str) -> None:
        if s.file not in reported:  # a file's header is reported once, however many papers it holds
            reported.add(s.file)
            errors.append(SeedError(message, s.file, 1))

    for s in sources:
        name = f"{s.venue} {s.year}"
        first = first_by_key.setdefault(venue_key(s.venue, s.year), s)
        if (first.venue, first.year) != (s.venue, s.year):
            refuse(s, f"the venue {name!r} is {first.venue + ' ' + str(first.year)!r} of {_header(first)} "
                      "written differently (case or spacing): write both headers the same way")
            continue
        # "ІСМL" (Cyrillic І С М) is drawn as "ICML": a page, a filter and a map venue of its
        # own that look like the real one's, each with part of the conference
        alike = first_by_look.setdefault(lookalike_key(s.venue, s.year), s)
        if (alike.venue, alike.year) != (s.venue, s.year):
            refuse(s, f"the venue {name!r} looks like {alike.venue + ' ' + str(alike.year)!r} of {_header(alike)} "
                      "but is spelled with letters of another script that look the same: write it as that header does")
            continue
        if first is not s:
            continue
        slug = venue_slug(s.venue, s.year)
        other = first_by_slug.setdefault(slug, s)
        if other is not s:
            errors.append(SeedError(
                f"the venue {name!r} would share the page venues/{slug}.md with "
                f"{other.venue + ' ' + str(other.year)!r} of {_header(other)}: rename one of them", s.file, 1,
            ))
    raise_all(errors)
