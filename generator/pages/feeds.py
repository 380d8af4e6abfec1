"""Atom 1.0 feeds of the newest papers: one for the digest, one per topic.

Pure: :func:`render_feeds` returns ``{relative path: XML}``; the dates come in as
data. A paper is dated by when the first of its seed files entered the repository
(``added``, read from git history by :func:`generator.pipeline.seed_dates`); a seed
file without history (not a git checkout, a shallow clone, a file not committed
yet) dates its papers January 1 of the year in its header, so a feed is valid and
the same on every build either way.

The XML is built with :mod:`xml.etree.ElementTree`, which escapes every text and
attribute; seed text goes into text nodes only (titles and abstracts as
``type="text"``, never HTML), and characters XML 1.0 cannot hold are dropped.
Entry ids are ``urn:uuid:`` names derived from the paper id, so they stay the same
when the site moves. Links are absolute when ``site_url`` is set (mkdocs.yml),
else relative to the feed's own address, which feed readers resolve against the
URL they fetched (RFC 4287 section 4.2.7.1, RFC 3986): right wherever the site is served.
"""
from __future__ import annotations

import hashlib
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence, Set
from datetime import datetime, timezone
from functools import lru_cache

from generator.core.markup import to_plain
from generator.core.model import Paper, Topic, parent_names, with_parents
from generator.derive.cache import text_key

ATOM = "http://www.w3.org/2005/Atom"
FEED_SIZE = 50
FEED_PATH = "feed.xml"
SITE_TITLE = "ML Paper Digest"
# Fixed for ever: entry and feed ids are UUIDs named in this namespace.
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/ml-paper-digest/digest")

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def topic_feed_path(topic: Topic) -> str:
    """Where a topic's feed lives: beside the topic page's URL (``topics/<slug>/``)."""
    return f"topics/{topic.slug}/feed.xml"


@lru_cache(maxsize=512)  # asked for each of 20,000 papers by the feeds and the listings
def year_start(year: int) -> datetime:
    """The fallback date of a seed file without history: January 1 of its header's year."""
    return datetime(max(year, 1), 1, 1, tzinfo=timezone.utc)


def paper_date(p: Paper, added: Mapping[str, datetime]) -> datetime:
    """When the paper entered the digest: the earliest date of its seed files that have
    history, else January 1 of its year."""
    known = [added[s.file] for s in p.sources if s.file in added]
    return min(known) if known else year_start(p.year)


def newest(papers: Sequence[Paper], added: Mapping[str, datetime], size: int = FEED_SIZE) -> list[tuple[Paper, datetime]]:
    """The ``size`` newest papers with their dates, newest first, equal dates by id."""
    dated = [(p, paper_date(p, added)) for p in papers]
    dated.sort(key=lambda pd: pd[0].id)
    dated.sort(key=lambda pd: pd[1], reverse=True)  # stable: ids stay ascending within a date
    return dated[:size]


def entry_id(paper_id: str) -> str:
    return f"urn:uuid:{uuid.uuid5(NAMESPACE, 'paper/' + paper_id)}"


def _text(value: str) -> str:
    return _NOT_XML.sub("", value)


def _stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    """A child element; ElementTree escapes its text and attributes when it is written.
    Text that comes from a seed goes through :func:`_text` first (callers' job)."""
    el = ET.SubElement(parent, tag, attrs)
    if text is not None:
        el.text = text
    return el


class _Entries:
    """Each paper's <entry>, built once per link base and shared by every feed that holds
    it (an element has no parent of its own, so one element can sit in several trees)."""

    def __init__(self, slugs: Mapping[str, str]):
        self.slugs = slugs
        self.built: dict[tuple[str, str], ET.Element] = {}
        self.summary: dict[str, str] = {}

    def get(self, p: Paper, when: datetime, base: str) -> ET.Element:
        e = self.built.get((p.id, base))
        if e is not None:
            return e
        e = self.built[(p.id, base)] = ET.Element("entry")
        _sub(e, "id", entry_id(p.id))
        _sub(e, "title", _text(p.title), type="text")
        _sub(e, "link", rel="alternate", type="text/html", href=f"{base}papers/{p.id}/")
        _sub(e, "published", _stamp(when))
        _sub(e, "updated", _stamp(when))
        for name in p.tags:
            if name in self.slugs:
                _sub(e, "category", term=self.slugs[name], label=_text(name))
        summary = self.summary.get(p.id)
        if summary is None:
            summary = self.summary[p.id] = _text(f"{p.venue} {p.year}. {to_plain(p.text)}")
        _sub(e, "summary", summary, type="text")
        return e


