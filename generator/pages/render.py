"""Render: the digest as Markdown pages with YAML front matter, and papers.json.

Pure: :func:`render_site` returns ``{relative path: content}`` for every generated
file; :mod:`generator.pages.write` puts them on disk. Paper pages are laid out by the
``paper.html`` template in ``overrides/`` from the front matter. Every page body is
HTML written here from escaped text and the few elements :func:`generator.core.markup.to_html`
allows: on paper and listing pages it is the front matter's ``body``, which the template
prints and Markdown never sees (:func:`generator.pages.frontmatter.html_page`); on the few other pages it is one raw
HTML block that Markdown passes through as it is. So no seed text is ever parsed as
Markdown (links are written as the final directory URLs for the same reason).
"""
from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache, partial
from operator import attrgetter
from typing import Any

from generator.core.markup import esc, first_sentence, to_html, to_plain
from generator.core.memo import PerBuild
from generator.core.model import ABSTRACTS_CACHED, Digest, Link, Paper, Source, Topic
from generator.core.parallel import Later
from generator.derive.cache import text_key
from generator.pages.explore import home_sections, map_link
from generator.pages.feeds import paper_date, topic_feed_path
from generator.pages.frontmatter import NOT_INDEXED, front_matter, html_page
from generator.seeds.venues import venue_slug
from generator.site.config import Repository
from generator.site.stamp import FRAMES, slot

# start(fn, papers) begins fn(papers) and returns something whose result() gives it:
# generator.core.parallel.Pending runs it in worker processes meanwhile, Later runs it here.
Start = Callable[[Callable[[Sequence[Paper]], list], Sequence[Paper]], Any]


def paper_path(p: Paper) -> str:
    return f"papers/{p.id}.md"


def paper_url(p: Paper) -> str:
    """The page's path relative to the site root (directory URLs)."""
    return f"papers/{p.id}/"


def _topic_slugs(topics: Iterable[Topic]) -> dict[str, str]:
    return {t.name: t.slug for t in topics}


LINK_LABELS = {"code": "Code", "data": "Data", "paper": "Paper", "project": "Project page"}


def _links_html(p: Paper) -> str:
    """Buttons for the abstract's links (checked http(s) URLs, escaped)."""
    if not p.links:
        return ""
    buttons = "".join(
        f'<a class="md-button{" md-button--primary" if i == 0 else ""}" href="{esc(l.url)}" rel="nofollow noopener noreferrer">'
        f'{LINK_LABELS.get(l.kind, "Link")}<span class="digest-sr-only">: {esc(l.url)}</span></a>'
        for i, l in enumerate(p.links))
    return f'<p class="digest-links">{buttons}</p>'


def _related_html(items: Sequence[str]) -> str:
    """The related papers' list: each paper's :func:`related_card`."""
    if not items:
        return ""
    return '<section class="digest-related"><h2 id="related">Related papers</h2><ul>' + "".join(items) + "</ul></section>"


# The site's sections, linked from the top of every paper page in place of the navigation.
CRUMBS = (("", "Home"), ("topics/", "Topics"), ("venues/", "Venues"), ("list/", "All papers"),
          ("map/", "Map"), ("reading-list/", "Reading list"))


# Seeds hold abstracts only: a title a maintainer did not set is the generator's guess (issue 25:
# readers took derived titles for the authors'); the sources section says where to correct it.
DERIVED_NOTE = ('<p class="digest-derived"><small>Title derived from the abstract, not the authors\' '
                '(<a href="#sources">correct it</a>).</small></p>')


def _paper_head(p: Paper, slugs: dict[str, str], up: str) -> str:
    """What comes above the abstract: the sections, the title, venue and map links, topics."""
    crumbs = " · ".join(f'<a href="{up}{href}">{label}</a>' for href, label in CRUMBS)
    head = [
        f'<nav class="digest-crumbs" aria-label="The digest">{crumbs}</nav>',
        f"<h1>{esc(p.title)}</h1>",
        *([] if "title" in p.curated else [DERIVED_NOTE]),
        f'<p class="digest-meta"><a href="{up}venues/{esc(venue_slug(p.venue, p.year))}/">{esc(f"{p.venue} {p.year}")}</a> · '
        f'<a href="{up}map/?paper={esc(p.id)}">On the map</a></p>',
    ]
    topics = [t for t in p.tags if t in slugs]
    if topics:
        head.append('<nav class="md-tags digest-topics" aria-label="Topics">' + "".join(
            f'<a class="md-tag" href="{up}topics/{esc(slugs[t])}/">{esc(t)}</a>' for t in topics) + "</nav>")
    return "\n".join(head)


def _sources_html(p: Paper, repo: Repository, up: str) -> str:
    """Where the abstract came from (each seed file and line), its id, and how to correct it."""
    items = "".join(f'<li><a href="{esc(repo.blob(s.file))}#L{s.line}">{esc(s.file)}, line {s.line}</a></li>' for s in p.sources)
    merged = (f"<p>This abstract was submitted {len(p.sources)} times; the submissions were merged into this page.</p>"
              if len(p.sources) > 1 else "")
    return (f'<section class="digest-sources"><h2 id="sources">Where it came from</h2><ul>{items}</ul>{merged}'
            f"<p>Paper id <code>{esc(p.id)}</code>. Title or topics wrong? "
            f'<a href="{esc(repo.edit("seeds/curation.yml"))}">Correct them</a> in seeds/curation.yml '
            f'(<a href="{up}contribute/#curation">how</a>).</p></section>')


