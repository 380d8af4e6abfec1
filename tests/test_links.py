"""Every internal link of the built mission site leads somewhere.

Walks each HTML file of the site, follows every ``href`` and ``src`` that stays on
the site (relative or root-relative; other schemes such as https: and mailto: are
not ours to check), and checks the target file exists (a directory URL means its
index.html) and, when the link has a fragment, that the target page has that id.
"""
from __future__ import annotations

import posixpath
from collections import defaultdict
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

LINK_ATTRS = {"href", "src"}


class _Page(HTMLParser):
    """The links and ids of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[int, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in LINK_ATTRS:
                self.links.append((self.getpos()[0], value))
            elif name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)


@cache
def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def resolve(site: Path, page: Path, url: str) -> tuple[Path, str] | None:
    """(file, fragment) a link of ``page`` points to, or None when it leaves the site."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:  # https:, mailto:, data:, //host/...
        return None
    if not parts.path:  # "#id" or "?q": this very page
        return page, unquote(parts.fragment)
    here = "/" + page.relative_to(site).as_posix()
    path = unquote(parts.path)
    joined = path if path.startswith("/") else posixpath.join(posixpath.dirname(here), path)
    target_url = posixpath.normpath(joined)
    if path.endswith("/") or joined.endswith("/."):
        target_url = target_url.rstrip("/") + "/index.html"
    target = site / target_url.lstrip("/")
    if target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


def broken_links(site: Path) -> list[str]:
    """``page:line: link -> problem`` for every internal link that leads nowhere."""
    problems: list[str] = []
    site = site.resolve()
    for page in sorted(site.rglob("*.html")):
        for line, url in _parse(page).links:
            resolved = resolve(site, page, url)
            if resolved is None:
                continue
            target, fragment = resolved
            where = f"{page.relative_to(site)}:{line}: {url}"
            if not target.is_file():
                problems.append(f"{where} -> no file {target.relative_to(site)}")
            elif fragment and target.suffix == ".html" and fragment not in _parse(target).ids:
                problems.append(f"{where} -> {target.relative_to(site)} has no id {fragment!r}")
    return problems


def test_every_internal_link_resolves(mission_site):
    pages = list(mission_site.site.rglob("*.html"))
    assert len(pages) > 10, f"only {len(pages)} pages built"
    assert broken_links(mission_site.site) == []


def test_links_are_checked_at_all(mission_site):
    """Guards the walker itself: the site links its paper pages, topics and fragments."""
    site = mission_site.site.resolve()
    targets: dict[str, int] = defaultdict(int)
    for page in site.rglob("*.html"):
        for _, url in _parse(page).links:
            resolved = resolve(site, page, url)
            if resolved:
                target, fragment = resolved
                kind = target.relative_to(site).parts[0] if target.is_relative_to(site) else "outside"
                targets[kind] += 1
                targets["#fragment"] += bool(fragment)
    for kind in ("papers", "topics", "assets", "#fragment"):
        assert targets[kind] > 0, f"no link to {kind} found: {dict(targets)}"


@pytest.mark.parametrize(
    ("page", "url", "expected"),
    [
        ("papers/abc/index.html", "../../topics/x/", "topics/x/index.html"),
        ("papers/abc/index.html", "/assets/a.css", "assets/a.css"),
        ("index.html", ".", "index.html"),
        ("index.html", "list/#top", "list/index.html"),
        ("list/index.html", "#sources", "list/index.html"),
        ("list/index.html", "..", "index.html"),
    ],
)
def test_resolve(tmp_path, page, url, expected):
    target, _ = resolve(tmp_path, tmp_path / page, url)
    assert target == tmp_path / expected


@pytest.mark.parametrize("url", ["https://example.org/", "mailto:a@b.c", "//cdn.example/x.js", "data:image/png;base64,AA"])
def test_external_links_are_not_followed(tmp_path, url):
    assert resolve(tmp_path, tmp_path / "index.html", url) is None


def test_a_broken_link_and_a_missing_fragment_are_reported(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">x</h2>', encoding="utf-8")
    (tmp_path / "index.html").write_text(
        '<a href="a/#here">ok</a>\n<a href="a/#gone">no id</a>\n<img src="missing.png">\n<a href="../../etc/passwd">out</a>',
        encoding="utf-8",
    )
    _parse.cache_clear()
    assert broken_links(tmp_path) == [
        "index.html:2: a/#gone -> a/index.html has no id 'gone'",
        "index.html:3: missing.png -> no file missing.png",
        # A browser, like posixpath.normpath, stops ".." at the site's root.
        "index.html:4: ../../etc/passwd -> no file etc/passwd",
    ]
