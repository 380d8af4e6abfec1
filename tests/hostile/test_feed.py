"""The hostile site's Atom feeds, read back by a real feed parser: every title and abstract
is the same text it was, and no feed is malformed."""
from __future__ import annotations

import feedparser
from support import published_papers

from generator.core.markup import to_plain


def _read(site, path):
    """The feed as a reader fetching it from https://digest.example/ would see it."""
    url = "https://digest.example/" + path.relative_to(site).as_posix()
    feed = feedparser.parse(path.read_bytes(), response_headers={"content-location": url, "content-type": "application/atom+xml"})
    assert not feed.bozo, (path, feed.get("bozo_exception"))
    return feed


def test_feeds_hold_the_hostile_text_as_text(hostile_site):
    papers = {p["url"]: p for p in published_papers(hostile_site.site)}
    feed = _read(hostile_site.site, hostile_site.site / "feed.xml")
    assert len(feed.entries) == min(50, len(papers))
    for e in feed.entries:
        p = papers[e.link.removeprefix("https://digest.example/")]
        assert e.title == p["title"]
        assert e.title_detail.type == e.summary_detail.type == "text/plain"
        assert e.summary == f"{p['venue']} {p['year']}. {to_plain(p['abstract'])}"


def test_every_topic_feed_is_well_formed(hostile_site):
    feeds = sorted((hostile_site.site / "topics").glob("*/feed.xml"))
    assert feeds
    for path in feeds:
        _read(hostile_site.site, path)
