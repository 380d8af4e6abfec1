"""Atom feeds, read back with feedparser: ids, links, dates, order, escaping; and the dates'
source, git history, in real repositories (full, shallow, none)."""
from __future__ import annotations

import os
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import feedparser
import pytest
from support import published_papers

from generator.core.model import Paper, Source, Topic
from generator.pages.feeds import FEED_PATH, render_feeds, topic_feed_path
from generator.seeds.read import seed_dates
from generator.site.config import site_url

GRAPHS = Topic("Graph Learning", "graph-learning", "Graphs.", ("graph",))
SPEECH = Topic("Speech", "speech", "Speech.", ("speech",))
TOPICS = [GRAPHS, SPEECH]
HOSTILE = 'Fish & <b>Chips</b> ]]> "quoted" \'single\' </summary><x>'


def paper(pid: str, files: tuple[str, ...], year: int = 2024, tags: tuple[str, ...] = ("Graph Learning",),
          title: str | None = None, text: str | None = None) -> Paper:
    sources = tuple(Source(f, 3, "ICML", year) for f in files)
    return Paper(id=pid, text=text or f"An abstract about graphs, number {pid}, long enough to read.", venue="ICML",
                 year=year, sources=sources, title=title or f"Paper {pid}", tags=tags)


def day(d: int, month: int = 3) -> datetime:
    return datetime(2025, month, d, 12, 0, tzinfo=timezone.utc)


def parse(xml: str, url: str = "https://readers.example/site/feed.xml") -> feedparser.FeedParserDict:
    """Read a feed as a reader fetching it from ``url`` would (relative links resolve against it)."""
    feed = feedparser.parse(xml, response_headers={"content-location": url, "content-type": "application/atom+xml"})
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return feed


def test_entries_newest_first_dated_by_their_earliest_seed_file_ties_by_id():
    papers = [
        paper("bbb000000000", ("seeds/a.txt",)),
        paper("aaa000000000", ("seeds/a.txt",)),
        paper("ccc000000000", ("seeds/b.txt", "seeds/c.txt")),  # merged: b is newer, c older
        paper("ddd000000000", ("seeds/new.txt",), year=2023),  # not committed: January 1, 2023
    ]
    added = {"seeds/a.txt": day(10), "seeds/b.txt": day(20), "seeds/c.txt": day(5)}
    feed = parse(render_feeds(papers, TOPICS, added)[FEED_PATH])
    got = [(e.title, e.published) for e in feed.entries]
    assert got == [
        ("Paper aaa000000000", "2025-03-10T12:00:00Z"),
        ("Paper bbb000000000", "2025-03-10T12:00:00Z"),
        ("Paper ccc000000000", "2025-03-05T12:00:00Z"),
        ("Paper ddd000000000", "2023-01-01T00:00:00Z"),
    ]
    assert feed.feed.updated == "2025-03-10T12:00:00Z"  # the newest entry, not the clock


def test_at_most_size_entries_the_newest():
    papers = [paper(f"{i:03d}000000000", (f"seeds/{i}.txt",)) for i in range(12)]
    added = {f"seeds/{i}.txt": day(i + 1) for i in range(12)}
    feed = parse(render_feeds(papers, TOPICS, added, size=5)[FEED_PATH])
    assert [e.title for e in feed.entries] == [f"Paper {i:03d}000000000" for i in (11, 10, 9, 8, 7)]


def test_hostile_title_and_abstract_come_back_as_the_same_text():
    text = f"We study graphs. {HOSTILE} And nothing else happens in this abstract at all."
    p = paper("eee000000000", ("seeds/a.txt",), title=HOSTILE, text=text)
    xml = render_feeds([p], TOPICS, {})[FEED_PATH]
    assert "<b>" not in xml and "]]>" not in xml
    entry = parse(xml).entries[0]
    assert entry.title == HOSTILE
    assert entry.title_detail.type == "text/plain"
    assert entry.summary == f"ICML 2024. {text}"


def test_ids_are_stable_unique_uris_whatever_the_site_and_the_other_papers():
    a, b = paper("aaa000000000", ("seeds/a.txt",)), paper("bbb000000000", ("seeds/a.txt",))
    one = parse(render_feeds([a, b], TOPICS, {})[FEED_PATH])
    two = parse(render_feeds([b], TOPICS, {"seeds/a.txt": day(1)}, site_url="https://x.example/")[FEED_PATH])
    ids = {e.title: e.id for e in one.entries}
    assert len(set(ids.values())) == 2
    assert all(i.startswith("urn:uuid:") for i in ids.values())
    assert two.entries[0].id == ids["Paper bbb000000000"]
    topic = parse(render_feeds([a, b], TOPICS, {})[topic_feed_path(GRAPHS)])
    assert {e.title: e.id for e in topic.entries} == ids  # the same entry in every feed
    assert topic.feed.id != one.feed.id


