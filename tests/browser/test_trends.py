"""The trends page in a real Chromium, on the mission site (one venue-year: the figures
themselves are tested against hand counts in tests/test_trends.py)."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

from browser.pages import PHONE, describe, serious_violations, visit  # noqa: E402


@pytest.fixture(scope="module")
def trends(built) -> dict:
    return json.loads((built.site / "trends.json").read_text(encoding="utf-8"))


def test_each_topic_has_a_chart_and_a_table_of_the_same_numbers(page, page_log, site_url, trends):
    visit(page, site_url + "trends/")
    charts = page.locator("#topics ~ .digest-trend")
    assert charts.count() == len(trends["topics"])
    for n, topic in enumerate(trends["topics"]):
        chart = charts.nth(n)
        assert chart.locator("svg.digest-bars path:not(.b)").count() == sum(1 for c in topic["counts"] if c)
        cells = [c.split("\n") for c in chart.locator("td").all_inner_texts()]
        assert [int(c[0].replace(",", "")) for c in cells] == topic["counts"]
        assert [c[1] for c in cells] == [f"{100 * s:.1f}%" for s in topic["shares"]]
    # the charts are drawn: bars have height and the theme's colour, not black
    box = charts.first.locator("svg.digest-bars path:not(.b)").first.bounding_box()
    assert box["height"] > 5 and box["width"] > 2
    assert page_log.problems() == []


def test_a_number_and_its_bar_open_the_search_filtered_to_its_papers(page, page_log, site_url, trends, papers):
    topic = max(trends["topics"], key=lambda t: (t["papers"], t["slug"]))
    venue = trends["venue_years"][0]
    names = {n for t in trends["topics"] if t["slug"] in topic["within"] for n in [t["name"]]}
    want = sorted(p["url"] for p in papers if set(p["tags"]) & names and p["venue"] == venue["venue"] and p["year"] == venue["year"])
    assert len(want) == topic["counts"][0] > 0
    visit(page, site_url + "trends/")
    block = page.locator(f"h3#{topic['slug']} + .digest-trend")
    # the bar (a line, so Playwright sees no area to check: force): trends.js opens its number's link
    block.locator("svg.digest-bars path:not(.b)").first.click(force=True)
    # the click navigates: the dialog is there only once the next page's search.js has run
    page.wait_for_function("() => { const d = document.querySelector('.digest-search__dialog');"
                           " return d !== null && Number(d.dataset.digestAnswers) >= 1; }")
    assert page.locator(".digest-search__input").input_value() == " ".join(
        [f"topic:{s}" for s in topic["within"]] + [f"venue:{venue['slug']}"])
    got = sorted(page.evaluate("h => new URL(h).pathname.slice(1)", o.get_attribute("data-href"))
                 for o in page.locator("#digest-search-results [role=option]").all())
    assert got == want
    visit(page, site_url + "trends/")
    link = page.locator(f"h3#{topic['slug']} + .digest-trend td a").first
    assert link.inner_text() == str(topic["counts"][0])
    assert link.get_attribute("href") == block.locator("td a").first.get_attribute("href")
    assert page_log.problems() == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_trends_page_has_no_serious_accessibility_violations(open_page, page_log, site_url, axe_source, scheme):
    page = open_page(color_scheme=scheme)
    visit(page, site_url + "trends/")
    serious = serious_violations(page, axe_source)
    assert serious == [], f"trends/ ({scheme}):\n" + describe(serious)
    # the bars follow the palette: drawn in the theme's link colour, which differs between the two
    colour = page.locator("svg.digest-bars path:not(.b)").first.evaluate("p => getComputedStyle(p).stroke")
    assert colour not in ("rgb(0, 0, 0)", "none", "")
    assert page_log.problems() == []


def test_the_trends_page_does_not_scroll_sideways_on_a_phone(open_page, page_log, site_url):
    page = open_page(viewport=PHONE)
    visit(page, site_url + "trends/")
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    chart = page.locator("svg.digest-bars").first.bounding_box()
    assert 0 < chart["width"] <= PHONE["width"]
    assert page_log.problems() == []


def test_the_home_page_and_the_navigation_lead_to_the_trends(page, page_log, site_url):
    visit(page, site_url)
    assert page.locator("article a[href='trends/']").count() == 1
    assert page.locator("nav a[href$='trends/']").count() >= 1
    assert page_log.problems() == []
