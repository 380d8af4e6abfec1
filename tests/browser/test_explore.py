"""The map and the reading list in a real Chromium, on the mission site."""
from __future__ import annotations

import json
import math
import re
from urllib.parse import urlsplit

import pytest
from support import SEARCH_JS

pytestmark = pytest.mark.browser

from browser.pages import PHONE, describe, serious_violations, visit, wait_ready  # noqa: E402


def open_map(page, site_url: str, suffix: str = "") -> None:
    visit(page, site_url + "map/" + suffix)
    page.wait_for_selector("#digest-map[data-ready]")


@pytest.fixture(scope="module")
def map_data(built) -> dict:
    return json.loads((built.site / "map.json").read_text(encoding="utf-8"))


def loneliest(map_data: dict) -> list:
    """The map row farthest from any other point: hovering it cannot pick a neighbour."""
    rows = map_data["papers"]

    def gap(r):
        return min(math.hypot(r[1] - o[1], r[2] - o[2]) for o in rows if o is not r)

    return max(rows, key=lambda r: (gap(r), r[0]))


def screen_point(page, paper_id: str) -> tuple[float, float]:
    """Where the map draws a paper, in page coordinates."""
    return tuple(page.evaluate(
        """(id) => {
          const m = window.digestMap, i = m.d.byId[id], v = m.view, p = m.painter;
          const r = m.canvas.getBoundingClientRect();
          return [r.left + p.w / 2 + (m.d.xs[i] - v.cx) * v.k, r.top + p.h / 2 + (m.d.ys[i] - v.cy) * v.k];
        }""",
        paper_id,
    ))


def by_id(papers: list[dict]) -> dict[str, dict]:
    return {p["id"]: p for p in papers}


# -- the map --------------------------------------------------------------------


def test_map_holds_every_paper_and_draws_them(page, page_log, site_url, papers, map_data):
    assert sorted(r[0] for r in map_data["papers"]) == sorted(p["id"] for p in papers)
    open_map(page, site_url)
    assert page.locator(".digest-map-status").inner_text() == f"{len(papers)} papers."
    coloured = page.evaluate(
        """() => { const c = document.querySelector('.digest-map-canvas');
                   const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let n = 0; for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++; return n; }"""
    )
    assert coloured > len(papers) * 10, f"only {coloured} pixels drawn for {len(papers)} papers"
    assert page_log.problems() == []


def test_hovering_a_point_names_the_paper_and_clicking_opens_it(page, page_log, site_url, papers, map_data):
    row = loneliest(map_data)
    paper = by_id(papers)[row[0]]
    open_map(page, site_url)
    # the map may be taller than what is left of the window below the controls
    page.evaluate("() => document.querySelector('.digest-map-canvas').scrollIntoView({block: 'center'})")
    x, y = screen_point(page, paper["id"])
    page.mouse.move(x + 1, y + 1)
    tip = page.locator(".digest-map-tip")
    tip.wait_for(state="visible")
    assert tip.locator("strong").inner_text() == paper["title"]
    assert tip.locator("span").inner_text().startswith(f"{paper['venue']} {paper['year']}")
    page.mouse.click(x + 1, y + 1)
    page.wait_for_url(re.compile(re.escape(paper["url"]) + "$"))
    assert page_log.problems() == []


def _hsl(i: int, light: float = 0.42) -> tuple[int, int, int]:
    """A topic's colour as the page's CSS names it (hsl(hue, 65%, 42%) on the light scheme)."""
    import colorsys

    r, g, b = colorsys.hls_to_rgb(round(i * 137.508 % 360) / 360, light, 0.65)
    return round(r * 255), round(g * 255), round(b * 255)


