"""The trends page and trends.json: the figures of :mod:`generator.derive.trends`, drawn.

Pure: :class:`~generator.derive.trends.Trends` in, ``{relative path: content}`` out. The
charts are SVG written here at build time (no script draws them): bars coloured with
``currentColor`` and the theme's CSS variables (``docs/assets/explore.css``), so they follow
the light and dark palettes. A table of the same numbers stands beside every chart, and
its numbers link to the papers behind them: the digest's search, filtered to the topic (and
the topics inside it) and the venue-year (``../?q=topic:<slug>+venue:<slug>``, which the
search box opens with). A click on a bar opens its number's link (``docs/assets/trends.js``).

Size is the constraint (a page under 300 KB at 50,000 papers over 30 venue-years, about
1,800 bars and as many numbers): a bar is one short path and nothing else. Links and titles
on the bars as well as in the tables made the page 410 KB; the tables are the text and the
keyboard's way to the papers, and the bars are hidden from assistive technology.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from generator.core import outputs
from generator.core.markup import esc
from generator.derive.trends import (CHANGES_SHOWN, LEANS_SHOWN, MIN_TOPIC_PAPERS, MIN_VENUE_PAPERS, Change, Lean,
                                     Profile, TopicSeries, Trends, VenueYear)
from generator.pages.frontmatter import NOT_INDEXED, html_page
from generator.seeds.venues import venue_slug

TRENDS_PAGE, TRENDS_JSON = outputs.TRENDS_PAGE, outputs.TRENDS_JSON

STEP = 10  # SVG units from one venue-year's bar to the next
BAR = 7  # a bar's width
GAP = 6  # more between two venues
HEIGHT = 40  # the tallest bar
UP = "../"  # from /trends/ to the site root


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def _num(x: float) -> str:
    """An SVG coordinate: one decimal at most, no trailing zero."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def search_link(topics: Iterable[str], venue_years: Iterable[VenueYear]) -> str:
    """The search, filtered to papers of any of ``topics`` (slugs) at any of ``venue_years``."""
    terms = [f"topic:{t}" for t in topics] + [f"venue:{venue_slug(v.venue, v.year)}" for v in venue_years]
    return UP + "?q=" + "+".join(esc(t) for t in terms)


def _slugs(s: TopicSeries) -> list[str]:
    return [t.slug for t in s.within]


def _positions(venue_years: Sequence[VenueYear]) -> list[float]:
    """The x of each venue-year's bar: a step apart, a gap more where the venue changes."""
    xs, x = [], BAR // 2 + 2
    for i, v in enumerate(venue_years):
        if i and v.venue != venue_years[i - 1].venue:
            x += GAP
        xs.append(x)
        x += STEP
    return xs


def _bars(values: Sequence[float], top: float, xs: Sequence[float], small: Sequence[bool]) -> str:
    """An SVG of bars, ``values[i]`` high against ``top`` (no bar for 0). It is hidden from
    assistive technology: the table beside it holds the same numbers, and each bar's link is
    the link of its cell there (``docs/assets/trends.js`` opens it on a click on the bar)."""
    width = (xs[-1] + BAR / 2 + 1) if xs else 1
    marks = []
    for x, v, faint in zip(xs, values, small):
        if not v:
            continue
        y = HEIGHT - max(1, round(HEIGHT * min(v, top) / top)) if top else HEIGHT  # a small sample may pass the top
        cls = ' class="s"' if faint else ""
        marks.append(f'<path{cls} d="M{_num(x)} {HEIGHT}V{y}"/>')
    return (f'<svg class="digest-bars" viewBox="0 0 {_num(width)} {HEIGHT + 1}" aria-hidden="true">'
            f'<path class="b" d="M0 {HEIGHT + 0.5}H{_num(width)}"/>' + "".join(marks) + "</svg>")


