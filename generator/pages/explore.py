"""Render the pages for exploring the digest: the map's data and page, the reading list page,
and the home page's newest papers and map preview.

Pure, like :mod:`generator.pages.render`: coordinates (from :mod:`generator.derive.map_layout`) and
papers in, ``{relative path: content}`` out. The drawing, the stars and the reading
list itself happen in the reader's browser (``docs/assets/map.js`` and
``docs/assets/reading-list.js``), from ``map.json``.

``map.json`` is compact on purpose (20,000 papers are about 2 MB, most of it
titles)::

    {"version": 1,
     "span": 123.456,                                        # the layout's size before normalising
     "topics": [{"name": "...", "slug": "...", "parent": "<slug>"}, ...],  # taxonomy order; parent if any
     "venues": [{"name": "ICML 2026", "slug": "icml-2026"}, ...],
     "aliases": {"<merged id>": "<paper id>", ...},
     "papers": [["<id>", x, y, [topic indices], venue index, "<title>"], ...]}

x and y are integers from 0 to :data:`GRID` (the normalised layout, quantised: a
step is 1/10,000 of the map's width). Strings are plain text; the browser sets
them with ``textContent``, never as HTML.
"""
from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from generator.core import outputs
from generator.core.markup import esc
from generator.core.model import Digest, Paper, Topic
from generator.pages.frontmatter import NOT_INDEXED, front_matter, html_block, html_page
from generator.seeds.identify import ID_LENGTH
from generator.seeds.read import display_path
from generator.seeds.venues import venue_slug

log = logging.getLogger(__name__)

GRID = 10_000
MAP_JSON, MAP_PAGE, READING_LIST_PAGE = outputs.MAP_JSON, outputs.MAP_PAGE, outputs.READING_LIST_PAGE
FILES = (MAP_JSON, MAP_PAGE, READING_LIST_PAGE)
NEWEST = 10


def quantise(value: float) -> int:
    """A normalised coordinate (-0.5 to 0.5) as an integer from 0 to GRID."""
    return min(GRID, max(0, round((value + 0.5) * GRID)))


