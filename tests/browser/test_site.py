"""The built mission site in a real Chromium: what a reader sees and does."""
from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urljoin, urlsplit

import pytest

pytestmark = pytest.mark.browser

from browser.pages import PHONE, describe, serious_violations, visit, wait_ready  # noqa: E402


def article_links(page) -> list[str]:
    """Absolute URLs of the links in the page's content (not the header or navigation)."""
    return page.eval_on_selector_all("article.md-content__inner a[href]", "els => els.map(e => e.href)")


def paper_path(url: str) -> str:
    return urlsplit(url).path


def math_papers(papers: list[dict]) -> list[dict]:
    return [p for p in papers if re.search(r"\$[^$]+\$|\\\(", p["abstract"])]


def showcase(papers: list[dict]) -> dict:
    """A paper page with as much on it as possible: math, topics, links."""
    return max(papers, key=lambda p: (bool(math_papers([p])), len(p["tags"]), len(p["links"]), p["id"]))


# -- loading ------------------------------------------------------------------


def test_home_page_loads_without_errors_or_other_hosts(page, page_log, site_url):
    visit(page, site_url)
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").first.inner_text() == "ML Paper Digest"
    assert page_log.console_errors == []
    assert page_log.failed_requests == []
    assert page_log.external_requests == []


# Search: see test_search.py.


# -- topics -------------------------------------------------------------------


def test_topic_chip_leads_to_a_topic_page_listing_the_paper(page, page_log, site_url, papers):
    paper = showcase(papers)
    visit(page, site_url + paper["url"])
    chip = page.locator(".digest-topics a.md-tag").first
    name = chip.inner_text().strip()
    assert name == paper["tags"][0]
    chip.click()
    page.wait_for_url(re.compile(r"/topics/[^/]+/$"))
    wait_ready(page)
    assert page.locator("article h1").first.inner_text().strip() == name
    listed = {paper_path(u) for u in article_links(page)}
    assert "/" + paper["url"] in listed
    assert page_log.problems() == []


# -- math ---------------------------------------------------------------------


def test_math_in_abstracts_is_rendered_by_katex(page, page_log, site_url, papers):
    with_math = math_papers(papers)
    assert with_math, "the mission seeds have abstracts with $...$ math; papers.json shows none"
    for paper in with_math:
        visit(page, site_url + paper["url"])
        abstract = page.locator(".digest-abstract")
        assert abstract.locator(".katex").count() > 0, f"{paper['url']}: no .katex element"
        text = abstract.inner_text()
        leftover = re.findall(r"\$[^$\n]+\$|\\\(|\\\)|\\\[|\\\]", text)
        assert leftover == [], f"{paper['url']}: raw TeX left in the visible abstract: {leftover}"
        errors = abstract.locator(".katex-error").all_inner_texts()
        assert errors == [], f"{paper['url']}: KaTeX could not render {errors}"
    assert page_log.problems() == []


# -- the list -----------------------------------------------------------------


def test_list_page_holds_each_paper_once(page, page_log, site_url, papers):
    visit(page, site_url + "list/")
    listed = Counter(p for p in map(paper_path, article_links(page)) if p.startswith("/papers/"))
    twice = sorted(p for p, n in listed.items() if n > 1)
    assert twice == [], f"listed more than once: {twice}"
    assert sorted(listed) == sorted("/" + p["url"] for p in papers)
    assert page_log.problems() == []


# -- palette ------------------------------------------------------------------


SCHEME = "() => document.body.getAttribute('data-md-color-scheme')"
SWITCH = "header .digest-palette:not([hidden])"


def test_palette_switch_toggles_dark_mode_and_keeps_the_choice(page, page_log, site_url, papers):
    visit(page, site_url)
    switch = page.locator(SWITCH)
    assert page.evaluate(SCHEME) == "default"
    assert switch.get_attribute("aria-label") == "Switch to dark mode"
    switch.click()
    page.wait_for_function(f"() => ({SCHEME})() === 'slate'")
    assert page.locator(SWITCH).get_attribute("aria-label") == "Switch to light mode"
    # the choice holds on the next page, from its first paint (the header applies it)
    visit(page, site_url + papers[0]["url"])
    assert page.evaluate(SCHEME) == "slate"
    page.locator(SWITCH).click()
    page.wait_for_function(f"() => ({SCHEME})() === 'default'")
    visit(page, site_url)
    assert page.evaluate(SCHEME) == "default"
    assert page_log.problems() == []


