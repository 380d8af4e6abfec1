"""Properties of parse and clean over arbitrary input (hypothesis, no mkdocs build).

The Markdown is rendered with Python-Markdown configured as ``mkdocs build`` does
for this site: MkDocs' own extensions (toc, tables, fenced_code) plus the
``markdown_extensions`` of mkdocs.yml.

How rendered text is compared with the abstract (``squash(visible) == expected``):

* whitespace: every run of Unicode whitespace counts as one space, and the ends are
  trimmed (HTML collapses whitespace, and so does clean.py);
* math: each math span counts as one mark, whatever TeX it holds (KaTeX draws it);
* syntax the digest supports on purpose is read the way clean.py reads it (its
  ``segments``): a link shows its label, ``\\textbf{x}``/``**x**`` show ``x``,
  ``\\%`` shows ``%``. Every other character must be shown exactly as written.

``test_plain_text_is_shown_exactly`` needs no such reading: for text that holds
none of the characters that open supported syntax, what is shown is the text.
"""
from __future__ import annotations

import os
import re
import unicodedata
from urllib.parse import urlsplit

import markdown
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.clean import Seg, _plain, segments, to_markdown, to_plain
from generator.errors import ErrorList, GeneratorError
from generator.parse import parse_seed
from hostile_html import MATH_MARK, REPO, squash, text_of

# HOSTILE_MAX_EXAMPLES=5000 for a longer hunt; 200 keeps the suite fast.
SETTINGS = settings(max_examples=int(os.environ.get("HOSTILE_MAX_EXAMPLES", "200")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of syntax, markup and attack strings that random text rarely hits by chance.
FRAGMENTS = [
    "<", ">", "</", "<!--", "-->", "<script>", "</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
    "<style>", "<iframe src=javascript:alert(1)>", "&", "&lt;", "&#x3C;", "&#60;", "&amp;", ";", '"', "'", "`", "```",
    "~~~", "$", "$$", "\\(", "\\)", "\\[", "\\]", "\\", "\\\\", "\\%", "\\$", "\\{", "\\,", "{", "}", "{{", "}}", "{%",
    "%}", "[", "]", "](", "(", ")", "![", "[x]: ", "http://", "https://", "https://example.org/a_b", "javascript:",
    "data:text/html,", "vbscript:", "JaVaScRiPt:", "\\href{", "\\url{", "\\textbf{", "\\emph{", "\\texttt{", "\\text{",
    "**", "*", "_", "__", "#", "# ", "## ", "- ", "+ ", "1. ", "1) ", "> ", "| ", "|---|", "!!! note ", "??? ", "=== ",
    "--8<-- ", "---", "===", "    ", "\t", " ", "  ", "\n", "\u00a0", "\u2028", "\u202e", "\u200b", "\ufeff", ":", "^",
    "~", "=", "==", "+", "-", ".", "1", "2.", "word", "Word", "x", "é", "中", "😀", "\u0301",
]
fragmentary = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=40).map("".join)
anything = st.one_of(st.text(max_size=300), fragmentary)
# What can reach an abstract: parse rejects control characters (category Cc) and
# surrogates cannot be encoded as UTF-8.
no_controls = st.characters(blacklist_categories=("Cc", "Cs"))
abstract_text = st.one_of(
    st.text(no_controls, max_size=300),
    fragmentary.map(lambda s: "".join(c for c in s if c in "\t\n" or not _is_control(c))),
)


def _is_control(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cs")


def _mkdocs_markdown() -> markdown.Markdown:
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    extensions: list[str] = ["toc", "tables", "fenced_code"]  # MkDocs always adds these
    configs: dict[str, dict] = {}
    for item in config.get("markdown_extensions", []):
        if isinstance(item, dict):
            [(name, options)] = item.items()
            extensions.append(name)
            configs[name] = {k: v == "true" if v in ("true", "false") else v for k, v in (options or {}).items()}
        else:
            extensions.append(item)
    return markdown.Markdown(extensions=extensions, extension_configs=configs)


MD = _mkdocs_markdown()


def render(text: str) -> str:
    return MD.reset().convert(to_markdown(text))


def _visible(segs: tuple[Seg, ...]) -> str:
    out = []
    for s in segs:
        if s.kind in ("text", "link"):
            out.append(s.value)
        elif s.kind == "math":
            out.append(MATH_MARK)
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
def test_to_markdown_never_raises(text):
    md = to_markdown(text)
    assert "\n" not in md


@SETTINGS
@given(abstract_text)
def test_rendered_text_is_the_abstract(text):
    html = render(text)
    shown = text_of(f'<div class="digest-abstract">{html}</div>', "digest-abstract")
    assert squash(shown.text) == expected(text)


@SETTINGS
@given(abstract_text)
def test_only_text_level_markup(text):
    html = render(text)
    shown = text_of(f'<div class="digest-abstract">{html}</div>', "digest-abstract")
    for el in shown.tags:
        attrs = dict(el.attrs)
        assert el.tag in {"p", "em", "strong", "code", "a", "span"}, (el, html)
        if el.tag == "span":
            assert attrs == {"class": "arithmatex"}, (el, html)
        elif el.tag == "a":
            assert set(attrs) == {"href"} and urlsplit(attrs["href"]).scheme.lower() in ("http", "https"), (el, html)
        else:
            assert not attrs, (el, html)
    # html.parser ends a comment only at "-->": a comment from the seed would eat the rest.
    assert "<!--" not in html


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
    ],
)
def test_examples(text, shown):
    rendered = render(text)
    assert squash(text_of(f'<div class="digest-abstract">{rendered}</div>', "digest-abstract").text) == shown
