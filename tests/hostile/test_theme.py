"""Seed text that spells markup, through the theme's features in a real Chromium: it stays text.

Material builds some of its widgets from text it reads off the page: with
``content.tooltips`` on, the header's ellipsised page title (a venue name, a derived
title) became a tooltip through ``innerHTML``, and hovering it ran the seed's
``<img onerror>`` (issue 23). The site here is built from the seeds of
``seeds/theme/``: a venue header and an abstract whose derived title carry such
payloads. At a phone's, a tablet's and a small laptop's width, on the paper, venue and
topic pages that show them, the test scrolls until the header shows the page title,
then hovers and focuses every element holding the seed's text, and fails on any dialog,
any request for the payload's image, and any element of the payload's making (an
``<img>``, ``<iframe>``, ``<svg>`` or anything with an ``on*`` attribute) in the DOM,
even one that came and went. Each width has a tab of its own, and the three tabs take
their steps side by side, so that their waits after each hover and focus overlap.
"""
from __future__ import annotations

import functools
import http.server
import threading
from urllib.parse import urlsplit

import pytest
from support import published_papers

pytestmark = pytest.mark.browser

HOST = "127.0.0.1"
WIDTHS = {"phone": 390, "tablet": 768, "laptop": 1024}
PAYLOAD = "<img src=x onerror=alert(document.domain)>"
MARK = "onerror"  # in every piece of text the test must reach

# Installed before any of the page's scripts: every element that the seed's markup would
# make, found in the parsed page or added to it later, at any depth and however briefly.
# (The page's own scripts, as served, are the scanner tests' concern: test_scanner.py.)
WATCH = """
(() => {
  window.__foreign = [];
  const TAGS = new Set(['IMG', 'IFRAME', 'OBJECT', 'EMBED', 'FRAME', 'SVG', 'DETAILS', 'VIDEO', 'AUDIO', 'SCRIPT']);
  const ICONS = 'svg[class^="digest-icon-"], .md-icon svg, .md-logo svg, .katex svg';
  let parsed = false;
  const ours = e => e.tagName === 'SCRIPT' && (!parsed || (e.src && new URL(e.src).origin === location.origin));
  const check = el => {
    if (!(el instanceof Element)) return;
    for (const e of [el, ...el.querySelectorAll('*')]) {
      const tag = e.tagName.toUpperCase();
      if (TAGS.has(tag) && !ours(e) && !e.closest(ICONS)) window.__foreign.push(`<${tag.toLowerCase()}> ${e.outerHTML.slice(0, 160)}`);
      for (const a of e.attributes) if (a.name.startsWith('on')) window.__foreign.push(`${a.name} on <${tag.toLowerCase()}>: ${e.outerHTML.slice(0, 160)}`);
    }
  };
  new MutationObserver(records => {
    if (!parsed) return;
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName.startsWith('on')) check(r.target);
      r.addedNodes.forEach(check);
    }
  }).observe(document, { childList: true, subtree: true, attributes: true });
  document.addEventListener('DOMContentLoaded', () => { check(document.documentElement); parsed = true; });
})();
"""