# What would end a <script> element's text or change how it is read (``</script>``,
# ``<!--``), and the line separators older JavaScript parsers end a string at: as JSON's
# \u escapes, which read back as the same characters.
_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                 "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: object) -> str:
    """``data`` as JSON that can stand inside a <script> element whatever its strings hold."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


def structured_data(p: Paper, slugs: dict[str, str], site_url: str = "") -> str:
    """The paper as a schema.org ScholarlyArticle, one JSON-LD <script> for the page's head:
    title, the abstract's first sentence as its description (the head's meta description; the
    whole abstract is the page's body, and a second copy of it in every head was 1.3 KB a page,
    65 MB of a 50,000-paper site that must stay under 800 MB), topics, venue and year, code
    links, and its address where the site's is known (a relative one is no identifier)."""
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "headline": p.title,
        "description": to_plain(first_sentence(p.text, 160)),
        "keywords": [t for t in p.tags if t in slugs],
        "datePublished": str(p.year),
        "publication": {"@type": "PublicationEvent", "name": f"{p.venue} {p.year}"},
    }
    code = [{"@type": "SoftwareSourceCode", "codeRepository": l.url} for l in p.links if l.kind == "code"]
    if code:
        data["workExample"] = code[0] if len(code) == 1 else code
    if site_url:
        data["url"] = site_url + paper_url(p)
    return f'<script type="application/ld+json">{script_json(data)}</script>'


def render_paper(p: Paper, slugs: dict[str, str], cards: dict[str, str] | None = None,
                 repo: Repository = Repository(), site_url: str = "") -> str:
    """A paper page: front matter for paper.html: its title and description, which Material
    prints in the page's head (and overrides/main.html in its Open Graph tags), ``jsonld``,
    its :func:`structured_data`, and ``body``, all that the page shows: the sections, title,
    venue and topics, the abstract, its link buttons, the editor's note, the related papers
    and the sources, as HTML. The other keys are data for tools; no template reads them,
    so every paper page is the same frame around four strings (:mod:`generator.site.stamp`).
    ``cards`` are the :func:`related_card` of every listed paper; ``site_url`` ends in "/"."""
    meta = {
        # Material writes page.meta.title into <title> and the header unescaped,
        # so the title is stored HTML-escaped (papers.json has it plain).
        "title": esc(p.title),
        "id": p.id,
        "venue": p.venue,
        "year": p.year,
        "venue_slug": venue_slug(p.venue, p.year),
        "tags": list(p.tags),
        "topics": [{"name": t, "slug": slugs[t]} for t in p.tags if t in slugs],
        "sources": [{"file": s.file, "line": s.line} for s in p.sources],
        **PAPER_FRAME,
    }
    if p.featured:
        meta["featured"] = True
    related = [cards[i] for i in p.related if i in cards] if cards else []
    # Material writes the description into a <meta content="..."> attribute unescaped.
    meta["description"] = esc(to_plain(first_sentence(p.text, 160)))
    meta["jsonld"] = structured_data(p, slugs, site_url)
    up = _up(paper_url(p))
    # The abstract is HTML made by clean.to_html, so nothing from the seed is read as Markdown.
    parts = [_paper_head(p, slugs, up), f'<div class="digest-abstract"><p>{to_html(p.text)}</p></div>', _links_html(p)]
    if p.note:
        parts.append(f'<div class="admonition note"><p class="admonition-title">Editor\'s note</p><p>{esc(p.note)}</p></div>')
    parts += [_related_html(related), _sources_html(p, repo, up)]
    return html_page(meta, *(x for x in parts if x))


# What every page of a stamped template has in common: the rest of its front matter is
# the strings the template prints (generator.site.stamp), or data no template reads.
PAPER_FRAME = {"template": "paper.html", **NOT_INDEXED}
ALIAS_FRAME = {"template": "redirect.html", **NOT_INDEXED}
LISTING_FRAME = {"template": "listing.html", **NOT_INDEXED}
_FRAME_BASES = {"paper.html": PAPER_FRAME, "redirect.html": ALIAS_FRAME, "listing.html": LISTING_FRAME}


def render_frames() -> dict[str, str]:
    """The frame pages (:data:`generator.site.stamp.FRAMES`): a stamped template's front matter with
    markers (:func:`generator.site.stamp.slot`) for the strings it prints. ``python -m generator
    site`` has MkDocs render these and fills the result in for every page they stand for; a
    plain ``mkdocs build`` leaves them out (mkdocs.yml's exclude_docs)."""
    return {path: front_matter({**_FRAME_BASES[template], **{name: slot(name) for name in slots}}) + "\n"
            for path, (template, slots) in FRAMES.items()}


def _up(page_url: str) -> str:
    """The relative prefix from a page (its directory URL, e.g. ``topics/rl/``) to the site root."""
    return "../" * page_url.count("/")


@lru_cache(maxsize=ABSTRACTS_CACHED)
def _summary_html(text: str, venue: str, year: int) -> str:
    """Venue and first sentence: the same on every topic and venue page that lists the paper."""
    return f" · {esc(f'{venue} {year}')}<br>\n{to_html(first_sentence(text))}"


def render_alias(p: Paper) -> str:
    """A page at a merged variant's id that sends the reader on to the paper.

    A paper keeps the smallest id of its variants, so a duplicate submitted later
    can take over the paper's URL; the old address keeps working through this page.
    """
    meta = {"title": esc(p.title), "location": f"../{p.id}/", **ALIAS_FRAME}
    return front_matter(meta) + "\n"


def related_card(p: Paper, slugs: Set[str]) -> str:
    """A paper as a paper page lists it among its related papers: its title linked from a
    paper page's directory URL (papers/<id>/), its venue and first topic as plain text (a
    link a line made this a ninth of the page). Made once a paper, for the eight or so
    pages that list it."""
    topic = next((t for t in p.tags if t in slugs), None)
    meta = esc(f"{p.venue} {p.year}") + (f" · {esc(topic)}" if topic is not None else "")
    # <small> rather than a classed span: eight a page, 50,000 pages (digest.css colours it)
    return f'<li><a href="../{p.id}/">{esc(p.title)}</a> <small>· {meta}</small></li>'


