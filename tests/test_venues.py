"""Venues: one page per venue, so that no listing loses a paper.

Headers that differ only in case or spacing are refused, naming both; distinct
venues whose plain slugs would collide (``C`` and ``C++``, two emoji) get pages of
their own. The site test reads the built HTML and the seed headers, not the
generator's own grouping.
"""
from __future__ import annotations

import posixpath
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import REPO, build_site, published_papers, run_generator

from generator.core.errors import ErrorList, SeedError
from generator.core.model import Paper, Source
from generator.seeds.venues import check_venues, venue_slug

FIXTURES = Path(__file__).parent / "fixtures"
# Distinct venues whose slugs were the same: C and C++ were both c-2026, the emoji both 2026.
COLLIDING = ["seed_venue_c.txt", "seed_venue_cpp.txt", "seed_venue_emoji_robot.txt", "seed_venue_emoji_arm.txt"]


# -- slugs -----------------------------------------------------------------------------


@pytest.mark.parametrize("venue, year, slug", [
    ("ICML", 2026, "icml-2026"),
    ("NeurIPS", 2025, "neurips-2025"),
    ("3DV", 2022, "3dv-2022"),
    ("ICLR Workshop", 2026, "iclr-workshop-2026"),
])
def test_a_plain_venue_keeps_its_plain_slug(venue, year, slug):
    assert venue_slug(venue, year) == slug


@pytest.mark.parametrize("venue, year, slug", [
    # these are URLs: they must never change (six hex digits of SHA-256 of the folded name)
    ("C++", 2026, "c-2026-38c05a"),
    ("\U0001f916", 2026, "2026-f95749"),
    ("\U0001f9be", 2026, "2026-bfc42c"),
    ("ICLR-W", 2026, "iclr-w-2026-" + __import__("hashlib").sha256(b"iclr-w 2026").hexdigest()[:6]),
])
def test_a_venue_a_slug_would_lose_something_of_gets_a_suffix_of_its_own(venue, year, slug):
    assert venue_slug(venue, year) == slug


def papers_from(*headers: tuple[str, str, int]) -> list[Paper]:
    return [Paper(id=f"{i:012x}", text="x", venue=v, year=y, sources=(Source(f, 3, v, y),))
            for i, (f, v, y) in enumerate(headers)]


def messages(error: Exception) -> list[str]:
    return [str(e) for e in getattr(error, "errors", [error])]


def test_venues_written_in_another_case_or_spacing_are_refused_naming_both_headers():
    papers = papers_from(("seeds/a.txt", "ICML", 2026), ("seeds/b.txt", "icml", 2026),
                         ("seeds/c.txt", "I C M L", 2026), ("seeds/d.txt", "ＩＣＭＬ", 2026),
                         ("seeds/e.txt", "ICML", 2025))
    papers[1:1] = papers_from(("seeds/b.txt", "icml", 2026))  # a second abstract of b: one message per file
    with pytest.raises(ErrorList) as caught:
        check_venues(papers)
    assert messages(caught.value) == [
        "seeds/b.txt:1: the venue 'icml 2026' is 'ICML 2026' of seeds/a.txt:1 written differently "
        "(case or spacing): write both headers the same way",
        "seeds/d.txt:1: the venue 'ＩＣＭＬ 2026' is 'ICML 2026' of seeds/a.txt:1 written differently "
        "(case or spacing): write both headers the same way",
    ]


def test_a_venue_spelled_with_lookalike_letters_of_another_script_is_refused_naming_the_one_it_imitates():
    """Cyrillic and Greek have capitals drawn as Latin ones (І С М Т Н В, Ι Μ Ν Κ Τ), and
    case folding and NFKC leave them alone: "ІСМL 2026" was a venue of its own, shown on a
    venue page, in the venue filters and on the map exactly as "ICML 2026", with part of the
    conference, as the Hangul filler was before it was removed from headers."""
    cyrillic = "\u0406\u0421\u041cL"  # І С М, then a Latin L
    greek = "\u0399C\u039cL"  # Ι, C, Μ, L
    whole = "\u0410\u0421\u041c Multimedia"  # А С М
    papers = papers_from(("seeds/a.txt", "ICML", 2026), ("seeds/a2.txt", "ACM Multimedia", 2022),
                         ("seeds/b.txt", cyrillic, 2026), ("seeds/c.txt", greek, 2026), ("seeds/d.txt", whole, 2022),
                         ("seeds/e.txt", cyrillic, 2025))
    with pytest.raises(ErrorList) as caught:
        check_venues(papers)
    rule = "spelled with letters of another script that look the same: write it as that header does"
    assert messages(caught.value) == [
        f"seeds/b.txt:1: the venue '{cyrillic} 2026' looks like 'ICML 2026' of seeds/a.txt:1 but is {rule}",
        f"seeds/c.txt:1: the venue '{greek} 2026' looks like 'ICML 2026' of seeds/a.txt:1 but is {rule}",
        f"seeds/d.txt:1: the venue '{whole} 2022' looks like 'ACM Multimedia 2022' of seeds/a2.txt:1 but is {rule}",
    ]


def test_distinct_venues_pass():
    check_venues(papers_from(("seeds/a.txt", "C", 2026), ("seeds/b.txt", "C++", 2026),
                             ("seeds/c.txt", "\U0001f916", 2026), ("seeds/d.txt", "\U0001f9be", 2026)))


