"""Red-team round 8: seed text and data that stalled a stage, or that the site lost or showed
as something else, which the other hostile tests did not hold.

Each test fails on the code it was written against for the reason its docstring gives.
"""
from __future__ import annotations

import time

import pytest

from generator.core.errors import GeneratorError
from generator.seeds.parse import parse_seed

ABSTRACT = (
    "We study robust sparse attention for long documents and report gains on five benchmarks across many "
    "settings, with an analysis of when the sparsity pattern helps and when it hurts accuracy."
)


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


# -- the parse: a header line read in quadratic time ------------------------------------------


@pytest.mark.parametrize("header", [
    "ICML" + " " * 30_000 + "x",
    "ICML" + " " * 30_000 + "2026 Papersx",
    "ICML " + "2026 " * 6_000 + "Papers x",
], ids=["spaces", "spaces_then_year", "years"])
def test_a_long_header_line_is_refused_without_reading_it_quadratically(header):
    """HEADER (a lazy venue, then white space, the year and "Papers") was matched before the
    line's length was checked: on a first line of spaces each place the venue may end
    retries every run of the spaces after it. 30,000 spaces took 8 s, 200,000 (200 KB of a
    seed) about six minutes, and a megabyte of them hours, in the build and in the
    pull-request check alike. The line is too long to be a header whatever it holds."""
    data = (header + "\n\n" + ABSTRACT + "\n").encode("utf-8")
    errors = []

    def parse():
        try:
            parse_seed(data, "seeds/long.txt")
        except GeneratorError as e:
            errors.extend(getattr(e, "errors", [e]))

    took = _seconds(parse)
    assert [str(e).split(": ", 1)[0] for e in errors] == ["seeds/long.txt:1"]
    assert "the first line must be '<Venue> <Year> Papers'" in str(errors[0])
    assert took < 1.0, f"the parse took {took:.1f} s"


# -- links: a link that shows one address and opens another -------------------------------------

from html.parser import HTMLParser  # noqa: E402

from generator.core import markup as clean  # noqa: E402

PROSE = "We study robust sparse attention for long documents and report gains on five benchmarks. "


class _Anchors(HTMLParser):
    """Each <a>'s href and text, and the page's text as a reader sees it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors: list[list[str]] = []
        self.text = ""
        self._open = False

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.anchors.append([dict(attrs)["href"], ""])
            self._open = True

    def handle_endtag(self, tag):
        if tag == "a":
            self._open = False

    def handle_data(self, data):
        self.text += data
        if self._open:
            self.anchors[-1][1] += data


def _read(text: str) -> _Anchors:
    parsed = _Anchors()
    parsed.feed(clean.to_html(PROSE + text))
    return parsed


@pytest.mark.parametrize("text, opens, shown", [
    ("Code: [https://github.com/deepmind/alphafold](https://evil.example/alphafold).",
     "https://evil.example/alphafold", "https://github.com/deepmind/alphafold"),
    ("Code: [github.com/deepmind/alphafold](https://evil.example/alphafold).",
     "https://evil.example/alphafold", "github.com/deepmind/alphafold"),
    ("Code: [github.com](https://evil.example/).", "https://evil.example/", "github.com"),
    ("Code: [github.com/deepmind/alphafold](https://github.com/evil/alphafold).",
     "https://github.com/evil/alphafold", "github.com/deepmind/alphafold"),
    ("Code: \\href{https://evil.example/x}{https://github.com/deepmind/alphafold}.",
     "https://evil.example/x", "https://github.com/deepmind/alphafold"),
], ids=["url_label", "host_and_path_label", "host_label", "other_repository", "href_macro"])
def test_a_link_labelled_with_another_address_shows_the_address_it_opens(text, opens, shown):
    """A Markdown link (or \\href) whose label is itself an address was written as that
    label: the abstract showed "https://github.com/deepmind/alphafold" and the link opened
    evil.example, the oldest trick of phishing mail, on a page a reader trusts. The label
    stays, as text, and the link that follows shows where it goes."""
    page = _read(text)
    assert [a for a in page.anchors if a[0] == opens] == [[opens, opens]], page.anchors
    assert shown in page.text  # the words of the abstract are all still there


@pytest.mark.parametrize("text", [
    "Code: [github.com/deepmind/alphafold](https://github.com/deepmind/alphafold/).",
    "Code: [https://github.com/a/b](https://github.com/a/b).",
    "Code: [GitHub.com](https://www.github.com/a/b).",
    "Code: [our code](https://github.com/a/b), and [e.g. this](https://a.org/).",
    "Code: [arXiv:2101.00001](https://arxiv.org/abs/2101.00001).",
    "Code at https://github.com/a/b and \\url{https://a.org/x}.",
], ids=["same_address", "same_url", "host_of_it", "prose", "arxiv_id", "bare"])
def test_a_link_labelled_as_the_address_it_opens_is_written_as_before(text):
    page = _read(text)
    assert all(label and not label.startswith("http") or label.rstrip("/").endswith(href.split("//", 1)[1].rstrip("/"))
               for href, label in page.anchors), page.anchors
    assert "(https://" not in page.text and "(xn--" not in page.text


@pytest.mark.parametrize("text, host", [
    ("Code at https://gіthub.com/deepmind/alphafold for all.", "xn--gthub-n2e.com"),  # a Cyrillic і
    ("Code: [gіthub.com/deepmind/alphafold](https://gіthub.com/deepmind/alphafold).", "xn--gthub-n2e.com"),
], ids=["bare", "markdown"])
def test_a_host_in_the_letters_of_another_script_is_shown_as_the_browser_names_it(text, host):
    """A host spelled with a letter of another script that looks Latin (a Cyrillic "і" in
    "gіthub.com") reads as github.com in the abstract; the browser's address bar shows its
    ASCII form, xn--gthub-n2e.com, only once the reader has left. The link is followed by
    that form."""
    page = _read(text)
    assert f"({host})" in page.text, page.text