def test_links_absolute_under_site_url():
    p = paper("aaa000000000", ("seeds/a.txt",))
    files = render_feeds([p], TOPICS, {}, site_url="https://digest.example/ml")
    feed = parse(files[FEED_PATH])
    assert feed.entries[0].link == "https://digest.example/ml/papers/aaa000000000/"
    rels = {l.rel: l.href for l in feed.feed.links}
    assert rels == {"self": "https://digest.example/ml/feed.xml", "alternate": "https://digest.example/ml/"}
    topic = parse(files[topic_feed_path(GRAPHS)])
    assert {l.rel: l.href for l in topic.feed.links} == {
        "self": "https://digest.example/ml/topics/graph-learning/feed.xml",
        "alternate": "https://digest.example/ml/topics/graph-learning/",
    }


def test_relative_links_resolve_from_where_the_feed_is_served():
    p = paper("aaa000000000", ("seeds/a.txt",))
    files = render_feeds([p], TOPICS, {})
    root = parse(files[FEED_PATH], "https://host.example/sub/feed.xml")
    assert root.entries[0].link == "https://host.example/sub/papers/aaa000000000/"
    topic = parse(files[topic_feed_path(GRAPHS)], "https://host.example/sub/topics/graph-learning/feed.xml")
    assert topic.entries[0].link == "https://host.example/sub/papers/aaa000000000/"
    assert {l.rel: l.href for l in topic.feed.links} == {
        "self": "https://host.example/sub/topics/graph-learning/feed.xml",
        "alternate": "https://host.example/sub/topics/graph-learning/",
    }


def test_a_feed_per_topic_holds_its_papers_and_an_empty_topic_is_still_valid():
    papers = [paper("aaa000000000", ("seeds/a.txt",)), paper("bbb000000000", ("seeds/a.txt",), tags=("Speech", "Graph Learning"))]
    files = render_feeds(papers, TOPICS, {})
    assert set(files) == {"feed.xml", "topics/graph-learning/feed.xml", "topics/speech/feed.xml"}
    speech = parse(files["topics/speech/feed.xml"])
    assert [e.title for e in speech.entries] == ["Paper bbb000000000"]
    assert speech.feed.title == "ML Paper Digest: Speech"
    assert [t.term for t in speech.entries[0].tags] == ["speech", "graph-learning"]
    empty = parse(render_feeds([], TOPICS, {})["topics/speech/feed.xml"])
    assert empty.entries == []


def test_a_parent_topics_feed_holds_the_papers_of_the_topics_inside_it():
    gnn = Topic("Graph Neural Networks", "gnn", "GNNs.", ("gnn",), parent="graph-learning")
    papers = [paper("aaaaaaaaaaaa", ("seeds/a.txt",), tags=("Graph Neural Networks",)),
              paper("bbbbbbbbbbbb", ("seeds/a.txt",), tags=("Speech",))]
    files = render_feeds(papers, [*TOPICS, gnn], {})
    assert [e.title for e in parse(files["topics/graph-learning/feed.xml"]).entries] == ["Paper aaaaaaaaaaaa"]
    assert [e.title for e in parse(files["topics/gnn/feed.xml"]).entries] == ["Paper aaaaaaaaaaaa"]
    assert [e.title for e in parse(files["topics/speech/feed.xml"]).entries] == ["Paper bbbbbbbbbbbb"]
    # the entry's categories are the paper's own tags: the feed it is in says the parent
    assert [t.term for t in parse(files["topics/graph-learning/feed.xml"]).entries[0].tags] == ["gnn"]


def test_the_same_input_gives_the_same_bytes():
    papers = [paper(f"{i:03d}000000000", ("seeds/a.txt",)) for i in range(5)]
    assert render_feeds(papers, TOPICS, {"seeds/a.txt": day(2)}) == render_feeds(list(reversed(papers)), TOPICS, {"seeds/a.txt": day(2)})


# -- the dates' source: git history ---------------------------------------------------------