def _render_papers(papers: Sequence[Paper], slugs: dict[str, str], cards: dict[str, str] | None = None,
                   repo: Repository = Repository(), site_url: str = "") -> list[bytes]:
    # Encoded here, as they will be written: a page of one character past Latin-1 is held at two
    # or four bytes a character as text, and 20,000 of them were 230 MB so, 145 MB as UTF-8.
    return [render_paper(p, slugs, cards, repo, site_url).encode("utf-8") for p in papers]


@lru_cache(maxsize=ABSTRACTS_CACHED)
def _link_tail(paper_id: str, title: str) -> str:
    """A listing entry's link after the way up to the site root: the same in every order of
    every listing that holds the paper (five to fifteen of them)."""
    return f'papers/{paper_id}/">{esc(title)}</a>'


@lru_cache(maxsize=4096)
def _venue_html(venue: str, year: int) -> str:
    return esc(f"{venue} {year}")


def _entry(p: Paper, up: str) -> str:
    """A list item linking to a paper, with its venue and first sentence."""
    return f'<li><a href="{up}{_link_tail(p.id, p.title)}{_summary_html(p.text, p.venue, p.year)}</li>'


def _brief_entry(p: Paper, up: str) -> str:
    """A list item with the paper's title and venue only: the listings' other orders, which
    are for scanning (by title each entry also has the first sentence). Half the bytes of
    :func:`_entry`, and each paper is in three orders of each of its topics."""
    return f'<li><a href="{up}{_link_tail(p.id, p.title)} · {_venue_html(p.venue, p.year)}</li>'


def _entries(papers: Iterable[Paper], up: str) -> list[str]:
    return ['<ul class="digest-list">', *(_entry(p, up) for p in _by_title(papers)), "</ul>"]


def _by_title(papers: Iterable[Paper]) -> list[Paper]:
    return sorted(papers, key=lambda p: (p.title.casefold(), p.id))


# -- listings: paged static pages in three orders ------------------------------------------

# A listing of more than PAGE_SIZE papers is paged, each order apart, in pages of about that
# many (120 KB of HTML with the site's frame). Where a page ends is a function of the papers
# alone, not of their positions: after at least _PAGE_MIN papers, a page ends after a paper
# whose id hashes to 0 modulo _PAGE_SPREAD (so about PAGE_SIZE a page), or at _PAGE_MAX (a last
# page of fewer than a tenth of PAGE_SIZE joins the one before, up to _PAGE_MAX + 29). A new
# paper then changes the page it lands on (pages by position shifted every page after it: one
# new paper rewrote most pages of its topics and all of "newest"), unless it moves where a page
# ends so that its order has a page more or fewer: then every page of that order changes, as
# each says "Page k of N". The number of papers is said on each order's first page only, for
# the same reason. A page bookmarked or found by a search engine keeps showing the papers it showed.
PAGE_SIZE = 300
_PAGE_MIN, _PAGE_MAX = 200, 600
_PAGE_SPREAD = PAGE_SIZE - _PAGE_MIN
SORTS = (("title", "Title"), ("venue", "Venue"), ("newest", "Newest"))
VENUE_SORTS = (SORTS[0], SORTS[2])  # a venue's papers are all of one venue


@lru_cache(maxsize=ABSTRACTS_CACHED)
def _ends_page(paper_id: str) -> bool:
    h = hashlib.blake2b(paper_id.encode("utf-8", "surrogatepass"), digest_size=4, person=b"page").digest()
    return int.from_bytes(h, "little") % _PAGE_SPREAD == 0


def paged(ordered: Sequence[Paper]) -> list[Sequence[Paper]]:
    """``ordered`` in pages (see PAGE_SIZE): one page up to PAGE_SIZE papers; a last page of
    fewer than a tenth of PAGE_SIZE goes onto the page before it."""
    if len(ordered) <= PAGE_SIZE:
        return [ordered]
    pages: list[Sequence[Paper]] = []
    start = 0
    for i, p in enumerate(ordered):
        n = i + 1 - start
        if n >= _PAGE_MAX or (n >= _PAGE_MIN and _ends_page(p.id)):
            pages.append(ordered[start : i + 1])
            start = i + 1
    if start < len(ordered):
        if len(ordered) - start < PAGE_SIZE // 10:
            pages[-1] = ordered[start - len(pages[-1]) :]
        else:
            pages.append(ordered[start:])
    return pages


def _ordered(by_title: list[Paper], how: str, when: Callable[[Paper], str]) -> list[Paper]:
    """``by_title`` (:func:`_by_title`) in the order ``how``."""
    if how == "venue":
        return sorted(by_title, key=lambda p: (p.venue.casefold(), -p.year))
    if how == "newest":
        return sorted(by_title, key=when, reverse=True)  # stable: titles stay in order within a date
    return by_title


def _page_slug(how: str, k: int) -> str:
    """Where page ``k`` (from 1) of an order lives under the listing: the first page by title
    is the listing itself; then ``venue/``, ``newest/``, ``title-2/``, ``venue-3/``..."""
    if how == SORTS[0][0] and k == 1:
        return ""
    return how if k == 1 else f"{how}-{k}"


def _page_file(base: str, how: str, k: int) -> str:
    """The docs file of page ``k`` of order ``how`` of the listing at ``base``."""
    slug = _page_slug(how, k)
    return f"{base}/{slug}.md" if slug else f"{base}.md"


