"""The hostile site in headless Chromium: nothing runs, nothing is fetched, payloads read as text.

Every paper page is opened (served from 127.0.0.1, every other host aborted), the
mouse passes over the abstract and focus moves through the page, then: no dialog
opened, no request left 127.0.0.1, no console error or uncaught exception, the live
DOM (after KaTeX ran) holds no script URL and no markup from the seed, and the page
does not scroll sideways on a phone. Screenshots go to /tmp/hostile-<id>.png.
"""
from __future__ import annotations

import functools
import html
import http.server
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from support import published_papers

pytestmark = pytest.mark.browser

HOST = "127.0.0.1"
# DIGEST_SCREENSHOTS=DIR keeps a full-page screenshot of every hostile paper page there, to
# look at; off by default: they were most of this test's 100 s and nothing reads them.
SCREENSHOTS = Path(os.environ["DIGEST_SCREENSHOTS"]) if os.environ.get("DIGEST_SCREENSHOTS") else None
PHONE = {"width": 390, "height": 844}

# Run in the page after it settled: what the seed might have smuggled into the live DOM.
LIVE_DOM_CHECK = """
() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const v = a.value.replace(/[\\x00-\\x20]/g, '').toLowerCase();
      if (/^(javascript|data|vbscript):/.test(v) && ['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name)) {
        bad.push(`${el.tagName} ${a.name}=${a.value}`);
      }
      if (a.name.startsWith('on') && el.closest('.digest-abstract, h1, .digest-links, .admonition')) {
        bad.push(`${el.tagName} ${a.name}=${a.value}`);
      }
    }
  }
  const abstract = document.querySelector('.digest-abstract');
  for (const el of abstract.querySelectorAll('*')) {
    // KaTeX's own rendering of the math (a formula, its display wrapper, or an error shown as text)
    if (el.closest('.katex, .katex-display, .katex-error')) continue;
    const ok = ['P', 'EM', 'STRONG', 'CODE', 'A'].includes(el.tagName)
      || (el.tagName === 'SPAN' && (el.classList.contains('arithmatex') || el.classList.contains('digest-math-source')));
    if (!ok) bad.push(`in the abstract: <${el.tagName.toLowerCase()} ${el.getAttributeNames().join(' ')}>`);
  }
  for (const el of document.querySelectorAll('.digest-abstract .katex a, .digest-abstract .katex [href]')) {
    bad.push(`KaTeX made a link: ${el.outerHTML.slice(0, 200)}`);
  }
  // Material's content.tooltips puts an element's title into the page as HTML (innerHTML):
  // only the generator's own notes may have one (KaTeX's error titles quote the formula)
  for (const el of abstract.querySelectorAll('[title]')) {
    if (!el.matches('span.digest-math-source')) bad.push(`a title in the abstract: ${el.outerHTML.slice(0, 200)}`);
  }
  return bad;
}
"""


