"""After ``mkdocs build``: the built pages without the indentation of their templates.

Material's templates are indented for people reading them, and every page carries
that indentation: about a tenth of a paper page, which is written 50,000 times. In
text that the browser lays out normally, a run of white space is one space however
long it is, so the white space after a line break can go. Nothing else changes:
everything inside ``pre``, ``textarea``, ``script``, ``style``, ``code`` and ``kbd``
(Material shows code with ``white-space: pre-wrap``) and inside comments is copied as
it is, and so are attribute values that span lines.

    python -m generator compact [site]
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

_KEEP = re.compile(r"<(pre|textarea|script|style|code|kbd)\b|<!--", re.I)  # where kept content starts
_BREAK = re.compile(r"\n[ \t\r\n\f]+")  # starts with its line break: a scan of 60 MB takes 0.04 s
# An attribute value that spans lines (none of the site's do): then only text between tags is compacted.
_QUOTED_BREAK = re.compile(r"""=\s*(?:"[^"<>]*\n|'[^'<>]*\n)""")
_TAG = re.compile(r"""(</?[A-Za-z!?](?:[^"'>]|"[^"]*"|'[^']*')*>)""")


def _outside(text: str) -> str:
    """Compact a stretch that holds no kept element."""
    if _QUOTED_BREAK.search(text):
        return "".join(part if i % 2 else _BREAK.sub("\n", part) for i, part in enumerate(_TAG.split(text)))
    return _BREAK.sub("\n", text)


def kept(html: str) -> list[tuple[int, int, bool]]:
    """Where ``html``'s kept content is: (start, end, closed) of each ``pre``, ``textarea``,
    ``script``, ``style``, ``code`` and ``kbd`` element and each comment, in order. An
    element never closed runs to the end (closed False)."""
    spans, pos = [], 0
    while (m := _KEEP.search(html, pos)) is not None:
        if m.group(1):
            close = re.compile(rf"</{m.group(1)}\s*>", re.I).search(html, m.end())
            end = close.end() if close else len(html)
        else:
            close_at = html.find("-->", m.end())
            close, end = close_at >= 0, close_at + 3 if close_at >= 0 else len(html)
        spans.append((m.start(), end, bool(close)))
        pos = end
    return spans


def compact_html(html: str) -> str:
    """``html`` with the white space after each line break, in laid-out text, taken out."""
    out, pos = [], 0
    for start, end, _ in kept(html):
        out.append(_outside(html[pos:start]))
        out.append(html[start:end])  # an element never closed keeps the rest of the page as it is
        pos = end
    out.append(_outside(html[pos:]))
    return "".join(out)


def inert(text: str) -> bool:
    """Whether :func:`compact_html` leaves ``text`` as it is, and the text around it too,
    wherever it is put into laid-out text outside a tag's multi-line attribute: no line
    break followed by white space, none at its ends, no attribute value left open across a
    line break, and every kept element it opens closed within it. Then compacting a page
    is compacting the page around it, with it put in afterwards (:mod:`generator.site.stamp`)."""
    return (text != "" and not text[:1].isspace() and not text.endswith("\n") and _BREAK.search(text) is None
            # a line break inside an attribute value the text continues, or one it leaves open
            and _QUOTED_BREAK.search('="' + text) is None and _QUOTED_BREAK.search(text + "\n") is None
            and all(closed for _, _, closed in kept(text)))


def splits_cleanly(html: str, marks: list[tuple[int, int]]) -> bool:
    """Whether the stretches ``marks`` (start, end) of ``html`` lie outside its kept content and
    outside any stretch compacted tag by tag (one with an attribute value that spans lines):
    then :func:`compact_html` of ``html`` with inert text in their place is its compaction
    with that text put in."""
    spans = kept(html)
    bounds = [0] + [x for start, end, _ in spans for x in (start, end)] + [len(html)]
    outside = list(zip(bounds[0::2], bounds[1::2]))  # the stretches between kept content
    for a, b in marks:
        if any(start < b and a < end for start, end, _ in spans):
            return False
        stretch = next(((s, e) for s, e in outside if s <= a and b <= e), None)
        if stretch is None or _QUOTED_BREAK.search(html[stretch[0] : stretch[1]]):
            return False
    return True


def compact_site(site: Path, pages: Iterable[Path] | None = None) -> tuple[int, int, int]:
    """Compact every ``*.html`` file under ``site`` in place, or only ``pages``: (files,
    bytes before, bytes after). Each file is written beside itself and renamed over the old one."""
    files = before = after = 0
    for path in sorted(site.rglob("*.html") if pages is None else pages):
        old = path.read_text(encoding="utf-8")
        new = compact_html(old)
        files += 1
        before += len(old.encode("utf-8"))
        after += len(new.encode("utf-8"))
        if new != old:
            tmp = path.with_name(path.name + ".compact")
            tmp.write_text(new, encoding="utf-8")
            os.replace(tmp, path)
    return files, before, after
