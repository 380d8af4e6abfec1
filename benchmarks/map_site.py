"""The map page in Chromium with 20,000 papers: load, draw, hover, and the reading list beside it.

Builds the mission site (seeds/), then puts in it the map.json of N synthetic papers
(benchmarks/corpus.py: real abstracts and varied copies, laid out by generator/derive/map_layout.py,
titled and tagged by the generator's own stages), serves it on 127.0.0.1 and measures in
headless Chromium:

- map.json size, raw and gzipped;
- from navigation to the map drawn (fetch, decode, index, first frame);
- one full redraw of every point (median of 30, at the start view and zoomed in 8x),
  which is what a wheel step or a drag frame costs (16.7 ms is one frame at 60 Hz);
- picking the point under the pointer (median of 500);
- filtering by a topic and highlighting a word (median of 20 each);
- the reading list page with 20 starred papers, from navigation to its list shown.

With --screenshots DIR it also saves the map (highlighting a word, and centred on a
paper), the home page, a paper page and the reading list at desktop (1280x800) and phone
(390x844) width, light and dark. Prints a table; asserts nothing.

    .venv/bin/python -m benchmarks.map_site [--papers 20000] [--screenshots DIR]
"""
from __future__ import annotations

import argparse
import gzip
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpus import abstracts
from generator.core.model import Digest, Paper, Source
from generator.derive.map_layout import layout_texts
from generator.derive.tag import load_taxonomy, tag_texts
from generator.derive.title import first_titles
from generator.pages.explore import render_map_json
from generator.seeds.identify import paper_id

REPO = Path(__file__).resolve().parents[1]

MEASURE = """async () => {
  const m = window.digestMap, d = m.d, p = m.painter;
  const med = a => a.sort((x, y) => x - y)[a.length >> 1];
  const time = (fn, n) => { const t = []; for (let i = 0; i < n; i++) { const s = performance.now(); fn(i); t.push(performance.now() - s); } return med(t); };
  // getImageData waits for the canvas to be painted: the time includes rasterising.
  const draw = () => { p.draw(d, m.view, m.mask, m.radius(), [m.focus, m.hover]); p.ctx.getImageData(0, 0, 1, 1); };
  const full = time(draw, 30);
  const saved = {...m.view};
  m.view.k *= 8;
  const zoomed = time(draw, 30);
  m.view = saved;
  const pick = time(i => m.pick((i * 37) % p.w, (i * 53) % p.h), 500);
  const slug = d.topics[d.first[0]].slug;
  const topic = time(i => { m.topic.value = i % 2 ? slug : ''; m.filter(false); }, 20);
  m.topic.value = '';
  const word = d.titles[0].split(/\\s+/).find(w => w.length > 4) || 'model';
  const words = time(i => { m.q.value = i % 2 ? word : ''; m.filter(false); }, 20);
  return {full, zoomed, pick, topic, words, n: d.n};
}"""