def render_feed(path: str, title: str, page: str, entries: Sequence[tuple[Paper, datetime]],
                built: _Entries, site_url: str = "") -> str:
    """One Atom feed at ``path`` (relative to the site root) of ``entries`` (newest first);
    ``page`` is the site path of the HTML page it is the feed of."""
    base = site_url.rstrip("/") + "/" if site_url else "../" * path.count("/")

    def url(site_path: str) -> str:
        """A site path as a link from this feed: absolute under site_url, else relative."""
        return base + site_path or "./"

    feed = ET.Element("feed", {"xmlns": ATOM})
    _sub(feed, "id", f"urn:uuid:{uuid.uuid5(NAMESPACE, 'feed/' + path)}")
    _sub(feed, "title", _text(title), type="text")
    # The newest entry's date, not the clock: a build of the same seeds writes the same feed.
    _sub(feed, "updated", _stamp(entries[0][1] if entries else year_start(1970)))
    _sub(feed, "link", rel="self", type="application/atom+xml", href=url(path))
    _sub(feed, "link", rel="alternate", type="text/html", href=url(page))
    author = _sub(feed, "author")
    _sub(author, "name", SITE_TITLE)
    feed.extend(built.get(p, when, base) for p, when in entries)
    ET.indent(feed, space=" ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"


Planned = list[tuple[str, str, str, list[tuple[Paper, datetime]]]]


def plan_feeds(papers: Sequence[Paper], topics: Sequence[Topic], added: Mapping[str, datetime],
               size: int = FEED_SIZE) -> Planned:
    """Each feed's (path, title, page, its entries newest first): the digest's, then each topic's."""
    dated = newest(papers, added, len(papers))
    out = [(FEED_PATH, SITE_TITLE, "", dated[:size])]
    by_topic: dict[str, list[tuple[Paper, datetime]]] = {t.name: [] for t in topics}
    parents = parent_names(topics)
    for p, when in dated:
        # a topic's feed holds what its page lists: its papers and those of the topics inside it
        for name in with_parents(p.tags, parents):
            if name in by_topic and len(by_topic[name]) < size:
                by_topic[name].append((p, when))
    out += [(topic_feed_path(t), f"{SITE_TITLE}: {t.name}", f"topics/{t.slug}/", by_topic[t.name]) for t in topics]
    return out


def render_feeds(
    papers: Sequence[Paper],
    topics: Sequence[Topic],
    added: Mapping[str, datetime],
    site_url: str = "",
    size: int = FEED_SIZE,
    same: Set[str] = frozenset(),
    planned: Planned | None = None,
) -> dict[str, str]:
    """The digest's feed (``feed.xml``) and one per topic (:func:`topic_feed_path`), by path;
    not the feeds ``same`` names (their files are as they would be: :func:`feed_keys`).
    ``planned``: :func:`plan_feeds` of the same arguments, when it was made already."""
    built = _Entries({t.name: t.slug for t in topics})
    planned = planned if planned is not None else plan_feeds(papers, topics, added, size)
    return {path: render_feed(path, title, page, entries, built, site_url)
            for path, title, page, entries in planned if path not in same}


def feed_keys(planned: Planned, topics: Sequence[Topic], site_url: str = "") -> dict[str, str]:
    """Feed path -> a hash of everything it (:func:`render_feed`) is made of (``planned``, by
    :func:`plan_feeds`): its path, title and page, the site's address, the topics' slugs, and
    each entry's paper (id, title, tags, venue, year, abstract) and date. Equal keys (from the
    same generator) are equal feeds, so a build need not render a feed whose key is what it was
    when its file was written (:mod:`generator.pages.kept`): one new paper changes the feeds of
    its topics and the digest's."""
    common = repr((site_url, sorted((t.name, t.slug) for t in topics))).encode("utf-8", "surrogatepass")
    out = {}
    for path, title, page, entries in planned:
        h = hashlib.blake2b(common, digest_size=16)
        h.update(repr((path, title, page, [(p.id, p.title, p.tags, p.venue, p.year, text_key(p.text), when.isoformat())
                                          for p, when in entries])).encode("utf-8", "surrogatepass"))
        out[path] = h.hexdigest()
    return out
