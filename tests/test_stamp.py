"""`python -m generator site`: MkDocs renders one frame for the paper pages, and the
generator fills every paper into it (generator/site/stamp.py). The oracle is MkDocs itself:
a plain `mkdocs build` of the same docs/ renders every page through Material's templates,
and the two sites must be the same, file for file and byte for byte."""
from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from random import Random

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from support import REPO, build_site, mkdocs_build, run_generator

from generator.pages.render import front_matter as write_front_matter
from generator.site.stamp import FRAMES, entries, entry_value, slot


def _files(site: Path) -> dict[str, bytes]:
    """Every file of a built site; gzip files by what they hold (their header names the folder)."""
    out = {}
    for path in sorted(site.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            out[path.relative_to(site).as_posix()] = gzip.decompress(data) if path.suffix == ".gz" else data
    return out


def _reference(built_root: Path, dest: Path, site_url: str | None = None) -> dict[str, bytes]:
    """The same project built the plain way: `mkdocs build --strict` renders every page, then compaction."""
    shutil.copytree(built_root, dest, ignore=shutil.ignore_patterns("site"))
    run = mkdocs_build(dest, site_url)
    assert run.returncode == 0, run.stderr
    assert run_generator("compact", str(dest / "site"), cwd=dest).returncode == 0
    return _files(dest / "site")


def _compacted(rendered: Path, dest: Path) -> dict[str, bytes]:
    """A plain build already made (``rendered``'s site/), compacted in a copy as ``_reference`` does."""
    shutil.copytree(rendered / "site", dest)
    assert run_generator("compact", str(dest), cwd=dest.parent).returncode == 0
    return _files(dest)


def _compare(stamped: dict[str, bytes], reference: dict[str, bytes]) -> None:
    assert sorted(stamped) == sorted(reference)
    different = [name for name in reference if stamped[name] != reference[name]]
    assert not different, different[:10]


def test_the_stamped_mission_site_is_the_site_mkdocs_renders(mission_site, mission_rendered, tmp_path):
    stamped = _files(mission_site.site)
    papers = [n for n in stamped if n.startswith("papers/") and n.endswith("/index.html")]
    assert len(papers) >= 36
    assert not [n for n in stamped if "/_" in n]  # the frames are gone
    assert not [n for n in papers if b"@@digest-slot" in stamped[n]]
    # the plain `mkdocs build` of the same project (tests/conftest.py), compacted
    _compare(stamped, _compacted(mission_rendered, tmp_path / "reference" / "site"))


def test_a_rebuild_over_the_last_site_is_the_site_mkdocs_renders(mission_site, tmp_path):
    """The site step writes into the last build's folders (pages written the same are left
    alone, pages of papers gone are removed): rebuilt after a seed file is taken out and the
    curation changed, the site must be the fresh plain build of the new docs/."""
    root = tmp_path / "p"
    shutil.copytree(mission_site.root, root)  # with the built site/ of all the mission seeds
    seeds = tmp_path / "seeds"
    shutil.copytree(REPO / "seeds", seeds)
    gone = sorted(seeds.glob("004_*.txt"))[0]
    gone.unlink()
    before = {p.name for p in (root / "site" / "papers").iterdir()}
    gen = run_generator("build", "--seeds", str(seeds), "--docs", str(root / "docs"), "--no-cache", cwd=root)
    assert gen.returncode == 0, gen.stderr
    run = run_generator("site", cwd=root)
    assert run.returncode == 0, run.stderr
    after = {p.name for p in (root / "site" / "papers").iterdir()}
    assert after < before  # the papers of the seed file taken out are gone
    assert not list(root.glob(".site.removing-*"))  # the last build set aside is removed
    _compare(_files(root / "site"), _reference(root, tmp_path / "reference"))


def test_a_new_paper_reaches_the_home_and_index_pages_without_mkdocs(mission_site, tmp_path):
    """The pages of the navigation that count or list the papers (home, topics, venues, all
    papers, map, trends) are their own frames (generator.site.stamp.SELF_FRAMED): a new paper
    changes them, not what MkDocs renders, so MkDocs does not run; and the site is still the
    plain build's, byte for byte."""
    root = tmp_path / "p"
    shutil.copytree(mission_site.root, root, symlinks=True)
    assert run_generator("site", cwd=root).returncode == 0  # the copy's cache is not trusted: rebuilt
    home_before = (root / "site" / "index.html").read_bytes()  # its table counts the papers
    seeds = tmp_path / "seeds"
    shutil.copytree(REPO / "seeds", seeds)
    first = sorted(seeds.glob("*.txt"))[0]
    added = ("Quokkas foraging on Rottnest Island motivate a sparse attention scheme that routes each query to a "
             "handful of learned prototypes, cutting the memory of long-context transformers by a factor of eight.")
    first.write_text(first.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + added + "\n", encoding="utf-8")
    gen = run_generator("build", "--seeds", str(seeds), "--docs", str(root / "docs"), "--no-cache", cwd=root)
    assert gen.returncode == 0, gen.stderr
    run = run_generator("site", cwd=root)
    assert run.returncode == 0 and "MkDocs not run" in run.stderr, run.stderr
    site = _files(root / "site")
    assert site["index.html"] != home_before
    for page in ("index.html", "list/index.html", "topics/index.html", "venues/index.html", "map/index.html",
                 "trends/index.html"):
        assert b"@@digest-slot" not in site[page], page
    new = {n.split("/")[1] for n in site if n.startswith("papers/")} - {p.name for p in (mission_site.site / "papers").iterdir()}
    assert len(new) == 1
    assert f'papers/{new.pop()}/"'.encode() in site["list/index.html"]  # listed among all papers
    _compare(site, _reference(root, tmp_path / "reference"))


def test_a_hand_written_page_may_link_a_paper_by_its_md_name(mission_site, tmp_path):
    """MkDocs reads only what it renders and copies (.cache/site/docs/), and the pages a page it
    renders links to by name: such a link is checked and rewritten to the page's address, as a
    plain build does; a page excluded by the project's config (trends) is left out the same way."""
    root, _ = _site_copy(mission_site, tmp_path)
    paper = sorted((root / "docs" / "papers").glob("[!_]*.md"))[0].stem
    contribute = root / "docs" / "contribute.md"
    contribute.write_text(contribute.read_text(encoding="utf-8")
                          + f"\nSee [a paper](papers/{paper}.md#sources) and [another][p].\n\n[p]: ./papers/{paper}.md\n",
                          encoding="utf-8")
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "  - Trends: trends.md\n" in text and "exclude_docs: |\n" in text
    config.write_text(text.replace("  - Trends: trends.md\n", "").replace("exclude_docs: |\n", "exclude_docs: |\n  /trends.md\n"),
                      encoding="utf-8")
    run = run_generator("site", cwd=root)
    assert run.returncode == 0, run.stderr
    site = _files(root / "site")
    assert f'href="../papers/{paper}/#sources"'.encode() in site["contribute/index.html"]
    assert "trends/index.html" not in site
    _compare(site, _reference(root, tmp_path / "reference"))


def test_a_hand_written_html_file_edited_in_place_is_built_again(mission_site, tmp_path):
    # MkDocs' kept output is reused while its inputs are the same: a static .html file of docs/
    # is compacted into it, so its bytes are an input too (an edit in place keeps its name)
    root, _ = _site_copy(mission_site, tmp_path)
    extra = root / "docs" / "extra.html"
    extra.write_text("<!doctype html><p>First   version</p>\n", encoding="utf-8")
    assert run_generator("site", cwd=root).returncode == 0
    with extra.open("w", encoding="utf-8") as f:  # in place: the same inode
        f.write("<!doctype html><p>Second   version</p>\n")
    run = run_generator("site", cwd=root)
    assert run.returncode == 0, run.stderr
    assert b"Second" in (root / "site" / "extra.html").read_bytes()


def test_only_a_template_that_prints_the_body_makes_a_page_its_own_frame():
    from generator.site.stamp import self_frame

    page = '---\ntitle: "Trends"\ntemplate: "{}"\nbody: "<h1>Trends</h1>"\n---\n'
    frame = self_frame(page.format("listing.html"), "trends.md")
    assert frame is not None and '"@@digest-slot-body@@"' in frame and "<h1>" not in frame
    assert self_frame(page.format("redirect.html"), "trends.md") is None  # prints no body: rendered as it is
    assert self_frame('---\ntitle: "Trends"\n---\n\n# Trends, by hand\n', "trends.md") is None


@pytest.fixture(scope="module")
def merged_site(tmp_path_factory):
    """Two submissions of one abstract (the later one's id is the paper's smaller one, so the
    other becomes an alias page), a site_url (so every page has a canonical link), and a title
    with every character HTML escapes."""
    tmp = tmp_path_factory.mktemp("merged")
    seeds = tmp / "seeds"
    seeds.mkdir()
    text = (REPO / "seeds" / "000_ca08d30626a6d4f8.txt").read_text(encoding="utf-8").split("\n\n")[1].strip()
    (seeds / "a.txt").write_text(f"ICML 2026 Papers\n\n{text}\n", encoding="utf-8")
    (seeds / "b.txt").write_text(f"ICML 2026 Papers\n\n{text} We thank the reviewers for their comments.\n", encoding="utf-8")
    hostile = ('We propose <script>alert(1)</script> "Q&A" @@digest-slot-title@@ papers/_paper/, a method '
               "that learns quickly from few labelled examples and improves accuracy on five benchmarks.")
    (seeds / "c.txt").write_text(f"NeurIPS 2025 Papers\n\n{hostile}\n", encoding="utf-8")
    return build_site(tmp / "out", [seeds], site_url="https://example.org/digest/")


def test_alias_pages_and_pages_with_an_address_are_stamped_as_mkdocs_renders_them(merged_site, tmp_path):
    stamped = _files(merged_site.site)
    aliases = [n for n in stamped if n.startswith("papers/") and b"window.location.replace" in stamped[n]]
    assert len(aliases) == 1
    papers = sorted(p.stem for p in (merged_site.docs / "papers").glob("[!_]*.md"))
    assert len(papers) == 3  # two papers and the alias
    for stem in papers:  # each page's own address, where the frame had its own
        page = stamped[f"papers/{stem}/index.html"].decode("utf-8")
        if f"papers/{stem}/index.html" not in aliases:  # a canonical link, og:url, the JSON-LD's url
            assert page.count(f"https://example.org/digest/papers/{stem}/") == 3
        assert "_frame" not in page and "_alias" not in page
    _compare(stamped, _reference(merged_site.root, tmp_path / "reference", "https://example.org/digest/"))


def test_a_seed_that_spells_a_slot_marker_stays_text(merged_site):
    page = next(p for p in (merged_site.site / "papers").glob("*/index.html")
                if "alert(1)" in p.read_text(encoding="utf-8"))
    html = page.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html
    assert "@@digest-slot-title@@" in html  # printed as the seed wrote it, not filled in
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _project_with_frames(mission_site, tmp_path: Path) -> Path:
    """The mission project as the generator left it (mkdocs.yml, overrides/, docs/), before
    any site step: a copy without its site/, the site step's cache and the seeds."""
    root = tmp_path / "p"
    shutil.copytree(mission_site.root, root, ignore=lambda folder, names: [
        n for n in names if Path(folder) == mission_site.root and n in ("site", ".cache", "seeds")])
    return root


def test_pages_the_frame_cannot_stand_for_are_errors_naming_the_file(mission_site, tmp_path):
    root = _project_with_frames(mission_site, tmp_path)
    page = sorted((root / "docs" / "papers").glob("[!_]*.md"))[0]
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace('template: "paper.html"', 'template: "listing.html"'), encoding="utf-8")
    run = run_generator("site", cwd=root)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"{page}: no frame page stands for a listing.html page at papers/{page.stem}/ with " in run.stderr
    page.write_text(text.replace('search: {"exclude": true}', 'search: {"exclude": false}'), encoding="utf-8")
    run = run_generator("site", cwd=root)
    assert run.returncode == 1 and f"{page}: its 'search' differs from the paper.html frame's" in run.stderr
    page.write_text(text, encoding="utf-8")
    # A template that stops printing a slot is caught at the frame, not shipped as a marker.
    (root / "overrides" / "paper.html").write_text('{% extends "main.html" %}{% block content %}{% endblock %}', encoding="utf-8")
    run = run_generator("site", cwd=root)
    assert run.returncode == 1 and "the paper.html template no longer prints body" in run.stderr