def test_palette_follows_the_system_until_the_reader_chooses(open_page, page_log, site_url):
    page = open_page(color_scheme="dark")
    visit(page, site_url)
    assert page.evaluate(SCHEME) == "slate"
    assert page.locator(SWITCH).get_attribute("aria-label") == "Switch to light mode"
    page.emulate_media(color_scheme="light")
    page.wait_for_function(f"() => ({SCHEME})() === 'default'")
    page.locator(SWITCH).click()  # a choice now outlasts the system's preference
    page.emulate_media(color_scheme="light")
    visit(page, site_url)
    assert page.evaluate(SCHEME) == "slate"
    assert page_log.problems() == []


def test_palette_switch_is_hidden_without_javascript(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_url)
        switches = page.locator("header .digest-palette")
        assert switches.count() == 2
        assert not any(switches.nth(i).is_visible() for i in range(2))  # they could not switch anything
    finally:
        context.close()


def test_header_icons_are_drawn(page, page_log, site_url):
    """The icons digest.css draws (a mask over the text colour) show their shape: each
    looks neither like the filled square it would be without the mask nor like nothing."""
    visit(page, site_url)
    shown = "header .md-logo svg, header .digest-palette svg, header .digest-search__open svg"
    icons = [icon for icon in page.locator(shown).element_handles() if icon.is_visible()]
    # the logo, the palette switch's icon for the scheme in force, the search box's magnifier
    assert [icon.get_attribute("class") for icon in icons] == [
        "digest-icon-library", "digest-icon-brightness-7", "digest-icon-magnify"]
    for icon in icons:
        name, box = icon.get_attribute("class"), icon.bounding_box()
        drawn = page.screenshot(clip=box)
        icon.evaluate("e => { e.style.mask = e.style.webkitMask = 'none' }")
        square = page.screenshot(clip=box)
        icon.evaluate("e => { e.style.visibility = 'hidden' }")
        nothing = page.screenshot(clip=box)
        assert drawn != square, f"{name} is drawn as a filled square: the mask did not apply"
        assert drawn != nothing, f"{name} draws nothing"
    assert page_log.problems() == []


# -- feeds --------------------------------------------------------------------


FEEDS = """() => [...document.querySelectorAll('head link[type="application/atom+xml"]')]
    .filter(l => l.relList.contains('alternate')).map(l => ({href: l.href, title: l.title}))"""


def test_feeds_are_linked_from_the_head_and_served(page, page_log, site_url, papers):
    """Every page links the digest's feed, a topic's page its own feed too, and both are Atom."""
    visit(page, site_url)
    home = page.evaluate(FEEDS)
    assert [urlsplit(f["href"]).path for f in home] == ["/feed.xml"]
    visit(page, site_url + papers[0]["url"])
    page.locator(".digest-topics a.md-tag").first.click()
    page.wait_for_url(re.compile(r"/topics/[^/]+/$"))
    topic = page.evaluate(FEEDS)
    own = urlsplit(page.url).path + "feed.xml"
    assert [urlsplit(f["href"]).path for f in topic] == ["/feed.xml", own]
    for feed in topic:
        response = page.request.get(feed["href"])
        assert response.ok and b"<feed xmlns=\"http://www.w3.org/2005/Atom\"" in response.body(), feed
    assert page_log.problems() == []


# -- phones -------------------------------------------------------------------


def test_nothing_scrolls_sideways_on_a_phone(open_page, page_log, site_url, papers, built):
    page = open_page(viewport=PHONE)
    topics = sorted(p.parent.name for p in (built.site / "topics").glob("*/index.html"))
    urls = ["", "list/", "topics/", f"topics/{topics[0]}/"] + [p["url"] for p in papers]
    too_wide = []
    for path in urls:
        visit(page, site_url + path)
        width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if width > inner:
            too_wide.append(f"/{path}: {width}px wide in a {inner}px window")
    assert too_wide == []
    assert page_log.problems() == []


# -- accessibility ------------------------------------------------------------


@pytest.mark.parametrize("which", ["home", "paper", "topic", "list"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(open_page, page_log, site_url, papers, axe_source, which, scheme):
    paper = showcase(papers)
    page = open_page(color_scheme=scheme)
    if which == "topic":
        visit(page, site_url + paper["url"])
        path = paper_path(urljoin(page.url, page.locator(".digest-topics a.md-tag").first.get_attribute("href")))
    else:
        path = "/" + {"home": "", "paper": paper["url"], "list": "list/"}[which]
    visit(page, site_url + path.lstrip("/"))
    serious = serious_violations(page, axe_source)
    assert serious == [], f"{path} ({scheme}):\n" + describe(serious)
    assert page_log.problems() == []
