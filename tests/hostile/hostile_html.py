"""Reading built HTML for the hostile-input tests: elements, scripts, comments, visible text."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SEEDS = HERE / "seeds"
HOSTILE_SEEDS = SEEDS / "hostile"
HARMLESS_SEEDS = SEEDS / "harmless"

VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
MATH_MARK = "\u27e6math\u27e7"  # what a math span counts as in text comparisons


class Element:
    """A start tag as html.parser saw it: tag, attributes, and the page it is on."""

    def __init__(self, page: str, tag: str, attrs: list[tuple[str, str | None]]):
        self.page = page
        self.tag = tag
        self.attrs = attrs

    def __repr__(self) -> str:
        return f"{self.page}: <{self.tag} {' '.join(f'{k}={v!r}' for k, v in self.attrs)}>"


class PageScan(HTMLParser):
    """Every element of a page, the text of its scripts, and comments. A script that is a
    data block (JSON-LD: a paper page's structured data) is kept apart in ``data_blocks``:
    it holds seed text by design, as JSON, and is never run."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.elements: list[Element] = []
        self.scripts: list[str] = []
        self.data_blocks: list[str] = []
        self.comments: list[str] = []
        self._in_script = False
        self._text: list[str] = self.scripts

    def handle_starttag(self, tag, attrs):
        self.elements.append(Element(self.page, tag, attrs))
        if tag == "script":
            self._in_script = True
            self._text = self.data_blocks if dict(attrs).get("type") == "application/ld+json" else self.scripts
            self._text.append("")

    def handle_startendtag(self, tag, attrs):
        self.elements.append(Element(self.page, tag, attrs))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self._text[-1] += data

    def handle_comment(self, data):
        self.comments.append(data)


def scan_page(path: Path, root: Path) -> PageScan:
    scan = PageScan(path.relative_to(root).as_posix())
    scan.feed(path.read_text(encoding="utf-8"))
    scan.close()
    return scan


class TextOf(HTMLParser):
    """The visible text inside the first element with a given class.

    Math spans (``span.arithmatex``) count as :data:`MATH_MARK`, whatever TeX they hold;
    everything else is the text html.parser decodes (character references resolved).
    """

    def __init__(self, css_class: str):
        super().__init__(convert_charrefs=True)
        self.css_class = css_class
        self.depth = 0  # > 0 while inside the element
        self.math_depth = 0
        self.parts: list[str] = []
        self.tags: list[Element] = []
        self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        classes = (dict(attrs).get("class") or "").split()
        if self.depth == 0:
            if self.css_class in classes:
                self.depth = 1
            return
        self.tags.append(Element("", tag, attrs))
        if tag in VOID:
            return
        self.depth += 1
        if self.math_depth:
            self.math_depth += 1
        elif "arithmatex" in classes:
            self.math_depth = 1
            self.parts.append(MATH_MARK)

    def handle_startendtag(self, tag, attrs):
        if self.depth and not self.done:
            self.tags.append(Element("", tag, attrs))

    def handle_endtag(self, tag):
        if self.depth == 0 or self.done or tag in VOID:
            return
        self.depth -= 1
        if self.math_depth:
            self.math_depth -= 1
        if self.depth == 0:
            self.done = True

    def handle_data(self, data):
        if self.depth and not self.done and not self.math_depth:
            self.parts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def text_of(html: str, css_class: str) -> TextOf:
    parser = TextOf(css_class)
    parser.feed(html)
    parser.close()
    return parser


_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    """Whitespace runs (Python's Unicode ``\\s``) as one space, trimmed: HTML shows them alike."""
    return _WS.sub(" ", text).strip()
