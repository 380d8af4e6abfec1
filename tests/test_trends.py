"""The trends figures and page, against counts made by hand on a small corpus.

The corpus (written out below, and every expected number counted from it by hand):

============  =====  ==============================================================
venue-year    papers  tags
============  =====  ==============================================================
ICML 2024     30     6 Diffusion, 3 Generative Models, 6 RL, 15 Music
ICML 2025     40     12 Diffusion, 2 Diffusion + RL, 4 RL, 22 Music (+1 hidden Music)
ISMIR 2025    2      2 Music + Diffusion (a small sample: under 30 papers)
============  =====  ==============================================================

Diffusion sits inside Generative Models, whose papers it counts: Generative Models has
9 (ICML 2024), 14 (ICML 2025) and 2 (ISMIR 2025) papers.
"""
from __future__ import annotations

import json

from mkdocs.utils.meta import get_data

from generator.core.model import Digest, Paper, Source, Topic
from generator.derive.trends import compute, tree_order
from generator.pages.trends import render_trends

TOPICS = [
    Topic("Generative Models", "generative-models", "Models that generate data.", ("generative model",)),
    Topic("Reinforcement Learning", "reinforcement-learning", "Agents that learn from reward.", ("reward",)),
    Topic("Music", "music", "Music and audio.", ("music",)),
    Topic("Diffusion", "diffusion", "Diffusion models.", ("diffusion",), parent="generative-models"),
]
RL = "Reinforcement Learning"
GROUPS = [
    ("ICML", 2024, [(6, ("Diffusion",)), (3, ("Generative Models",)), (6, (RL,)), (15, ("Music",))]),
    ("ICML", 2025, [(12, ("Diffusion",)), (2, ("Diffusion", RL)), (4, (RL,)), (22, ("Music",))]),
    ("ISMIR", 2025, [(2, ("Music", "Diffusion"))]),
]


def corpus() -> Digest:
    papers, n = [], 0
    for venue, year, groups in GROUPS:
        for count, tags in groups:
            for _ in range(count):
                n += 1
                papers.append(Paper(id=f"{n:012x}", text=f"Abstract {n}.", venue=venue, year=year,
                                    sources=(Source("seeds/a.txt", n),), title=f"Paper {n}", tags=tags))
    papers.append(Paper(id="ffffffffffff", text="Hidden.", venue="ICML", year=2025, sources=(Source("seeds/a.txt", 999),),
                        title="Hidden", tags=("Music",), hidden="withdrawn"))
    return Digest(papers, TOPICS)


def test_topics_come_in_the_trees_order_each_parent_before_the_topics_inside_it():
    assert [(t.slug, depth) for t, depth in tree_order(corpus())] == [
        ("generative-models", 0), ("diffusion", 1), ("reinforcement-learning", 0), ("music", 0)]


def test_counts_per_venue_year_count_a_childs_papers_towards_its_parent_and_leave_hidden_papers_out():
    t = compute(corpus())
    assert t.papers == 72
    assert [(v.name, v.papers, v.small) for v in t.venue_years] == [
        ("ICML 2024", 30, False), ("ICML 2025", 40, False), ("ISMIR 2025", 2, True)]
    assert {s.topic.slug: (s.counts, s.papers) for s in t.series} == {
        "generative-models": ((9, 14, 2), 25),
        "diffusion": ((6, 14, 2), 22),
        "reinforcement-learning": ((6, 6, 0), 12),
        "music": ((15, 22, 2), 39),
    }


def test_rising_and_falling_topics_between_a_venues_years_with_equal_rises_in_tree_order():
    t = compute(corpus())
    # ISMIR has one year (and a small one): no change there
    rising = [(c.series.topic.slug, c.before.name, c.after.name, c.count_before, c.count_after, round(c.points, 6))
              for c in t.rising()]
    assert rising == [
        ("diffusion", "ICML 2024", "ICML 2025", 6, 14, 15.0),  # 20% -> 35%
        ("generative-models", "ICML 2024", "ICML 2025", 9, 14, 5.0),  # 30% -> 35%
        ("music", "ICML 2024", "ICML 2025", 15, 22, 5.0),  # 50% -> 55%
    ]
    assert [(c.series.topic.slug, c.count_before, c.count_after, round(c.points, 6)) for c in t.falling()] == [
        ("reinforcement-learning", 6, 6, -5.0)]  # 20% -> 15%


