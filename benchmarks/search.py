"""How fast a reader gets search answers on a digest of 3,300 (or --papers N) papers, in Chromium.

Builds a site from a synthetic seed set (benchmarks/corpus.py: real abstracts,
interleaved so none is a duplicate), serves it on 127.0.0.1 and measures, with the
browser's own clock (performance.now(), zero at navigation start):

- first answer: a reader opens the home page and types a query the moment the
  search box works (assets/search.js has run); the time from navigation start
  until the first results are on screen. This includes fetching the index files the
  query needs (generator/pages/search_index.py) in the search worker (docs/assets/search-worker.js),
  and the bytes transferred until then (the page, its assets and the index files).
- later queries: on the same page, the time from the keystroke to the results of
  each new query (median of the queries).

Targets: first answer <= 1.0 s up to 20,000 papers and <= 1.5 s at 50,000, with at most
600 KB transferred; median later query <= 0.1 s; exits 1 when a time is missed.

    .venv/bin/python -m benchmarks.search [--papers 3300] [--runs 3] [--site DIR] [--keep]
"""
from __future__ import annotations

import argparse
import functools
import http.server
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from benchmarks.corpus import write_seeds
from benchmarks.site import prepare
from tests.support import CHROMIUM, CHROMIUM_ARGS, SEARCH_JS, published_papers  # the browser tests' Chromium and flags

REPO = Path(__file__).resolve().parents[1]

FIRST_QUERY = "neural radiance fields"
QUERIES = [
    "music transcription",
    "signed distance function",
    "diffusion model",
    "reinforcement learning",
    "beat tracking",
    "large language models",
    "novel view synthesis",
    "chord recognition",
    "dynamic scenes",
    "implicit surface reconstruction",
    "source separation",
    "unlearning",
    "symbolic music generation",
    "hash encoding",
]
FIRST_TARGET = 1.0       # up to 20,000 papers
FIRST_TARGET_50K = 1.5
BYTES_TARGET = 600_000   # everything the page fetched before the first answer
QUERY_TARGET = 0.1
log = logging.getLogger("bench.search")

# Installed before any page script: marks the moment results appear on screen (the
# animation frame after search.js puts them into its listbox, which it builds on load).
OBSERVE_RESULTS = """
window.__bench = {first: null};
document.addEventListener('DOMContentLoaded', () => setTimeout(() => {
  const list = document.querySelector('#digest-search-results');
  if (!list) return;
  new MutationObserver((_, obs) => {
    if (list.children.length && window.__bench.first === null) {
      window.__bench.first = -1;
      requestAnimationFrame(() => { window.__bench.first = performance.now(); });
      obs.disconnect();
    }
  }).observe(list, {childList: true});
}));
"""

# A reader opens the box and types: search.js answers each input event.
TYPE = """(q) => {
  document.querySelector('.digest-search__open').click();
  const input = document.querySelector('.digest-search__input');
  input.value = q;
  input.dispatchEvent(new Event('input', {bubbles: true}));
  return performance.now();
}"""

QUERY = """async (q) => {
  const input = document.querySelector('.digest-search__input');
  const list = document.querySelector('#digest-search-results');
  const dialog = document.querySelector('.digest-search__dialog');
  const before = list.firstElementChild, answers = dialog.dataset.digestAnswers;
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer for ' + q)), 10000);
    let t0;
    /* results on screen, or the answer that there are none (the summary) */
    new MutationObserver((_, obs) => {
      if ((list.firstElementChild && list.firstElementChild !== before) || dialog.dataset.digestAnswers !== answers) {
        obs.disconnect();
        requestAnimationFrame(() => { clearTimeout(timer); resolve([performance.now() - t0, list.children.length]); });
      }
    }).observe(dialog, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-digest-answers']});
    t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
}"""