# Elements reaching past the right edge of the viewport (long tokens must wrap).
OVERFLOW = """
() => {
  const cw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= cw) return [];
  return [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > cw + 0.5)
    .map(el => `${el.tagName.toLowerCase()}.${el.className} right=${el.getBoundingClientRect().right}`)
    .slice(0, 5);
}
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

# Every attribute in the search results that could run script or load a script URL.
ATTRIBUTES = """() => [...document.querySelectorAll('#digest-search-results *')].flatMap(el =>
    [...el.attributes].filter(a => a.name.startsWith('on') || /^\\s*(javascript|data|vbscript):/i.test(a.value))
      .map(a => `in the results: <${el.tagName.toLowerCase()} ${a.name}=${a.value}>`))"""


def _serve(site):
    handler = functools.partial(_Quiet, directory=str(site.site))
    server = http.server.ThreadingHTTPServer((HOST, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{HOST}:{server.server_address[1]}/"


@pytest.fixture(scope="module")
def served(hostile_site):
    server, url = _serve(hostile_site)
    yield url
    server.shutdown()
    server.server_close()


# Listing pages show each paper's first sentence (math included): the same checks, on the list.
LISTING_CHECK = """
() => [...document.querySelectorAll('.digest-list *')].flatMap(el => {
  if (el.closest('.katex, .katex-display, .katex-error')) return [];
  const bad = [...el.attributes].filter(a => a.name.startsWith('on')).map(a => `${el.tagName} ${a.name}`);
  const ok = ['LI', 'A', 'BR', 'P', 'EM', 'STRONG', 'CODE'].includes(el.tagName)
    || (el.tagName === 'SPAN' && ['arithmatex', 'digest-math-source'].some(c => el.classList.contains(c)))
    // reading-list.js: the star after each paper's link, a one-character button (and its glyph)
    || (el.tagName === 'BUTTON' && el.matches('li > a + button.digest-star[data-paper]') && el.textContent.length === 1)
    || (el.tagName === 'SPAN' && el.parentElement.matches('button.digest-star') && el.attributes.length === 1);
  return ok ? bad : bad.concat([`in a listing: <${el.tagName.toLowerCase()} ${el.getAttributeNames().join(' ')}>`]);
})
"""


@pytest.mark.parametrize("which", ["hostile_site", "attack_site"])
def test_hostile_pages_run_nothing(browser, request, which):
    site = request.getfixturevalue(which)
    server, served = _serve(site)
    papers = published_papers(site.site)
    # the venue and topic pages that list a paper (their first sentences hold the seed's text)
    listings = sorted(f"{p.parent.name}/{p.stem}/" for d in ("venues", "topics") for p in (site.docs / d).glob("*.md")
                      if p.stem != "index" and not p.stem.startswith("_")  # not the frames
                      and 'class="digest-list"' in (site.site / d / p.stem / "index.html").read_text(encoding="utf-8"))
    problems: list[str] = []
    context = browser.new_context(viewport=PHONE)
    # One tab walks every page, as a reader's would: a new tab per page (a renderer process
    # started and ended each time) was most of this test's time. Each page is still loaded
    # anew and checked on its own; what one page raised is told under its own address.
    page = context.new_page()
    where = [""]  # the page being checked, for the handlers below

    # Every request is seen (not intercepted: a Python round trip per request made this
    # test take minutes); this machine reaches no other host anyway.
    def request(r):
        if urlsplit(r.url).hostname != HOST and urlsplit(r.url).scheme in ("http", "https", "ws", "wss"):
            problems.append(f"request to another host: {r.url}")

    def open_page(url: str) -> None:
        where[0] = url
        page.mouse.move(0, 0)  # off the page, as in a new tab: the hover below moves onto the abstract
        page.goto(served + url, wait_until="load")
        page.wait_for_function("document.querySelectorAll('.arithmatex:not([data-rendered])').length === 0")

    context.on("request", request)
    page.on("dialog", lambda d: (problems.append(f"{where[0]}: dialog {d.type}: {d.message}"), d.dismiss()))
    page.on("console", lambda m: m.type == "error" and problems.append(f"{where[0]}: console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"{where[0]}: uncaught: {e}"))
    page.on("crash", lambda _: problems.append(f"{where[0]}: the page crashed"))
    try:
        for p in papers:
            open_page(p["url"])
            # Measured before any interaction: Material's search overlay slides in on focus.
            wide = page.evaluate(OVERFLOW)
            if wide:
                problems.append(f"{where[0]}: scrolls sideways on a phone: {wide}")
            page.hover(".digest-abstract")
            for _ in range(8):
                page.keyboard.press("Tab")
            problems += [f"{where[0]}: {b}" for b in page.evaluate(LIVE_DOM_CHECK)]
            shown = " ".join(page.inner_text(".digest-abstract").split())
            if not shown.endswith(p["abstract"].split()[-1]):
                problems.append(f"{where[0]}: the end of the abstract is not shown: {shown[-120:]!r}")
            if page.title() != f"{p['title']} - ML Paper Digest":
                problems.append(f"{where[0]}: the title shows {page.title()!r}")
            if SCREENSHOTS:
                page.screenshot(path=str(SCREENSHOTS / f"hostile-{p['id']}.png"), full_page=True)
        for url in listings:
            open_page(url)
            problems += [f"{url}: {b}" for b in page.evaluate(LISTING_CHECK)]
    finally:
        context.close()
        server.shutdown()
        server.server_close()
    assert len(listings) >= 2, listings
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "needle",
    [
        "<script>alert('script-1')</script>",
        "<img src=x onerror=alert('img-1')>",
        "<!-- this comment is never closed and must not hide the rest",
        "[click here](javascript:alert('mdlink-1'))",
        "\\href{javascript:alert('href-1')}{click me}",
        "&lt;script&gt;alert('ent-1')&lt;/script&gt;",
        "{{ config.extra.repository }}",
        '--8<-- "/etc/passwd"',
        "# A heading at the start",
    ],
)
def test_payloads_read_as_text(browser, served, hostile_site, needle):
    papers = published_papers(hostile_site.site)
    [paper] = [p for p in papers if needle in p["abstract"]]
    page = browser.new_page()
    try:
        page.route("**/*", lambda r: r.abort() if urlsplit(r.request.url).hostname not in (HOST, None) else r.continue_())
        page.goto(served + paper["url"], wait_until="networkidle")
        assert needle in " ".join(page.inner_text(".digest-abstract").split())
    finally:
        page.close()


def test_search_results_show_hostile_abstracts_as_text(browser, served, hostile_site):
    """Every hostile paper in one search answer: titles and snippets are text, nothing runs."""
    from support import SEARCH_JS

    papers = published_papers(hostile_site.site)
    titles = {"/" + p["url"]: " ".join(html.unescape(p["title"]).split()) for p in papers}
    problems: list[str] = []
    page = browser.new_page()
    try:
        page.route("**/*", lambda r: r.abort() if urlsplit(r.request.url).hostname not in (HOST, None) else r.continue_())
        page.on("dialog", lambda d: (problems.append(f"dialog {d.type}: {d.message}"), d.dismiss()))
        page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
        page.goto(served, wait_until="networkidle")
        found = {}

        def search(query: str) -> None:
            for r in page.evaluate(SEARCH_JS, query)["results"]:
                found[urlsplit(r["href"]).path] = r
                # search.js builds a result of spans (title, venue and topics, snippet, star) and marks
                extra = set(r["elements"]) - {"span", "mark"}
                if extra:
                    problems.append(f"{r['href']}: elements in a result: {sorted(extra)}")
            problems.extend(page.evaluate(ATTRIBUTES))

        search("stays visible")  # every hostile abstract ends so; the worker lists the best 20
        for path, title in titles.items():  # the rest by the words of their titles
            if path not in found:
                search(" ".join(re.findall(r"[^\W_]+", title)[:12]) + " stays visible")
        for path, title in titles.items():
            if path not in found:
                problems.append(f"{path}: not found by 'stays visible'")
            elif " ".join(found[path]["title"].split()) != title:
                problems.append(f"{path}: result title {found[path]['title']!r}, paper title {title!r}")
    finally:
        page.close()
    assert not problems, "\n".join(problems)
