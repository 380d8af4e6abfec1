"""Clean: an abstract's text as safe HTML, plain text and links.

An abstract is split once into segments (:func:`segments`): text, math (``$...$``,
``$$...$$``, ``\\(...\\)``, ``\\[...\\]``), links (bare http(s) URLs, ``\\url{}``,
``\\href{}{}``, Markdown links), LaTeX text macros (``\\textbf{}`` and friends) and
Markdown ``**bold**`` and ``*italics*``.

:func:`to_html` then writes the segments as HTML, and it is the only place that
makes markup from a seed: every character of text is HTML-escaped, and the only
elements are the ones written here, from an allow-list (``strong``, ``em``,
``code``, ``a`` with a checked http(s) URL, and ``span`` around math). Nothing from a
seed is handed to Markdown, so no second parser can read it differently.

Every scan is linear in the length of the text and nothing recurses on the seed's
nesting: brace pairs and closer positions are found once, up front, and nested
macros are walked with an explicit stack. Nesting deeper than :data:`MAX_DEPTH`
is kept as text (its words are shown, its emphasis is not).
"""
from __future__ import annotations

import html
import ipaddress
import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote, urlsplit

from generator.core.model import ABSTRACTS_CACHED, Link
from generator.core.schema import load_link_rules
from generator.core.text import first_sentence as text_first_sentence

# -- segments -----------------------------------------------------------------


@dataclass(frozen=True)
class Seg:
    """A piece of an abstract: kind is text, math, link, strong, em or code.

    ``value`` is the text (of text, math and code segments, and a link's label);
    ``display`` marks display math (``$$``, ``\\[``).
    """

    kind: str
    value: str = ""
    url: str = ""
    children: tuple["Seg", ...] = ()
    display: bool = False


# Emphasis nested deeper than this shows its words without more emphasis.
MAX_DEPTH = 4

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
    # The lookahead lets the scanner skip ordinary characters without trying every branch;
    # possessive quantifiers keep a failed attempt from backtracking.
    r"(?=[$\\\[*hH])"
    r"(?:(?P<dmath>\$\$)"
    r"|(?P<math>\$)"
    r"|\\(?P<paren>\()"
    r"|\\(?P<bracket>\[)"
    r"|\\(?P<macro>[A-Za-z]++)\s*+(?=\{)"
    r"|\\(?P<escape>[%&_#${} ,\\])"
    r"|(?P<mdlink>\[(?P<label>[^\[\]\n]{1,300}+)\]\((?P<href>https?://[^\s()]++(?:\([^\s()]*+\)[^\s()]*+)*+)\))"
    r"|(?P<strong>\*\*(?=\S))"
    r"|(?<![\w*])(?P<em>\*(?=[^\s*]))"
    r"|(?P<url>https?://" + _URL_CHARS + r"++))",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?'\"*"
_EM_CLOSE = re.compile(r"(?<=[^\s*])\*(?![\w*])")
_MATH_CLOSERS = {"dmath": "$$", "math": "$", "paren": "\\)", "bracket": "\\]"}