def test_many_points_are_drawn_in_their_topic_colours_and_filters_fade_the_rest(page, page_log, site_url, map_data):
    """Past 4,000 points the map writes pixels itself: each point must still be where the
    view puts it, in its topic's colour, and a filter must fade the other points."""
    cols, rows = 100, 60
    big = {**map_data, "aliases": {}, "papers": [
        [f"{i:012x}", (i % cols) * 10000 // (cols - 1), (i // cols) * 10000 // (rows - 1), [i % 7], 0, f"Paper {i}"]
        for i in range(cols * rows)]}
    page.route("**/map.json", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(big)))
    open_map(page, site_url)
    assert page.locator(".digest-map-status").inner_text() == f"{cols * rows:,} papers."

    def pixels(ids):
        return page.evaluate("""(ids) => {
            const m = window.digestMap, v = m.view, p = m.painter, c = m.canvas, ratio = c.width / p.w;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            return ids.map(id => { const i = m.d.byId[id];
              const x = Math.round((p.w / 2 + (m.d.xs[i] - v.cx) * v.k) * ratio), y = Math.round((p.h / 2 + (m.d.ys[i] - v.cy) * v.k) * ratio);
              const o = (y * c.width + x) * 4; return [data[o], data[o + 1], data[o + 2], data[o + 3]]; }); }""", ids)

    sample = [big["papers"][i] for i in range(0, cols * rows, 97)]
    for row, (r, g, b, a) in zip(sample, pixels([row[0] for row in sample])):
        want = _hsl(row[3][0])
        assert a == 255 and max(abs(r - want[0]), abs(g - want[1]), abs(b - want[2])) <= 2, (row, (r, g, b, a), want)
    slug = big["topics"][3]["slug"]
    page.select_option("#digest-map-topic", slug)
    page.wait_for_function("() => window.digestMap.mask")
    page.wait_for_timeout(100)
    for row, (r, g, b, a) in zip(sample, pixels([row[0] for row in sample])):
        if row[3][0] == 3:  # fewer points now: anti-aliased circles, so a little give
            assert a >= 200 and max(abs(r - c) for r, c in zip((r, g, b), _hsl(3))) <= 12, (row, (r, g, b, a))
        else:
            assert a < 80, (row, a)  # faded
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_a_parent_topics_filter_shows_the_papers_of_the_topics_inside_it(page, page_log, site_url, map_data):
    small = {**map_data, "aliases": {},
             "topics": [{"name": "Generative Models", "slug": "generative-models"},
                        {"name": "GANs", "slug": "gans", "parent": "generative-models"},
                        {"name": "Conditional GANs", "slug": "conditional-gans", "parent": "gans"},
                        {"name": "Music", "slug": "music"}],
             "venues": [{"name": "ICML 2026", "slug": "icml-2026"}],
             "papers": [["a00000000000", 1000, 1000, [0], 0, "Broad"],
                        ["b00000000000", 3000, 3000, [3, 1], 0, "Music with a GAN"],
                        ["c00000000000", 5000, 5000, [2], 0, "Grandchild"],
                        ["d00000000000", 7000, 7000, [3], 0, "Music alone"]]}
    page.route("**/map.json", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(small)))
    shown = {}
    for slug in ("generative-models", "gans", "conditional-gans", "music"):
        open_map(page, site_url, f"?topic={slug}")
        shown[slug] = sorted(page.locator(".digest-map-list a").all_inner_texts())
    assert shown == {"generative-models": ["Broad", "Grandchild", "Music with a GAN"],
                     "gans": ["Grandchild", "Music with a GAN"], "conditional-gans": ["Grandchild"],
                     "music": ["Music alone", "Music with a GAN"]}
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_a_paper_of_the_32769th_venue_is_on_the_map_and_in_its_venue_filter(page, page_log, site_url, map_data):
    """Each seed file names a venue, so 32,769 files (one abstract each) make as many venues.
    map.js kept each paper's venue index in an Int16Array, which wraps at 32,768: the later
    venues' papers held a negative index, matched no venue filter ("0 of 33,000 papers match
    at V32999 2026") and naming one (its card, its tooltip) threw a TypeError, so a link to
    such a paper's place on the map showed "The map could not be loaded". And the filter read
    the venue menu's value once per venue, each read walking the menu's options to the one
    chosen: with the last of 33,000 venues chosen, every filtering (each keystroke in the
    highlight box) took 30 s."""
    n = 33_000
    big = {**map_data, "aliases": {},
           "venues": [{"name": f"V{i} 2026", "slug": f"v{i}-2026"} for i in range(n)],
           "papers": [[f"{i:012x}", (i * 7919) % 10001, (i * 104729) % 10001, [i % 7], i, f"Paper {i}"] for i in range(n)]}
    page.route("**/map.json", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(big)))
    last = n - 1
    open_map(page, site_url, f"?venue=v{last}-2026&paper={last:012x}")
    assert page.locator(".digest-map-status").inner_text() == f"1 of {n:,} papers match at V{last} 2026."
    assert page.locator(".digest-map-list a").all_inner_texts() == [f"Paper {last}"]
    assert page.locator(".digest-map-list li").inner_text().endswith(f" · V{last} 2026")
    assert page.locator(".digest-map-card").inner_text() == f"On the map: Paper {last} · V{last} 2026"
    took = page.evaluate("() => { const t = performance.now(); window.digestMap.filter(false); return performance.now() - t; }")
    assert took < 1000, f"filtering took {took:.0f} ms"
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_dragging_and_the_wheel_move_and_zoom_the_map(page, page_log, site_url):
    open_map(page, site_url)
    view = "() => ({...window.digestMap.view})"
    box = page.locator(".digest-map-canvas").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = page.evaluate(view)
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -400)
    zoomed = page.evaluate(view)
    assert zoomed["k"] > before["k"] * 1.5
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 100, cy + 50, steps=5)
    page.mouse.up()
    moved = page.evaluate(view)
    assert moved["cx"] == pytest.approx(zoomed["cx"] - 100 / zoomed["k"], rel=1e-6)
    assert moved["cy"] == pytest.approx(zoomed["cy"] - 50 / zoomed["k"], rel=1e-6)
    assert "/map/" in page.url and "papers/" not in page.url  # a drag is not a click
    assert page_log.problems() == []