def test_a_slug_collision_left_is_refused_naming_both(monkeypatch):
    # six hex digits can collide in principle; the build says so rather than merge two pages
    import generator.seeds.venues as venues

    monkeypatch.setattr(venues, "venue_slug", lambda venue, year: "same")
    with pytest.raises(SeedError) as caught:
        check_venues(papers_from(("seeds/a.txt", "C", 2026), ("seeds/b.txt", "C++", 2026)))
    assert str(caught.value) == (
        "seeds/b.txt:1: the venue 'C++ 2026' would share the page venues/same.md with 'C 2026' of seeds/a.txt:1: "
        "rename one of them"
    )


def test_the_build_refuses_a_lowercase_header_of_an_existing_venue(tmp_path):
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    shutil.copy(FIXTURES / "seed_venue_icml_lowercase.txt", tmp_path / "seeds" / "icml-lower.txt")
    for command in (["build", "--docs", "docs"], ["validate", "seeds/icml-lower.txt"]):
        run = run_generator(*command, cwd=tmp_path)
        assert (run.returncode, run.stderr) == (1, (
            "seeds/icml-lower.txt:1: the venue 'icml 2026' is 'ICML 2026' of seeds/000_ca08d30626a6d4f8.txt:1 "
            "written differently (case or spacing): write both headers the same way\n"
        )), command
    assert not (tmp_path / "docs").exists()


# -- the built site: every paper on exactly its venue's page and its topics' pages ------------


class _Article(HTMLParser):
    """The page's <h1> text and the targets of the links in its <article>, resolved from ``url``."""

    def __init__(self, url: str):
        super().__init__(convert_charrefs=True)
        self.url = url
        self.depth = 0
        self.h1: list[str] = []
        self.in_h1 = False
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.depth += 1
        elif self.depth and tag == "h1":
            self.in_h1 = True
        elif self.depth and tag == "a":
            href = dict(attrs).get("href") or ""
            if href and not re.match(r"[a-z]+:|#", href):
                self.links.append(posixpath.normpath(posixpath.join(self.url, href)) + "/")

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1
        elif tag == "h1":
            self.in_h1 = False

    def handle_data(self, data):
        if self.in_h1:
            self.h1.append(data)


def read_page(site: Path, url: str) -> _Article:
    page = _Article(url)
    page.feed((site / url / "index.html").read_text(encoding="utf-8"))
    return page


def listing_pages(site: Path, folder: str) -> dict[str, tuple[str, set[str]]]:
    """url -> (h1, paper urls linked) for every page under ``folder`` but its index."""
    out = {}
    for index in sorted((site / folder).glob("*/index.html")):
        url = index.parent.relative_to(site).as_posix()
        page = read_page(site, url)
        out[url + "/"] = ("".join(page.h1).strip(), {l for l in page.links if l.startswith("papers/")})
    return out


def header_venue(root: Path, seed_file: str) -> str:
    """The venue as the seed's first line writes it, without ' Papers'."""
    first = (root / seed_file).read_text(encoding="utf-8-sig").splitlines()[0]
    return re.sub(r"\s+Papers\s*$", "", first.strip())


# the shipped taxonomy's children (one level deep) -> their parent's name
PARENT = {"Generative Adversarial Networks": "Generative Models", "Variational Inference": "Probabilistic Inference",
          "Domain Adaptation": "Distribution Shift and Adaptation",
          "Semi-Supervised Learning": "Learning with Limited or Noisy Labels",
          "Meta-Learning and Few-Shot Learning": "Continual and Meta-Learning"}


@pytest.fixture(scope="module")
def venue_site(tmp_path_factory):
    dest = tmp_path_factory.mktemp("venues")
    shutil.copytree(REPO / "seeds", dest / "seeds")
    for name in COLLIDING:
        shutil.copy(FIXTURES / name, dest / "seeds" / name)
    return build_site(dest, [dest / "seeds"])


def test_every_paper_is_on_exactly_its_venues_page_and_its_topics_pages(venue_site):
    site = venue_site.site
    papers = published_papers(site)
    venues = listing_pages(site, "venues")
    topics = listing_pages(site, "topics")
    expected_venues = {header_venue(venue_site.root, p["sources"][0]["file"]) for p in papers}
    assert len(expected_venues) == 5  # ICML 2026 and the four that collided
    # one page per venue, each named for it
    assert sorted(h1 for h1, _ in venues.values()) == sorted(expected_venues)
    page_of_venue = {h1: url for url, (h1, _) in venues.items()}
    page_of_topic = {h1: url for url, (h1, _) in topics.items()}
    index_links = set(read_page(site, "venues").links)
    assert set(venues) <= index_links
    for p in papers:
        url = p["url"]
        venue = header_venue(venue_site.root, p["sources"][0]["file"])
        on_venues = {v for v, (_, listed) in venues.items() if url in listed}
        assert on_venues == {page_of_venue[venue]}, (p["id"], venue)
        on_topics = {t for t, (_, listed) in topics.items() if url in listed}
        # a topic's page lists the papers of the topics inside it too (taxonomy.yml's parent:)
        assert on_topics == {page_of_topic[t] for t in p["tags"]} | {page_of_topic[PARENT[t]] for t in p["tags"] if t in PARENT}, p["id"]
        # and the paper's page links to its venue's page
        assert page_of_venue[venue] in read_page(site, url).links, p["id"]
    listed = [u for _, links in venues.values() for u in links]
    assert sorted(listed) == sorted(p["url"] for p in papers)
