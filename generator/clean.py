"""Stage 6, clean: an abstract's text as safe Markdown, plain text and links.

An abstract is split once into segments: text, math (``$...$``, ``$$...$$``,
``\\(...\\)``), links (bare http(s) URLs, ``\\url{}``, ``\\href{}{}``, Markdown
links), LaTeX text macros (``\\textbf{}`` and friends) and Markdown ``**bold**``.

:func:`to_markdown` then writes Markdown in which nothing from the seed can be
markup: every ASCII punctuation character of text becomes a numeric character
reference, so Python-Markdown and its extensions see no syntax at all (no HTML,
no emphasis, no block syntax, no ``--8<--`` includes, no template braces) while
the reader sees the very same characters. Only three things are produced as
syntax, by us: math for arithmatex, emphasis/code for the LaTeX text macros, and
links whose scheme is http or https.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote, urlsplit

import yaml

from .model import Link

# -- segments -----------------------------------------------------------------


@dataclass(frozen=True)
class Seg:
    """A piece of an abstract: kind is text, math, link, strong, em or code."""

    kind: str
    value: str = ""
    url: str = ""
    children: tuple["Seg", ...] = ()


_MACROS = {
    "textbf": "strong",
    "mathbf": "strong",
    "bf": "strong",
    "textit": "em",
    "emph": "em",
    "textsl": "em",
    "it": "em",
    "underline": "em",
    "texttt": "code",
    "textsc": "text",
    "textrm": "text",
    "textsf": "text",
    "text": "text",
    "mbox": "text",
}
_ESCAPES = {"%": "%", "&": "&", "_": "_", "#": "#", "$": "$", "{": "{", "}": "}", " ": " ", ",": "\u2009", "\\": "\\"}
_URL_CHARS = r"[^\s<>\"'`{}|\\^\[\]]"
_OPENER = re.compile(
    # The lookahead lets the scanner skip ordinary characters without trying every branch.
    r"(?=[$\\\[*hH])"
    r"(?:(?P<dmath>\$\$)"
    r"|(?P<math>\$)"
    r"|\\(?P<paren>\()"
    r"|\\(?P<bracket>\[)"
    r"|\\(?P<macro>[A-Za-z]+)\s*(?=\{)"
    r"|\\(?P<escape>[%&_#${} ,\\])"
    r"|(?P<mdlink>\[(?P<label>[^\[\]\n]{1,300})\]\((?P<href>https?://[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)\))"
    r"|(?P<strong>\*\*(?=\S))"
    r"|(?<![\w*])(?P<em>\*(?=[^\s*]))"
    r"|(?P<url>https?://" + _URL_CHARS + r"+))",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?'\"*"
_EM_CLOSE = re.compile(r"(?<=[^\s*])\*(?![\w*])")


def _match_brace(s: str, start: int) -> int:
    """Index just past the ``}`` closing the ``{`` at ``start``, or -1 if unbalanced."""
    depth = 0
    i = start
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def trim_url(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets a URL picked up."""
    while url:
        if url[-1] in _TRAILING:
            url = url[:-1]
        elif url[-1] == ")" and url.count(")") > url.count("("):
            url = url[:-1]
        else:
            break
    return url


@lru_cache(maxsize=1 << 15)  # links are extracted at parse, the Markdown written at render
def segments(text: str) -> tuple[Seg, ...]:
    """Split an abstract into segments; text outside recognised syntax stays text."""
    out: list[Seg] = []
    buf: list[str] = []
    pos = 0

    def flush() -> None:
        if buf:
            out.append(Seg("text", "".join(buf)))
            buf.clear()

    while pos < len(text):
        m = _OPENER.search(text, pos)
        if not m:
            buf.append(text[pos:])
            break
        buf.append(text[pos : m.start()])
        pos = m.end()
        kind = m.lastgroup
        if kind in ("dmath", "math", "paren", "bracket"):
            closer = {"dmath": "$$", "math": "$", "paren": "\\)", "bracket": "\\]"}[kind]
            end = _find_closer(text, pos, closer)
            body = text[pos:end].strip() if end >= 0 else ""
            if end >= 0 and body and "$" not in body.replace("\\$", ""):
                flush()
                out.append(Seg("math", body))
                pos = end + len(closer)
            else:
                buf.append(m.group(0))
        elif kind == "macro":
            name = m["macro"]
            brace = m.end()
            end = _match_brace(text, brace)
            if end < 0:
                buf.append(m.group(0))
                continue
            arg = text[brace + 1 : end - 1]
            if name in ("url", "href"):
                url = trim_url(arg.strip())
                if name == "href":
                    end2 = _match_brace(text, end) if end < len(text) and text[end] == "{" else -1
                    label = text[end + 1 : end2 - 1] if end2 > 0 else url
                    end = end2 if end2 > 0 else end
                else:
                    label = url
                if re.match(r"https?://", url, re.IGNORECASE):
                    flush()
                    out.append(Seg("link", label, url=url))
                    pos = end
                else:
                    buf.append(text[m.start() : end])
                    pos = end
            elif name in _MACROS:
                flush()
                role = _MACROS[name]
                inner = segments(arg)
                if role == "text":
                    out.extend(inner)
                else:
                    out.append(Seg(role, children=inner))
                pos = end
            else:
                buf.append(m.group(0))
        elif kind == "escape":
            buf.append(_ESCAPES[m["escape"]])
        elif kind == "mdlink":
            flush()
            out.append(Seg("link", m["label"], url=m["href"]))
        elif kind == "strong":
            end = text.find("**", pos)
            if end > pos and not text[end - 1].isspace():
                flush()
                out.append(Seg("strong", children=segments(text[pos:end])))
                pos = end + 2
            else:
                buf.append(m.group(0))
        elif kind == "em":
            # *Patch-level Inference*: a closing star after a non-space, not inside a
            # word ("a*b*c" and "x * y" stay text), and no other star in between
            end = _EM_CLOSE.search(text, pos)
            if end:
                flush()
                out.append(Seg("em", children=segments(text[pos : end.start()])))
                pos = end.end()
            else:
                buf.append(m.group(0))
        elif kind == "url":
            url = trim_url(m.group(0))
            flush()
            out.append(Seg("link", url, url=url))
            pos = m.start() + len(url)
    flush()
    return tuple(s for s in out if s.kind != "text" or s.value)


def _find_closer(text: str, pos: int, closer: str) -> int:
    """Index of the unescaped closer of math opened before ``pos``, or -1."""
    i = pos
    while True:
        i = text.find(closer, i)
        if i < 0:
            return -1
        if closer.startswith("\\") or text[i - 1] != "\\":
            return i
        i += 1


# -- links --------------------------------------------------------------------


@lru_cache(maxsize=1)
def _link_rules() -> list[dict]:
    with open(Path(__file__).with_name("link_kinds.yml"), encoding="utf-8") as f:
        return yaml.safe_load(f)["rules"]


def link_kind(url: str) -> str:
    """``code``, ``data``, ``paper`` or ``project`` for a URL, by its host and path."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    for rule in _link_rules():
        if host == rule["host"] or host.endswith("." + rule["host"]):
            if parts.path.startswith(rule.get("path", "")):
                return rule["kind"]
    return "project"


def _walk(segs: tuple[Seg, ...]):
    for s in segs:
        yield s
        yield from _walk(s.children)


def extract_links(text: str) -> tuple[Link, ...]:
    """Every http(s) link of an abstract, in order of appearance, each once."""
    seen: dict[str, Link] = {}
    for s in _walk(segments(text)):
        if s.kind == "link":
            seen.setdefault(s.url, Link(url=s.url, kind=link_kind(s.url)))
    return tuple(seen.values())


# -- output -------------------------------------------------------------------

# Every ASCII character that any Markdown syntax (or a pymdownx extension that
# might be enabled one day) starts with. Plain sentence punctuation stays as is
# so the generated Markdown remains readable; a period after a digit is escaped
# because "1. " opens an ordered list.
_SYNTAX = "!#$&()*+-:<>[\\]^_`{|}~"
_ENTITY = {c: f"&#{ord(c)};" for c in _SYNTAX + "."}
_TO_ESCAPE = re.compile("[" + re.escape(_SYNTAX) + r"]|(?<=\d)\.")
_WS = re.compile(r"\s+")


def _entity(m: re.Match) -> str:
    return _ENTITY[m.group()]


def escape_markdown(text: str) -> str:
    """Text that Markdown shows as itself: syntax characters as character references."""
    if "  " in text or "\n" in text or "\t" in text:
        text = _WS.sub(" ", text)
    return _TO_ESCAPE.sub(_entity, text)


def _safe_href(url: str) -> str:
    return quote(url, safe="/:?#[]@!$&*+,;=%-._~")


def _code(value: str) -> str:
    value = _WS.sub(" ", value).strip()
    if not value:
        return ""
    fence = "`"
    while fence in value:
        fence += "`"
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def _wrap(raw: str, inner: str) -> str:
    """``inner`` with the whitespace that ``raw`` had at either end kept outside it.

    Emphasis and code spans cannot start or end with a space, so ``a\\textbf{ b }c``
    becomes ``a **b** c``: the words stay apart, as the reader of the source sees them.
    """
    if not raw.strip():
        return " " if raw else ""
    lead = " " if raw[0].isspace() else ""
    trail = " " if raw[-1].isspace() else ""
    return f"{lead}{inner}{trail}"


def _md(segs: tuple[Seg, ...]) -> str:
    parts: list[str] = []
    for s in segs:
        if s.kind == "text":
            parts.append(escape_markdown(s.value))
        elif s.kind == "math":
            parts.append(f"${_WS.sub(' ', s.value)}$")
        elif s.kind == "link":
            parts.append(f"[{escape_markdown(s.value)}]({_safe_href(s.url)})")
        elif s.kind in ("strong", "em"):
            raw = _md(s.children)
            mark = "**" if s.kind == "strong" else "*"
            parts.append(_wrap(raw, f"{mark}{raw.strip()}{mark}"))
        elif s.kind == "code":
            raw = _plain(s.children)
            parts.append(_wrap(raw, _code(raw)))
    return "".join(parts)


def to_markdown(text: str) -> str:
    """The abstract as one line of Markdown that can only be text, math, emphasis, code and links."""
    return _md(segments(text)).strip()


def to_plain(segs_or_text: tuple[Seg, ...] | str) -> str:
    """Readable plain text: macros and Markdown dropped, math as its source, links as their label."""
    segs = segments(segs_or_text) if isinstance(segs_or_text, str) else segs_or_text
    return _WS.sub(" ", _plain(segs)).strip()


def _plain(segs: tuple[Seg, ...]) -> str:
    return "".join(s.value if s.kind in ("text", "link", "math") else _plain(s.children) for s in segs)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])")


def first_sentence(text: str, limit: int = 240) -> str:
    """The abstract's first sentence as raw text, cut at a word boundary past ``limit``."""
    head = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(head) > limit:
        head = head[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " \u2026"
    return head
