"""Sitemaps and robots.txt (generator/pages/sitemap.py), read back with xml.etree: the split into
files of at most N URLs and 50 MB, the index that lists them, the gzipped copies; and on a
site built with SITE_URL, every paper, listing and topic page listed once, alias pages not."""
from __future__ import annotations

import gzip
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support import SITE_URL, published_papers, run_generator

from generator.pages.sitemap import INDEX, MAX_URLS, NAMESPACE, page_paths, render_sitemaps, split

NS = {"s": NAMESPACE}
BASE = "https://d.example/sub/"


def read_urlset(data: str | bytes) -> list[str]:
    root = ET.fromstring(data)
    assert root.tag == f"{{{NAMESPACE}}}urlset"
    return [loc.text for loc in root.findall("s:url/s:loc", NS)]


def read_index(data: str | bytes) -> list[str]:
    root = ET.fromstring(data)
    assert root.tag == f"{{{NAMESPACE}}}sitemapindex"
    return [loc.text for loc in root.findall("s:sitemap/s:loc", NS)]


def test_pages_are_split_into_files_of_at_most_the_limit_listed_by_the_index():
    pages = [""] + [f"papers/{i:012x}/" for i in range(11)]
    files = render_sitemaps(pages, BASE, limit=5)
    listed = read_index(files[INDEX])
    assert listed == [f"{BASE}sitemaps/{k}.xml" for k in (1, 2, 3)]
    parts = [read_urlset(files[url[len(BASE):]]) for url in listed]
    assert [len(p) for p in parts] == [5, 5, 2]
    assert [u for p in parts for u in p] == [BASE + p for p in pages]  # each once, in order
    for name in [INDEX, *(u[len(BASE):] for u in listed)]:
        assert gzip.decompress(files[name + ".gz"]) == files[name].encode("utf-8")
    assert files["robots.txt"] == f"User-agent: *\nDisallow:\n\nSitemap: {BASE}sitemap.xml\n"


def test_the_default_limit_is_the_protocols_50000_urls():
    pages = [f"p/{i}/" for i in range(MAX_URLS + 1)]
    files = render_sitemaps(pages, BASE)
    assert [len(read_urlset(files[u[len(BASE):]])) for u in read_index(files[INDEX])] == [50_000, 1]


def test_a_file_is_split_before_it_passes_the_byte_limit():
    entry = len(f"<url><loc>{BASE}p/0/</loc></url>\n")
    head_and_tail = len(split.__globals__["_HEAD"]) + len(split.__globals__["_TAIL"])
    parts = split([f"{BASE}p/{i}/" for i in range(10)], limit=100, max_bytes=head_and_tail + 3 * entry)
    assert [len(p) for p in parts] == [3, 3, 3, 1]


def test_urls_are_escaped_for_xml():
    files = render_sitemaps(["a&b/<c>/"], BASE)
    assert read_urlset(files["sitemaps/1.xml"]) == [f"{BASE}a&b/<c>/"]


def test_without_an_address_there_is_no_sitemap_and_robots_names_none():
    assert render_sitemaps(["", "papers/x/"], "") == {"robots.txt": "User-agent: *\nDisallow:\n"}


def test_page_paths_leave_out_frames_aliases_and_other_files():
    files = ["index.md", "papers/aaa.md", "papers/bbb.md", "papers/_frame.md", "topics/_deep/_frame.md",
             "topics/rl.md", "topics/rl/newest.md", "topics/index.md", "papers.json", "feed.xml", "contribute.md"]
    assert page_paths(files, skip={"papers/bbb.md"}) == [
        "", "contribute/", "papers/aaa/", "topics/", "topics/rl/", "topics/rl/newest/"]


# -- on a site built with SITE_URL ------------------------------------------------------------


def test_the_site_lists_every_page_once_and_no_alias(addressed_site):
    site = addressed_site.site
    index = (site / "sitemap.xml").read_bytes()
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()) == index
    listed = []
    for url in read_index(index):
        assert url.startswith(SITE_URL)
        rel = url[len(SITE_URL):]
        data = (site / rel).read_bytes()
        assert gzip.decompress((site / (rel + ".gz")).read_bytes()) == data
        listed += read_urlset(data)
    assert len(listed) == len(set(listed))
    folders = {p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")}
    built = {SITE_URL if f == "." else f"{SITE_URL}{f}/" for f in folders}
    aliases = {SITE_URL + f"papers/{a}/" for p in published_papers(site) for a in p["aliases"]}
    assert aliases, "the fixture's seeds hold a merged duplicate"
    assert set(listed) == built - aliases
    papers = {SITE_URL + p["url"] for p in published_papers(site)}
    assert papers <= set(listed)
    assert sum(u.startswith(SITE_URL + "topics/") for u in listed) > 10
    assert robots_sitemaps(site) == [SITE_URL + "sitemap.xml"]


def robots_sitemaps(site: Path) -> list[str]:
    from urllib.robotparser import RobotFileParser

    robots = RobotFileParser()
    robots.parse((site / "robots.txt").read_text(encoding="utf-8").splitlines())
    assert robots.can_fetch("*", SITE_URL + "papers/x/")
    return robots.site_maps() or []


def test_mkdocs_writes_no_sitemap_of_its_own(mission_site):
    # built without SITE_URL: MkDocs' one-file sitemap (overrides/sitemap.xml turns it off)
    # would be here, listing no URL at all
    site = mission_site.site
    assert not (site / "sitemap.xml").exists() and not (site / "sitemap.xml.gz").exists()
    assert not (site / "sitemaps").exists()
    assert robots_sitemaps(site) == []


def test_a_build_without_site_url_says_what_it_left_out(mission_site):
    assert "no site_url (mkdocs.yml reads it from SITE_URL): no sitemaps, canonical links" in mission_site.generate_output


def test_a_rebuild_without_site_url_removes_the_sitemaps(addressed_site, tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(addressed_site.docs, docs)
    assert (docs / "sitemap.xml").is_file()
    seeds = addressed_site.root.parent / "seeds"
    run = run_generator("build", "--seeds", str(seeds), "--docs", str(docs), "--no-cache", cwd=addressed_site.root)
    assert run.returncode == 0, run.stderr
    assert not (docs / "sitemap.xml").exists() and not (docs / "sitemap.xml.gz").exists()
    assert not list((docs / "sitemaps").glob("*"))
    assert (docs / "robots.txt").read_text(encoding="utf-8") == "User-agent: *\nDisallow:\n"


@pytest.mark.parametrize("limit", [0])
def test_a_limit_below_one_is_refused(limit):
    with pytest.raises(ValueError):
        split(["x"], limit=limit)