def test_a_papers_fragment_centres_the_map_on_it(page, page_log, site_url, papers):
    paper = papers[0]
    open_map(page, site_url, "#" + paper["id"])
    card = page.locator(".digest-map-card")
    assert card.locator("a").inner_text() == paper["title"]
    assert card.locator("a").get_attribute("href").endswith(paper["url"])
    assert page_log.problems() == []


@pytest.mark.parametrize("suffix", ["?paper=constructor", "?paper=__proto__", "#toString", "#%E0%A4%A"])
def test_a_link_that_names_no_paper_opens_the_whole_map(page, page_log, site_url, papers, suffix, builder):
    # A shared link is untrusted: a name every object has, or a fragment that is not
    # percent-encoding, once made the map say it "could not be loaded".
    open_map(page, site_url, suffix)
    assert page.locator(".digest-map-status").inner_text() == f"{len(papers)} papers."
    assert page.locator(".digest-map-card").is_hidden()
    page.evaluate("location.hash = '%'")
    page.evaluate("location.hash = 'hasOwnProperty'")
    page.wait_for_timeout(100)
    assert page.locator(".digest-map-card").is_hidden()
    problems = page_log.problems()
    if builder == "zensical":
        # Zensical 0.0.73's bundle decodes the fragment unguarded and throws on "#%" (the map
        # is unaffected): a known difference, handbook/zensical.md. Only that error is let pass.
        problems = [p for p in problems if not p.startswith("console error: uncaught URI malformed on ")]
    assert problems == []


def test_topic_from_the_url_and_venue_from_the_menu_filter_the_map(page, page_log, site_url, papers, built):
    topics = json.loads((built.site / "map.json").read_text())["topics"]
    topic_names = {t["slug"]: t["name"] for t in topics}
    # a topic holds its own papers and those of the topics inside it, as its page does
    inside = {t["slug"]: {t["name"]} for t in topics}
    for t in topics:
        at = t
        while at.get("parent"):
            inside[at["parent"]].add(t["name"])
            at = next(u for u in topics if u["slug"] == at["parent"])

    def holds(slug, p):
        return bool(inside[slug] & set(p["tags"]))

    counts = {slug: sum(holds(slug, p) for p in papers) for slug in topic_names}
    slug = max(counts, key=lambda s: (0 < counts[s] < len(papers), counts[s], s))
    open_map(page, site_url, f"?topic={slug}")
    assert page.locator("#digest-map-topic").input_value() == slug
    status = page.locator(".digest-map-status").inner_text()
    assert status == f"{counts[slug]} of {len(papers)} papers match in {topic_names[slug]}."
    listed = sorted(page.locator(".digest-map-list a").all_inner_texts())
    assert listed == sorted(p["title"] for p in papers if holds(slug, p))
    venue = sorted({(p["venue"], p["year"]) for p in papers})[0]
    page.select_option("#digest-map-venue", label=f"{venue[0]} {venue[1]}")
    assert re.search(r"[?&]venue=[a-z0-9-]+", page.url) and f"topic={slug}" in page.url
    both = [p for p in papers if holds(slug, p) and (p["venue"], p["year"]) == venue]
    assert page.locator(".digest-map-status").inner_text().startswith(f"{len(both)} of {len(papers)} papers match")
    assert page_log.problems() == []