def render_map_json(digest: Digest, coordinates: Mapping[str, tuple[float, float]], span: float = 0.0) -> str:
    """map.json: every visible paper with a place, its topics, venue and title; ``span`` is
    the layout's size before normalising, where the next build's layout starts from."""
    papers = [p for p in digest.visible() if p.id in coordinates]
    topic_index = {t.name: i for i, t in enumerate(digest.topics)}
    venues = sorted({(p.venue, p.year) for p in papers}, key=lambda v: (-v[1], v[0].casefold()))
    venue_index = {v: i for i, v in enumerate(venues)}
    rows = []
    aliases = {}
    for p in papers:
        x, y = coordinates[p.id]
        rows.append([p.id, quantise(x), quantise(y), [topic_index[t] for t in p.tags if t in topic_index],
                     venue_index[(p.venue, p.year)], p.title])
        aliases.update((a, p.id) for a in p.aliases)
    data = {
        "version": 1,
        "span": round(span, 3) if math.isfinite(span) else 0.0,  # JSON has no infinity
        # a topic's parent, so that the map's topic filter shows the papers of the topics inside it
        "topics": [{"name": t.name, "slug": t.slug, **({"parent": t.parent} if t.parent else {})} for t in digest.topics],
        "venues": [{"name": f"{v} {y}", "slug": venue_slug(v, y)} for v, y in venues],
        "aliases": dict(sorted(aliases.items())),
        "papers": rows,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_previous(text: str, name: str = MAP_JSON) -> tuple[dict[str, tuple[float, float]], float]:
    """The normalised coordinates of a previous build's map.json (named ``name`` in messages)
    and its span; empty (and 0) when it is not one.

    The deploy restores map.json from a cache, so nothing in it is trusted: a file that
    is not JSON, or not in every part the shape :func:`render_map_json` writes (ids,
    integer places on the grid, indices that point into its lists), is ignored whole; a
    span that no layout of its papers has (:func:`generator.derive.map_layout.plausible_span`: not
    finite, or far too large or small) is ignored alone. Each is said in the log, never
    an error: the map is then laid out from scratch, or from the previous places at the
    typical scale.
    """
    from generator.derive.map_layout import plausible_span  # numpy, only when a build reads its map

    try:
        data = json.loads(text)
    except ValueError as e:
        log.info("%s: not JSON (%s): laying the map out from scratch", name, e)
        return {}, 0.0
    problem = _map_problem(data)
    if problem:
        log.info("%s: %s, which no build writes: laying the map out from scratch", name, problem)
        return {}, 0.0
    out = {row[0]: (row[1] / GRID - 0.5, row[2] / GRID - 0.5) for row in data["papers"]}
    span = data["span"]
    if not out:
        return {}, 0.0
    if not plausible_span(span, len(out)):
        log.info("%s: its span %r is not one a layout of %d papers has: the map starts from its places "
                 "at the typical scale", name, span, len(out))
        return out, 0.0
    return out, float(span)


_ID = re.compile(r"[0-9a-f]{%d}" % ID_LENGTH)
_KEYS = {"version", "span", "topics", "venues", "aliases", "papers"}


def _integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names(value: object, optional: frozenset[str] | set[str] = frozenset()) -> bool:
    """A list of ``{"name": ..., "slug": ...}`` strings (and the ``optional`` keys), as topics and
    venues are written."""
    return isinstance(value, list) and all(
        isinstance(v, dict) and {"name", "slug"} <= v.keys() <= {"name", "slug", *optional}
        and all(isinstance(x, str) for x in v.values()) for v in value)


def _map_problem(data: object) -> str | None:
    """What in a parsed map.json is not as :func:`render_map_json` writes it, or None."""
    if not isinstance(data, dict) or data.keys() != _KEYS or data["version"] != 1 or not _integer(data["version"]):
        return f"it is not a version 1 map with exactly the keys {', '.join(sorted(_KEYS))}"
    if not isinstance(data["span"], (int, float)) or isinstance(data["span"], bool):
        return "its span is not a number"
    if not _names(data["topics"], optional={"parent"}) or not _names(data["venues"]):
        return "its topics or venues are not lists of names and slugs"
    aliases = data["aliases"]
    if not isinstance(aliases, dict) or not all(isinstance(v, str) and _ID.fullmatch(k) and _ID.fullmatch(v)
                                                for k, v in aliases.items()):
        return "its aliases are not paper ids"
    rows = data["papers"]
    if not isinstance(rows, list):
        return "its papers are not a list"
    topics, venues, seen = len(data["topics"]), len(data["venues"]), set()
    for n, row in enumerate(rows, 1):
        if not (isinstance(row, list) and len(row) == 6 and isinstance(row[0], str) and _ID.fullmatch(row[0])
                and row[0] not in seen
                and all(_integer(v) and 0 <= v <= GRID for v in row[1:3])
                and isinstance(row[3], list) and all(_integer(t) and 0 <= t < topics for t in row[3])
                and _integer(row[4]) and 0 <= row[4] < venues and isinstance(row[5], str)):
            return (f"its paper {n} is not [a paper id seen once, x and y from 0 to {GRID}, "
                    "topic indices, a venue index, a title]")
        seen.add(row[0])
    return None


def _page(meta: dict, *html: str) -> str:
    """A hand-made page: front matter, then one HTML block."""

    return front_matter(meta) + "\n" + html_block(*html)


def topic_hue(index: int) -> int:
    """The hue of the topic at ``index`` of the taxonomy on the map: golden-angle steps, as
    map.js computes them (``Math.round``, which rounds halves up)."""
    return math.floor((index * 137.508) % 360 + 0.5)


def _swatch(index: int) -> str:
    # the colour comes from the hue alone: explore.css makes it lighter on the dark scheme, as map.js does
    return f'<span class="digest-swatch" style="--h:{topic_hue(index)}"></span>' if index >= 0 else \
        '<span class="digest-swatch digest-swatch--none"></span>'


def legend(digest: Digest, coordinates: Mapping[str, object]) -> list[tuple[int, Topic | None, int]]:
    """The map's colours: (topic index, topic, points) for each first topic of a placed paper,
    the most points first; index -1 (and None) for papers with no topic."""
    counts: dict[int, int] = {}
    index = {t.name: i for i, t in enumerate(digest.topics)}
    for p in digest.visible():
        if p.id in coordinates:
            first = next((index[t] for t in p.tags if t in index), -1)
            counts[first] = counts.get(first, 0) + 1
    return [(i, digest.topics[i] if i >= 0 else None, n) for i, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def render_map_page(digest: Digest, by_topic: Mapping[str, Sequence[Paper]], placed: int,
                    colours: Sequence[tuple[int, Topic | None, int]] = ()) -> str:
    """The /map/ page: the map's controls, canvas and legend, written here so that they hold
    their place before map.js runs (it fills the menus and draws; nothing moves when it does),
    and, as the map's text alternative, every topic with its count, its list page and its
    place on the map. ``colours`` is the :func:`legend`."""
    index = {t.name: i for i, t in enumerate(digest.topics)}
    rows = []
    for t in sorted(digest.topics, key=lambda t: (-len(by_topic.get(t.name, ())), t.name)):
        n = len(by_topic.get(t.name, ()))
        if n:
            rows.append(f'<tr><td>{_swatch(index[t.name])}<a href="../topics/{esc(t.slug)}/">{esc(t.name)}</a></td>'
                        f'<td style="text-align: right">{n}</td>'
                        f'<td><a href="./?topic={esc(t.slug)}">Show on the map</a></td></tr>')
    keys = [f'<li><button type="button" class="digest-legend-key" data-topic="{esc(t.slug)}" aria-pressed="false">'
            f"{_swatch(i)}{esc(t.name)} <small>{n}</small></button></li>" if t else
            f'<li><span class="digest-legend-key">{_swatch(-1)}No topic <small>{n}</small></span></li>'
            for i, t, n in colours]
    # the HTML in the front matter, printed by listing.html: the site step fills it into the
    # page's own frame (generator.site.stamp.SELF_FRAMED) instead of having MkDocs render it
    return html_page(
        {"title": "Map", "hide": ["navigation", "toc"], "map": "page", "template": "listing.html", **NOT_INDEXED},
        "<h1>Map of the digest</h1>",
        f"<p>Each of the {placed} papers is a point, placed near the papers whose abstracts use the same words "
        "and coloured by its first topic (the legend names the colours; choose one to show its papers alone). "
        "The labels name the topic most of a region's papers have. Point at a point, or tap it, for its title; "
        "click it, or tap it again, to open the paper. Zoom with the wheel, the buttons or two fingers, and drag "
        "to move. From the keyboard, the arrow keys go from paper to paper (shift and the arrows move the map) and "
        "Enter opens the paper. The topic and venue pages, and the list below, hold the same papers as links.</p>",
        '<div id="digest-map" class="digest-map">',
        '<form class="digest-map-controls" role="search" aria-label="Filter the map">',
        '<label for="digest-map-topic">Topic <select id="digest-map-topic"><option value="">All topics</option></select></label>',
        '<label for="digest-map-venue">Venue <select id="digest-map-venue"><option value="">All venues</option></select></label>',
        '<label for="digest-map-q">Highlight <input id="digest-map-q" type="search" placeholder="words of a title or topic" '
        'autocomplete="off"></label>',
        '<span class="digest-map-zoom"><button type="button" class="md-button" aria-label="Zoom in">+</button>'
        '<button type="button" class="md-button" aria-label="Zoom out">−</button>'
        '<button type="button" class="md-button">Reset view</button></span>',
        "</form>",
        '<p class="digest-map-status" role="status" aria-live="polite">Loading the map…</p>',
        '<div class="digest-map-body">',
        '<div class="digest-map-stage">',
        f'<canvas class="digest-map-canvas" tabindex="0" role="img" aria-label="Map of {placed} papers, each a point '
        "placed near papers with similar abstracts and coloured by topic. The arrow keys go from paper to paper, "
        "Enter opens it; shift and the arrows move the map, plus and minus zoom. The list of papers below the map "
        'and the topic and venue pages hold the same papers as links."></canvas>',
        '<div class="digest-map-tip" hidden></div>',
        '<p class="digest-map-fallback">The map needs JavaScript. Every paper is on the '
        '<a href="../list/">list of all papers</a> and on its topic and venue pages.</p>',
        "</div>",
        '<div class="digest-map-legend" role="group" aria-label="Legend: the colour of each topic; choose one to show '
        'its papers alone">',
        '<h2 class="digest-map-legend-title">Colours</h2>',
        '<ul>', *keys, "</ul>",
        "</div>",
        "</div>",
        '<p class="digest-sr-only" aria-live="polite" id="digest-map-said"></p>',
        '<div class="digest-map-card" hidden></div>',
        '<h2 id="digest-map-matches" hidden></h2>',
        '<ol class="digest-map-list"></ol>',
        "</div>",
        "<h2>Topics on the map</h2>",
        "<table>",
        '<thead><tr><th>Topic</th><th style="text-align: right">Papers</th><th>On the map</th></tr></thead>',
        "<tbody>", *rows, "</tbody>",
        "</table>",
        "<p>How the map is made: tf-idf over the abstracts, reduced by truncated SVD, laid out by t-SNE at build "
        "time; papers already on the map start from where they were, so adding papers moves them little.</p>",
    )


def render_reading_list_page() -> str:
    """The /reading-list/ page; reading-list.js fills #digest-reading-list from localStorage."""
    return _page(
        {"title": "Reading list", **NOT_INDEXED},
        "<h1>Reading list</h1>",
        "<p>Star a paper (☆ beside its title on its page, in the lists and in search results) to keep it here. "
        "The list is kept in this browser only: nothing is sent anywhere. Export it to keep it or move it "
        "to another browser, and import it there.</p>",
        '<div id="digest-reading-list" class="digest-reading-list"><p>The reading list needs JavaScript.</p></div>',
    )


def newest(papers: Sequence[Paper], added: Mapping[str, str] | None = None, n: int = NEWEST) -> list[Paper]:
    """The ``n`` newest papers: by the date each entered the digest when ``added`` (id to an
    ISO date) is known, else by venue year, then the seed file and line they came from
    (later files and lines count as newer)."""
    added = added or {}
    return sorted(papers, key=lambda p: (added.get(p.id, ""), p.year, p.source.file, p.source.line, p.id), reverse=True)[:n]


def home_sections(papers: Sequence[Paper], placed: int, entry: Callable[[Paper], str],
                  added: Mapping[str, str] | None = None) -> list[str]:
    """HTML lines of the home page's "Newest additions" and "Map" sections; ``entry(p)``
    renders a paper's list item the way the other lists do."""
    lines = ['<h2 id="newest-additions">Newest additions</h2>', '<ul class="digest-list">',
             *(entry(p) for p in newest(papers, added)), "</ul>"]
    if placed:
        lines += [
            '<h2 id="map">Map</h2>',
            f'<p><a class="digest-map-preview-link" href="map/"><span class="digest-map-preview"></span>'
            f"Open the map of all {placed} papers</a></p>",
        ]
    return lines


def map_link(topic: Topic, up: str = "../../") -> str:
    """A topic page's link to the map filtered to the topic; ``up`` leads from the page to
    the site root (``../../`` from /topics/<slug>/)."""
    return f'<a href="{up}map/?topic={esc(topic.slug)}">Show them on the map</a>'


def render_explore(digest: Digest, coordinates: Mapping[str, tuple[float, float]], span: float = 0.0) -> dict[str, str]:
    """map.json, the map page and the reading list page."""
    placed = sum(1 for p in digest.visible() if p.id in coordinates)
    return {
        MAP_JSON: render_map_json(digest, coordinates, span),
        MAP_PAGE: render_map_page(digest, digest.by_topic(), placed, legend(digest, coordinates)),
        READING_LIST_PAGE: render_reading_list_page(),
    }


def read_previous_map(docs: Path) -> tuple[dict[str, tuple[float, float]], float]:
    """The input edge of the map: the coordinates (and span) of the previous build's map.json in ``docs``,
    where the layout starts from so that papers already on the map stay about where they were."""
    path = docs / MAP_JSON
    try:
        return read_previous(path.read_text(encoding="utf-8"), display_path(path))
    except FileNotFoundError:
        return {}, 0.0
    except (OSError, UnicodeDecodeError) as e:
        log.info("cannot read the previous map %s (%s): laying it out from scratch", display_path(path), e)
        return {}, 0.0
