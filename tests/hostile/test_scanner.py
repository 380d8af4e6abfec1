"""Scan the whole built hostile site: nothing from a seed is markup, nothing is lost.

The baseline is the site built from the harmless seed: whatever (tag, attribute)
pairs, event-handler attributes, URL schemes, scripts and comments appear there are
the digest's and Material's own. The hostile site may add none. On top of that, the
abstract of every hostile paper must be on its page as text.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from hostile_html import HOSTILE_SEEDS, MATH_MARK, scan_page, squash, text_of
from support import published_papers

from generator.core.markup import to_plain

URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "poster", "data", "background", "srcset", "cite"}
BAD_SCHEMES = ("javascript", "data", "vbscript")
ABSTRACT_TAGS = {"p", "em", "strong", "code", "a", "span"}
# Removed at parse (bidi controls, zero-width marks); listed here independently of parse.py.
INVISIBLE = set("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u061c\u180e\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _pages(site) -> list[Path]:
    return sorted(site.site.rglob("*.html"))


def _scans(site):
    return [scan_page(p, site.site) for p in _pages(site)]


def _scheme(value: str) -> str:
    # Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
    cleaned = re.sub(r"[\x00-\x20]", "", html.unescape(value)).lower()
    return urlsplit(cleaned).scheme if re.match(r"^[a-z][a-z0-9+.-]*:", cleaned) else ""


def _url_values(scan):
    for el in scan.elements:
        for k, v in el.attrs:
            if k in URL_ATTRS and v is not None:
                yield el, k, v


@pytest.fixture(scope="module")
def hostile_scans(hostile_site):
    return _scans(hostile_site)


@pytest.fixture(scope="module")
def harmless_scans(harmless_site):
    return _scans(harmless_site)


def test_no_new_elements_or_attributes(hostile_scans, harmless_scans):
    baseline = {(el.tag, k) for s in harmless_scans for el in s.elements for k, _ in el.attrs}
    baseline |= {(el.tag, None) for s in harmless_scans for el in s.elements}
    new = [
        el
        for s in hostile_scans
        for el in s.elements
        if (el.tag, None) not in baseline or any((el.tag, k) not in baseline for k, _ in el.attrs)
    ]
    assert not new, "elements or attributes a seed put on the page:\n" + "\n".join(map(repr, new[:20]))


def test_event_handlers_are_materials_own(hostile_scans, harmless_scans):
    def handlers(scans):
        return {(el.tag, k, v) for s in scans for el in s.elements for k, v in el.attrs if k.startswith("on")}

    assert handlers(hostile_scans) <= handlers(harmless_scans)


def test_no_script_url_scheme(hostile_scans, harmless_scans):
    bad = [(el, k, v) for s in hostile_scans for el, k, v in _url_values(s) if _scheme(v) in BAD_SCHEMES]
    assert not bad, bad[:10]
    schemes = {_scheme(v) for s in harmless_scans for _, _, v in _url_values(s)}
    # Links from abstracts are http(s) only; anything else must be one the site itself uses.
    assert {_scheme(v) for s in hostile_scans for _, _, v in _url_values(s)} <= schemes | {"http", "https"}


def test_scripts_and_comments_are_the_sites_own(hostile_scans, harmless_scans):
    def srcs(scans):
        return {dict(el.attrs).get("src") for s in scans for el in s.elements if el.tag == "script"}

    assert srcs(hostile_scans) <= srcs(harmless_scans)
    for s in hostile_scans:
        for body in s.scripts:
            assert "alert" not in body and "evil" not in body, f"{s.page}: seed text inside a <script>: {body[:200]!r}"
        # the structured data holds seed text, and it must stay one JSON value in one block
        assert len(s.data_blocks) == (1 if s.page.startswith("papers/") and "window.location" not in "".join(s.scripts) else 0), s.page
        for block in s.data_blocks:
            assert json.loads(block)["@type"] == "ScholarlyArticle", s.page
    baseline_comments = {c for s in harmless_scans for c in s.comments}
    stray = {c for s in hostile_scans for c in s.comments} - baseline_comments
    assert not stray, f"comments a seed opened: {sorted(stray)[:5]}"


# -- every abstract reaches its page as text ---------------------------------------

_TEXT_MACROS = r"textbf|mathbf|bf|textit|emph|textsl|it|underline|texttt|textsc|textrm|textsf|text|mbox"
_NORMALIZE = [
    # math, whatever it holds, is one mark (KaTeX renders it; the browser test looks at it)
    (re.compile(r"\$\$.+?\$\$|\$.+?\$|\\\(.+?\\\)|\\\[.+?\\\]"), MATH_MARK),
    # links whose scheme is http(s) show their label
    (re.compile(r"\\href\{(https?://[^{}]*)\}\{([^{}]*)\}"), r"\2"),
    (re.compile(r"\\url\{(https?://[^{}]*)\}"), r"\1"),
    (re.compile(r"\[([^\[\]]+)\]\((https?://[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)\)"), r"\1"),
    # LaTeX text macros and Markdown bold show their argument
    (re.compile(r"\\(?:" + _TEXT_MACROS + r")\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\*\*(\S(?:.*?\S)?)\*\*"), r"\1"),
    # and so does single-star emphasis that opens and closes outside a word
    (re.compile(r"(?<![\w*])\*([^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])"), r"\1"),
    # LaTeX escapes of special characters show the character
    (re.compile(r"\\([%&_#${} \\])"), r"\1"),
    (re.compile(r"\\,"), "\u2009"),
]


def expected_text(abstract: str) -> str:
    """What a reader sees of a raw abstract: written independently of generator/core/markup.py."""
    text = "".join(c for c in abstract if c not in INVISIBLE)
    for pattern, repl in _NORMALIZE:
        text = pattern.sub(repl, text)
    return squash(text)


def _seed_paragraphs(path: Path) -> dict[int, str]:
    """Line number -> paragraph (lines joined by spaces) of a seed file."""
    out: dict[int, str] = {}
    start, current = 0, []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n")[1:], start=2):
        if line.strip():
            start = start if current else number
            current.append(line.strip())
        elif current:
            out[start], current = " ".join(current), []
    if current:
        out[start] = " ".join(current)
    return out


@pytest.fixture(scope="module")
def hostile_papers(hostile_site) -> list[tuple[dict, str, str]]:
    """(papers.json entry, seed paragraph, built page HTML) of every hostile abstract."""
    papers = published_papers(hostile_site.site)
    paragraphs = _seed_paragraphs(HOSTILE_SEEDS / "hostile.txt")
    assert len(papers) == len(paragraphs), "every hostile abstract must be its own paper (none merged or dropped)"
    out = []
    for p in papers:
        page = (hostile_site.site / p["url"] / "index.html").read_text(encoding="utf-8")
        out.append((p, paragraphs[p["sources"][0]["line"]], page))
    return out


def test_every_abstract_is_shown_as_text(hostile_papers):
    problems = []
    for p, paragraph, page in hostile_papers:
        shown = text_of(page, "digest-abstract")
        if squash(shown.text) != expected_text(paragraph):
            problems.append(f"{p['url']}:\n  seed:  {expected_text(paragraph)!r}\n  shown: {squash(shown.text)!r}")
        tags = {el.tag for el in shown.tags}
        if not tags <= ABSTRACT_TAGS:
            problems.append(f"{p['url']}: markup in the abstract: {tags - ABSTRACT_TAGS}")
        for el in shown.tags:
            attrs = dict(el.attrs)
            if el.tag == "span" and attrs != {"class": "arithmatex"} and set(attrs) != {"class", "title"}:
                problems.append(f"{p['url']}: {el!r}")
            if el.tag == "a" and (attrs.keys() != {"href", "rel"} or _scheme(attrs["href"]) not in ("http", "https")):
                problems.append(f"{p['url']}: {el!r}")
    assert not problems, "\n".join(problems)


def test_invisible_characters_are_removed(hostile_papers):
    for p, paragraph, page in hostile_papers:
        assert not INVISIBLE & set(page), p["url"]
        assert not INVISIBLE & set(p["abstract"]), p["url"]


def test_text_after_an_unclosed_comment_is_visible(hostile_papers):
    [(p, paragraph, page)] = [x for x in hostile_papers if "<!-- this comment is never closed" in x[1]]
    shown = squash(text_of(page, "digest-abstract").text)
    assert "<!-- this comment is never closed and must not hide the rest Results on" in shown
    assert shown.endswith("stays visible.")
    # The page after the abstract is still there: the sources section and the footer.
    assert '<h2 id="sources">' in page and "</footer>" in page
    assert "<!--" not in page.split('class="digest-abstract"', 1)[1].split('id="sources"', 1)[0]


def test_front_matter_round_trips_the_title(hostile_site):
    papers = {p["id"]: p for p in published_papers(hostile_site.docs)}
    curation = yaml.safe_load((HOSTILE_SEEDS / "curation.yml").read_text(encoding="utf-8"))
    for path in sorted((hostile_site.docs / "papers").glob("[!_]*.md")):  # not the frames
        text = path.read_text(encoding="utf-8")
        assert text.startswith("---\n")
        meta = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
        p = papers[meta["id"]]
        assert html.unescape(meta["title"]) == p["title"], path.name
        assert _unclipped(html.unescape(meta["description"])) in to_plain(p["abstract"]), path.name
        if p["id"] in curation:
            assert p["title"] == curation[p["id"]]["title"]
            # the editor's note is in the body (the page's HTML), as escaped text
            body = meta["body"]
            note = re.search(r'<div class="admonition note"><p class="admonition-title">Editor\'s note</p><p>(.*?)</p></div>', body, re.S)
            assert note and "<" not in note.group(1) and html.unescape(note.group(1)) == curation[p["id"]]["note"], path.name


def test_title_and_description_are_text_in_the_head(hostile_papers):
    """Material prints page.meta.title and page.meta.description without escaping them."""
    for p, _, page in hostile_papers:
        head = page.split("</head>", 1)[0]
        title = re.search(r"<title>(.*?)</title>", head, re.S)
        assert title and html.unescape(title.group(1)) == f"{p['title']} - ML Paper Digest", p["url"]
        desc = re.findall(r'<meta name="description" content="([^"]*)">', head)
        assert len(desc) == 1, f"{p['url']}: the description is not one attribute value"
        assert _unclipped(html.unescape(desc[0])) in to_plain(p["abstract"]), p["url"]


def _unclipped(description: str) -> str:
    """A description without the ellipsis that marks where a long first sentence was cut."""
    return description.removesuffix(" \u2026")