@settings(max_examples=300, deadline=None)
@given(st.text(), st.text(alphabet=st.characters(codec="utf-8")))
def test_a_front_matter_entry_reads_as_yaml_reads_it(a, b):
    """The JSON fast path of generator.site.stamp.entry_value gives what libyaml gives, for any
    strings the generator writes, and the entries split where the keys are."""
    meta = {"title": a, "tags": [a, b], "search": {"exclude": True}, "body": b, "description": a + "\n" + b}
    head = write_front_matter(meta)[4:-5]
    raw = entries(head)
    assert sorted(raw) == sorted(meta)
    expected = yaml.safe_load(head)
    for key in meta:
        assert entry_value(raw[key], Path("x.md")) == expected[key]


def test_frame_pages_hold_markers_only():
    from generator.pages.render import render_frames

    frames = render_frames()
    assert sorted(frames) == sorted(FRAMES)
    assert slot("body") in frames["papers/_frame.md"] and slot("location") in frames["papers/_alias.md"]
    assert slot("feed_title") in frames["topics/_deep/_frame.md"] and slot("feed") not in frames["venues/_frame.md"]


def _site_copy(mission_site, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A copy of the mission project with its built site/, and every file of that site."""
    root = tmp_path / "p"
    shutil.copytree(mission_site.root, root, symlinks=True)
    return root, _files(root / "site")


def _leftovers(root: Path) -> list[str]:
    """What stopped builds left beside site/ (the last replaced site, kept to stage the next, is not)."""
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".site.") and p.name != ".site.previous")


def test_a_failed_site_step_leaves_the_last_site_whole_and_the_next_one_builds(mission_site, tmp_path):
    """mkdocs build --strict fails (a broken link): the site/ of the last build is still there,
    file for file, not set aside and half removed."""
    root, before = _site_copy(mission_site, tmp_path)
    broken = root / "docs" / "broken.md"
    broken.write_text("# Broken\n\n[a page that is not there](nowhere.md)\n", encoding="utf-8")
    run = run_generator("site", cwd=root)
    assert run.returncode == 1 and "mkdocs.yml: mkdocs build failed" in run.stderr and "Traceback" not in run.stderr
    assert _files(root / "site") == before
    broken.unlink()
    run = run_generator("site", cwd=root)
    assert run.returncode == 0, run.stderr
    assert _files(root / "site") == before
    assert _leftovers(root) == []


def _interrupted(root: Path, sig: int, after: float) -> None:
    """`python -m generator site` in its own process group, sent ``sig`` (to the group, as a
    terminal's Ctrl-C is) ``after`` seconds in."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "generator", "site"], cwd=root, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        proc.wait(timeout=after)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, sig)
    proc.wait(timeout=120)
    proc.stderr.close()
    with contextlib.suppress(ProcessLookupError):  # a child still running after its parent was killed
        os.killpg(proc.pid, signal.SIGKILL)


def _edit_paper(root: Path, n: int, word: str) -> Path:
    """Rewrite the ``n``-th paper page of docs/ with ``word`` added to its body, as the
    generator writes a changed page (a new file renamed over it)."""
    page = sorted((root / "docs" / "papers").glob("[!_]*.md"))[n]
    text = page.read_text(encoding="utf-8").replace('body: "', f'body: "<p>{word}</p>', 1)
    tmp = page.with_name(f".{page.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, page)
    return page


def _inodes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("*") if p.is_file()}


def test_the_incremental_site_step_writes_only_what_changed_and_builds_the_cold_sites_bytes(mission_site, tmp_path):
    """Nothing changed: nothing is written, not even the folder. One paper page changed: that
    page alone is a new file, every other file of the site is the last site's (a hard link to
    it); and the site is byte for byte what a cold site step (no site/, no .cache/) builds."""
    root, _ = _site_copy(mission_site, tmp_path)
    assert run_generator("site", cwd=root).returncode == 0  # the copy's cache is not trusted: rebuilt
    folder, before = (root / "site").stat().st_ino, _inodes(root / "site")
    run = run_generator("site", cwd=root)
    assert run.returncode == 0 and "site up to date" in run.stderr and "MkDocs not run" in run.stderr, run.stderr
    assert (root / "site").stat().st_ino == folder and _inodes(root / "site") == before
    assert _leftovers(root) == [] and (root / ".site.previous").is_dir()  # the replaced site, kept to stage in

    page = _edit_paper(root, 3, "An added sentence.")
    run = run_generator("site", cwd=root)
    assert run.returncode == 0 and "1 written (1 HTML pages)" in run.stderr and "MkDocs not run" in run.stderr, run.stderr
    after = _inodes(root / "site")
    assert sorted(after) == sorted(before)
    assert [rel for rel in after if after[rel] != before[rel]] == [f"papers/{page.stem}/index.html"]
    assert "<p>An added sentence.</p>" in (root / "site" / "papers" / page.stem / "index.html").read_text(encoding="utf-8")

    cold = tmp_path / "cold"
    shutil.copytree(root, cold, symlinks=True, ignore=shutil.ignore_patterns("site", ".cache"))
    assert run_generator("site", cwd=cold).returncode == 0
    _compare(_files(root / "site"), _files(cold / "site"))


def test_an_interrupted_site_step_leaves_the_last_site_whole_and_the_next_one_builds(mission_site, tmp_path):
    """Ctrl-C (SIGINT) or a kill (SIGKILL) at any point of a site step that renders and stages
    everything anew (its cache removed) over a changed page: site/ is, file for file, the last
    build or the new one, never a mix; the next build cleans up what the stopped one left."""
    root, _ = _site_copy(mission_site, tmp_path)
    assert run_generator("site", cwd=root).returncode == 0
    before = _files(root / "site")

    def reset() -> None:  # back to the last build, and no cache: the next step does everything
        shutil.copytree(mission_site.root / "site", root / "site.old")
        shutil.rmtree(root / "site")
        (root / "site.old").rename(root / "site")
        shutil.rmtree(root / ".cache" / "site", ignore_errors=True)

    _edit_paper(root, 5, "A sentence the stopped builds may or may not publish.")
    reset()
    start = time.perf_counter()
    run = run_generator("site", cwd=root)
    took = time.perf_counter() - start
    assert run.returncode == 0, run.stderr
    after = _files(root / "site")
    assert after != before
    random = Random(31)
    for n in range(8):
        reset()
        sig = signal.SIGINT if n % 2 == 0 else signal.SIGKILL
        _interrupted(root, sig, took * random.uniform(0.05, 1.0))
        assert _files(root / "site") in (before, after), (sig, n)
    run = run_generator("site", cwd=root)
    assert run.returncode == 0, run.stderr
    assert _files(root / "site") == after
    assert _leftovers(root) == []
    assert not [p.name for p in (root / ".cache" / "site").iterdir() if p.name not in ("rendered", "site.json", "docs", "frames")]