def quality(browser, url: str, site: Path) -> dict:
    """Each mission paper's rank for the rarest 4-word phrase of its abstract, typed without
    and with quotes (benchmarks/pagefind_side.py picks the phrases, for both engines)."""
    from benchmarks.pagefind_side import mission_papers, rarest_phrases

    papers = published_papers(site)
    targets = mission_papers(papers)
    phrases = rarest_phrases(targets, papers)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    out = {"plain": [], "quoted": []}
    try:
        page = context.new_page()
        page.goto(url)
        page.locator(".digest-search__open:not([hidden])").wait_for()
        for p in targets:
            phrase = phrases[p["id"]][0]
            want = "/" + p["url"]
            for kind, q in (("plain", phrase), ("quoted", f'"{phrase}"')):
                # the browser tests' helper: types the query, waits, lists every result shown
                got = [urlsplit(urljoin(page.url, r["href"])).path for r in page.evaluate(SEARCH_JS, q)["results"]]
                out[kind].append(got.index(want) + 1 if want in got else None)
    finally:
        context.close()
    return out


def find_chromium() -> str:
    if CHROMIUM is None:
        raise SystemExit("no Chromium found (/usr/bin/chromium, `chromium` or `google-chrome` on PATH)")
    return CHROMIUM


def build_site(dest: Path, papers: int) -> Path:
    """Seeds, generated docs and the built site of ``papers`` papers under ``dest``; returns the site folder."""
    prepare(dest)
    docs = dest / "docs"
    if not (docs / "assets" / "katex" / "katex.min.js").exists():
        raise SystemExit("docs/assets/katex is missing: run `make docs` first (it installs KaTeX)")
    t = time.perf_counter()
    seeds = write_seeds(dest / "seeds", papers)
    log.info("wrote %d seed files in %.1fs", len(seeds), time.perf_counter() - t)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build", "--docs", str(docs), "--seeds", str(dest / "seeds")],
                   cwd=dest, env=env, check=True)
    log.info("generated docs in %.1fs", time.perf_counter() - t)
    t = time.perf_counter()
    # as `make site`: mkdocs build --strict, the paper pages filled into their frame, compaction
    subprocess.run([sys.executable, "-m", "generator", "site", "--config", str(dest / "mkdocs.yml")], cwd=dest, env=env,
                   check=True, capture_output=True)
    log.info("built the site in %.1fs", time.perf_counter() - t)
    return dest / "site"


