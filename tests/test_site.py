"""The real site: generate from seeds/ and build with `mkdocs build --strict` (and Zensical)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import REPO, build_site, mkdocs_build, published_papers


def _papers(site) -> list[dict]:
    return published_papers(site.site)


def test_mission_site_has_every_kind_of_page(mission_site):
    site = mission_site.site
    papers = _papers(mission_site)
    assert len(papers) == 36  # 38 abstracts, two of them submitted in both seed files
    for p in papers:
        assert (site / p["url"] / "index.html").is_file(), p["url"]
    topics = {t for p in papers for t in p["tags"]}
    assert (site / "topics" / "index.html").is_file()
    assert len(list((site / "topics").glob("*/index.html"))) >= len(topics)
    assert (site / "venues" / "icml-2026" / "index.html").is_file()
    for page in ("index.html", "list/index.html", "contribute/index.html", "venues/index.html"):
        assert (site / page).is_file(), page
    # the data is published gzipped, the same as the generator's docs/papers.json
    assert not (site / "papers.json").exists()
    assert papers == json.loads((mission_site.docs / "papers.json").read_text(encoding="utf-8"))["papers"]


def test_home_page_counts(mission_site):
    html = (mission_site.site / "index.html").read_text(encoding="utf-8")
    # papers, venues, topics, seed files, duplicates merged
    row = re.search(r"<td[^>]*>36</td>\s*<td[^>]*>1</td>\s*<td[^>]*>(\d+)</td>\s*<td[^>]*>2</td>\s*<td[^>]*>2</td>", html)
    assert row, "the home page's counts row is missing or wrong"


def test_paper_page_shows_title_venue_topics_links_and_sources(mission_site):
    papers = _papers(mission_site)
    merged = next(p for p in papers if len(p["sources"]) == 2)
    p = next(p for p in papers if p["links"])
    html = (mission_site.site / p["url"] / "index.html").read_text(encoding="utf-8")
    assert f"<h1>{_esc(p['title'])}</h1>" in html
    assert 'href="../../venues/icml-2026/"' in html
    for tag in p["tags"]:
        assert f">{_esc(tag)}</a>" in html
    for link in p["links"]:
        assert f'href="{_esc(link["url"])}"' in html
    for s in p["sources"]:
        assert f"/blob/main/{s['file']}#L{s['line']}" in html
    assert "seeds/curation.yml" in html
    html = (mission_site.site / merged["url"] / "index.html").read_text(encoding="utf-8")
    for s in merged["sources"]:
        assert f"/blob/main/{s['file']}#L{s['line']}" in html
    assert "submitted 2 times" in html


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")


def test_math_is_marked_for_katex_and_katex_is_served_locally(mission_site):
    papers = _papers(mission_site)
    p = next(p for p in papers if "$" in p["abstract"])
    html = (mission_site.site / p["url"] / "index.html").read_text(encoding="utf-8")
    assert '<span class="arithmatex">\\(' in html
    assert (mission_site.site / "assets" / "katex" / "katex.min.js").is_file()
    fonts = list((mission_site.site / "assets" / "katex" / "fonts").glob("*.woff2"))
    assert fonts


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "img", "iframe") and a.get("src"):
            self.refs.append(a["src"])
        if tag == "link" and a.get("href") and a.get("rel") in ("stylesheet", "preload", "preconnect", "icon"):
            self.refs.append(a["href"])


def _external_resources(site: Path) -> set[str]:
    found = set()
    for page in site.rglob("*.html"):
        parser = _Refs()
        parser.feed(page.read_text(encoding="utf-8"))
        found |= {r for r in parser.refs if re.match(r"(https?:)?//", r)}
    return found


def test_site_loads_nothing_from_another_host(mission_site):
    assert _external_resources(mission_site.site) == set()
    css = "".join(p.read_text(encoding="utf-8") for p in mission_site.site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "@import url(http" not in css


def test_search_index_holds_each_paper_once_and_no_listing(mission_site):
    # The theme's search is off (mkdocs.yml): its index of every page would be megabytes.
    assert not (mission_site.site / "search" / "search_index.json").exists()
    assert not (mission_site.site / "search.json").exists()
    docs = [json.loads(f.read_text(encoding="utf-8")) for f in (mission_site.site / "search" / "d").glob("*.json")]
    papers = _papers(mission_site)
    assert Counter(d["url"] for d in docs) == Counter(p["url"] for p in papers)
    meta = json.loads((mission_site.site / "search" / "meta.json").read_text(encoding="utf-8"))
    assert meta["docs"] == len(papers)
    # each abstract's opening words appear in exactly one paper's result data
    for p in papers:
        opening = " ".join(p["abstract"].split()[:6])
        hits = [d for d in docs if opening in d["text"]]
        if "$" not in opening and "\\" not in opening and "*" not in opening:
            assert len(hits) == 1, (opening, [h["url"] for h in hits])


def test_paper_pages_are_small(mission_site):
    sizes = sorted(p.stat().st_size for p in (mission_site.site / "papers").glob("*/index.html"))
    assert sizes and sizes[-1] <= 40_000, sizes[-1]


def test_generated_pages_are_not_in_the_navigation(mission_site):
    html = (mission_site.site / "list" / "index.html").read_text(encoding="utf-8")
    nav = html.split('class="md-nav', 1)[1].split("</nav>", 1)[0]
    assert "papers/" not in nav


@pytest.mark.skipif(shutil.which("zensical", path=str(Path(__import__("sys").executable).parent)) is None,
                    reason="zensical is not installed in this environment")
def test_zensical_builds_the_same_site(mission_site, zensical_site):
    # the build (tests/conftest.py) asserts that `zensical build` succeeds
    site = zensical_site.site
    for p in _papers(mission_site):
        page = site / p["url"] / "index.html"
        assert page.is_file(), p["url"]
        assert "digest-abstract" in page.read_text(encoding="utf-8")
    assert (site / "list" / "index.html").is_file()
    assert _external_resources(site) == set()
    # Zensical's own search is off too (mkdocs.yml): it writes an empty index (0.0.73), and
    # the digest's box is the one in the header
    if (site / "search.json").exists():
        assert json.loads((site / "search.json").read_text(encoding="utf-8"))["items"] == []
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="digest-search__open"' in home and 'class="md-search"' not in home


def test_a_merged_variant_id_redirects_to_the_paper(tmp_path):
    """A duplicate with a smaller id takes over the paper's URL; the old address must keep working."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    text = (REPO / "seeds" / "000_ca08d30626a6d4f8.txt").read_text(encoding="utf-8").split("\n\n")[1].strip()
    (seeds / "a.txt").write_text(f"ICML 2026 Papers\n\n{text}\n", encoding="utf-8")
    (seeds / "b.txt").write_text(f"ICML 2026 Papers\n\n{text} We thank the reviewers for their comments.\n", encoding="utf-8")
    site = build_site(tmp_path / "out", [seeds])
    paper = _papers(site)
    assert len(paper) == 1 and len(paper[0]["aliases"]) == 1
    alias = site.site / "papers" / paper[0]["aliases"][0] / "index.html"
    assert f'url=../{paper[0]["id"]}/' in alias.read_text(encoding="utf-8")
    urls = [json.loads(f.read_text(encoding="utf-8"))["url"] for f in (site.site / "search" / "d").glob("*.json")]
    assert urls == [f"papers/{paper[0]['id']}/"]