def test_the_highlight_box_finds_papers_by_the_words_of_their_titles(page, page_log, site_url, papers):
    paper = max(papers, key=lambda p: (len(p["title"]), p["id"]))
    words = [w for w in re.findall(r"\w+", paper["title"]) if len(w) > 3][:3]
    open_map(page, site_url)
    page.fill("#digest-map-q", " ".join(w.lower() for w in words))
    assert paper["title"] in page.locator(".digest-map-list a").all_inner_texts()
    assert "highlight=" in page.url
    page.fill("#digest-map-q", "zzqqxxnotaword")
    assert page.locator(".digest-map-status").inner_text().startswith(f"0 of {len(papers)} papers match")
    assert page_log.problems() == []


# -- the reading list -----------------------------------------------------------


def star_state(page, selector: str) -> str:
    return page.locator(selector).first.get_attribute("aria-pressed")


def test_a_star_on_a_paper_page_survives_a_reload_and_fills_the_reading_list(page, page_log, site_url, papers):
    paper = papers[1]
    visit(page, site_url + paper["url"])
    star = "article h1 .digest-star"
    assert star_state(page, star) == "false"
    page.locator(star).click()
    assert star_state(page, star) == "true"
    page.reload()
    wait_ready(page)
    assert star_state(page, star) == "true"
    visit(page, site_url + "reading-list/")
    page.wait_for_selector("#digest-reading-list[data-ready]")
    items = page.locator(".digest-reading-items li")
    assert items.count() == 1
    assert items.locator("a").inner_text() == paper["title"]
    assert items.locator("a").get_attribute("href").endswith(paper["url"])
    assert f"{paper['venue']} {paper['year']}" in items.inner_text()
    # unstarring on the reading list empties it
    items.locator(".digest-star").click()
    assert page.locator(".digest-reading-items li").count() == 0
    assert "No papers yet" in page.locator(".digest-reading-summary").inner_text()
    assert page_log.problems() == []


def test_stars_in_the_lists_and_in_search_results(page, page_log, site_url, papers):
    visit(page, site_url + "list/")
    stars = page.locator("article li .digest-star")
    assert stars.count() == len(papers)
    stars.nth(0).click()
    starred = page.locator("article li .digest-star").nth(0).evaluate("b => b.getAttribute('data-paper')")
    paper = by_id(papers)[starred]
    # the same paper found by search shows its star filled, and can be unstarred there
    page.evaluate(SEARCH_JS, paper["title"])
    result = page.locator(f"#digest-search-results [role=option] .digest-search__star[data-paper='{starred}']").first
    result.wait_for()
    assert result.get_attribute("data-starred") == "true" and result.inner_text() == "\u2605"
    result.click()
    assert result.get_attribute("data-starred") == "false" and result.inner_text() == "\u2606"
    assert page.locator(f"article li .digest-star[data-paper='{starred}']").get_attribute("aria-pressed") == "false"
    # a click on the star stars, it does not open the paper
    assert urlsplit(page.url).path == "/list/"
    assert page_log.problems() == []


