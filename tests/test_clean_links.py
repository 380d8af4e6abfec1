"""The clean stage, links part: every URL of an abstract, trimmed, once, with its kind."""
from __future__ import annotations

import pytest

from generator.core.markup import extract_links, link_kind, trim_url
from generator.core.model import Link


def links(text: str) -> list[tuple[str, str]]:
    return [(l.url, l.kind) for l in extract_links(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param("Code: https://github.com/a/b", [("https://github.com/a/b", "code")], id="bare"),
        pytest.param("Code is at \\url{https://github.com/a/b}.", [("https://github.com/a/b", "code")], id="url-macro"),
        pytest.param(
            "See \\href{https://a.github.io/p/}{our project page}.", [("https://a.github.io/p/", "project")], id="href"
        ),
        pytest.param("The [code](https://github.com/a/b) is open.", [("https://github.com/a/b", "code")], id="markdown"),
        pytest.param("Data: \\url{ https://zenodo.org/records/1 }", [("https://zenodo.org/records/1", "data")], id="url-spaces"),
        pytest.param("http://example.com/page?x=1&y=2", [("http://example.com/page?x=1&y=2", "project")], id="http-query"),
    ],
)
def test_link_forms(text, expected):
    assert links(text) == expected


@pytest.mark.parametrize(
    "text, url",
    [
        ("Code is available at https://github.com/a/b.", "https://github.com/a/b"),
        ("code (https://github.com/a/b), data", "https://github.com/a/b"),
        ("see https://github.com/a/b; also", "https://github.com/a/b"),
        ("at https://github.com/a/b: the", "https://github.com/a/b"),
        ("really https://github.com/a/b!", "https://github.com/a/b"),
        ("is it https://github.com/a/b?", "https://github.com/a/b"),
        ("the \"https://github.com/a/b\" repo", "https://github.com/a/b"),
        ("the 'https://github.com/a/b'.", "https://github.com/a/b"),
        ("(see https://github.com/a/b).", "https://github.com/a/b"),
        ("**https://github.com/a/b**", "https://github.com/a/b"),
        ("<https://github.com/a/b>", "https://github.com/a/b"),
        ("wiki https://en.wikipedia.org/wiki/Foo_(bar).", "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ("\\url{https://github.com/a/b.}", "https://github.com/a/b"),
    ],
)
def test_trailing_punctuation_is_not_part_of_the_url(text, url):
    assert [u for u, _ in links(text)] == [url]


def test_trim_url_keeps_balanced_parentheses_and_drops_the_rest():
    assert trim_url("https://x.org/a_(b)") == "https://x.org/a_(b)"
    assert trim_url("https://x.org/a_(b)).,") == "https://x.org/a_(b)"
    assert trim_url("https://x.org/a?q=1!*'\"") == "https://x.org/a?q=1"


def test_each_url_once_in_order_of_appearance():
    text = (
        "Project https://b.github.io/x/ and code https://github.com/a/b, mirrored at "
        "\\url{https://github.com/a/b} and [again](https://github.com/a/b); paper https://arxiv.org/abs/2401.00001."
    )
    assert extract_links(text) == (
        Link("https://b.github.io/x/", "project"),
        Link("https://github.com/a/b", "code"),
        Link("https://arxiv.org/abs/2401.00001", "paper"),
    )


def test_only_http_and_https_are_links():
    assert links("\\url{ftp://x.org/f} and javascript:alert(1) and [x](javascript:alert(1)) and www.x.org") == []


def test_text_without_links():
    assert links("We propose a method with no links at all, costing $O(n)$ time.") == []


@pytest.mark.parametrize(
    "url, kind",
    [
        ("https://github.com/a/b", "code"),
        ("https://gist.github.com/u/1", "code"),
        ("HTTPS://GitHub.com/A/B", "code"),
        ("https://gitlab.com/a/b", "code"),
        ("https://huggingface.co/org/model", "code"),
        ("https://a.github.io/p/", "project"),
        ("https://github.io/", "project"),
        ("https://huggingface.co/datasets/org/set", "data"),
        ("https://zenodo.org/records/1", "data"),
        ("https://www.kaggle.com/datasets/x", "data"),
        ("https://arxiv.org/abs/2401.00001", "paper"),
        ("https://www.arxiv.org/pdf/2401.00001", "paper"),
        ("https://doi.org/10.1000/1", "paper"),
        ("https://openreview.net/forum?id=x", "paper"),
        ("https://sites.google.com/view/x", "project"),
        ("https://notgithub.com/a/b", "project"),
        ("https://github.com.evil.org/a/b", "project"),
    ],
)
def test_link_kinds(url, kind):
    assert link_kind(url) == kind