def git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def history(tmp_path, monkeypatch) -> Path:
    """A repository: a.txt added on 1 March, b.txt on 5 March, a.txt renamed to c.txt on
    9 March, d.txt present but never committed."""
    repo = tmp_path / "repo"
    (repo / "seeds").mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "seeds" / "a.txt").write_text("ICML 2025 Papers\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "a", date="2025-03-01T10:00:00+02:00")
    (repo / "seeds" / "b.txt").write_text("ICML 2025 Papers\n\nb\n", encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "b", date="2025-03-05T10:00:00+00:00")
    git(repo, "mv", "seeds/a.txt", "seeds/c.txt")
    git(repo, "commit", "-qm", "rename", date="2025-03-09T10:00:00+00:00")
    (repo / "seeds" / "d.txt").write_text("ICML 2025 Papers\n\nd\n", encoding="utf-8")
    monkeypatch.chdir(repo)
    return repo


def test_dates_from_history_follow_renames_and_skip_uncommitted_files(history):
    paths = sorted((history / "seeds").glob("*.txt"))
    dates, how = seed_dates(paths)
    assert how == "git history"
    assert dates == {
        "seeds/b.txt": datetime(2025, 3, 5, 10, tzinfo=timezone.utc),
        "seeds/c.txt": datetime(2025, 3, 1, 8, tzinfo=timezone.utc),  # entered as a.txt
    }


def test_a_file_name_in_the_history_that_is_not_utf8_is_passed_over(history):
    # The build refuses such a name today, but history keeps one added and removed before:
    # git log printed its bytes, and reading them as UTF-8 stopped every later build with a
    # UnicodeDecodeError traceback, which removing the file could not mend.
    bad = os.path.join(os.fsencode(history / "seeds"), b"bad\xff.txt")
    with open(bad, "wb") as f:
        f.write(b"ICML 2025 Papers\n")
    git(history, "add", ".")
    git(history, "commit", "-qm", "bad", date="2025-03-10T10:00:00+00:00")
    git(history, "rm", "-q", os.fsdecode(bad))
    git(history, "commit", "-qm", "gone", date="2025-03-11T10:00:00+00:00")
    dates, how = seed_dates(sorted((history / "seeds").glob("*.txt")))
    assert how == "git history" and dates["seeds/b.txt"] == datetime(2025, 3, 5, 10, tzinfo=timezone.utc)


def test_a_shallow_clone_says_so_and_gives_no_dates(history, tmp_path, monkeypatch):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{history}", str(clone)], check=True, capture_output=True)
    monkeypatch.chdir(clone)
    dates, how = seed_dates(sorted((clone / "seeds").glob("*.txt")))
    assert dates == {}
    assert how.startswith("a shallow clone")


def test_outside_a_checkout_says_so(tmp_path, monkeypatch):
    (tmp_path / "s.txt").write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert seed_dates([tmp_path / "s.txt"]) == ({}, "not a git checkout")


def test_site_url_from_mkdocs_yml(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nsite_url: https://d.example/\nextra:\n  key: !ENV [HOME, x]\n", encoding="utf-8")
    assert site_url(config) == "https://d.example/"
    config.write_text("site_name: x\n", encoding="utf-8")
    assert site_url(config) == ""
    assert site_url(tmp_path / "missing.yml") == ""


def test_characters_xml_cannot_hold_are_dropped_not_written():
    # a curated title could hold one; XML 1.0 has no way to write U+000B or U+FFFE at all
    p = paper("aaa000000000", ("seeds/a.txt",), title="Tab\x0bbed \ufffetitle")
    entry = parse(render_feeds([p], TOPICS, {})[FEED_PATH]).entries[0]
    assert entry.title == "Tabbed title"


# -- on the site --------------------------------------------------------------------------


def test_the_site_serves_its_feeds_and_every_page_points_at_them(mission_site):
    import re

    site = mission_site.site
    feed = parse((site / "feed.xml").read_text(encoding="utf-8"), "https://d.example/feed.xml")
    papers = published_papers(site)
    assert len(feed.entries) == min(50, len(papers))
    assert {e.link for e in feed.entries} <= {f"https://d.example/{p['url']}" for p in papers}
    links = re.compile(r'<link rel="alternate " type="application/atom\+xml" title="([^"]*)" href="([^"]*)">')
    for page in [site / "index.html", site / "list" / "index.html", site / papers[0]["url"] / "index.html"]:
        found = links.findall(page.read_text(encoding="utf-8"))
        assert len(found) == 1 and (page.parent / found[0][1]).resolve() == (site / "feed.xml").resolve(), page
    topic = next(p for p in (site / "topics").glob("*/index.html") if (p.parent / "feed.xml").is_file())
    found = links.findall(topic.read_text(encoding="utf-8"))
    assert [(topic.parent / href).resolve() for _, href in found] == [(site / "feed.xml").resolve(), (topic.parent / "feed.xml").resolve()]
    assert found[1][0].startswith("ML Paper Digest: ")
    parse((topic.parent / "feed.xml").read_text(encoding="utf-8"))