# -- strict means strict: any MkDocs warning fails the build ---------------------------------


@pytest.fixture
def broken_link_site(tmp_path) -> Path:
    """The smallest MkDocs project whose only page links to a page that does not exist."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: Broken link\n", encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSee [the missing page](missing.md).\n", encoding="utf-8")
    return tmp_path


def _site_recipe() -> list[str]:
    """The commands of the Makefile's `site` target, with $(VENV) and $(PY) made absolute."""
    recipe = re.search(r"^site:.*\n((?:\t.*\n|#.*\n)+)", (REPO / "Makefile").read_text(encoding="utf-8"), re.M)
    assert recipe, "the Makefile has no site target"
    venv = str(Path(__import__("sys").executable).parent.parent)
    return [line.strip().replace("$(VENV)", venv).replace("$(PY)", f"{venv}/bin/python")
            for line in recipe.group(1).splitlines() if line.startswith("\t")]


def test_make_site_fails_on_a_broken_link(broken_link_site):
    """`make site`'s build step (`python -m generator site`, which runs mkdocs build --strict)."""
    build = [cmd for cmd in _site_recipe() if "generator site" in cmd]
    assert len(build) == 1, _site_recipe()
    run = subprocess.run(build[0], shell=True, cwd=broken_link_site, capture_output=True, text=True,
                         env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert run.returncode == 1, run.stderr
    assert "contains a link 'missing.md', but the target is not found" in run.stderr
    assert "mkdocs build failed" in run.stderr and "Traceback" not in run.stderr


def test_the_test_helpers_build_fails_on_a_broken_link(broken_link_site):
    run = mkdocs_build(broken_link_site)
    assert run.returncode == 1
    assert "contains a link 'missing.md', but the target is not found" in run.stderr



# -- icons ---------------------------------------------------------------------------------


_ICON_RULE = re.compile(r"\.digest-icon-([\w-]+) \{ --digest-icon: url\('data:image/svg\+xml;charset=utf-8,(<svg.*?</svg>)'\); \}")


def test_icons_come_from_the_stylesheet_as_materials_own(mission_site):
    """No page carries an icon's drawing: each names a class, which digest.css draws with
    the SVG of Material's icon of the same name, as installed."""
    import material

    css = (REPO / "docs" / "assets" / "digest.css").read_text(encoding="utf-8")
    drawn = dict(_ICON_RULE.findall(css))
    icons = Path(material.__file__).parent / "templates" / ".icons" / "material"
    used: set[str] = set()
    for page in mission_site.site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        # the trends page's charts are drawings of data, not icons (generator/pages/trends.py)
        html = re.sub(r'<svg class="digest-bars".*?</svg>', "", html, flags=re.S)
        assert "<path" not in html, f"{page.relative_to(mission_site.site)} draws an icon itself"
        used.update(re.findall(r'<svg class="digest-icon-([\w-]+)"', html))
    # and the icons of the search dialog, which assets/search.js builds
    used.update(re.findall(r'"digest-icon-([\w-]+)"', (REPO / "docs" / "assets" / "search.js").read_text(encoding="utf-8")))
    assert {"magnify", "menu", "close", "arrow-up"} <= used  # the header, search and back-to-top icons
    for name in used:
        assert name in drawn, f"digest.css does not draw the icon {name}"
        assert drawn[name] == (icons / f"{name}.svg").read_text(encoding="utf-8").strip(), name


def test_the_zensical_migration_page_says_what_the_tests_do():
    """handbook/zensical.md is checked by the tests that build with Zensical: its command,
    its pin and its config advice are the ones they use."""
    builders = re.search(r"^BUILDERS = (.*)$", (REPO / "tests" / "browser" / "conftest.py").read_text(encoding="utf-8"), re.M)
    page = (REPO / "handbook" / "zensical.md").read_text(encoding="utf-8")
    pin = re.search(r"^zensical==([\d.]+)$", (REPO / "requirements-test.txt").read_text(encoding="utf-8"), re.M)
    assert pin and f"{pin.group(1)} is the newest release that installs here" in page
    assert "`.venv/bin/zensical build -f mkdocs.yml`" in page
    assert builders and builders.group(1) == '("mkdocs", "zensical")'  # the page's step 4 drops the first
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^  variant: classic$", config, re.M) and "it is\n   `classic`" in page
    assert re.search(r"^  - search:\n      enabled: false$", config, re.M) and "enabled:\n  false`" in page
