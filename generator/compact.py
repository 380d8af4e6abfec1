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


def compact_html(html: str) -> str:
    """``html`` with the white space after each line break, in laid-out text, taken out."""
    out, pos = [], 0
    while (m := _KEEP.search(html, pos)) is not None:
        out.append(_outside(html[pos : m.start()]))
        if m.group(1):
            close = re.compile(rf"</{m.group(1)}\s*>", re.I).search(html, m.end())
            end = close.end() if close else len(html)
        else:
            close_at = html.find("-->", m.end())
            end = close_at + 3 if close_at >= 0 else len(html)
        out.append(html[m.start() : end])  # an element never closed keeps the rest of the page as it is
        pos = end
    out.append(_outside(html[pos:]))
    return "".join(out)


def compact_site(site: Path, skip: Path | None = None) -> tuple[int, int, int]:
    """Compact every ``*.html`` file under ``site`` in place, but those under ``skip`` (pages
    written compact already): (files, bytes before, bytes after).
    Each file is written beside itself and renamed over the old one."""
    files = before = after = 0
    for path in sorted(site.rglob("*.html")):
        if skip is not None and path.is_relative_to(skip):
            continue
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