def _year_table(venue_years: Sequence[VenueYear], cell: Sequence[str], caption: str) -> str:
    """A table of venues by years, ``cell[i]`` (HTML) for venue-year ``i``; a dash where a
    venue has no such year. In its own scrolling box: wide tables never widen the page."""
    years = sorted({v.year for v in venue_years})
    venues: dict[str, dict[int, str]] = {}
    for v, c in zip(venue_years, cell):
        venues.setdefault(v.venue, {})[v.year] = c
    head = "".join(f"<th>{y}</th>" for y in years)
    rows = "".join(f"<tr><th>{esc(venue)}</th>" + "".join(f"<td>{cells.get(y, '–')}</td>" for y in years) + "</tr>"
                   for venue, cells in venues.items())
    return (f'<div class="digest-table-scroll" tabindex="0" role="region" aria-label="{esc(caption)}">'
            f"<table><thead><tr><th>Venue</th>{head}</tr></thead><tbody>{rows}</tbody></table></div>")


def _venue_years_section(t: Trends, xs: Sequence[float]) -> list[str]:
    top = max((v.papers for v in t.venue_years), default=0)
    links = [f"{UP}venues/{esc(venue_slug(v.venue, v.year))}/" for v in t.venue_years]
    chart = _bars([v.papers for v in t.venue_years], top, xs, [v.small for v in t.venue_years])
    groups = []
    for v, x in zip(t.venue_years, xs):
        if groups and groups[-1][0] == v.venue:
            groups[-1][2] = v.year
        else:
            groups.append([v.venue, v.year, v.year, x])
    key = "; ".join(esc(f"{g[0]} {g[1]}" + (f"–{g[2]}" if g[2] != g[1] else "")) for g in groups)
    cells = [f'<a href="{link}">{v.papers:,}</a>' + (" <small>(small)</small>" if v.small else "")
             for v, link in zip(t.venue_years, links)]
    return [
        '<h2 id="venue-years">Papers of each venue-year</h2>',
        f"<p>In every chart of this page the bars stand, from left to right, for {key}: "
        "a wider gap separates two venues. Each bar opens the papers behind it, as the number of its table does.</p>",
        '<div class="digest-trend">',
        f'<figure class="digest-chart">{chart}<figcaption>Papers of each venue-year; up to {top:,}.</figcaption></figure>',
        _year_table(t.venue_years, cells, "Papers of each venue-year, as a table"),
        "</div>",
    ]


def _change_bar(points: float, top: float, href: str) -> str:
    """A small bar from the middle, right for a rise, left for a fall: the table's chart."""
    w = 40 * abs(points) / top if top else 0
    x = 40 if points >= 0 else 40 - w
    return (f'<a href="{href}" tabindex="-1" aria-hidden="true"><svg class="digest-change" viewBox="0 0 80 10">'
            f'<path class="b" d="M40 0V10"/><rect x="{_num(x)}" y="2" width="{_num(max(w, 0.5))}" height="6"/></svg></a>')


def _changes_table(changes: Sequence[Change], caption: str) -> list[str]:
    if not changes:
        return ["<p>No change meets the rules above.</p>"]
    top = max(abs(c.points) for c in changes)
    rows = []
    for c in changes:
        slugs = _slugs(c.series)
        before, after = search_link(slugs, [c.before]), search_link(slugs, [c.after])
        rows.append(
            f'<tr><td><a href="{UP}topics/{esc(c.series.topic.slug)}/">{esc(c.series.topic.name)}</a></td>'
            f"<td>{esc(c.before.venue)}</td>"
            f'<td>{c.before.year}: <a href="{before}">{c.count_before:,}</a> of {c.before.papers:,} ({_pct(c.share_before)})</td>'
            f'<td>{c.after.year}: <a href="{after}">{c.count_after:,}</a> of {c.after.papers:,} ({_pct(c.share_after)})</td>'
            f"<td>{c.points:+.1f}&nbsp;points {_change_bar(c.points, top, after)}</td></tr>")
    return [f'<div class="digest-table-scroll" tabindex="0" role="region" aria-label="{esc(caption)}">',
            "<table><thead><tr><th>Topic</th><th>Venue</th><th>Year before</th><th>Year after</th><th>Change of share</th>"
            "</tr></thead><tbody>", *rows, "</tbody></table></div>"]