def _pager(here: int, pages: int, href: Callable[[int], str]) -> str:
    """Previous, a window of page numbers with the first and last, next."""
    if pages <= 1:
        return ""
    shown = sorted({1, pages, *range(max(1, here - 3), min(pages, here + 3) + 1)})
    parts, last = [], 0
    if here > 1:
        parts.append(f'<a href="{href(here - 1)}" rel="prev">Previous</a>')
    for k in shown:
        if k - last > 1:
            parts.append("<span>…</span>")
        parts.append(f'<a href="{href(k)}" aria-current="page">{k}</a>' if k == here else f'<a href="{href(k)}">{k}</a>')
        last = k
    if here < pages:
        parts.append(f'<a href="{href(here + 1)}" rel="next">Next</a>')
    return f'<nav class="digest-pager" aria-label="Pages">Page {here} of {pages}: {" ".join(parts)}</nav>'


def listing(base: str, title: str, top: Callable[[str, bool], Sequence[str]], papers: Sequence[Paper],
            entry: Callable[[Paper, str], str], when: Callable[[Paper], str],
            sorts: Sequence[tuple[str, str]] = SORTS, meta: dict | None = None,
            search: str = "", brief: Callable[[Paper, str], str] | None = None,
            name: str = "", same: Set[str] = frozenset(),
            orders: Mapping[str, list[Sequence[Paper]]] | None = None) -> dict[str, str]:
    """A listing's pages, ``{docs path: page}``: ``base.md`` (by title, page 1) and, under
    ``base/``, the other pages of each order in ``sorts`` (:func:`paged`), but for the pages
    ``same`` names (:func:`page_name` of the listing's ``name``: their pages on disk are as they
    would be, :func:`listing_page_keys`, which gives each order's pages as ``orders``).
    ``top(up, first)`` (HTML lines, given the way up to the site root and whether the page is
    its order's first) opens every page; ``entry(p, up)`` is a paper's list item;
    ``when(p)`` is the date key of "newest"; ``search`` is the query that filters these
    papers in the search box (``topic:rl``), for the filter links. ``brief`` is a paper's list
    item in the orders other than the first (``entry`` when not given)."""
    def url(how: str, k: int) -> str:
        slug = _page_slug(how, k)
        return f"{base}/" + (f"{slug}/" if slug else "")

    files = {}
    by_title = _by_title(papers) if orders is None else []
    for how, _ in sorts:
        chunks = paged(_ordered(by_title, how, when)) if orders is None else orders[how]
        pages = len(chunks)
        for k, chunk in enumerate(chunks, 1):
            if same and page_name(name, how, k) in same:
                continue
            here = url(how, k)
            up = _up(here)
            nav = []
            if len(sorts) > 1:
                current = ' aria-current="true"'
                links = " · ".join(
                    f'<a href="{up}{url(h, 1)}"{current if h == how else ""}>{label}</a>' for h, label in sorts)
                nav.append(f'<nav class="digest-sort" aria-label="Order">Sort by: {links}</nav>')
            if search:
                q = esc(search)
                nav.append(
                    '<p class="digest-filter-links">Filter these papers by topic, venue, year or code in the search box: '
                    f'<a href="{up}?q={q}%20">all of them</a>, or <a href="{up}?q={q}%20has:code">only those with code</a>.</p>')
            pager = _pager(k, pages, lambda j, how=how, up=up: up + url(how, j))
            item = entry if how == sorts[0][0] or brief is None else brief
            head = {**(meta or {}), "title": esc(title if k == 1 else f"{title}, page {k}"), **LISTING_FRAME}
            files[_page_file(base, how, k)] = html_page(
                head, *top(up, k == 1), *nav, pager, '<ul class="digest-list">', *(item(p, up) for p in chunk), "</ul>", pager)
    return files


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def render_topic(topic: Topic, papers: list[Paper], when: Callable[[Paper], str], same: Set[str] = frozenset(),
                 orders: Mapping[str, list[Sequence[Paper]]] | None = None) -> dict[str, str]:
    # `feed` puts the topic's own feed into the page's head (overrides/main.html); the
    # template prints feed_title as it is, so it is stored escaped (as titles are).
    meta = {"feed": topic_feed_path(topic), "feed_title": esc(f"ML Paper Digest: {topic.name}")}

    def top(up: str, first: bool) -> list[str]:
        count = f"<strong>{_count(len(papers), 'paper')}</strong> · " if first else ""
        return [
            f"<h1>{esc(topic.name)}</h1>",
            f"<p>{esc(topic.description)}</p>",
            f"<p>{count}{map_link(topic, up)} · "
            f'<a href="{up}{topic_feed_path(topic)}" type="application/atom+xml">Atom feed of its newest papers</a></p>',
        ]

    return listing(f"topics/{topic.slug}", topic.name, top, papers, _entry, when, meta=meta, search=f"topic:{topic.slug}",
                   brief=_brief_entry, name=f"topic:{topic.slug}", same=same, orders=orders)


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> list[str]:
    """An HTML table; cells are HTML already (escaped by the caller)."""
    def cells(tag: str, row: Sequence[str]) -> str:
        return "".join(
            f'<{tag} style="text-align: right">{c}</{tag}>' if i in numeric else f"<{tag}>{c}</{tag}>"
            for i, c in enumerate(row)
        )

    return ["<table>", f"<thead><tr>{cells('th', head)}</tr></thead>", "<tbody>",
            *(f"<tr>{cells('td', r)}</tr>" for r in rows), "</tbody>", "</table>"]