def test_export_and_import_carry_the_list_to_another_browser(open_page, page_log, site_url, papers, tmp_path):
    page = open_page()
    chosen = papers[:2]
    for p in chosen:
        visit(page, site_url + p["url"])
        page.locator("article h1 .digest-star").click()
    visit(page, site_url + "reading-list/")
    page.wait_for_selector("#digest-reading-list[data-ready]")
    with page.expect_download() as md_download:
        page.get_by_role("button", name="Export as Markdown").click()
    markdown = open(md_download.value.path(), encoding="utf-8").read()
    for p in chosen:
        assert p["url"] in markdown
    with page.expect_download() as download:
        page.get_by_role("button", name="Export as JSON").click()
    exported = tmp_path / "reading-list.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert [p["id"] for p in data["papers"]] == [p["id"] for p in chosen]

    other = open_page()  # a new browser context: its own, empty localStorage
    visit(other, site_url + "reading-list/")
    other.wait_for_selector("#digest-reading-list[data-ready]")
    assert other.locator(".digest-reading-items li").count() == 0
    other.set_input_files("#digest-reading-import", str(exported))
    other.locator(".digest-reading-message").filter(has_text="Imported 2 papers").wait_for()
    assert other.locator(".digest-reading-items a").all_inner_texts() == [p["title"] for p in chosen]
    assert page_log.problems() == []


def test_a_bad_import_says_what_is_wrong_and_imports_nothing(page, page_log, site_url, tmp_path):
    visit(page, site_url + "reading-list/")
    page.wait_for_selector("#digest-reading-list[data-ready]")
    cases = {
        "broken.json": ("{not json", "is not JSON"),
        "other.json": ('{"papers": []}', "is not a reading list"),
        "bad-id.json": ('{"format": "ml-paper-digest-reading-list", "papers": [{"id": "<b>x</b>"}]}',
                        'paper 1: "id" must be a paper id'),
    }
    for name, (content, message) in cases.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        page.set_input_files("#digest-reading-import", str(path))
        error = page.locator(".digest-reading-error")
        error.filter(has_text=message).wait_for()
        assert error.inner_text().startswith(name + ": ")
        assert page.locator(".digest-reading-items li").count() == 0
    assert page_log.problems() == []


def test_a_paper_that_left_the_digest_is_shown_as_gone_with_its_title_as_text(page, page_log, site_url, tmp_path):
    hostile = '<img src=x onerror="window.pwned=1">Gone paper'
    path = tmp_path / "gone.json"
    path.write_text(json.dumps({"format": "ml-paper-digest-reading-list", "version": 1,
                                "papers": [{"id": "0123456789ab", "title": hostile, "venue": "NeurIPS 2019"}]}), encoding="utf-8")
    visit(page, site_url + "reading-list/")
    page.wait_for_selector("#digest-reading-list[data-ready]")
    page.set_input_files("#digest-reading-import", str(path))
    gone = page.locator(".digest-reading-items li.digest-gone")
    gone.wait_for()
    assert gone.locator(".digest-gone-title").inner_text() == hostile
    assert "no longer in the digest" in gone.inner_text()
    assert page.locator(".digest-reading-items img").count() == 0
    assert page.evaluate("() => window.pwned === undefined")
    assert "1 of them no longer in the digest" in page.locator(".digest-reading-summary").inner_text()
    page.reload()
    page.wait_for_selector("#digest-reading-list[data-ready]")
    assert page.locator(".digest-reading-items li.digest-gone").count() == 1  # kept, not dropped
    gone.locator(".digest-remove").click()
    assert page.locator(".digest-reading-items li").count() == 0
    assert page_log.problems() == []


# -- everyone -------------------------------------------------------------------