# The elements holding seed text: those with a text node of their own that holds MARK.
CARRIERS = f"""() => {{
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {{
    const el = n.parentElement;
    if (n.textContent.includes({MARK!r}) && !out.includes(el) && !el.closest('script, style, template')) out.push(el);
  }}
  out.forEach((el, i) => el.setAttribute('data-carrier', String(i)));
  return out.length;
}}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def served_theme_site(theme_site):
    """The theme site (hostile/conftest.py) served on 127.0.0.1: (site, base URL)."""
    handler = functools.partial(_Quiet, directory=str(theme_site.site))
    server = http.server.ThreadingHTTPServer((HOST, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield theme_site, f"http://{HOST}:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def pages_with_seed_text(site) -> list[str]:
    """The payload's paper page, its venue's page, and the topic pages listing it."""
    papers = published_papers(site.site)
    titled = [p for p in papers if PAYLOAD in p["title"]]
    venued = [p for p in papers if PAYLOAD in p["venue"]]
    # the seeds must really carry the payload into a derived title and a venue name
    assert titled and venued, [(p["title"], p["venue"]) for p in papers]
    urls = [p["url"] for p in titled + venued]
    for p in titled + venued:
        page = (site.site / p["url"] / "index.html").read_text(encoding="utf-8")
        urls += sorted({href for href in _hrefs(page) if href.startswith(("venues/", "topics/"))})
    return list(dict.fromkeys(urls))


def _hrefs(html: str) -> set[str]:
    import re

    # paper pages link their venue and topics as ../../venues/x/ and ../../topics/y/
    return {m.removeprefix("../../") for m in re.findall(r'href="((?:\.\./)*(?:venues|topics)/[^"/]+/)"', html)}


def show_title_in_header(page) -> str:
    """Scroll until Material's header shows the page's title (it does once the <h1> is
    above the window); returns the title it shows."""
    page.evaluate("""() => {
      document.body.style.paddingBottom = '3000px';  // room to scroll on a short page
      const h1 = document.querySelector('article h1');
      window.scrollTo(0, h1.getBoundingClientRect().bottom + window.scrollY + 200);
    }""")
    page.wait_for_selector(".md-header__title--active")
    return page.inner_text(".md-header__topic:last-child .md-ellipsis")


def linger(page, selector: str):
    """Hover, then focus, the element (or the link or control it is in). A generator: it
    yields the milliseconds to wait before its next step (see ``lockstep``)."""
    target = page.locator(selector)
    target.scroll_into_view_if_needed()
    target.hover(force=True)
    yield 300  # a tooltip comes on hover; an <img> in it fails to load within ms
    target.evaluate("""el => {
      const f = el.closest('a, button, [tabindex], input, summary') || el;
      if (!f.hasAttribute('tabindex') && f === el) f.setAttribute('tabindex', '-1');
      f.focus();
    }""")
    yield 100


def lockstep(page, walks: list) -> None:
    """Run the walks (generators yielding milliseconds to wait) side by side: each goes on to
    its next wait, then all wait once, as long as the longest asks. Each walk waits at least
    what it asked for; the three widths' waits, most of this test's time, overlap."""
    walks = list(walks)
    while walks:
        asked = []
        for walk in list(walks):
            try:
                asked.append(next(walk))
            except StopIteration:
                walks.remove(walk)
        if asked:
            page.wait_for_timeout(max(asked))  # Playwright's wait: the pages' events are handled meanwhile


def walk(page, base: str, urls: list[str], name: str, where: list[str], problems: list[str], in_header: list[str]):
    """One width's walk over the pages, in one tab (a generator: see ``lockstep``);
    ``where[0]`` names the page it is on, for the tab's event handlers."""
    for url in urls:
        where[0] = f"{url} ({name})"
        page.mouse.move(0, 0)  # off the page, as in a new tab
        page.goto(base + url, wait_until="load")
        page.wait_for_function("() => typeof document$ !== 'undefined'")
        title = page.inner_text("article h1")
        header = show_title_in_header(page)
        if PAYLOAD in title:
            assert PAYLOAD in header, f"{where[0]}: the header shows {header!r}, not the seed's text"
            in_header.append(url)
        yield from linger(page, ".md-header__topic:last-child .md-ellipsis")
        page.evaluate("window.scrollTo(0, 0)")
        carriers = page.evaluate(CARRIERS)
        assert carriers, f"{where[0]}: no element holds the seed's text"
        for i in range(carriers):
            yield from linger(page, f'[data-carrier="{i}"]')
        show_title_in_header(page)
        yield from linger(page, ".md-header__topic:last-child .md-ellipsis")
        problems.extend(f"{where[0]}: {f}" for f in page.evaluate("window.__foreign"))


def test_hovering_and_focusing_seed_text_makes_no_markup(browser, served_theme_site):
    """At each width, in a tab of its own; the three tabs walk side by side (``lockstep``)."""
    site, base = served_theme_site
    urls = pages_with_seed_text(site)
    assert any(u.startswith("venues/") for u in urls) and any(u.startswith("topics/") for u in urls), urls
    problems: list[str] = []
    in_header: dict[str, list[str]] = {name: [] for name in WIDTHS}  # the pages whose header showed the payload
    contexts, walks = [], []
    try:
        for name, width in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": 800}, service_workers="block")
            contexts.append(context)
            context.add_init_script(WATCH)
            context.route("**/*", lambda r: r.abort() if urlsplit(r.request.url).hostname != HOST else r.continue_())
            page = context.new_page()
            where = [f"({name})"]
            page.on("dialog", lambda d, where=where: (problems.append(f"{where[0]}: dialog {d.type}: {d.message}"), d.dismiss()))
            page.on("pageerror", lambda e, where=where: problems.append(f"{where[0]}: uncaught {e}"))
            page.on("request", lambda r, where=where: urlsplit(r.url).path.endswith("/x")
                    and problems.append(f"{where[0]}: the payload's image was requested: {r.url}"))
            walks.append(walk(page, base, urls, name, where, problems, in_header[name]))
        lockstep(contexts[0].pages[0], walks)
    finally:
        for context in contexts:
            context.close()
    for name, shown in in_header.items():
        assert {u.split("/")[0] for u in shown} == {"papers", "venues"}, (name, shown)
    assert not problems, "\n".join(problems)