def render_topics_index(digest: Digest, by_topic: dict[str, list[Paper]]) -> str:
    """The topics as a tree: the broadest ones by their number of papers, each followed by the
    topics inside it (marked ``↳``, one more per level), which count towards it too."""
    meta = {"title": "Topics", **LISTING_FRAME}
    rows = []
    slugs = {t.slug for t in digest.topics}
    shown: set[str] = set()  # the taxonomy's loader refuses cycles; a Digest made by hand might not

    def order(topics: Iterable[Topic]) -> list[Topic]:
        return sorted(topics, key=lambda t: (-len(by_topic.get(t.name, [])), t.name))

    def add(t: Topic, depth: int) -> None:
        if t.slug in shown:
            return
        shown.add(t.slug)
        n = len(by_topic.get(t.name, []))
        mark = '<span class="digest-subtopic">' + "↳ " * depth + "</span>" if depth else ""
        rows.append((f'{mark}<a href="{t.slug}/">{esc(t.name)}</a>', str(n), esc(t.description)))
        for child in order(digest.children(t)):
            add(child, depth + 1)

    for t in order(t for t in digest.topics if t.parent not in slugs):
        add(t, 0)
    return html_page(meta, "<h1>Topics</h1>", *_table(("Topic", "Papers", "What it covers"), rows, numeric=(1,)))


def render_venue(venue: str, year: int, papers: list[Paper], when: Callable[[Paper], str], same: Set[str] = frozenset(),
                 orders: Mapping[str, list[Sequence[Paper]]] | None = None) -> dict[str, str]:
    name = f"{venue} {year}"
    slug = venue_slug(venue, year)
    heading = f"<h1>{esc(name)}</h1>"
    count = f"<p><strong>{_count(len(papers), 'paper')}</strong></p>"
    return listing(f"venues/{slug}", name, lambda up, first: [heading, count] if first else [heading], papers, _entry, when,
                   sorts=VENUE_SORTS, search=f"venue:{slug}", brief=_brief_entry, name=f"venue:{slug}", same=same,
                   orders=orders)


def render_venues_index(by_venue: dict[tuple[str, int], list[Paper]]) -> str:
    meta = {"title": "Venues", **LISTING_FRAME}
    rows = [
        (f'<a href="{venue_slug(venue, year)}/">{esc(f"{venue} {year}")}</a>', str(len(papers)))
        for (venue, year), papers in sorted(by_venue.items(), key=lambda kv: (-kv[0][1], kv[0][0].casefold()))
    ]
    return html_page(meta, "<h1>Venues</h1>", *_table(("Venue", "Papers"), rows, numeric=(1,)))


def _list_entry(p: Paper, up: str) -> str:
    item = f'<li><a href="{up}{_link_tail(p.id, p.title)} · {_venue_html(p.venue, p.year)}'
    if p.merged:
        where = ", ".join(esc(str(s)) for s in p.sources)
        item += f" · merged from {len(p.sources)} submissions: {where}"
    return item + "</li>"


def render_list(papers: list[Paper], when: Callable[[Paper], str], same: Set[str] = frozenset(),
                orders: Mapping[str, list[Sequence[Paper]]] | None = None) -> dict[str, str]:
    merged = sum(p.merged for p in papers)
    first = [
        "<h1>All papers</h1>",
        f"<p>Every paper of the digest once: <strong>{_count(len(papers), 'paper')}</strong>, "
        f"after merging <strong>{_count(merged, 'duplicate submission')}</strong>. To filter them by topic, venue, "
        "year or code, use the search box's filters.</p>",
    ]
    later = ["<h1>All papers</h1>",
             "<p>Every paper of the digest once. To filter them by topic, venue, year or code, use the search box's filters.</p>"]
    return listing("list", "All papers", lambda up, first_page: first if first_page else later, papers, _list_entry, when,
                   name="list", same=same, orders=orders)


def render_home(digest: Digest, by_topic: dict[str, list[Paper]], seed_files: int,
                added: dict[str, str] | None = None) -> str:
    papers = digest.visible()
    venues = {(p.venue, p.year) for p in papers}
    merged = sum(p.merged for p in papers)
    # `map: preview`: main.html loads assets/map.js once the map preview scrolls near.
    meta = {"title": "Home", "map": "preview", **LISTING_FRAME}
    lines = [
        "<h1>ML Paper Digest</h1>",
        "<p>A curated digest of machine-learning papers, built from the abstracts contributors submit as plain-text "
        "seed files. Titles, topics and links are derived from each abstract; duplicates submitted in several files "
        'are merged into one paper. Use the search box, or browse by <a href="topics/">topic</a>, '
        '<a href="venues/">venue</a> or the <a href="list/">list of all papers</a>. '
        '<a href="trends/">Trends</a> shows how the topics\' shares move from year to year and venue to venue.</p>',
        "<p>Search matches words as you type them; papers holding every word come first. Put "
        '<code>"two words"</code> in quotes to find them together, or write <code>-word</code> to leave out papers '
        "that mention it. Narrow the results by topic, venue, year or code with the buttons above them, or type "
        "<code>topic:reinforcement-learning</code>, <code>venue:icml-2026</code>, <code>year:2026</code> or "
        "<code>has:code</code>.</p>",
        *_table(
            ("Papers", "Venues", "Topics", "Seed files", "Duplicates merged"),
            [(str(len(papers)), str(len(venues)), str(sum(1 for v in by_topic.values() if v)), str(seed_files), str(merged))],
            numeric=range(5),
        ),
    ]
    lines += home_sections(papers, len(papers), entry=lambda p: _entry(p, ""), added=added)
    featured = [p for p in papers if p.featured]
    if featured:
        lines += ["<h2>Featured</h2>", *_entries(featured, "")]
    slugs = _topic_slugs(digest.topics)
    largest = sorted(((len(v), k) for k, v in by_topic.items() if v), key=lambda x: (-x[0], x[1]))[:10]
    lines += ["<h2>Largest topics</h2>", "<ul>"]
    lines += [f'<li><a href="topics/{slugs[name]}/">{esc(name)}</a> · {n}</li>' for n, name in largest if name in slugs]
    lines += [
        "</ul>",
        "<h2>Contribute</h2>",
        "<p>Add a seed file of abstracts by pull request: a check lists what the digest will make of each abstract. "
        'See <a href="contribute/">how to contribute</a>.</p>',
    ]
    return html_page(meta, *lines)