def trim_url(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets a URL picked up (linear)."""
    opens = url.count("(")
    closes = url.count(")")
    end = len(url)
    while end:
        c = url[end - 1]
        if c in _TRAILING:
            end -= 1
        elif c == ")" and closes > opens:
            closes -= 1
            end -= 1
        else:
            break
    return url[:end]


_BRACE_OR_ESCAPE = re.compile(r"\\.|[{}]", re.DOTALL)


class _Index:
    """Where things are in one abstract, found in one pass each: brace pairs and closers.

    Every lookup afterwards is a dictionary access or a binary search, so the scanner
    never rescans the rest of the text from each opener (which made unclosed
    ``\\textbf{`` quadratic).
    """

    def __init__(self, text: str):
        self.text = text
        self.brace: dict[int, int] = {}  # index of "{" -> index of its "}"
        stack: list[int] = []
        for m in _BRACE_OR_ESCAPE.finditer(text):
            c = m.group()
            if c == "{":
                stack.append(m.start())
            elif c == "}" and stack:
                self.brace[stack.pop()] = m.start()
        self._found: dict[str, list[int]] = {}

    def _positions(self, what: str) -> list[int]:
        found = self._found.get(what)
        if found is None:
            text = self.text
            if what == "$":
                # an unescaped dollar: not after a backslash
                found = [i for i in _all(text, "$") if i == 0 or text[i - 1] != "\\"]
            elif what == "$$":
                found = [i for i in _all_overlapping(text, "$$") if i == 0 or text[i - 1] != "\\"]
            elif what == "em":
                found = [m.start() for m in _EM_CLOSE.finditer(text)]
            else:
                found = list(_all_overlapping(text, what))
            self._found[what] = found
        return found

    def next(self, what: str, start: int, limit: int) -> int:
        """The first position of ``what`` at or after ``start`` and before ``limit``, or -1."""
        found = self._positions(what)
        k = bisect_left(found, start)
        return found[k] if k < len(found) and found[k] < limit else -1


def _all(text: str, s: str):
    i = text.find(s)
    while i >= 0:
        yield i
        i = text.find(s, i + len(s))


def _all_overlapping(text: str, s: str):
    i = text.find(s)
    while i >= 0:
        yield i
        i = text.find(s, i + 1)


@dataclass
class _Frame:
    kind: str  # strong, em, code, or "text" (a macro whose braces are kept but not shown)
    end: int  # index where its content ends (its closer starts)
    skip: int  # length of the closer
    out: list
    styled: int = 0  # how many frames up to this one show as markup


@lru_cache(maxsize=ABSTRACTS_CACHED)  # links are extracted at parse, the HTML written at render
def segments(text: str) -> tuple[Seg, ...]:
    """Split an abstract into segments; text outside recognised syntax stays text."""
    index = _Index(text)
    root = _Frame("root", len(text), 0, [])
    stack = [root]
    buf: list[str] = []
    pos = 0

    def flush() -> None:
        if buf:
            joined = "".join(buf)
            buf.clear()
            if joined:
                stack[-1].out.append(Seg("text", joined))

    def open_frame(kind: str, end: int, skip: int) -> None:
        flush()
        styled = stack[-1].styled
        if styled >= MAX_DEPTH:
            kind = "text"  # too deep: keep the words, drop the emphasis
        # a "text" frame writes straight into its parent's segments
        out = stack[-1].out if kind == "text" else []
        stack.append(_Frame(kind, end, skip, out, styled + (kind != "text")))

    while True:
        frame = stack[-1]
        limit = frame.end
        m = _OPENER.search(text, pos, limit) if pos < limit else None
        if not m:
            buf.append(text[pos:limit])
            if frame is root:
                break
            flush()
            stack.pop()
            if frame.kind != "text":
                stack[-1].out.append(Seg(frame.kind, children=tuple(frame.out)))
            pos = limit + frame.skip
            continue
        buf.append(text[pos : m.start()])
        pos = m.end()
        kind = m.lastgroup
        if kind in _MATH_CLOSERS:
            closer = _MATH_CLOSERS[kind]
            end = index.next(closer, pos, limit)
            # a body holding an unescaped dollar is not math; asked of the index, not by
            # copying the body, which made far closers quadratic
            body = text[pos:end].strip() if end >= 0 and index.next("$", pos, end) < 0 else ""
            if body:
                flush()
                frame.out.append(Seg("math", body, display=kind in ("dmath", "bracket")))
                pos = end + len(closer)
            else:
                buf.append(m.group(0))
        elif kind == "macro":
            name = m["macro"]
            brace = m.end()
            end = index.brace.get(brace, -1)
            if end < 0 or end >= limit:
                buf.append(m.group(0))
                continue
            if name in ("url", "href"):
                url = canonical_url(trim_url(text[brace + 1 : end].strip()))
                label = url
                stop = end + 1
                if name == "href" and stop < limit and text[stop] == "{":
                    end2 = index.brace.get(stop, -1)
                    if 0 <= end2 < limit:
                        label = text[stop + 1 : end2]
                        stop = end2 + 1
                if valid_url(url):
                    flush()
                    frame.out.append(Seg("link", label, url=url))
                else:
                    buf.append(text[m.start() : stop])
                pos = stop
            elif name in _MACROS:
                open_frame(_MACROS[name], end, 1)
                pos = brace + 1
            else:
                buf.append(m.group(0))
        elif kind == "escape":
            buf.append(_ESCAPES[m["escape"]])
        elif kind == "mdlink":
            href = canonical_url(m["href"])
            if valid_url(href):
                flush()
                frame.out.append(Seg("link", m["label"], url=href))
            else:
                buf.append(m.group(0))
        elif kind == "strong":
            end = index.next("**", pos, limit)
            if end > pos and not text[end - 1].isspace():
                open_frame("strong", end, 2)
            else:
                buf.append(m.group(0))
        elif kind == "em":
            # *Patch-level Inference*: a closing star after a non-space, not inside a
            # word ("a*b*c" and "x * y" stay text)
            end = index.next("em", pos, limit)
            if end >= 0:
                open_frame("em", end, 1)
            else:
                buf.append(m.group(0))
        elif kind == "url":
            url = trim_url(m.group(0))
            if valid_url(url):
                flush()
                frame.out.append(Seg("link", url, url=url))
            else:
                buf.append(url)
            pos = m.start() + len(url)
    flush()
    return tuple(s for s in root.out if s.kind != "text" or s.value)


# -- links --------------------------------------------------------------------

# A host name: labels of letters, digits and hyphens (any script), separated by dots.
_HOST = re.compile(r"[^\W_][\w-]*+(?:\.[\w-]++)*+\.?")


def canonical_url(url: str) -> str:
    """The URL as a browser reads it: in an http(s) URL a backslash is a slash (WHATWG URL).

    urlsplit does not do this, so ``https://evil.example\\@github.com/x`` would be
    checked (and classed "code") as github.com while the browser opens evil.example;
    stored as the browser reads it, the link is checked and shown for what it is.
    """
    return url.replace("\\", "/")


def valid_url(url: str) -> bool:
    """Whether ``url`` is an http(s) URL with a host that parses (and a port, if any, that does),
    read the same way by urlsplit and by browsers (no backslash: see :func:`canonical_url`).

    ``urlsplit`` raises on a bracketed host that is not an IP address
    (``https://[evil.example]/``); such a URL is text, never a link.
    """
    if not re.match(r"https?://", url, re.IGNORECASE) or "\\" in url:
        return False  # see canonical_url
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018  (raises ValueError on a port that is not a number in range)
    except ValueError:
        return False
    if not host:
        return False
    if "[" in parts.netloc:
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return False
        return True
    return _HOST.fullmatch(host) is not None


def link_kind(url: str) -> str:
    """``code``, ``data``, ``paper`` or ``project`` for a URL, by its host and path."""
    if not valid_url(url):
        return "project"
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    for rule in load_link_rules():
        if (host == rule.host or host.endswith("." + rule.host)) and parts.path.startswith(rule.path):
            return rule.kind
    return "project"


def _walk(segs: tuple[Seg, ...]):
    """Every segment, depth first; the tree is at most :data:`MAX_DEPTH` + 2 deep."""
    todo = list(reversed(segs))
    while todo:
        s = todo.pop()
        yield s
        todo.extend(reversed(s.children))


def extract_links(text: str) -> tuple[Link, ...]:
    """Every http(s) link of an abstract, in order of appearance, each once."""
    seen: dict[str, Link] = {}
    for s in _walk(segments(text)):
        if s.kind == "link":
            seen.setdefault(s.url, Link(url=s.url, kind=link_kind(s.url)))
    return tuple(seen.values())


def safe_href(url: str) -> str:
    """A checked URL as the value of an ``href`` attribute (percent-encoded, then HTML-escaped)."""
    return html.escape(quote(url, safe="/:?#[]@!$&'*+,;=%-._~()"), quote=True)


# -- math -----------------------------------------------------------------------

# Math is drawn by KaTeX in the reader's browser. A formula that is very long, very
# deeply nested or that moves things far (\kern{-5000em}, or kerns that add up to that)
# can hang or crash the tab, so such a formula is shown as its TeX source instead, with a note.
MAX_MATH_CHARS = 500
MAX_MATH_DEPTH = 8
MAX_MATH_COMMANDS = 60
MAX_SHIFT_EM = 5.0
_MATH_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}]")
# Macro definitions can expand a short formula into tens of thousands of glyphs, or
# carry a distance the checks below cannot see (\def\u{em}\kern{-5000\u}); abstracts
# have no need for them.
_DEFINITIONS = frozenset(["\\def", "\\gdef", "\\edef", "\\xdef", "\\let", "\\futurelet", "\\global",
                          "\\newcommand", "\\renewcommand", "\\providecommand", "\\arraystretch"])
# Any number with a unit, wherever it stands: \kern, \raisebox, \rule, a row gap \\[-5000em] ...
# ("5000.em" is 5000 em to TeX).
_NUMBER_UNIT = re.compile(r"(-?)\s*([0-9]+\.?[0-9]*|\.[0-9]+)\s*(em|ex|mu|pt|bp|px|pc|dd|cc|mm|cm|in|sp|nd|nc)",
                          re.IGNORECASE)
# Boxes of no width or height whose content is drawn over the text beside them, however
# wide or tall it is (a white \colorbox in a \mathllap hides the words before the formula).
_OVERLAPS = frozenset(["\\llap", "\\rlap", "\\clap", "\\mathllap", "\\mathrlap", "\\mathclap", "\\smash"])
# Spaces that move what follows back without a unit to see (KaTeX: \! is -3 mu).
_NEGATIVE_SPACES = {"\\!": 1 / 6, "\\negthinspace": 1 / 6, "\\negmedspace": 2 / 9, "\\negthickspace": 5 / 18}
_EM_PER_UNIT = {"em": 1, "ex": 0.45, "mu": 1 / 18, "pt": 0.1, "bp": 0.1, "px": 0.1, "pc": 1.2, "dd": 0.107,
                "cc": 1.28, "mm": 0.285, "cm": 2.85, "in": 7.2, "sp": 0, "nd": 0.107, "nc": 1.28}


def math_problem(tex: str) -> str:
    """Why a formula is not drawn (a short reason for the reader), or "" if it is safe to draw."""
    if len(tex) > MAX_MATH_CHARS:
        return f"longer than {MAX_MATH_CHARS} characters"
    depth = deepest = commands = 0
    moved = 0.0
    for m in _MATH_TOKEN.finditer(tex):
        tok = m.group()
        moved += _NEGATIVE_SPACES.get(tok, 0.0)
        if tok == "{" or tok in ("\\left", "\\begin"):
            depth += 1
            deepest = max(deepest, depth)
        elif tok == "}" or tok in ("\\right", "\\end"):
            depth -= 1
        elif tok in _DEFINITIONS:
            return "it defines macros"
        elif tok in _OVERLAPS:
            return "it draws over the text beside it"
        if len(tok) > 1 and tok[1].isalpha():
            commands += 1
    if deepest > MAX_MATH_DEPTH:
        return f"nested more than {MAX_MATH_DEPTH} levels deep"
    if commands > MAX_MATH_COMMANDS:
        return f"more than {MAX_MATH_COMMANDS} commands"
    # added up: nested \raisebox{4.9em}s lift by their sum, kerns in a row move what follows by theirs
    moved += sum(float(num) * _EM_PER_UNIT[unit.lower()] for _, num, unit in _NUMBER_UNIT.findall(tex))
    if moved > MAX_SHIFT_EM:
        return "it moves or sizes something too far"
    return ""


# -- output -------------------------------------------------------------------

_WS = re.compile(r"\s+")


def esc(text: str) -> str:
    """Text as HTML text or attribute value: ``& < > " '`` as character references."""
    return html.escape(text, quote=True)


def _math_html(s: Seg) -> str:
    tex = _WS.sub(" ", s.value)
    problem = math_problem(tex)
    if problem:
        delim = "$$" if s.display else "$"
        note = f"Shown as TeX source, not drawn: {problem}."
        return f'<span class="digest-math-source" title="{esc(note)}">{esc(delim + tex + delim)}</span>'
    left, right = ("\\[", "\\]") if s.display else ("\\(", "\\)")
    return f'<span class="arithmatex">{left}{esc(tex)}{right}</span>'


# A label that is itself an address: an optional scheme, a host name with a top-level
# domain of letters, perhaps a port, a path, a query or a fragment.
_ADDRESS = re.compile(r"(?:https?://)?(?P<host>[^\s/?#@:\[\]]+\.[^\W\d_]{2,}\.?)(?::[0-9]*)?(?P<rest>[/?#]\S*)?",
                      re.IGNORECASE)


def _ascii_host(host: str) -> str:
    """A host name as the browser's address bar shows it: lower case, without "www." and a
    final dot, letters of other scripts in their ASCII (punycode) form."""
    host = host.lower().rstrip(".").removeprefix("www.")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host.encode("ascii", "backslashreplace").decode("ascii")


def _link_html(s: Seg) -> str:
    """A link as the reader sees it, never naming another address than the one it opens.

    A label that is an address of its own ("github.com/deepmind/x" on a link to
    evil.example) stays, as text, and the link after it shows its URL; a host written
    with letters of other scripts ("gіthub.com", a Cyrillic "і") is followed by its ASCII
    form, which the address bar shows only once the reader has left the page.
    """
    anchor = f'<a href="{safe_href(s.url)}" rel="nofollow ugc">'
    parts = urlsplit(s.url)
    host = parts.hostname or ""
    named = _ADDRESS.fullmatch(s.value.strip())
    if named:
        same = _ascii_host(named["host"]) == _ascii_host(host)
        if named["rest"] and same:  # a path too: it must be the link's
            label = (named["rest"] or "").rstrip("/")
            target = parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
            same = label == target.rstrip("/")
    suffix = "" if host.isascii() else f" ({esc(_ascii_host(host))})"
    if named and not same:  # the label as text, then the link showing its own address
        return f"{esc(s.value)} ({anchor}{esc(s.url)}</a>{suffix})"
    return f"{anchor}{esc(s.value)}</a>{suffix}"


def _html(segs: tuple[Seg, ...]) -> str:
    parts: list[str] = []
    for s in segs:
        if s.kind == "text":
            value = s.value
            if "\n" in value or "\r" in value or "\t" in value or "  " in value:
                value = _WS.sub(" ", value)  # parse folds whitespace; a raw HTML block must stay one line
            parts.append(esc(value))
        elif s.kind == "math":
            parts.append(_math_html(s))
        elif s.kind == "link":
            parts.append(_link_html(s))
        elif s.kind in ("strong", "em"):
            inner = _html(s.children)
            parts.append(f"<{s.kind}>{inner}</{s.kind}>" if inner.strip() else inner)
        elif s.kind == "code":
            raw = _WS.sub(" ", _plain(s.children))
            parts.append(f"<code>{esc(raw)}</code>" if raw.strip() else raw)
    return "".join(parts)


def to_html(text: str) -> str:
    """The abstract as inline HTML that can only be text, math, emphasis, code and checked links."""
    return _html(segments(text)).strip()


def to_plain(segs_or_text: tuple[Seg, ...] | str) -> str:
    """Readable plain text: macros and Markdown dropped, math as its source, links as their label."""
    segs = segments(segs_or_text) if isinstance(segs_or_text, str) else segs_or_text
    return _WS.sub(" ", _plain(segs)).strip()


def _plain(segs: tuple[Seg, ...]) -> str:
    return "".join(s.value if s.kind in ("text", "link", "math") else _plain(s.children) for s in segs)


def first_sentence(text: str, limit: int = 240) -> str:
    """The abstract's first sentence as raw text (split as title and tag split it), cut at a
    word boundary past ``limit``. Only the text's opening is read, so this is cheap on any input."""
    head = text_first_sentence(text[: limit * 4])
    if len(head) > limit:
        head = head[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " \u2026"
    return head
