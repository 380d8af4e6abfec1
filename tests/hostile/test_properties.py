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
from urllib.parse import urlsplit

import html5lib
import markdown
import pytest
import yaml
from attack import PIECES, attack_text
from hostile_html import MATH_MARK, REPO, squash, text_of
from hypothesis import HealthCheck, assume, given, settings
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
def test_no_word_is_lost(text):
    """No oracle: every letter and digit of the abstract outside URLs and macro names is on
    the page, in order. Compared as one run of characters, not word by word: a macro glued
    to a word joins it as LaTeX does (``0\\texttt{0}`` shows as ``00``)."""
    # Where a URL-looking run holds math, code or emphasis delimiters, which of its
    # characters belong to the URL is the scanner's call (``HTTP://'$0 $0`` is no link and
    # holds math): this oracle cannot tell without asking the code it checks.
    assume(not any(set(run) & set("$`*_\\") for run in _URL_RUN.findall(text)))
    div = parsed(text)
    shown = "".join(div.itertext())
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