def paper_json(p: Paper) -> dict:
    out = {
        "id": p.id,
        "title": p.title,
        "venue": p.venue,
        "year": p.year,
        "tags": list(p.tags),
        "url": paper_url(p),
        "abstract": p.text,
        "sources": [{"file": s.file, "line": s.line} for s in p.sources],
        "links": [{"url": l.url, "kind": l.kind} for l in p.links],
        "tag_evidence": {name: list(phrases) for name, phrases in p.tag_evidence},
        "aliases": list(p.aliases),
        "related": list(p.related),
    }
    if p.featured:
        out["featured"] = True
    if p.note:
        out["note"] = p.note
    return out


def render_json(papers: list[Paper]) -> str:
    return "".join(_json_parts(papers))


def _json_parts(papers: Sequence[Paper]) -> list[str]:
    """papers.json in pieces: its opening, each paper (after a comma but the first), its end.
    Joined, the same text as one ``json.dumps`` of the whole."""
    return ['{"papers":[', *(("," if i else "") + _paper_json_text(p) for i, p in enumerate(papers)), "]}\n"]


def _json_bytes(papers: Sequence[Paper], known: Mapping[str, bytes]) -> list[bytes]:
    """:func:`_json_parts` as UTF-8, each paper's JSON from ``known`` (by id) where it is there."""
    parts = [b'{"papers":[']
    for i, p in enumerate(papers):
        entry = known.get(p.id)
        if entry is None:
            entry = _paper_json_text(p).encode("utf-8")
        parts.append(b"," + entry if i else entry)
    parts.append(b"]}\n")
    return parts


@PerBuild
def _paper_json_text(p: Paper) -> str:
    """A paper's part of papers.json, kept per paper: a long-lived builder (``make serve``) asks
    for the 20,000 of a digest at every save, and all but a few are the papers it asked for
    before (:func:`paper_json` reads only fields that make two records unequal)."""
    return json.dumps(paper_json(p), ensure_ascii=False, separators=(",", ":"))


# papers.json.gz is a run of gzip members (RFC 1952 allows any number; gzip, zcat and
# Python's gzip read them as one text), one per chunk of papers: a chunk ends after a paper
# whose id hashes to 0 modulo CHUNK_PAPERS, so the chunks are a function of the papers alone
# and one new paper changes one chunk. A rebuild compresses that chunk and copies the
# others' members from the file it wrote before (0.2 of 2.4 CPU seconds at 20,000 papers).
# Each member starts deflate's dictionary afresh: members of 200 papers made the file 1.2%
# larger than one member at 20,000 papers, of about 500 (1 MB) 0.5%.
CHUNK_PAPERS = 500
GZIP_LEVEL = 6


