"""The explore pages: map.json, the map page, the reading list page, the home page's newest papers."""
from __future__ import annotations

import json
import logging

import pytest
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


def test_map_json_names_each_topics_parent_for_the_maps_filter():
    gans = Topic("GANs", "gans", "Adversarial.", ("gan",), parent="generative-models")
    d = Digest([paper("aaaaaaaaaaaa", "A GAN", tags=("GANs",))], [*TOPICS, gans])
    text = render_map_json(d, COORDS, 1.0)
    assert json.loads(text)["topics"] == [{"name": "Generative Models", "slug": "generative-models"},
                                          {"name": "Music", "slug": "music"},
                                          {"name": "GANs", "slug": "gans", "parent": "generative-models"}]
    assert read_previous(text)[0] == {"aaaaaaaaaaaa": (-0.5, 0.25)}  # a map naming parents is a map
    assert read_previous(text.replace('"parent"', '"parents"')) == ({}, 0.0)


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
    markdown, meta = get_data(files["map.md"])
    # the page's HTML is its front matter's body (listing.html prints it): the site step fills
    # it into the page's own frame (generator.site.stamp.SELF_FRAMED)
    assert meta["title"] == "Map" and meta["search"] == {"exclude": True} and meta["template"] == "listing.html"
    assert markdown.strip() == ""
    body = meta["body"]
    assert '<div id="digest-map"' in body
    # each topic with its colour on the map (hues a golden angle apart in taxonomy order, as map.js has them)
    assert ('<tr><td><span class="digest-swatch" style="--h:0"></span><a href="../topics/generative-models/">Generative '
            'Models</a></td><td style="text-align: right">2</td>'
            '<td><a href="./?topic=generative-models">Show on the map</a></td></tr>') in body
    assert ('<span class="digest-swatch" style="--h:138"></span><a href="../topics/music/">Music</a></td>'
            '<td style="text-align: right">1</td>') in body
    # the legend: a key for each colour on the map, its points counted (the first topic colours a point)
    assert ('<li><button type="button" class="digest-legend-key" data-topic="generative-models" aria-pressed="false">'
            '<span class="digest-swatch" style="--h:0"></span>Generative Models <small>1</small></button></li>\n'
            '<li><button type="button" class="digest-legend-key" data-topic="music" aria-pressed="false">'
            '<span class="digest-swatch" style="--h:138"></span>Music <small>1</small></button></li>') in body
    # the canvas is in the page, so nothing moves when the script draws into it; the page speaks of taps too
    assert '<canvas class="digest-map-canvas" tabindex="0" role="img"' in body
    assert "tap it again" in body and "arrow keys go from paper to paper" in body
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


def _written(**changes) -> str:
    """A map.json as render_map_json writes it, with top-level ``changes``."""
    return json.dumps({**json.loads(render_map_json(digest(), COORDS, 12.5)), **changes})


_ROW = ["bbbbbbbbbbbb", 10000, 3750, [0], 0, "Diffusion"]


@pytest.mark.parametrize("text, problem", [
    (_written(papers=[["aaaaaaaaaaaa", float("nan"), 2, [], 0, "T"]]), "its paper 1 is not"),
    (_written(papers=[["aaaaaaaaaaaa", 1e300, 2, [], 0, "T"]]), "its paper 1 is not"),
    (_written(papers=[["aaaaaaaaaaaa", True, 2, [], 0, "T"]]), "its paper 1 is not"),
    (_written(papers=[["aaaaaaaaaaaa", 1, 2]]), "its paper 1 is not"),  # the shape of an older map
    (_written(papers=[_ROW, ["bbbbbbbbbbbb", 1, 2, [], 0, "Again"]]), "its paper 2 is not"),
    (_written(papers=[["../../etc", 1, 2, [], 0, "T"]]), "its paper 1 is not"),
    (_written(papers=[["aaaaaaaaaaaa", 1, 2, [7], 0, "T"]]), "its paper 1 is not"),
    (_written(papers=[["aaaaaaaaaaaa", 1, 2, [], 0, None]]), "its paper 1 is not"),
    (_written(papers={"aaaaaaaaaaaa": [1, 2]}), "its papers are not a list"),
    (_written(span="12.5"), "its span is not a number"),
    (_written(topics=[{"name": 1}]), "its topics or venues are not"),
    (_written(aliases={"x": 3}), "its aliases are not paper ids"),
    (_written(extra=1), "it is not a version 1 map"),
    ('{"version": 1, "span": NaN', "not JSON"),
], ids=["NaN place", "1e300 place", "true place", "three items", "an id twice", "not an id", "no such topic",
        "title not text", "papers a mapping", "span text", "topics of another shape", "aliases of another shape",
        "another key", "not JSON"])
def test_a_previous_map_of_another_shape_is_ignored_whole_and_said(text, problem, caplog):
    """The deploy restores map.json from a cache: whatever it holds, a part not as the build
    writes it means none of it is used, and the log names the file and the part."""
    with caplog.at_level(logging.INFO):
        assert read_previous(text, "docs/map.json") == ({}, 0.0)
    assert f"docs/map.json: {problem}" in caplog.text


@pytest.mark.parametrize("span", [float("inf"), float("nan"), 1e300, -3.0, 1e-9])
def test_a_previous_span_out_of_range_is_ignored_and_the_places_kept(span, caplog):
    with caplog.at_level(logging.INFO):
        coords, got = read_previous(_written(span=span), "docs/map.json")
    assert coords == {"aaaaaaaaaaaa": (-0.5, 0.25), "bbbbbbbbbbbb": (0.5, -0.125)} and got == 0.0
    assert f"docs/map.json: its span {span!r} is not one a layout of 2 papers has" in caplog.text