def _profile_section(p: Profile, n: int) -> list[str]:
    leans: Sequence[Lean] = p.leans[:LEANS_SHOWN]
    years = ", ".join(str(v.year) for v in p.venue_years)
    head = [f'<h3 id="lean-{n}">{esc(p.venue)}</h3>',
            f"<p>{p.papers:,} papers ({esc(years)}). The {len(leans)} topics whose share differs most from the digest's:"
            "</p>"]
    if not leans:
        return head[:1] + ["<p>No topic meets the rules above.</p>"]
    top = max(abs(l.points) for l in leans)
    rows = []
    for l in leans:
        link = search_link(_slugs(l.series), p.venue_years)
        rows.append(
            f'<tr><td><a href="{UP}topics/{esc(l.series.topic.slug)}/">{esc(l.series.topic.name)}</a></td>'
            f'<td><a href="{link}">{l.count:,}</a> of {l.papers:,} ({_pct(l.share)})</td>'
            f"<td>{l.overall_count:,} of {l.overall_papers:,} ({_pct(l.overall_share)})</td>"
            f"<td>{l.points:+.1f}&nbsp;points {_change_bar(l.points, top, link)}</td></tr>")
    return [*head, f'<div class="digest-table-scroll" tabindex="0" role="region" aria-label="{esc(p.venue)}: topic profile">',
            "<table><thead><tr><th>Topic</th><th>At this venue</th><th>In the digest</th><th>Difference</th></tr></thead>"
            "<tbody>", *rows, "</tbody></table></div>"]


def _series_section(t: Trends, s: TopicSeries, xs: Sequence[float]) -> list[str]:
    shares = [c / v.papers for c, v in zip(s.counts, t.venue_years)]
    # the scale is the samples': 2 papers of 2 in a small venue-year would flatten the rest
    top = max((x for x, v in zip(shares, t.venue_years) if not v.small), default=0.0) or max(shares, default=0.0)
    slugs = _slugs(s)
    chart = _bars(shares, top, xs, [v.small for v in t.venue_years])
    # the count links to its papers; a 0 has none (and no bar)
    cells = [(f'<a href="{search_link(slugs, [v])}">{c:,}</a>' if c else "0") + f"<br>{_pct(c / v.papers)}"
             for c, v in zip(s.counts, t.venue_years)]
    mark = '<span class="digest-subtopic">' + "↳ " * s.depth + "</span>" if s.depth else ""
    inside = f" (with {', '.join(esc(x.name) for x in s.within[1:])})" if len(s.within) > 1 else ""
    return [
        f'<h3 id="{esc(s.topic.slug)}">{mark}<a href="{UP}topics/{esc(s.topic.slug)}/">{esc(s.topic.name)}</a></h3>',
        '<div class="digest-trend">',
        f'<figure class="digest-chart">{chart}<figcaption>{s.papers:,} papers{inside}; the top is {_pct(top)}.'
        "</figcaption></figure>",
        _year_table(t.venue_years, cells, f"{s.topic.name}: papers and share of each venue-year"),
        "</div>",
    ]


