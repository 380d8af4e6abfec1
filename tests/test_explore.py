"""The explore pages: map.json, the map page, the reading list page, the home page's newest papers."""
from __future__ import annotations

import json

from mkdocs.utils.meta import get_data

from generator.core.model import Digest, Paper, Source, Topic
from generator.pages.explore import home_sections, newest, read_previous, render_explore, render_map_json

TOPICS = [
    Topic("Generative Models", "generative-models", "Models that generate data.", ("diffusion",)),
    Topic("Music", "music", "Music and audio.", ("music",)),
]
HOSTILE = '<img src=x onerror="alert(1)"> & "quotes"'


def paper(pid: str, title: str, tags=("Music",), venue="ISMIR", year=2024, source=("seeds/a.txt", 3), **kw) -> Paper:
    return Paper(id=pid, text=f"An abstract about {title}.", venue=venue, year=year, sources=(Source(*source),),
                 title=title, tags=tags, **kw)


def digest() -> Digest:
    return Digest([
        paper("aaaaaaaaaaaa", HOSTILE, tags=("Music", "Generative Models"), aliases=("cccccccccccc",)),
        paper("bbbbbbbbbbbb", "Diffusion", tags=("Generative Models",), venue="ICML", year=2026, source=("seeds/b.txt", 5)),
        paper("dddddddddddd", "Hidden", hidden="withdrawn"),
    ], TOPICS)


COORDS = {"aaaaaaaaaaaa": (-0.5, 0.25), "bbbbbbbbbbbb": (0.5, -0.125), "dddddddddddd": (0.0, 0.0)}


def test_map_json_holds_each_visible_paper_with_its_place_topics_venue_and_plain_title():
    data = json.loads(render_map_json(digest(), COORDS, 12.5))
    assert data["topics"] == [{"name": "Generative Models", "slug": "generative-models"}, {"name": "Music", "slug": "music"}]
    # newest venue first
    assert data["venues"] == [{"name": "ICML 2026", "slug": "icml-2026"}, {"name": "ISMIR 2024", "slug": "ismir-2024"}]
    assert data["papers"] == [
        ["aaaaaaaaaaaa", 0, 7500, [1, 0], 1, HOSTILE],
        ["bbbbbbbbbbbb", 10000, 3750, [0], 0, "Diffusion"],
    ]
    assert data["aliases"] == {"cccccccccccc": "aaaaaaaaaaaa"}
    assert data["span"] == 12.5


def test_a_previous_map_json_reads_back_as_the_places_it_holds():
    coords, span = read_previous(render_map_json(digest(), COORDS, 12.5))
    assert coords == {"aaaaaaaaaaaa": (-0.5, 0.25), "bbbbbbbbbbbb": (0.5, -0.125)}
    assert span == 12.5


def test_an_unreadable_previous_map_is_no_previous_map():
    for text in ["", "not json", "[]", '{"version": 2, "papers": [["aaaaaaaaaaaa", 1, 2]]}', '{"version": 1, "papers": 3}',
                 '{"version": 1, "papers": [["aaaaaaaaaaaa", 99999, 2], [1, 2, 3], ["bbbbbbbbbbbb"]]}']:
        assert read_previous(text) == ({}, 0.0), text


def test_map_page_lists_topics_with_papers_and_links_to_the_map_filtered_to_each():
    files = render_explore(digest(), COORDS)
    body, meta = get_data(files["map.md"])
    assert meta["title"] == "Map" and meta["search"] == {"exclude": True}
    assert '<div id="digest-map"' in body
    assert ('<tr><td><a href="../topics/generative-models/">Generative Models</a></td><td style="text-align: right">2</td>'
            '<td><a href="./?topic=generative-models">Show on the map</a></td></tr>') in body
    assert '<a href="../topics/music/">Music</a></td><td style="text-align: right">1</td>' in body
    assert "Each of the 2 papers" in body
    _, meta = get_data(files["reading-list.md"])
    assert meta["title"] == "Reading list"


def test_newest_papers_come_from_dates_when_known_else_from_year_file_and_line():
    d = digest().visible()
    assert [p.id for p in newest(d)] == ["bbbbbbbbbbbb", "aaaaaaaaaaaa"]
    assert [p.id for p in newest(d, {"aaaaaaaaaaaa": "2026-11-30", "bbbbbbbbbbbb": "2026-01-02"})] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    lines = home_sections(d, 2, entry=lambda p: f"<li>{p.id}</li>")
    assert lines[1:5] == ['<ul class="digest-list">', "<li>bbbbbbbbbbbb</li>", "<li>aaaaaaaaaaaa</li>", "</ul>"]
    assert any('href="map/"' in line and "all 2 papers" in line for line in lines)
