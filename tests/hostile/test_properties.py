"""Properties of parse and clean over arbitrary input (hypothesis, no mkdocs build).

A paper page's body is the raw HTML block that render writes (``<p>`` + ``to_html``);
it is passed through Python-Markdown configured as ``mkdocs build`` does for this
site, then read back with html5lib, which parses HTML by the WHATWG algorithm that
browsers follow, so what these tests see is what a browser builds.

Three kinds of property:

* **allow-list** (no oracle): the rendered abstract holds only ``p``, ``strong``,
  ``em``, ``code``, ``a`` (``href`` an http(s) URL with a host, ``rel``) and ``span``
  (math: ``class`` arithmatex, or TeX source with a ``title`` note), and no comment;
* **nothing lost** (no oracle): every word of the input, outside URLs and macro names,
  is shown, in order;
* **shown as read**: the text equals the abstract as the scanner read it (math counts
  as one mark, a link shows its label, ``\\textbf{x}`` shows ``x``).
"""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import markdown
import pytest
import yaml
from attack import BRACKETS, ENTITIES, HTML, PIECES, attack_text
from hostile_html import MATH_MARK, REPO, squash, text_of
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from generator.core.errors import ErrorList, GeneratorError
from generator.core.markup import Seg, _plain, math_problem, segments, to_html
from generator.seeds.parse import parse_seed