@pytest.mark.parametrize("which", ["map/", "reading-list/"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violations(open_page, page_log, site_url, axe_source, which, scheme):
    page = open_page(color_scheme=scheme)
    visit(page, site_url + which)
    page.wait_for_selector("[data-ready]")
    serious = serious_violations(page, axe_source)
    assert serious == [], f"{which} ({scheme}):\n" + describe(serious)
    assert page_log.problems() == []


@pytest.mark.parametrize("which", ["map/", "reading-list/"])
def test_nothing_scrolls_sideways_on_a_phone(open_page, page_log, site_url, which):
    page = open_page(viewport=PHONE)
    visit(page, site_url + which)
    page.wait_for_selector("[data-ready]")
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    assert page_log.problems() == []


# -- links to the map -------------------------------------------------------------


def test_a_paper_page_leads_to_its_place_on_the_map(page, page_log, site_url, papers):
    paper = papers[-1]
    visit(page, site_url + paper["url"])
    page.get_by_role("link", name="On the map").click()
    page.wait_for_selector("#digest-map[data-ready]")
    assert page.url.endswith("/map/?paper=" + paper["id"])
    assert page.locator(".digest-map-card a").inner_text() == paper["title"]
    assert page_log.problems() == []


def test_a_topic_page_leads_to_the_map_filtered_to_it(page, page_log, site_url, papers):
    paper = papers[0]
    visit(page, site_url + paper["url"])
    page.locator(".digest-topics a.md-tag").first.click()
    wait_ready(page)
    name = page.locator("article h1").first.inner_text().strip()
    page.get_by_role("link", name="Show them on the map").click()
    page.wait_for_selector("#digest-map[data-ready]")
    n = sum(name in p["tags"] for p in papers)
    assert page.locator(".digest-map-status").inner_text() == f"{n} of {len(papers)} papers match in {name}."
    assert page_log.problems() == []


def test_the_home_page_previews_the_map_and_stars_its_newest_papers(page, page_log, site_url, papers):
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.set_viewport_size({"width": 1280, "height": 500})
    visit(page, site_url)
    preview = page.locator("a.digest-map-preview-link")
    assert preview.inner_text().strip() == f"Open the map of all {len(papers)} papers"
    page.wait_for_timeout(300)
    # map.json (megabytes in a large digest) and map.js wait until the preview comes near
    assert not [u for u in asked if u.endswith("/map.json") or u.endswith("/map.js")]
    preview.scroll_into_view_if_needed()
    # then it is drawn (map.json may come from the cache an earlier test's page filled)
    page.wait_for_function("() => document.querySelector('.digest-map-preview canvas') && document.querySelector('.digest-map-preview canvas').width > 0")
    newest = page.locator("h2#newest-additions + ul > li")
    assert newest.count() == min(10, len(papers))
    assert newest.locator(".digest-star").count() == newest.count()
    assert [u for u in asked if u.endswith("/assets/map.js")]
    preview.click()
    page.wait_for_selector("#digest-map[data-ready]")
    assert page_log.problems() == []


def test_a_paper_page_does_not_load_the_map(page, page_log, site_url, papers):
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    visit(page, f"{site_url}{papers[0]['url']}")
    page.wait_for_timeout(300)
    assert [u for u in asked if u.endswith("/assets/reading-list.js")]
    assert not [u for u in asked if u.endswith("/map.js") or u.endswith("/map.json")]
    assert page_log.problems() == []


# -- storage that refuses writes ---------------------------------------------------

# Fills this origin's localStorage until the browser refuses more: a full origin, as on
# GitHub Pages, where every project site of an owner shares one. Returns the bytes held.
FILL_STORAGE = """() => {
  let size = 1 << 20, n = 0, held = 0;
  while (size >= 16) {
    try { localStorage.setItem('filler-' + n++, 'x'.repeat(size)); held += size; }
    catch (e) { size >>= 1; }
  }
  try { localStorage.setItem('filler-probe', 'x'.repeat(16)); return -1; } catch (e) { return held; }
}"""


def test_a_star_on_a_full_origin_tells_the_reader_and_stays_off(page, page_log, site_url, papers):
    visit(page, site_url + papers[0]["url"])
    assert page.evaluate(FILL_STORAGE) > 0, "localStorage never refused a write"
    star = "article h1 .digest-star"
    page.locator(star).click()
    alert = page.locator(".digest-storage-alert[role=alert]")
    alert.wait_for(timeout=2000)
    assert "not changed" in alert.inner_text() and "full" in alert.inner_text()
    assert star_state(page, star) == "false"
    assert page_log.problems() == []


def test_an_import_that_does_not_fit_says_nothing_was_imported(page, page_log, site_url, papers, tmp_path):
    path = tmp_path / "list.json"
    entries = [{"id": p["id"], "title": p["title"]} for p in papers[:3]]
    path.write_text(json.dumps({"format": "ml-paper-digest-reading-list", "version": 1, "papers": entries}), encoding="utf-8")
    visit(page, site_url + "reading-list/")
    page.wait_for_selector("#digest-reading-list[data-ready]")
    assert page.evaluate(FILL_STORAGE) > 0, "localStorage never refused a write"
    page.set_input_files("#digest-reading-import", str(path))
    error = page.locator(".digest-reading-error")
    error.filter(has_text="nothing was imported").wait_for(timeout=2000)
    assert "full" in error.inner_text()
    assert "Imported 3" not in page.locator(".digest-reading-message").inner_text()
    assert page.locator(".digest-reading-items li").count() == 0
    assert page_log.problems() == []


# -- bounded work from a link ------------------------------------------------------


def _prefixes(text: str) -> list[str]:
    """Every distinct prefix of the words of ``text``, folded as the map folds them."""
    out: list[str] = []
    for word in re.findall(r"[^\W_]+", text.lower()):
        for k in range(1, len(word) + 1):
            if word[:k] not in out:
                out.append(word[:k])
    return out


def test_only_the_first_32_distinct_highlight_words_count(page, page_log, site_url, papers):
    # each highlight word is looked for in every paper on each keystroke: a link's 4,000
    # words took seconds a keystroke, so words are deduplicated and past the 32nd left out
    paper = max(papers, key=lambda p: (len(_prefixes(p["title"])), p["id"]))
    words = _prefixes(paper["title"])[:32]
    assert len(words) == 32, "no mission title has 32 word prefixes"
    open_map(page, site_url, "?highlight=" + "+".join(words + ["zzqqxxnotaword"]))
    assert paper["title"] in page.locator(".digest-map-list a").all_inner_texts()
    # a repeated word is one word: repeats cannot push the others out
    open_map(page, site_url, "?highlight=" + "+".join([words[0]] * 40 + ["zzqqxxnotaword"]))
    assert page.locator(".digest-map-status").inner_text().startswith(f"0 of {len(papers)} papers match")
    assert page_log.problems() == []


# -- the map explains itself (issue 30) ----------------------------------------------

# Added before a page's scripts: every layout shift not caused by input, summed (CLS as the
# Layout Instability API reports it, without Lighthouse's session windows: an upper bound).
CLS_OBSERVER = """window.__cls = 0; new PerformanceObserver(list => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["390px", "1280px"])
def test_the_map_page_does_not_move_when_the_map_is_drawn(open_page, page_log, site_url, viewport, record_property):
    page = open_page(viewport=viewport)
    page.add_init_script(CLS_OBSERVER)
    open_map(page, site_url)
    page.wait_for_timeout(500)  # a frame or two after the drawing
    cls = page.evaluate("() => window.__cls")
    record_property("cls", cls)
    assert cls <= 0.05, f"cumulative layout shift {cls:.3f} at {viewport['width']} px"
    assert page_log.problems() == []


def test_the_legend_names_each_colour_and_its_keys_filter_the_map(page, page_log, site_url, papers, map_data):
    open_map(page, site_url)
    keys = page.locator("button.digest-legend-key")
    assert keys.count() >= 1
    first = {}
    for p in papers:
        first[p["tags"][0] if p["tags"] else None] = first.get(p["tags"][0] if p["tags"] else None, 0) + 1
    names = {t["slug"]: t["name"] for t in map_data["topics"]}
    index = {t["slug"]: i for i, t in enumerate(map_data["topics"])}
    key = keys.first
    slug = key.get_attribute("data-topic")
    # the most common colour first, counted; its swatch is the colour the map draws the topic in
    assert " ".join(key.inner_text().split()) == f"{names[slug]} {first[names[slug]]}"
    swatch = key.locator(".digest-swatch").evaluate("s => getComputedStyle(s).backgroundColor")
    assert swatch == "rgb({}, {}, {})".format(*_hsl(index[slug]))
    key.click()
    n = sum(names[slug] in p["tags"] for p in papers)
    assert page.locator(".digest-map-status").inner_text() == f"{n} of {len(papers)} papers match in {names[slug]}."
    assert key.get_attribute("aria-pressed") == "true" and f"topic={slug}" in page.url
    assert page.locator("#digest-map-topic").input_value() == slug
    key.click()  # again: the whole map
    assert page.locator(".digest-map-status").inner_text() == f"{len(papers)} papers."
    assert key.get_attribute("aria-pressed") == "false"
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_regions_are_labelled_without_overlap(page, page_log, site_url):
    """Labels are drawn into the canvas; the page keeps the placed ones (text and box)."""
    cols, rows = 60, 60
    topics = [{"name": f"Topic {i}", "slug": f"topic-{i}"} for i in range(4)]
    # four quadrants, one topic each
    big = {"version": 1, "span": 1.0, "topics": topics, "venues": [{"name": "V 2026", "slug": "v-2026"}], "aliases": {},
           "papers": [[f"{i:012x}", (i % cols) * 10000 // (cols - 1), (i // cols) * 10000 // (rows - 1),
                       [(2 if (i // cols) >= rows // 2 else 0) + (1 if (i % cols) >= cols // 2 else 0)], 0, f"Paper {i}"]
                      for i in range(cols * rows)]}
    page.route("**/map.json", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(big)))
    open_map(page, site_url)
    page.wait_for_function("() => window.digestMap.placed.length > 0")
    placed = page.evaluate("() => window.digestMap.placed")
    assert {p["text"] for p in placed} == {t["name"] for t in topics}
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert a["x1"] < b["x0"] or b["x1"] < a["x0"] or a["y1"] < b["y0"] or b["y1"] < a["y0"], (a, b)
    # zoomed in, the labels stay the same size on screen and stay apart
    page.evaluate("() => { const m = window.digestMap; m.zoomAt(6, m.painter.w / 4, m.painter.h / 4); }")
    page.wait_for_timeout(100)
    zoomed = page.evaluate("() => window.digestMap.placed")
    assert zoomed and all(abs((z["y1"] - z["y0"]) - (placed[0]["y1"] - placed[0]["y0"])) < 0.5 for z in zoomed)
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_a_tap_names_the_paper_and_a_second_tap_opens_it(open_page, page_log, site_url, papers, map_data):
    page = open_page(viewport=PHONE)
    row = loneliest(map_data)
    paper = by_id(papers)[row[0]]
    open_map(page, site_url)
    page.evaluate("() => document.querySelector('.digest-map-canvas').scrollIntoView({block: 'center'})")
    x, y = screen_point(page, paper["id"])
    tap = """([x, y]) => { const c = document.querySelector('.digest-map-canvas');
      for (const type of ['pointerdown', 'pointerup']) c.dispatchEvent(new PointerEvent(type,
        {pointerId: 7, pointerType: 'touch', clientX: x, clientY: y, bubbles: true, isPrimary: true})); }"""
    page.evaluate(tap, [x + 1, y + 1])
    tip = page.locator(".digest-map-tip")
    tip.wait_for(state="visible")
    assert tip.locator("strong").inner_text() == paper["title"]
    assert "Tap again" in tip.inner_text()
    assert "/map/" in page.url
    page.evaluate(tap, [x + 1, y + 1])
    page.wait_for_url(re.compile(re.escape(paper["url"]) + "$"))
    assert page_log.problems() == []


@pytest.mark.one_builder
def test_the_arrow_keys_go_from_paper_to_paper_and_enter_opens_one(page, page_log, site_url, papers):
    open_map(page, site_url)
    page.locator(".digest-map-canvas").focus()
    page.keyboard.press("ArrowRight")
    first = page.evaluate("() => window.digestMap.cursor")
    assert first >= 0
    tip = page.locator(".digest-map-tip")
    title = page.evaluate("(i) => window.digestMap.d.titles[i]", first)
    assert tip.locator("strong").inner_text() == title
    assert page.locator("#digest-map-said").inner_text().startswith(title)
    page.keyboard.press("ArrowRight")
    second = page.evaluate("() => window.digestMap.cursor")
    xs = page.evaluate("([a, b]) => [window.digestMap.d.xs[a], window.digestMap.d.xs[b]]", [first, second])
    if second != first:
        assert xs[1] > xs[0]  # to the right
    url = page.evaluate("(i) => new URL('papers/' + window.digestMap.d.ids[i] + '/', window.digestMap.root).pathname", second)
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(url) + "$"))
    assert page_log.problems() == []
