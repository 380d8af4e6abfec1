"""Compacting the built pages changes white space the browser lays out as one space, and nothing else.

Checked by a real HTML parser: the compacted page has the same elements, attributes,
comments and (with each run of white space read as one space, as a browser lays
normal text out) the same text; inside pre, textarea, script, style, code and kbd, and in
attribute values, not one character differs.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st
from support import REPO, run_generator

from generator.site.compact import compact_html, inert, splits_cleanly

KEPT = {"pre", "textarea", "script", "style", "code", "kbd"}
VOID = {"br", "img", "input", "meta", "link", "hr"}
_WS = re.compile(r"[ \t\n\r\f]+")


class _Events(HTMLParser):
    """What a page is made of, as the parser reads it: tags with attributes, comments, and text,
    the text outside kept elements with its white space runs read as one space."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple] = []
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag, tuple(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.events.append(("start", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.events.append(("end", tag))
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]

    def handle_data(self, data):
        kept = bool(KEPT & set(self.open))
        text = data if kept else _WS.sub(" ", data)
        if self.events and self.events[-1][0] == "text" and self.events[-1][1] == kept:
            self.events[-1] = ("text", kept, self.events[-1][2] + text)
        else:
            self.events.append(("text", kept, text))

    def handle_comment(self, data):
        self.events.append(("comment", data))

    def handle_decl(self, decl):
        self.events.append(("decl", decl))


def events(html: str) -> list[tuple]:
    parser = _Events()
    parser.feed(html)
    parser.close()
    # collapse the runs that the merge above left across text events
    out = []
    for e in parser.events:
        if e[0] == "text" and not e[1]:
            e = ("text", False, _WS.sub(" ", e[2]))
        out.append(e)
    return out


SPACE = st.sampled_from([" ", "  ", "\n", "\n    ", "   \n  \n\t", "\t", "\r\n  ", "\f"])
WORD = st.sampled_from(["word", "a&amp;b", "x &lt; y", "\u00e9t\u00e9", "</", "<", ">", "'", '"', "=", "--", "-->", "<!--"])
ATTR_VALUE = st.sampled_from(["x", "a b", "line\n    two", "a > b", "", "'q'", "\n"])


# The strategies a fragment draws from, made once: hypothesis spent most of these tests
# building and checking a new strategy object for every draw of every example.
_KINDS = st.sampled_from(["text", "text", "inline", "block", "kept", "comment", "void"])
_LEAF_KINDS = st.sampled_from(["text", "void"])
_INLINE = st.sampled_from(["a", "span", "em"])
_BLOCK = st.sampled_from(["div", "p", "li", "section"])
_KEPT_TAGS = st.sampled_from(sorted(KEPT))
_RUN = st.lists(st.one_of(WORD, SPACE), max_size=6)
_COUNT = st.integers(0, 6)


@st.composite
def _fragments(draw, depth: int) -> str:
    parts = []
    for _ in range(draw(_COUNT)):
        kind = draw(_KINDS if depth < 3 else _LEAF_KINDS)
        if kind == "text":
            parts.append("".join(draw(_RUN)).replace("<", "&lt;"))
        elif kind in ("inline", "block"):
            tag = draw(_INLINE if kind == "inline" else _BLOCK)
            value = draw(ATTR_VALUE).replace('"', "&quot;")
            parts.append(f'<{tag} class="{value}"{draw(SPACE)}title="{draw(ATTR_VALUE)}">'.replace('title=""">', 'title="">')
                         + draw(_BY_DEPTH[depth + 1]) + f"</{tag}>")
        elif kind == "kept":
            tag = draw(_KEPT_TAGS)
            inner = "".join(draw(_RUN))
            inner = inner.replace("<", "&lt;") if tag not in ("script", "style") else inner.replace("</", "< /")
            parts.append(f"<{tag}>{inner}</{tag}>")
        elif kind == "comment":
            parts.append(f"<!--{draw(SPACE)}note{draw(SPACE)}-->")
        else:
            parts.append(f'<br>{draw(SPACE)}<img alt="{draw(ATTR_VALUE)}">')
        parts.append(draw(SPACE))
    return "".join(parts)


_BY_DEPTH = [_fragments(depth) for depth in range(4)]


def fragments() -> st.SearchStrategy[str]:
    """A piece of HTML: text, inline and block elements nested up to three deep, kept
    elements, comments and void elements, with white space of every kind between."""
    return _BY_DEPTH[0]


@settings(max_examples=400, deadline=None)
@given(fragments())
def test_compacting_keeps_every_element_attribute_and_word(html):
    compact = compact_html(html)
    assert events(compact) == events(html)
    assert compact_html(compact) == compact  # once is enough


MARK = "@@mark@@"


@settings(max_examples=600, deadline=None)
@given(fragments(), fragments(), fragments(), st.one_of(fragments(), st.sampled_from(["a", "x\ny", "=\"v", "<code>x", " a", "a\n"])))
def test_compacting_a_frame_once_is_compacting_each_page_of_it(before, middle, after, value):
    """What generator.site.stamp relies on: where splits_cleanly says so and the value is inert,
    the compacted page is the compacted frame with the value put in (one marker, or two)."""
    frame = before + MARK + middle + MARK + after
    marks = [(i, i + len(MARK)) for i in range(len(frame)) if frame.startswith(MARK, i)]
    if splits_cleanly(frame, marks) and inert(value):
        assert compact_html(frame.replace(MARK, value)) == compact_html(frame).replace(MARK, value)


def test_what_is_not_inert_or_not_clean():
    assert inert("<p>a</p>\n<p>b <code>x\n  y</code></p>") is False  # a break then white space, even kept
    assert inert("<p>a</p>\n<p>b <code>x</code></p>") is True
    for text in ("", " a", "a\n", "<code>open", 'a="open', "x\ny\" z"):
        assert inert(text) is False, text
    frame = f"<p>{MARK}</p><script>{MARK}</script>"
    assert splits_cleanly(frame, [(3, 3 + len(MARK))]) is True
    assert splits_cleanly(frame, [(frame.rindex(MARK), frame.rindex(MARK) + len(MARK))]) is False  # inside kept content
    multi = f'<p title="a\n b">{MARK}</p>'
    assert splits_cleanly(multi, [(multi.index(MARK), multi.index(MARK) + len(MARK))]) is False


def test_compacting_takes_out_indentation_and_keeps_kept_content_as_it_is():
    html = ('<div>\n    <p>one\n      two</p>\n  <pre>  a\n    b</pre>\n  <code>x\n   y</code>\n'
            '<script>\n  if (a)\n    b()\n</script>\n<span title="t\n   u">s</span>\n<!--\n   c -->\n</div>')
    assert compact_html(html) == ('<div>\n<p>one\ntwo</p>\n<pre>  a\n    b</pre>\n<code>x\n   y</code>\n'
                                  '<script>\n  if (a)\n    b()\n</script>\n<span title="t\n   u">s</span>\n<!--\n   c -->\n</div>')


def test_an_element_never_closed_keeps_the_rest_of_the_page():
    assert compact_html("<p>\n  a</p>\n  <pre>\n    b\n    <p>\n   c") == "<p>\na</p>\n<pre>\n    b\n    <p>\n   c"


def test_the_mission_site_compacted_is_the_site_mkdocs_built(tmp_path, mission_site, mission_rendered):
    """Every page of the real site, as `make site` leaves it, against the same page before compacting
    (the plain `mkdocs build` of the same project: tests/conftest.py)."""
    root = mission_rendered
    pages = sorted((root / "site").rglob("*.html"))
    assert len(pages) > 40
    smaller = 0
    for page in pages:
        built = page.read_text(encoding="utf-8")
        shipped = (mission_site.site / page.relative_to(root / "site")).read_text(encoding="utf-8")
        assert events(shipped) == events(built), page
        smaller += len(shipped) < len(built)
    assert smaller == len(pages)
    run = run_generator("compact", str(tmp_path / "nothing-here"), cwd=REPO)
    assert run.returncode == 1 and "no built site here" in run.stderr and "Traceback" not in run.stderr