# HOSTILE_MAX_EXAMPLES=5000 for a longer hunt; 300 keeps the suite fast.
SETTINGS = settings(max_examples=int(os.environ.get("HOSTILE_MAX_EXAMPLES", "300")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of syntax, markup and attack strings that random text rarely hits by chance.
FRAGMENTS = sorted(set(PIECES) | {
    "<", ">", "</", "<!--", "-->", "<script>", "</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
    "<style>", "<iframe src=javascript:alert(1)>", "&", "&lt;", "&#x3C;", "&#60;", "&amp;", ";", '"', "'", "`", "```",
    "~~~", "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\", "\\\\", "\\%", "\\$", "\\{", "\\,", "{", "}", "{{", "}}", "{%",
    "%}", "[", "]", "](", "(", ")", "![", "[x]: ", "http://", "https://", "https://example.org/a_b", "javascript:",
    "data:text/html,", "vbscript:", "JaVaScRiPt:", "\\href{", "\\url{", "\\textbf{", "\\emph{", "\\texttt{", "\\text{",
    "**", "*", "_", "__", "#", "# ", "## ", "- ", "+ ", "1. ", "1) ", "> ", "| ", "|---|", "!!! note ", "??? ", "=== ",
    "--8<-- ", "---", "===", "    ", "\t", " ", "  ", "\n", "\u00a0", "\u2028", "\u202e", "\u200b", "\ufeff", ":", "^",
    "~", "=", "==", "+", "-", ".", "1", "2.", "word", "Word", "x", "é", "中", "😀", "\u0301",
})
fragmentary = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join)
anything = st.one_of(st.text(max_size=300), fragmentary, attack_text)
# What can reach an abstract: parse rejects control characters (category Cc) and
# surrogates cannot be encoded as UTF-8.
no_controls = st.characters(blacklist_categories=("Cc", "Cs"))
abstract_text = st.one_of(
    st.text(no_controls, max_size=300),
    fragmentary.map(lambda s: "".join(c for c in s if c in "\t\n" or not _is_control(c))),
    attack_text,
)


def _is_control(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cs")


def _mkdocs_markdown() -> markdown.Markdown:
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    extensions: list[str] = ["toc", "tables", "fenced_code"]  # MkDocs always adds these
    configs: dict[str, dict] = {}
    for item in config.get("markdown_extensions") or []:
        if isinstance(item, dict):
            [(name, options)] = item.items()
            extensions.append(name)
            configs[name] = {k: v == "true" if v in ("true", "false") else v for k, v in (options or {}).items()}
        else:
            extensions.append(item)
    return markdown.Markdown(extensions=extensions, extension_configs=configs)


MD = _mkdocs_markdown()


def render(text: str) -> str:
    """The abstract as the built page holds it: render's raw HTML block through MkDocs' Markdown."""
    return MD.reset().convert(f"<p>{to_html(text)}</p>\n")


def parsed(text: str):
    """The rendered abstract as a browser's parser builds it: the <div> around it, as an element tree."""
    doc = html5lib.parse(f'<!DOCTYPE html><html><body><div id="a">{render(text)}</div><footer>end</footer></body></html>',
                         namespaceHTMLElements=False)
    [div] = doc.iter("div")
    assert [e.tag for e in doc.find("body")] == ["div", "footer"], "the abstract reached past its <div>"
    return div


ALLOWED = {"p": set(), "strong": set(), "em": set(), "code": set(), "a": {"href", "rel"}, "span": {"class", "title"}}


# What the reader is told of a link, as the README says it (written here, not imported):
# a label that is an address other than the link's stays, followed by the link's URL; a
# host with letters of other scripts is followed by the form the address bar shows.
_LABEL_ADDRESS = re.compile(r"(?:https?://)?([^\s/?#@:\[\]]+\.[^\W\d_]{2,}\.?)(?::[0-9]*)?([/?#]\S*)?", re.IGNORECASE)


def _bar_host(host: str) -> str:
    host = host.lower().rstrip(".").removeprefix("www.")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host.encode("ascii", "backslashreplace").decode("ascii")


def _link_shown(label: str, url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    suffix = "" if host.isascii() else f" ({_bar_host(host)})"
    named = _LABEL_ADDRESS.fullmatch(label.strip())
    if named:
        other = _bar_host(named[1]) != _bar_host(host)
        if named[2] and not other:
            target = parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
            other = named[2].rstrip("/") != target.rstrip("/")
        if other:
            return f"{label} ({url}{suffix})"
    return label + suffix


def _visible(segs: tuple[Seg, ...]) -> str:
    out = []
    for s in segs:
        if s.kind == "text":
            out.append(s.value)
        elif s.kind == "link":
            out.append(_link_shown(s.value, s.url))
        elif s.kind == "math":
            problem = math_problem(" ".join(s.value.split()))
            delim = "$$" if s.display else "$"
            out.append(f"{delim}{s.value}{delim}" if problem else MATH_MARK)
        elif s.kind == "code":
            out.append(_plain(s.children))  # code shows its text as written, spaces included
        else:
            out.append(_visible(s.children))
    return "".join(out)


def expected(text: str) -> str:
    return squash(_visible(segments(text)))


# -- parse ---------------------------------------------------------------------------


def _check_seed(data: bytes) -> None:
    try:
        papers = parse_seed(data, "seeds/x.txt")
    except GeneratorError as e:
        for err in getattr(e, "errors", [e]):
            assert not isinstance(err, ErrorList)
            assert err.path == "seeds/x.txt" and isinstance(err.line, int) and err.line >= 1, repr(err)
            assert str(err).startswith(f"seeds/x.txt:{err.line}: ")
        return
    for p in papers:
        assert p.text == p.text.strip() and "\n" not in p.text
        assert len(p.text.split()) >= 20


@SETTINGS
@given(st.binary(max_size=400))
def test_parse_seed_any_bytes(data):
    _check_seed(data)


@SETTINGS
@given(st.lists(anything, min_size=1, max_size=4), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_parse_seed_any_paragraphs(paragraphs, newline, bom):
    filler = " ".join(["word"] * 20)
    body = "\n\n".join(f"{filler} {p}" for p in paragraphs).replace("\n", newline)
    data = ("\ufeff" if bom else "") + "ICML 2026 Papers" + newline * 2 + body
    _check_seed(data.encode("utf-8", "surrogatepass"))


# -- clean ---------------------------------------------------------------------------


@SETTINGS
@given(anything)
def test_to_html_never_raises_and_is_one_line(text):
    assert "\n" not in to_html(text)


@SETTINGS
@given(abstract_text)
def test_only_allowed_elements_and_attributes(text):
    """No oracle: whatever the text, a browser's parser finds only our elements in the abstract."""
    div = parsed(text)
    for el in div.iter():
        if el is div:
            continue
        assert isinstance(el.tag, str), f"a comment or other node in {render(text)!r}"
        assert el.tag in ALLOWED, (el.tag, render(text))
        attrs = dict(el.attrib)
        assert set(attrs) <= ALLOWED[el.tag], (el.tag, attrs, render(text))
        if el.tag == "a":
            parts = urlsplit(attrs["href"])
            assert parts.scheme in ("http", "https") and parts.hostname, attrs
            assert attrs["rel"] == "nofollow ugc"
        if el.tag == "span":
            assert attrs.get("class") in ("arithmatex", "digest-math-source"), attrs
            assert ("title" in attrs) == (attrs["class"] == "digest-math-source"), attrs


_MACRO_NAME = re.compile(r"\\[A-Za-z]+")
_URL_RUN = re.compile(r"https?://\S*", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(_URL_RUN.sub(" ", _MACRO_NAME.sub(" ", text)))


@SETTINGS
@given(abstract_text)
@example("See HTTP://\u00b9 and https://\u00e9t\u00e9.example/x for the code of our method, twenty words long at the least here.")
def test_no_word_is_lost(text):
    """No oracle: every letter and digit of the abstract outside URLs and macro names is on
    the page, in order. Compared as one run of characters, not word by word: a macro glued
    to a word joins it as LaTeX does (``0\\texttt{0}`` shows as ``00``)."""
    # Where a URL-looking run holds math, code or emphasis delimiters, which of its
    # characters belong to the URL is the scanner's call (``HTTP://'$0 $0`` is no link and
    # holds math): this oracle cannot tell without asking the code it checks.
    assume(not any(set(run) & set("$`*_\\") for run in _URL_RUN.findall(text)))
    div = parsed(text)
    # The address-bar form the page writes after a link whose host has letters of other
    # scripts (" (xn--...)", or "1" for "¹") is the page's, not the abstract's.
    for a in div.iter("a"):
        host = urlsplit(unquote(a.get("href", ""))).hostname or ""
        suffix = f" ({_bar_host(host)})"
        if not host.isascii() and (a.tail or "").startswith(suffix):
            a.tail = a.tail[len(suffix):]
    # The delimiters the page writes around a formula are the page's, not the abstract's: as
    # spaces, so that a URL-looking formula ends with its formula ("$https://a.example/\t$$y$$"
    # shows as two formulas side by side, and the second is no part of the first's URL).
    shown = re.sub(r"\\[()\[\]]", " ", "".join(div.itertext()))
    assert "".join(_words(shown)) == "".join(_words(" ".join(text.split()))), render(text)


@SETTINGS
@given(abstract_text)
def test_rendered_text_is_the_abstract(text):
    html = render(text)
    shown = text_of(f'<div class="digest-abstract">{html}</div>', "digest-abstract")
    assert squash(shown.text) == expected(text)


_SYNTAX_OPENERS = re.compile(r"[$\\*\[]|https?://", re.IGNORECASE)


@SETTINGS
@given(abstract_text)
def test_plain_text_is_shown_exactly(text):
    """No oracle: text without the characters that open supported syntax is shown as written."""
    if _SYNTAX_OPENERS.search(text):
        text = _SYNTAX_OPENERS.sub(" ", text)
    html = render(text)
    shown = text_of(f'<div class="digest-abstract">{html}</div>', "digest-abstract")
    assert squash(shown.text) == squash(text)
    assert not shown.tags or {el.tag for el in shown.tags} == {"p"}


@pytest.mark.parametrize(
    "text, shown",
    [
        ("a <!-- b", "a <!-- b"),
        ("[x](javascript:alert(1)) y", "[x](javascript:alert(1)) y"),
        ("\\href{javascript:alert(1)}{x}", "\\href{javascript:alert(1)}{x}"),
        ("&lt;script&gt;", "&lt;script&gt;"),
        ("# h\n- l\n> q", "# h - l > q"),
        ("{{ x }} {% y %}", "{{ x }} {% y %}"),
        ("a\\textbf{ b }c", "a b c"),
        # the three reproductions of the issue on seed text running script
        ("A span ending in a backslash $ <img src=x onerror=alert(1)> \\ $ closes nothing.",
         f"A span ending in a backslash {MATH_MARK} closes nothing."),
        ("A dollar in a link https://a.example/$'$<img src=x onerror=alert(2)>$ pairs with math.",
         f"A dollar in a link https://a.example/$'{MATH_MARK} pairs with math."),
        ("A backtick in math $a`b$ pairs with code \\texttt{<img src=x onerror=alert(3)>} here.",
         f"A backtick in math {MATH_MARK} pairs with code <img src=x onerror=alert(3)> here."),
        ("[code](https://[evil.example]/x) and \\url{https://[::1}", "[code](https://[evil.example]/x) and \\url{https://[::1}"),
    ],
)
def test_examples(text, shown):
    rendered = render(text)
    assert squash(text_of(f'<div class="digest-abstract">{rendered}</div>', "digest-abstract").text) == shown
    assert "<img" not in rendered


@pytest.mark.parametrize("name, text", [
    ("nested \\textbf", "\\textbf{" * 5000 + "x" + "}" * 5000),
    ("unclosed \\textbf", "\\textbf{a " * 20000),
    ("stars", "*a " * 60000),
    ("nested lists of brackets", "[" * 5000 + "x" + "]" * 5000),
])
def test_deep_or_long_input_neither_recurses_nor_loses_text(name, text):
    html = to_html(text)
    assert html.count("<strong>") <= 5  # emphasis deeper than MAX_DEPTH shows its words only
    shown = "".join(html5lib.parse(f"<p>{html}</p>", namespaceHTMLElements=False).find("body").itertext())
    assert _words(shown) == _words(text), name


# -- venue headers and derived titles, as the built page shows them ------------------
#
# The composing strategy reaches the two strings of a page that are not the abstract:
# a venue name (from the seed's header line) and a title derived from the abstract
# (one that opens with a bold name is titled with it, payload and all). Each example is
# parsed, titled and rendered as the build does, then filled into the frame MkDocs
# rendered for such pages (generator.site.stamp, as the site step does), and read back with
# html5lib: the strings must be text wherever the page shows them (head, header, body),
# and the page must hold no element the frame did not.

# Payloads sized to fit a header line (80 characters) beside a year.
_header_piece = st.one_of(st.sampled_from(HTML + ENTITIES + BRACKETS), st.text(no_controls, max_size=3))
venue_text = (st.lists(_header_piece, min_size=1, max_size=8).map("".join).map(lambda s: " ".join(s.split()))
              .filter(lambda s: s and not s[0].isdigit() and len(s) <= 60))
title_payload = st.one_of(st.sampled_from(HTML), attack_text.filter(lambda s: 0 < len(s) <= 60))

_TITLE_SENTENCE = ("is a transformer for long documents that replaces dense self-attention with a learned sparse "
                   "routing of tokens to a few memory slots. On book-length summarisation it matches dense attention "
                   "at a fraction of the memory and scales linearly with the length of the input.")


@pytest.fixture(scope="module")
def page_frames(theme_site, tmp_path_factory):
    """The frames MkDocs renders for paper and venue pages, from a small real build (the
    site step renders them as `mkdocs build` does here, then removes them): the theme
    site's (hostile/conftest.py), which test_theme.py builds too."""
    import subprocess
    import sys

    from generator.site.stamp import frame_config, read_frames

    frames = tmp_path_factory.mktemp("frames")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "-", "-d", str(frames)],
                         input=frame_config(theme_site.root / "mkdocs.yml"), text=True, cwd=theme_site.root,
                         capture_output=True)
    assert run.returncode == 0, run.stderr
    return _Frames(read_frames(theme_site.docs, frames))


class _Frames(dict):
    def __init__(self, frames: dict) -> None:
        super().__init__(frames)
        self.plain: dict[tuple[str, str], set] = {}  # see _plain_elements

    def __repr__(self) -> str:  # hypothesis prints the arguments of a failing example
        return f"<{len(self)} frames>"


def _stamped(frames, docs, rel: str, text: str):
    from generator.site.stamp import stamp_page

    (docs / rel).parent.mkdir(parents=True, exist_ok=True)
    (docs / rel).write_text(text, encoding="utf-8")
    return html5lib.parse(stamp_page(frames, docs, rel), namespaceHTMLElements=False)


def _plain_elements(frames, docs, rel: str, text: str) -> set[tuple[str, tuple[str, ...]]]:
    """``_elements`` of the stamped page ``rel`` whose Markdown is ``text``. The plain pages
    each example is compared with are the same text for nearly every example: parsed with
    html5lib (most of the test's time) once per text, not once per example."""
    if (rel, text) not in frames.plain:
        frames.plain[rel, text] = _elements(_stamped(frames, docs, rel, text))
    return frames.plain[rel, text]


# Where seed text is shown as the abstract's markup (the abstract, a listing's first
# sentence): the elements clean.to_html may write, which the properties above check.
_SEED_MARKUP = {(tag, tuple(sorted(attrs))) for tag, allowed in ALLOWED.items()
                for attrs in ([], *[[a] for a in allowed], sorted(allowed))}


def _elements(doc) -> set[tuple[str, tuple[str, ...]]]:
    """Every element and its attribute names, but those of the seed's own markup inside
    the abstract or a listing's entries, which are checked against clean's allow-list."""
    out = set()
    inside = set()
    for holder in doc.iter():
        if holder.get("class") in ("digest-abstract", "digest-list"):
            inside.update(el for el in holder.iter() if el is not holder)
    for el in doc.iter():
        if not isinstance(el.tag, str):
            out.add(("comment", ()))
            continue
        shape = (el.tag, tuple(sorted(el.attrib)))
        if el in inside:
            assert shape in _SEED_MARKUP or shape in {("li", ()), ("br", ())}, shape
        else:
            out.add(shape)
    return out


def _text(el) -> str:
    return " ".join("".join(el.itertext()).split())


def _header_title(doc) -> str:
    topics = [el for el in doc.iter("div") if "md-header__topic" in el.get("class", "").split()]
    return _text(topics[-1])


@SETTINGS
@given(venue=venue_text, payload=title_payload)
def test_venue_names_and_derived_titles_are_text_on_their_pages(page_frames, venue, payload):
    """No oracle but the parser: whatever the header's venue and the abstract's bold name,
    the built pages show them as the strings papers.json holds, and hold no new element."""
    import tempfile
    from dataclasses import replace

    from generator.derive.title import derive_title
    from generator.pages.render import paper_path, render_paper, render_venue

    seed = f"{venue} 2026 Papers\n\n**{payload}** {_TITLE_SENTENCE}\n"
    try:
        [paper] = parse_seed(seed.encode("utf-8"), "seeds/x.txt")
    except GeneratorError:
        assume(False)  # a header parse refuses is not published
    paper = replace(paper, title=derive_title(paper.text))
    name = f"{paper.venue} {paper.year}"
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp)
        page = _stamped(page_frames, docs, paper_path(paper), render_paper(paper, {}))
        clean = replace(paper, id="0" * 12, title="Plain Title", venue="Plain", text=f"**Plain** {_TITLE_SENTENCE}")
        base = _plain_elements(page_frames, docs, paper_path(clean), render_paper(clean, {}))
        [listing] = [(rel, text) for rel, text in render_venue(paper.venue, paper.year, [paper], lambda p: "").items()
                     if rel.count("/") == 1]
        venue_page = _stamped(page_frames, docs, *listing)
        [plain_listing] = [(rel, text) for rel, text in render_venue("Plain", 2026, [clean], lambda p: "").items()
                           if rel.count("/") == 1]
        venue_base = _plain_elements(page_frames, docs, *plain_listing)
    title = " ".join(paper.title.split())
    shown = {
        "<title>": _text(page.find("head/title")),
        "header": _header_title(page),
        "<h1>": _text(page.find(".//article//h1")),
        "venue link": _text(page.find(".//p[@class='digest-meta']/a")),
    }
    assert shown == {"<title>": f"{title} - ML Paper Digest", "header": title, "<h1>": title, "venue link": name}, seed
    assert _text(venue_page.find(".//article//h1")) == name and _header_title(venue_page) == name, seed
    assert _text(venue_page.find("head/title")) == f"{name} - ML Paper Digest", seed
    # the elements (and their attributes) of the page of a plain paper and venue, no others
    assert _elements(page) == base, seed
    assert _elements(venue_page) == venue_base, seed