SENT: list[tuple[float, str, int]] = []  # (epoch seconds, path, body bytes), every response
_SENT_LOCK = threading.Lock()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site and notes what it sent: the worker's own fetches are not in the
    page's Resource Timing, so bytes transferred are counted here."""
    # Persistent connections, as a real host keeps them (HTTP/1.0, the default, opens one per file).
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # or each small response waits out a delayed ACK

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        outputfile.write(data)
        with _SENT_LOCK:
            SENT.append((time.time(), self.path.split("?", 1)[0], len(data)))


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def measure(browser, url: str) -> dict:
    """One cold visit (new browser context, empty cache): first answer, then the later queries."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(OBSERVE_RESULTS)
        with _SENT_LOCK:
            SENT.clear()
        page.goto(url, wait_until="commit")
        # "Ready" = the search button is shown (search.js has run), polled every frame: the
        # moment a reader could open the box and type.
        page.wait_for_function("() => document.querySelector('.digest-search__open:not([hidden])')", polling="raf")
        typed = page.evaluate(TYPE, FIRST_QUERY)
        page.wait_for_function("() => window.__bench.first > 0", timeout=30_000)
        timing = page.evaluate("""() => {
            const nav = performance.getEntriesByType('navigation')[0];
            return {first: window.__bench.first, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd};
        }""")
        origin = page.evaluate("() => performance.timeOrigin") / 1000
        cutoff = origin + timing["first"] / 1000
        with _SENT_LOCK:
            before = [(path, n) for t, path, n in SENT if t <= cutoff]
        timing["bytes"] = sum(n for _, n in before)
        timing["search_bytes"] = sum(n for path, n in before if path.startswith("/search/"))
        timing["search_files"] = sum(1 for path, _ in before if path.startswith("/search/"))
        later = []
        for q in QUERIES:
            ms, shown = page.evaluate(QUERY, q)
            later.append((q, ms / 1000, shown))
        return {**{k: (v / 1000 if k not in ("bytes", "search_bytes", "search_files") and v is not None else v) for k, v in timing.items()},
                "typed": typed / 1000, "later": later}
    finally:
        context.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, default=3300, help="papers in the synthetic digest (default 3300)")
    ap.add_argument("--runs", type=int, default=3, help="cold page loads to measure (default 3)")
    ap.add_argument("--site", type=Path, help="measure this already built site instead of building one")
    ap.add_argument("--keep", action="store_true", help="keep the temporary build folder and print where it is")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)

    tmp = None
    if args.site:
        site = args.site
    else:
        tmp = Path(tempfile.mkdtemp(prefix="bench-search-"))
        site = build_site(tmp, args.papers)
    try:
        count = len(published_papers(site))
        index_mb = sum(f.stat().st_size for f in (site / "search").rglob("*") if f.is_file()) / 1e6
        server, url = serve(site)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            runs = [measure(browser, url) for _ in range(args.runs)]
            ranks = quality(browser, url, site)
            browser.close()
        server.shutdown()
    finally:
        if tmp and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp:
            log.info("kept %s", tmp)

    first = statistics.median(r["first"] for r in runs)
    per_query = [t for r in runs for _, t, _ in r["later"]]
    median_q = statistics.median(per_query)
    load = os.getloadavg()[0]  # a busy machine slows the worker's indexing most
    first_target = FIRST_TARGET if count <= 20_000 else FIRST_TARGET_50K
    print(f"\nSearch on {count} papers (index files {index_mb:.1f} MB in all), {args.runs} cold loads, "
          f"Chromium, load average {load:.1f}\n")
    print(f"{'measure':<44} {'median':>8} {'runs':>24} {'target':>8}")
    print("-" * 88)

    def row(name: str, values: list[float], target: float | None = None) -> None:
        ok = "" if target is None else (" ok" if statistics.median(values) <= target else " MISSED")
        shown = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:<44} {statistics.median(values):>7.3f}s {shown:>24} {'' if target is None else f'{target:.2f}s'}{ok}")

    row("DOMContentLoaded", [r["dcl"] for r in runs])
    row("search box ready, query typed", [r["typed"] for r in runs])
    row("page load -> first answer", [r["first"] for r in runs], first_target)
    row(f"later query (median of {len(QUERIES)} per load)", [statistics.median(t for _, t, _ in r["later"]) for r in runs], QUERY_TARGET)
    kb = statistics.median(r["bytes"] for r in runs) / 1000
    print(f"{'bytes sent up to the first answer':<44} {kb:>6.0f}KB {'':>24} {BYTES_TARGET / 1000:.0f}KB"
          f"{' ok' if kb * 1000 <= BYTES_TARGET else ' MISSED'}")
    print(f"{'  of which search files':<44} {statistics.median(r['search_bytes'] for r in runs) / 1000:>6.0f}KB "
          f"({statistics.median(r['search_files'] for r in runs):.0f} files)")
    print(f"\nlater queries, all loads: median {median_q:.3f}s, slowest {max(per_query):.3f}s")
    for kind, found in ranks.items():
        shown = sorted(r for r in found if r)
        print(f"mission papers first for their rarest phrase, {kind}: {found.count(1)} of {len(found)}; "
              f"median rank {statistics.median(shown) if shown else '-'}, worst {shown[-1] if shown else '-'}, "
              f"not among the results shown: {sum(r is None for r in found)}")
    print("  " + "  ".join(f"{q!r} {t * 1000:.0f}ms" for q, t, _ in runs[-1]["later"]))
    return 0 if first <= first_target and median_q <= QUERY_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
