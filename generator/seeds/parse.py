"""Parse: seed file bytes in, one :class:`Paper` per abstract out.

The seed format (README, "Seed files"): UTF-8 (a BOM is fine), LF or CRLF line
ends; a header line ``<Venue> <Year> Papers``; then abstracts separated by blank
lines, each paragraph one abstract however it is wrapped.

Parsing is pure: :func:`parse_seed` takes the file's bytes and the path to name
in messages. It collects every problem of the file before raising.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import replace

from generator.core.chars import HEADER_INVISIBLE, INVISIBLE
from generator.core.errors import GeneratorError, SeedError, raise_all
from generator.core.markup import extract_links
from generator.core.memo import PerBuild
from generator.core.model import Link, Paper, Source
from generator.seeds.identify import paper_id

HEADER = re.compile(r"^(?P<venue>[^\s\d][^\t]*?|\d\w*)\s+(?P<year>\d{4})\s+Papers\s*$")
MIN_WORDS = 20
# The longest of 548 real abstracts in the shared corpora is 2,009 characters (arXiv allows
# 1,920). Chromium lays out a long paragraph of Thai or Khmer, or of Arabic and Latin mixed,
# in more than linear time (80,000 characters of Khmer: 3.7 s; 500,000: 156 s).
MAX_CHARS = 10_000
MAX_HEADER_CHARS = 80



# Unicode category Cc: C0 controls, DEL and C1 controls. Tab is allowed.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _control_chars(line: str) -> list[tuple[int, str]]:
    """(column, character) of control characters (other than tab): no place in a text file.

    Text copied from PDFs often carries them invisibly (U+0002 for a soft hyphen);
    they would corrupt search and titles, so the contributor is asked to remove them.
    """
    return [(m.start() + 1, m.group()) for m in _CONTROL.finditer(line)]


# Combining marks (Unicode category M) on one character. Writing stacks a few (Vietnamese
# two, Devanagari and Hebrew with cantillation three or four); Chromium shapes a character
# with its marks in time quadratic in their number: "a" and 50,000 U+0301 took 4.9 s to
# show, 200,000 took 108 s.
MAX_MARKS = 16


def _mark_piles(line: str) -> list[tuple[int, int]]:
    """(column, length) of every run of more than MAX_MARKS combining marks, format
    characters between them not counted (zero-width joiners are removed from the text,
    which would join the runs). Linear; an ASCII line (most of them) is not scanned."""
    if line.isascii():
        return []
    out: list[tuple[int, int]] = []
    start = run = 0
    for col, c in enumerate(line, start=1):
        kind = unicodedata.category(c) if c >= "\u0300" else ""
        if kind[:1] == "M":
            if not run:
                start = col
            run += 1
        elif kind != "Cf":  # format characters (zero-width joiners, ...) do not end a pile
            if run > MAX_MARKS:
                out.append((start, run))
            run = 0
    if run > MAX_MARKS:
        out.append((start, run))
    return out


_UTF16_32_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


def _line_at(data: bytes, offset: int) -> int:
    """The line number of byte ``offset``, counting LF, CRLF and a lone CR as line ends (as parsing does)."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode(data: bytes, path: str) -> str:
    """Bytes to text, naming the line of the first byte that is not UTF-8."""
    for bom, encoding in _UTF16_32_BOMS.items():
        # Windows editors save "Unicode" as UTF-16; its NUL bytes would otherwise read as "binary".
        if data.startswith(bom):
            raise SeedError(f"the file is saved as {encoding}; save it as UTF-8", path, 1)
    if b"\x00" in data:
        line = _line_at(data, data.index(b"\x00"))
        raise SeedError("this is a binary file (it contains NUL bytes), not a text seed", path, line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SeedError(
            f"byte 0x{data[e.start]:02x} is not UTF-8; save the file as UTF-8", path, _line_at(data, e.start)
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        # A file of only a BOM or blank lines is as empty as a file of zero bytes.
        raise SeedError("the file is empty; a seed starts with a header line such as 'ICML 2026 Papers'", path, 1)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_header(line: str, path: str) -> tuple[str, int]:
    """``'ICML 2026 Papers'`` -> ``('ICML', 2026)``.

    The length is checked first: HEADER's lazy venue retries the white space after each
    place it may end, quadratic in a long line (a first line of 200,000 spaces took
    minutes to refuse)."""
    m = HEADER.match(line.strip()) if len(line) <= MAX_HEADER_CHARS else None
    if not m:
        shown = line if len(line) <= 60 else line[:57] + "..."
        raise SeedError(
            f"the first line must be '<Venue> <Year> Papers', e.g. 'ICML 2026 Papers'; found {shown!r}",
            path,
            1,
        )
    year = int(m["year"])
    if not 1900 <= year <= 2100:
        raise SeedError(f"the header's year {year} is not a plausible publication year", path, 1)
    return m["venue"].strip(), year


def blank(line: str) -> bool:
    """Whether a line shows nothing: white space and invisible format characters only.

    A line of a zero-width space, a BOM or bidi controls looks blank in an editor and in
    the pull request's diff, so it separates abstracts as a blank line does; read as text,
    it joined the abstracts on either side into one paper (its marks are removed).
    A visible character ends the check, so an ordinary line costs one lookup.
    """
    return all(c.isspace() or unicodedata.category(c) == "Cf" for c in line)


def paragraphs(lines: list[str], first_line: int = 1) -> list[tuple[int, list[str]]]:
    """Group lines into paragraphs separated by blank lines (:func:`blank`): (line number, lines)."""
    out: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=first_line):
        if not blank(line):
            if not current:
                start = number
            current.append(line)
        elif current:
            out.append((start, current))
            current = []
    if current:
        out.append((start, current))
    return out


# str.translate looks every character up in its table, 40% of parsing a seed file; the
# characters are rare, and a regular expression skips text without them at C speed
_INVISIBLE = re.compile("[" + "".join(map(chr, INVISIBLE)) + "]")


def joined_paragraph(para: list[str]) -> str:
    """A paragraph's lines as one abstract: whitespace collapsed, invisible characters gone."""
    # every line of a paragraph holds a word (:func:`blank`), so splitting the lines joined
    # gives the words of each line in turn
    return _INVISIBLE.sub("", " ".join(" ".join(para).split())).strip()


def abstract_texts(data: bytes, path: str) -> list[str]:
    """The abstract texts of a seed, in order, exactly as :func:`parse_seed` makes them,
    without its checks: for work that may start before the file is validated."""
    lines = decode(data, path).split("\n")
    return [joined_paragraph(para) for _, para in paragraphs(lines[1:], first_line=2)]


def parse_seed(data: bytes, path: str) -> list[Paper]:
    """All abstracts of one seed file, as papers with one source each.

    Raises :class:`SeedError` (or an :class:`ErrorList` of them) naming ``path``
    and the line of every problem found.
    """
    text = decode(data, path)
    lines = text.split("\n")
    errors: list[GeneratorError] = []
    for number, line in enumerate(lines, start=1):
        bad = _control_chars(line)
        if bad:
            where = ", ".join(f"U+{ord(c):04X} at column {col}" for col, c in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            errors.append(
                SeedError(f"invisible control character {where}{more}: remove it (it is not text)", path, number)
            )
        piles = _mark_piles(line)
        if piles:
            where = ", ".join(f"{n} combining marks in a row at column {col}" for col, n in piles[:5])
            more = f" and {len(piles) - 5} more such runs" if len(piles) > 5 else ""
            errors.append(SeedError(
                f"{where}{more}: no writing needs more than {MAX_MARKS} on one character, and a pile of them "
                "hangs the reader's browser: remove them", path, number))
    # Control characters are reported with every other problem of the file, not alone:
    # a contributor should be able to fix a file in one round.

    try:
        # Invisible marks go from the header as from abstracts: a bidi override in the
        # venue would reorder it on every page that shows it, and no editor shows it; so
        # do characters drawn as nothing (a Hangul filler made a lookalike second venue).
        venue, year = parse_header(lines[0].translate(HEADER_INVISIBLE), path)
    except SeedError as e:
        errors.append(e)
        venue, year = "", 0
    papers: list[Paper] = []
    for start, para in paragraphs(lines[1:], first_line=2):
        abstract = joined_paragraph(para)
        words = len(abstract.split())
        if words < MIN_WORDS:
            shown = abstract if len(abstract) <= 50 else abstract[:47] + "..."
            errors.append(
                SeedError(
                    f"this paragraph has {words} word(s), too short to be an abstract "
                    f"(at least {MIN_WORDS}): {shown!r}",
                    path,
                    start,
                )
            )
            continue
        if len(abstract) > MAX_CHARS:
            errors.append(SeedError(
                f"this paragraph is {len(abstract):,} characters long, too long to be an abstract "
                f"(at most {MAX_CHARS:,}): is a blank line missing between two abstracts?", path, start))
            continue
        papers.append(_paper(abstract, path, start, venue, year))
    if not papers and not errors:
        errors.append(SeedError("the header is followed by no abstracts", path, 1))
    raise_all(errors)
    return papers


def parse_all(seeds: Sequence[tuple[str, bytes]],
              checked: Mapping[tuple[str, bytes], Sequence[tuple[Link, ...]]] | None = None,
              ids: Mapping[tuple[str, bytes], Sequence[str]] | None = None) -> list[Paper]:
    """Parse every seed (links extracted), collecting the problems of all files before raising.

    ``checked`` holds files parsed before without a problem, by (path, bytes) (as
    :mod:`generator.seeds.parsed` reads them): each abstract's links, in order. Those files
    are not checked again nor their links looked for; their papers are otherwise made as
    :func:`parse_seed` makes them (:func:`_parse_checked`), from the bytes. ``ids`` holds, for
    some of those files, each abstract's id as made before from the same bytes (``Checked.ids``).

    Serial on purpose: parsing fills the caches (normalized text, segments) that
    dedupe and render reuse, and a worker's caches would be lost with it.
    """
    papers: list[Paper] = []
    errors: list[GeneratorError] = []
    for path, data in seeds:
        links = checked.get((path, data)) if checked else None
        if links is not None and (made := _parse_checked(data, path, links, ids.get((path, data)) if ids else None)) is not None:
            papers += made
            continue
        try:
            papers += [replace(p, links=extract_links(p.text)) for p in parse_seed(data, path)]
        except GeneratorError as e:
            errors += getattr(e, "errors", [e])
    raise_all(errors)
    return papers


def _parse_checked(data: bytes, path: str, links: Sequence[tuple[Link, ...]],
                   ids: Sequence[str] | None = None) -> list[Paper] | None:
    """The papers of a seed file that :func:`parse_seed` took without a problem before, with
    the links found in them then (and their ids, when given: made then from the same bytes);
    None if the links are not one list per abstract."""
    made = _parse_checked_anew(data, path, tuple(links), None if ids is None else tuple(ids))
    return None if made is None else list(made)


# A long-lived builder (``make serve``) parses every seed file at every save, and all files but
# the one saved are as they were: the papers made of each file's bytes are kept from one build
# to the next (:mod:`generator.core.memo`; a one-shot build keeps nothing).
@PerBuild
def _parse_checked_anew(data: bytes, path: str, links: tuple[tuple[Link, ...], ...],
                        ids: tuple[str, ...] | None = None) -> list[Paper] | None:
    lines = decode(data, path).split("\n")
    venue, year = parse_header(lines[0].translate(HEADER_INVISIBLE), path)
    found = paragraphs(lines[1:], first_line=2)
    if len(found) != len(links):
        return None
    if ids is not None and len(ids) != len(links):
        ids = None
    out = []
    for k, ((start, para), its_links) in enumerate(zip(found, links)):
        abstract = joined_paragraph(para)
        if not all(link.url in abstract for link in its_links):
            return None  # links that are not the abstract's: found again
        out.append(_paper(abstract, path, start, venue, year, its_links, None if ids is None else ids[k]))
    return out


def _paper(abstract: str, path: str, line: int, venue: str, year: int, links: tuple[Link, ...] = (),
           pid: str | None = None) -> Paper:
    """The paper of one abstract of a seed file, as both kinds of parse make it (``pid``: its
    id as made from these bytes before)."""
    return Paper(id=pid or paper_id(abstract), text=abstract, venue=venue, year=year,
                 sources=(Source(file=path, line=line, venue=venue, year=year),), links=links)