def synthetic_digest(n: int) -> tuple[Digest, dict, float]:
    texts = [a.text for a in abstracts(n)]
    venues = [(a.venue, a.year) for a in abstracts(n)]
    topics = load_taxonomy()
    tags = tag_texts(texts, topics)
    titles = first_titles(texts)
    papers = [
        Paper(id=paper_id(t), text=t, venue=v, year=y, sources=(Source("seeds/bench.txt", k + 1),), title=title, tags=tg)
        for k, (t, (v, y), title, (tg, _)) in enumerate(zip(texts, venues, titles, tags))
    ]
    start = time.perf_counter()
    coords, info = layout_texts([p.id for p in papers], texts)
    print(f"layout of {n} papers: {time.perf_counter() - start:.1f}s", file=sys.stderr)
    return Digest(papers, topics), coords, info.span


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=20000)
    ap.add_argument("--screenshots", type=Path)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    # the browser tests' conftest imports its neighbour `support` as pytest would, from tests/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from tests.browser.conftest import serve
    from tests.support import CHROMIUM, CHROMIUM_ARGS, build_site

    tmp = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(REPO / "seeds", tmp / "seeds")
        site = build_site(tmp / "site-root", [tmp / "seeds"]).site
        digest, coords, span = synthetic_digest(args.papers)
        data = render_map_json(digest, coords, span).encode("utf-8")
        (site / "map.json").write_bytes(data)
        ids = [p.id for p in digest.visible()][:20]
        server, url = serve(site)
        rows = [("papers on the map", f"{args.papers}", ""),
                ("map.json raw (MB)", f"{len(data) / 1e6:.2f}", ""),
                ("map.json gzipped (MB)", f"{len(gzip.compress(data)) / 1e6:.2f}", "")]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            start = time.perf_counter()
            page.goto(url + "map/")
            page.wait_for_selector("#digest-map[data-ready]", timeout=60_000)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            loaded = time.perf_counter() - start
            m = page.evaluate(MEASURE)
            rows += [
                ("map page to first frame (s)", f"{loaded:.2f}", ""),
                ("redraw, whole map (ms, median)", f"{m['full']:.1f}", "< 16.7 for 60 frames/s"),
                ("redraw, zoomed in 8x (ms, median)", f"{m['zoomed']:.1f}", "< 16.7"),
                ("pick under the pointer (ms, median)", f"{m['pick']:.3f}", ""),
                ("filter by topic (ms, median)", f"{m['topic']:.1f}", ""),
                ("highlight a word (ms, median)", f"{m['words']:.1f}", ""),
            ]
            page.evaluate("(ids) => localStorage.setItem('ml-paper-digest.reading-list', JSON.stringify({version: 1, "
                          "papers: ids.map(id => ({id, title: '', venue: '', added: ''}))}))", ids)
            start = time.perf_counter()
            page.goto(url + "reading-list/")
            page.wait_for_selector("#digest-reading-list[data-ready]", timeout=60_000)
            rows.append(("reading list of 20 to shown (s)", f"{time.perf_counter() - start:.2f}", ""))
            if args.screenshots:
                args.screenshots.mkdir(parents=True, exist_ok=True)
                paper = digest.visible()[0].id
                mission = [p.name for p in (site / "papers").iterdir() if (p / "index.html").is_file()]
                pages = {
                    "map": ("map/?highlight=diffusion", "#digest-map[data-ready]"),
                    "map-paper": (f"map/#{paper}", "#digest-map[data-ready]"),
                    "home": ("", "article h1"),
                    "paper": (f"papers/{sorted(mission)[0]}/", "article h1 .digest-star"),
                    "reading-list": ("reading-list/", "#digest-reading-list[data-ready]"),
                }
                for scheme in ("light", "dark"):
                    for name, viewport in (("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})):
                        context = browser.new_context(viewport=viewport, color_scheme=scheme)
                        # a reading list with two papers of the map and one that left the digest
                        context.add_init_script(
                            "localStorage.setItem('ml-paper-digest.reading-list', JSON.stringify({version: 1, papers: ["
                            + ",".join(f"{{id: '{i}', title: '', venue: '', added: '2026-12-01'}}" for i in ids[:2])
                            + ", {id: '0123456789ab', title: 'A paper that was withdrawn', venue: 'NeurIPS 2019', added: '2026-11-01'}]}))")
                        for what, (path, ready) in pages.items():
                            shot = context.new_page()
                            shot.goto(url + path)
                            shot.wait_for_selector(ready, timeout=60_000)
                            shot.wait_for_timeout(300)
                            shot.screenshot(path=str(args.screenshots / f"{what}-{name}-{scheme}.png"))
                            shot.close()
                        context.close()
            browser.close()
        server.shutdown()
        width = max(len(r[0]) for r in rows)
        for name, value, target in rows:
            print(f"{name:<{width}}  {value:>8}  {target}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