def test_a_change_needs_five_papers_of_the_topic_in_one_of_the_two_years():
    digest = corpus()
    # RL: 4 papers in 2024 (of 30) and 4 in 2025 (of 40), below the rule in both years
    papers = [p for p in digest.visible() if not (RL in p.tags and p.id in {f"{n:012x}" for n in (10, 11, 45, 46)})]
    papers += [Paper(id=f"e{n:011x}", text="x", venue="ICML", year=y, sources=(Source("seeds/b.txt", n),), title="x",
                     tags=("Music",)) for n, y in ((1, 2024), (2, 2024), (3, 2025), (4, 2025))]
    t = compute(Digest(papers, TOPICS))
    assert [s.counts for s in t.series if s.topic.slug == "reinforcement-learning"] == [(4, 4, 0)]
    assert "reinforcement-learning" not in {c.series.topic.slug for c in t.changes}


def test_a_venues_profile_leaves_its_small_years_out_and_compares_with_the_whole_digest():
    t = compute(corpus())
    # ISMIR's only year is a small sample: no profile
    assert [p.venue for p in t.profiles] == ["ICML"]
    (icml,) = t.profiles
    assert icml.papers == 70
    leans = [(l.series.topic.slug, l.count, l.papers, l.overall_count, l.overall_papers, round(l.points, 2)) for l in icml.leans]
    assert leans == [
        ("diffusion", 20, 70, 22, 72, -1.98),  # 28.571% against 30.556%
        ("generative-models", 23, 70, 25, 72, -1.87),  # 32.857% against 34.722%
        ("music", 37, 70, 39, 72, -1.31),  # 52.857% against 54.167%
        ("reinforcement-learning", 12, 70, 12, 72, 0.48),  # 17.143% against 16.667%
    ]


def test_the_page_shows_each_share_with_its_count_and_links_each_bar_to_its_papers():
    files = render_trends(compute(corpus()))
    markdown, meta = get_data(files["trends.md"])
    body = meta["body"]  # printed by listing.html: no Markdown for MkDocs to parse
    assert meta["title"] == "Trends" and meta["template"] == "listing.html" and not markdown.strip()
    assert "derived from each paper's abstract" in body and "fewer than 30 papers is a small sample" in body
    # the bars, hidden from assistive technology, to the scale of the samples (35%: ISMIR's 100% stops at the top)
    assert ('<svg class="digest-bars" viewBox="0 0 35.5 41" aria-hidden="true"><path class="b" d="M0 40.5H35.5"/>'
            '<path d="M5 40V6"/><path d="M15 40V0"/><path class="s" d="M31 40V0"/></svg>') in body
    # the parent's numbers ask the search for its papers and its child's
    assert '<td><a href="../?q=topic:generative-models+topic:diffusion+venue:icml-2025">14</a><br>35.0%</td>' in body
    # a small sample's bar is faint, and its table cell marked
    assert '<path class="s" d=' in body and '<a href="../venues/ismir-2025/">2</a> <small>(small)</small>' in body
    # the rising table: counts linked to the papers of each year
    assert ('<td>2024: <a href="../?q=topic:diffusion+venue:icml-2024">6</a> of 30 (20.0%)</td>'
            '<td>2025: <a href="../?q=topic:diffusion+venue:icml-2025">14</a> of 40 (35.0%)</td>'
            "<td>+15.0&nbsp;points") in body
    # each topic's table: venues by years, count and share
    assert ('<tr><th>ICML</th><td><a href="../?q=topic:reinforcement-learning+venue:icml-2024">6</a><br>20.0%</td>'
            '<td><a href="../?q=topic:reinforcement-learning+venue:icml-2025">6</a><br>15.0%</td></tr>'
            "<tr><th>ISMIR</th><td>–</td><td>0<br>0.0%</td></tr>") in body


def test_trends_json_holds_the_same_numbers():
    data = json.loads(render_trends(compute(corpus()))["trends.json"])
    assert data["rules"] == {"min_venue_papers": 30, "min_topic_papers": 5}
    assert [v["papers"] for v in data["venue_years"]] == [30, 40, 2]
    music = next(t for t in data["topics"] if t["slug"] == "music")
    assert music["counts"] == [15, 22, 2] and music["shares"] == [0.5, 0.55, 1.0]
    assert next(t for t in data["topics"] if t["slug"] == "generative-models")["within"] == ["generative-models", "diffusion"]
    assert {(c["topic"], c["points"]) for c in data["changes"]} == {
        ("generative-models", 5.0), ("diffusion", 15.0), ("reinforcement-learning", -5.0), ("music", 5.0)}
    assert data["profiles"][0]["topics"][0] == {"topic": "diffusion", "count": 20, "share": 0.2857, "overall_count": 22,
                                                "overall_share": 0.3056, "points": -1.98}


def test_names_from_seeds_are_escaped_in_the_page():
    hostile = 'V<img src=x onerror="alert(1)">&'
    digest = Digest([Paper(id=f"{n:012x}", text="x", venue=hostile, year=2024, sources=(Source("seeds/h.txt", n),),
                           title="x", tags=("Music",)) for n in range(3)], TOPICS)
    body = render_trends(compute(digest))["trends.md"]
    assert "<img" not in body
    assert "V&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in body