def render_trends_page(t: Trends) -> str:
    xs = _positions(t.venue_years)
    lines = [
        "<h1>Trends</h1>",
        f"<p>How the topics of the digest's {t.papers:,} papers move across its {len(t.venue_years)} venue-years. "
        "Topics are derived from each paper's abstract by the digest's tagger (the words and phrases it uses), not "
        "given by the authors or the venue, so a topic's figures are as good as its tagging. A topic's <strong>share"
        "</strong> of a venue-year is the part of that venue-year's papers tagged with it or with a topic inside it; "
        "a paper can have several topics, so a venue-year's shares add up to more than 100%. Every share is shown "
        "with its count.</p>",
        f"<p>So that a handful of papers makes no trend: a venue-year of fewer than {MIN_VENUE_PAPERS} papers is a "
        "small sample, drawn faint (and marked “(small)” in the table of papers), and left out of the rising and falling topics and of the "
        "venues' profiles; and a change counts only when the topic has at least "
        f"{MIN_TOPIC_PAPERS} papers in one of the two years (at a venue, or at the digest's share of it). The same "
        'numbers, every change and every topic of every profile, are in <a href="../trends.json">trends.json</a>.</p>',
        *_venue_years_section(t, xs),
        '<h2 id="rising">Rising topics</h2>',
        f"<p>The {CHANGES_SHOWN} largest rises of a topic's share from one year of a venue to its next year in the "
        "digest, in percentage points.</p>",
        *_changes_table(t.rising(), "Rising topics"),
        '<h2 id="falling">Falling topics</h2>',
        f"<p>The {CHANGES_SHOWN} largest falls, likewise.</p>",
        *_changes_table(t.falling(), "Falling topics"),
        '<h2 id="venues">Where each venue leans</h2>',
    ]
    if t.profiles:
        lines.append("<p>A topic's share of a venue's papers (all its years but small samples) against its share of "
                     "the whole digest's.</p>")
        for n, p in enumerate(t.profiles, 1):
            lines += _profile_section(p, n)
    else:
        lines.append("<p>The digest holds one venue: its profile is the digest's.</p>")
    lines += ['<h2 id="topics">Each topic, venue-year by venue-year</h2>',
              "<p>One chart a topic, in the order of the topics index (a topic inside another is marked ↳ and counts "
              "towards it). Each chart's height runs from 0 to its own tallest bar outside small samples, given beside it "
              "(a small sample's bar may reach the top and stop there).</p>"]
    for s in t.series:
        lines += _series_section(t, s, xs)
    # `trends`: overrides/main.html loads assets/trends.js, which makes the bars open their papers.
    # The HTML is the front matter's `body`, printed by listing.html, not the Markdown: at 20,000
    # papers it is over 500 KB, and Python-Markdown's HTML parser took a quarter of MkDocs' part of
    # every site step that follows a new paper (issue 31).
    return html_page({"title": "Trends", "hide": ["navigation", "toc"], "trends": True, "template": "listing.html",
                      **NOT_INDEXED}, *lines)


def _round(share: float) -> float:
    return round(share, 4)


def render_trends_json(t: Trends) -> str:
    """trends.json: every number of the page, and every change and lean the page leaves out."""
    def change(c: Change) -> dict:
        return {"topic": c.series.topic.slug, "venue": c.before.venue, "year_before": c.before.year,
                "year_after": c.after.year, "count_before": c.count_before, "papers_before": c.before.papers,
                "count_after": c.count_after, "papers_after": c.after.papers, "points": round(c.points, 2)}

    data = {
        "version": 1,
        "rules": {"min_venue_papers": MIN_VENUE_PAPERS, "min_topic_papers": MIN_TOPIC_PAPERS},
        "papers": t.papers,
        "venue_years": [{"venue": v.venue, "year": v.year, "slug": venue_slug(v.venue, v.year), "papers": v.papers,
                         "small": v.small} for v in t.venue_years],
        "topics": [{"name": s.topic.name, "slug": s.topic.slug, "parent": s.topic.parent or None,
                    "within": _slugs(s), "papers": s.papers, "counts": list(s.counts),
                    "shares": [_round(c / v.papers) for c, v in zip(s.counts, t.venue_years)]} for s in t.series],
        "changes": [change(c) for c in t.changes],
        "profiles": [{"venue": p.venue, "years": [v.year for v in p.venue_years], "papers": p.papers,
                      "topics": [{"topic": l.series.topic.slug, "count": l.count, "share": _round(l.share),
                                  "overall_count": l.overall_count, "overall_share": _round(l.overall_share),
                                  "points": round(l.points, 2)} for l in p.leans]} for p in t.profiles],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def render_trends(t: Trends) -> dict[str, str]:
    return {TRENDS_PAGE: render_trends_page(t), TRENDS_JSON: render_trends_json(t)}