def _ends_chunk(paper_id: str) -> bool:
    h = hashlib.blake2b(paper_id.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(h, "little") % CHUNK_PAPERS == 0


def papers_gz(papers: Sequence[Paper], parts: Sequence[str | bytes], previous: Mapping[str, bytes] | None = None,
              ) -> tuple[bytes, list[tuple[str, int, int]]]:
    """papers.json (as :func:`_json_parts`) gzipped in members of chunks, and each member's
    (hash of its chunk's text, offset, length). ``previous`` gives members by their chunk's hash:
    those are not compressed again (the same text compressed gives the same bytes)."""
    encoded = [part if isinstance(part, bytes) else part.encode("utf-8") for part in parts]
    chunks: list[bytes] = []
    at = 0
    for i, p in enumerate(papers):
        if _ends_chunk(p.id) or i == len(papers) - 1:
            chunks.append(b"".join(encoded[at : i + 2 if i < len(papers) - 1 else len(encoded)]))
            at = i + 2
    if not papers:
        chunks.append(b"".join(encoded))
    out, table, offset = [], [], 0
    for chunk in chunks:
        h = hashlib.blake2b(chunk, digest_size=16).hexdigest()
        member = (previous or {}).get(h)
        if member is None:
            member = gzip.compress(chunk, compresslevel=GZIP_LEVEL, mtime=0)
        out.append(member)
        table.append((h, offset, len(member)))
        offset += len(member)
    return b"".join(out), table


def paper_page_keys(digest: Digest, repo: Repository = Repository(), site_url: str = "") -> dict[str, str]:
    """Paper id -> a hash of everything its page (:func:`render_paper`) is made of: the paper's
    record, the cards of its related papers, the topics' slugs, the repository and the site's
    address. Equal keys (from the same generator) are equal pages, so a build need not render
    a page whose key is what it was when the page on disk was written."""
    papers = digest.visible()
    slugs = _topic_slugs(digest.topics)
    names = frozenset(slugs)
    cards = {p.id: _card(p, names) for p in papers}
    common = repr((sorted(slugs.items()), repo, site_url)).encode("utf-8", "surrogatepass")
    return {p.id: _page_key(common, p, tuple(map(_SOURCE_FIELDS, p.sources)), tuple(cards.get(i) for i in p.related))
            for p in papers}


# A long-lived builder (``make serve``) asks for every paper's card and page key at every
# save, and all but a few papers are equal to ones it asked for before: both are kept per
# paper (:mod:`generator.core.memo`). A card reads the slugs' names alone; a key is given every field of the sources too
# (two records are equal when their sources' files and lines are, whatever their venues).
@PerBuild
def _card(p: Paper, names: frozenset[str]) -> str:
    return related_card(p, names)


@PerBuild
def _page_key(common: bytes, p: Paper, sources: tuple, cards: tuple[str | None, ...]) -> str:
    h = hashlib.blake2b(common, digest_size=16)
    h.update(repr((_record(p), list(cards))).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _record(p: Paper) -> tuple:
    """Every field of ``p`` as plain tuples and strings, the abstract by its hash (which the
    build has made already): what a page key hashes. The record's own repr, through the
    dataclasses' Python ``__repr__``, and hashing every abstract's text again were most of
    :func:`paper_page_keys`."""
    return (*_OTHER_FIELDS(p), text_key(p.text), tuple(map(_SOURCE_FIELDS, p.sources)), tuple(map(_LINK_FIELDS, p.links)))


_SOURCE_FIELDS = attrgetter(*Source.__dataclass_fields__)
_LINK_FIELDS = attrgetter(*Link.__dataclass_fields__)
_OTHER_FIELDS = attrgetter(*(name for name in Paper.__dataclass_fields__ if name not in ("text", "sources", "links")))


def render_site(digest: Digest, seed_files: int, start: Start = Later,
                added: Mapping[str, datetime] | None = None, repo: Repository = Repository(),
                site_url: str = "", unchanged: Set[str] = frozenset(), same_listings: Set[str] = frozenset(),
                members: dict[str, bytes] | None = None, entries: dict[str, Any] | None = None,
                listings: Listings | None = None) -> dict[str, str | bytes]:
    """Every generated file of the site, by path relative to the docs folder. ``added`` is
    when each seed file entered the repository (:func:`generator.seeds.read.seed_dates`), for
    the "newest" orders; without it papers are dated by their year. ``site_url`` (ending
    in "/", or "") is the site's address, for the paper pages' structured data.

    Paper pages are independent of each other: ``start(fn, papers)`` may render
    them in worker processes (:class:`generator.core.parallel.Pending`) while this
    process renders the listing pages; it changes only the speed. The pages of the papers
    ``unchanged`` names are left out (their pages on disk are what they would be:
    :func:`paper_page_keys`). So are the listings and listing pages ``same_listings`` names
    (:func:`listing_keys`, :func:`listing_page_keys`: ``listings`` is what those were given).
    ``members`` (chunk hash -> gzip member) are the previous ``papers.json.gz``'s, reused where a
    chunk is the same (:func:`papers_gz`); when given, it is replaced by this build's table
    (chunk hash -> (offset, length)), in order. ``entries`` (paper id -> its JSON in papers.json,
    as bytes) are the previous file's, for papers whose record is what it was then
    (:meth:`generator.pages.kept.Kept.previous_entries`): not made again; when given, it is
    replaced by where each paper's JSON lies in this build's file (id -> (offset, length)).
    """
    papers = digest.visible()
    slugs = _topic_slugs(digest.topics)
    by_topic = digest.by_topic()
    rendered = [p for p in papers if p.id not in unchanged]
    # the cards the rendered pages list (a rebuild renders a dozen pages, not 20,000)
    listed = {i for p in rendered for i in p.related}
    names = frozenset(slugs)
    cards = {p.id: _card(p, names) for p in papers if p.id in listed}
    pending = start(partial(_render_papers, slugs=slugs, cards=cards, repo=repo, site_url=site_url), rendered)
    files: dict[str, str | bytes] = render_frames()
    # The site publishes the data gzipped (mkdocs.yml leaves papers.json out): 93 MB at
    # 50,000 papers, a tenth of the site, is 34 MB so. No timestamp: the same data gives the
    # same bytes. zlib lets other threads run while it compresses (1.5 s at 20,000 papers),
    # so it does so while the listing pages render.
    # As UTF-8, part by part: as one text, a character past Latin-1 in any abstract makes
    # papers.json two or four bytes a character (73 MB at 20,000 papers, 39 MB so).
    parts = _json_bytes(papers, entries or {})
    files["papers.json"] = b"".join(parts)
    if entries is not None:
        entries.clear()
        at = len(parts[0])
        for i, (p, part) in enumerate(zip(papers, parts[1:])):
            entries[p.id] = (at + (i > 0), len(part) - (i > 0))  # after the comma
            at += len(part)
    with ThreadPoolExecutor(1) as compressing:
        gzipped = compressing.submit(papers_gz, papers, parts, dict(members or {}))
        files.update(_render_listings(digest, papers, by_topic, seed_files, listings or listings_of(digest, added),
                                      same_listings))
        files["papers.json.gz"], table = gzipped.result()
    del parts  # as long as papers.json itself: not held while the paper pages come back
    if members is not None:
        members.clear()
        members.update((h, (at, n)) for h, at, n in table)
    files.update(zip(map(paper_path, rendered), pending.result()))
    return files


@dataclass
class Listings:
    """Each visible paper's date (ISO) and its part of the listings' keys (:func:`_listed`), made
    once a build (:func:`listings_of`); and the pages of each order of the listings
    :func:`listing_page_keys` looked at, for the render to list as they are (not sorted again)."""
    dated: dict[str, str]
    each: dict[str, bytes]
    orders: dict[str, dict[str, list[Sequence[Paper]]]] = field(default_factory=dict)


def listings_of(digest: Digest, added: Mapping[str, datetime] | None = None, keyed: bool = True) -> Listings:
    """The papers' dates and, with ``keyed`` (a build that keeps its listings' keys), their parts of the keys."""
    papers = digest.visible()
    dated = {p.id: paper_date(p, added or {}).isoformat() for p in papers}
    # the abstract by its hash, which the build has made already (each text's repr was most of this)
    return Listings(dated, {p.id: _listed(p, tuple(map(_SOURCE_FIELDS, p.sources)), dated[p.id]) for p in papers}
                    if keyed else {})


def listing_keys(digest: Digest, added: Mapping[str, datetime] | None = None, listings: Listings | None = None,
                 ) -> dict[str, str]:
    """Listing name (``topic:<slug>``, ``venue:<slug>``, ``list``) -> a hash of everything its pages
    (:func:`render_topic`, :func:`render_venue`, :func:`render_list`) are made of: the topic or
    venue, and its papers' ids, titles, venues, years, abstracts, dates and sources. Equal keys
    (from the same generator) are equal pages, so a build need not render a listing whose key
    is what it was when its pages on disk were written (:mod:`generator.pages.kept`)."""
    each = (listings or listings_of(digest, added)).each

    def key(what: object, group: Iterable[Paper]) -> str:
        h = hashlib.blake2b(repr(what).encode("utf-8", "surrogatepass"), digest_size=16)
        for p in group:
            h.update(each[p.id])
        return h.hexdigest()

    by_topic = digest.by_topic()
    out = {f"topic:{t.slug}": key(t, by_topic.get(t.name, [])) for t in digest.topics}
    out.update((f"venue:{venue_slug(v, y)}", key((v, y), vp)) for (v, y), vp in digest.by_venue().items())
    out["list"] = key("list", digest.visible())
    return out


def page_name(listing: str, how: str, k: int) -> str:
    """Page ``k`` of order ``how`` of a listing (:func:`listing_keys`' name), as the kept keys name it: ``list#title-1``."""
    return f"{listing}#{how}-{k}"


def listing_page_keys(digest: Digest, names: Iterable[str], added: Mapping[str, datetime] | None = None,
                      listings: Listings | None = None) -> dict[str, str]:
    """Page name (:func:`page_name`) -> a hash of everything the page is made of, for each page of
    the listings ``names`` names (:func:`listing_keys`; a rebuild asks for the few whose key
    changed): the listing, the page's place among its order's pages, the count on its order's
    first page, and its papers in order. A page whose key is what it was when its file was
    written is not rendered: one new paper renders the page it lands on and the first pages.
    ``listings`` (:func:`listings_of`) is given each order's pages of these listings."""
    wanted = set(names)
    if not wanted:
        return {}
    listings = listings or listings_of(digest, added)
    dated, each = listings.dated, listings.each
    groups: list[tuple[str, object, list[Paper], Sequence[tuple[str, str]]]] = []
    if wanted & {f"topic:{t.slug}" for t in digest.topics}:
        by_topic = digest.by_topic()
        groups += [(f"topic:{t.slug}", t, by_topic.get(t.name, []), SORTS) for t in digest.topics if f"topic:{t.slug}" in wanted]
    if any(name.startswith("venue:") for name in wanted):
        groups += [(f"venue:{venue_slug(v, y)}", (v, y), vp, VENUE_SORTS) for (v, y), vp in digest.by_venue().items()
                   if f"venue:{venue_slug(v, y)}" in wanted]
    if "list" in wanted:
        groups.append(("list", "list", digest.visible(), SORTS))
    out = {}
    for name, what, group, sorts in groups:
        first = repr((len(group), sum(p.merged for p in group))).encode()  # what the first pages count
        by_title = _by_title(group)
        orders = listings.orders[name] = {}
        for how, _ in sorts:
            chunks = orders[how] = paged(_ordered(by_title, how, lambda p: dated[p.id]))
            for k, chunk in enumerate(chunks, 1):
                h = hashlib.blake2b(repr((what, how, k, len(chunks))).encode("utf-8", "surrogatepass"), digest_size=16)
                if k == 1:
                    h.update(first)
                for p in chunk:
                    h.update(each[p.id])
                out[page_name(name, how, k)] = h.hexdigest()
    return out


@PerBuild  # as :func:`_page_key`: a long-lived builder asks for every paper's at every save
def _listed(p: Paper, sources: tuple, date: str) -> bytes:
    """A paper's part of the keys of the listings that hold it (:func:`listing_keys`)."""
    return hashlib.blake2b(repr((p.id, p.title, p.venue, p.year, text_key(p.text), date, p.sources))
                           .encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _render_listings(digest: Digest, papers: list[Paper], by_topic: dict, seed_files: int,
                     listings: Listings, same: Set[str] = frozenset()) -> dict[str, str]:
    """The alias, topic, venue, all-papers and home pages; not the listings ``same`` names
    (:func:`listing_keys`), nor the listing pages it names (:func:`listing_page_keys`)."""
    files: dict[str, str] = {}
    orders = listings.orders
    for p in papers:
        for alias in p.aliases:
            files.setdefault(f"papers/{alias}.md", render_alias(p))
    dated = listings.dated
    when = lambda p: dated[p.id]  # noqa: E731
    for t in digest.topics:
        if f"topic:{t.slug}" not in same:
            files.update(render_topic(t, by_topic.get(t.name, []), when, same, orders.get(f"topic:{t.slug}")))
    files["topics/index.md"] = render_topics_index(digest, by_topic)
    by_venue = digest.by_venue()
    for (venue, year), vp in by_venue.items():
        if f"venue:{venue_slug(venue, year)}" not in same:
            files.update(render_venue(venue, year, vp, when, same, orders.get(f"venue:{venue_slug(venue, year)}")))
    files["venues/index.md"] = render_venues_index(by_venue)
    if "list" not in same:
        files.update(render_list(papers, when, same, orders.get("list")))
    files["index.md"] = render_home(digest, by_topic, seed_files, dated)
    return files


def listing_files(files: Mapping[str, object], name: str) -> list[str]:
    """The files of ``files`` that listing ``name`` (:func:`listing_keys`), or one page of it
    (:func:`page_name`), made."""
    name, _, page = name.partition("#")
    kind, _, slug = name.partition(":")
    if kind == "feed":  # a feed (:func:`generator.pages.feeds.feed_keys`) is one file, at its path
        return [slug] if slug in files else []
    base = {"topic": f"topics/{slug}", "venue": f"venues/{slug}", "list": "list"}[kind]
    if page:
        how, _, k = page.rpartition("-")
        rel = _page_file(base, how, int(k))
        return [rel] if rel in files else []
    return sorted(rel for rel in files if rel == f"{base}.md" or (rel.startswith(f"{base}/") and rel.endswith(".md")))
