"""Rebuilds in proportion to what changed (issue 31): a build with its caches kept gives what a
cold build of the same seeds gives, and one with nothing to do ends early.

The declared state an incremental build keeps and a cold one cannot have is the map's
positions (``docs/map.json``: new papers are placed on the previous map); the published
ids come from the previous ``docs/papers.json`` in both, as in the deploy.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support import REPO

from generator import cli
from generator.derive.map_layout import PLACE_OFFSET, place, placing
from generator.core.fingerprint import fingerprint
from generator.manifest import docs_state, manifest_path, pages_path, read_manifest, read_pages
from generator.seeds.identify import paper_id

DECLARED = {"map.json"}  # the map's places: kept by an incremental build, laid out anew by a cold one
HEADER = "ICML 2026 Papers"


def _paragraphs() -> list[str]:
    out = []
    for path in sorted((REPO / "seeds").glob("*.txt")):
        body = path.read_text(encoding="utf-8").partition("\n")[2]
        out += [p.strip() for p in body.split("\n\n") if p.strip()]
    return out


POOL = _paragraphs()


class Project:
    """A project folder with seed files made of paragraphs of the mission seeds."""

    def __init__(self, root: Path, files: dict[str, list[str]]):
        self.root = root
        self.files = files  # file name -> its paragraphs
        self.curation: dict[str, str] = {}  # paper id -> title
        self.pinned: set[str] = set()  # curated paragraphs: never edited or removed
        (root / "docs" / "assets").mkdir(parents=True)
        (root / "docs" / "contribute.md").write_text("# Contribute\n", encoding="utf-8")
        self.write()

    def write(self) -> None:
        seeds = self.root / "seeds"
        shutil.rmtree(seeds, ignore_errors=True)
        seeds.mkdir()
        for name, paragraphs in self.files.items():
            (seeds / name).write_text(HEADER + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
        if self.curation:
            (seeds / "curation.yml").write_text(
                "".join(f'"{pid}":\n  title: "{title}"\n' for pid, title in sorted(self.curation.items())), encoding="utf-8")

    def unused(self) -> list[str]:
        used = {p for ps in self.files.values() for p in ps}
        return [p for p in POOL if p not in used]

    def edit(self, kind: str, pick: int) -> None:
        names = sorted(self.files)
        free = [(n, i) for n in names for i, p in enumerate(self.files[n]) if p not in self.pinned]
        spare = self.unused()
        if kind == "append" and spare:
            self.files[names[pick % len(names)]].append(spare[pick % len(spare)])
        elif kind == "remove" and len(free) > 3:
            n, i = free[pick % len(free)]
            del self.files[n][i]
        elif kind == "edit" and free:
            n, i = free[pick % len(free)]
            self.files[n][i] = self.files[n][i].replace(" the ", " this ", 1) + " We release the code."
        elif kind == "new file" and len(spare) >= 2:
            self.files[f"new-{len(self.files)}-{pick}.txt"] = spare[:2]
        elif kind == "drop file" and len(self.files) > 1:
            droppable = [n for n in names if not any(p in self.pinned for p in self.files[n])]
            if droppable:
                del self.files[droppable[pick % len(droppable)]]
        elif kind == "curate":
            candidates = [p for ps in self.files.values() for p in ps]
            text = candidates[pick % len(candidates)]
            self.pinned.add(text)
            self.curation[paper_id(text)] = f"Curated Title {paper_id(text)}"
        self.write()


def build_here(root: Path) -> None:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert cli.main(["build"]) == 0
    finally:
        os.chdir(cwd)


def killed_build(root: Path, after: float) -> None:
    """``python -m generator build`` in ``root``, killed with SIGKILL ``after`` seconds in (if still running)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "generator", "build"], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(after)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)  # the build and its workers, as an OOM kill or a cancelled job would
    proc.wait()


def generated(docs: Path) -> dict[str, bytes]:
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*")
            if p.is_file() and p.relative_to(docs).parts[0] not in ("assets", "contribute.md")}


def cold_build(project: Project, into: Path) -> dict[str, bytes]:
    """The same seeds built with no cache, no map and no manifest; the previous publication
    (papers.json, whose ids every build keeps) as the incremental project has it."""
    cold = Project(into, {k: list(v) for k, v in project.files.items()})
    cold.curation = dict(project.curation)
    cold.write()
    shutil.copy(project.root / "docs" / "papers.json", into / "docs" / "papers.json")
    build_here(into)
    return generated(into / "docs")


EDITS = st.sampled_from(["append", "remove", "edit", "new file", "drop file", "curate"])


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
# every kind of edit once, a build killed early in the middle
@example(steps=[("append", 3), ("curate", 5), ("edit", 7), ("new file", 1), ("remove", 2), ("drop file", 0)],
         kill_at=2, kill_after=1.0)
@given(steps=st.lists(st.tuples(EDITS, st.integers(0, 1000)), min_size=2, max_size=4),
       kill_at=st.integers(0, 3), kill_after=st.floats(0.3, 2.5))
def test_incremental_builds_equal_a_cold_build(steps, kill_at, kill_after):
    with tempfile.TemporaryDirectory() as tmp:
        half = len(POOL) * 2 // 3
        project = Project(Path(tmp) / "warm", {"a.txt": POOL[: half // 2], "b.txt": POOL[half // 2 : half]})
        build_here(project.root)
        for n, (kind, pick) in enumerate(steps):
            project.edit(kind, pick)
            if n == kill_at:
                killed_build(project.root, kill_after)  # docs/ and the caches as a killed build leaves them
            build_here(project.root)
        warm = generated(project.root / "docs")
        cold = cold_build(project, Path(tmp) / "cold")
        differ = sorted(k for k in warm.keys() | cold.keys() if warm.get(k) != cold.get(k) and k not in DECLARED)
        assert differ == [], f"after {steps}: {differ[:10]}"
        assert json.loads(warm["map.json"])["papers"] and warm.keys() == cold.keys()


@pytest.fixture
def built(tmp_path: Path) -> Project:
    project = Project(tmp_path, {"a.txt": POOL[:20], "b.txt": POOL[20:30]})
    build_here(tmp_path)
    return project


def test_nothing_changed_ends_early_and_a_touched_output_rebuilds(built, caplog):
    docs = built.root / "docs"
    before = docs_state(docs)
    caplog.set_level("INFO")
    build_here(built.root)
    assert "nothing changed since the last build" in caplog.text
    assert docs_state(docs) == before
    page = next((docs / "papers").glob("*.md"))
    original = page.read_bytes()
    page.write_bytes(b"tampered")
    caplog.clear()
    build_here(built.root)
    assert "nothing changed" not in caplog.text
    assert page.read_bytes() == original


def test_a_changed_seed_or_a_foreign_manifest_builds(built, caplog):
    caplog.set_level("INFO")
    built.edit("append", 0)
    build_here(built.root)
    assert "nothing changed" not in caplog.text and "placed beside their related papers" in caplog.text
    path = manifest_path(built.root / ".cache" / "derived.json")
    path.write_text('{"version": 1, "key": 5}', encoding="utf-8")
    caplog.clear()
    build_here(built.root)
    assert "is not one this generator writes: building" in caplog.text
    assert read_manifest(path) is not None  # rebuilt
    caplog.clear()
    build_here(built.root)
    assert "nothing changed since the last build" in caplog.text


def test_a_rebuild_takes_the_json_of_the_papers_that_did_not_change_from_papers_json(built, caplog):
    """The papers whose record is as it was (not the new one, nor those that now list it as related)."""
    caplog.set_level("DEBUG")
    built.edit("append", 0)
    build_here(built.root)
    reused, total = map(int, re.search(r"papers\.json: (\d+) of (\d+) papers as they were", caplog.text).groups())
    assert total // 2 < reused < total
    (built.root / "docs" / "papers.json").write_bytes(b"{}")  # not as the build left it: vouched for no longer
    built.edit("append", 1)
    caplog.clear()
    build_here(built.root)
    assert re.search(r"papers\.json: 0 of \d+ papers as they were", caplog.text)


def test_a_new_paper_is_placed_beside_its_related_papers_on_the_map_as_it_is():
    previous = {"aaaaaaaaaaaa": (0.1, 0.1), "bbbbbbbbbbbb": (0.3, 0.1), "cccccccccccc": (-0.4, -0.4)}
    got = place({"000000000000": ("bbbbbbbbbbbb", "dddddddddddd", "aaaaaaaaaaaa")}, previous)
    x, y = got["000000000000"]
    assert (round(x - PLACE_OFFSET, 6), y) == (0.2, 0.1)  # the mean of the two on the map, moved by its id (angle 0)
    assert place({"ffffffffffff": ()}, previous)["ffffffffffff"] != (0.0, 0.0)


def test_placing_stops_past_a_tenth_of_the_map_since_its_last_full_layout():
    assert placing(1, 0, 100) and placing(10, 0, 100) and not placing(11, 0, 100)
    assert placing(3, 7, 100) and not placing(4, 7, 100)
    assert not placing(1, None, 100) and not placing(0, 0, 100) and not placing(1, 0, 5)


def test_a_corrupt_page_state_is_said_and_every_page_rendered_again(built, caplog):
    docs = built.root / "docs"
    before = generated(docs)
    state = pages_path(built.root / ".cache" / "derived.json")
    assert read_pages(state, fingerprint(b""))  # the build left one, for this generator
    state.write_bytes(b"\xff{not json")
    page = sorted((docs / "papers").glob("*.md"))[3]
    page.write_bytes(b"tampered")  # a page the states would have vouched for
    caplog.set_level("INFO")
    build_here(built.root)  # the touched page makes it build; the states say nothing
    assert "cannot read .cache/pages.json" in caplog.text
    assert generated(docs) == before
    assert read_pages(state, fingerprint(b"")) and not read_pages(state, "another generator")


# (PAGE_SIZE, _PAGE_MIN, _PAGE_MAX, _PAGE_SPREAD): pages of about 6; and listings of more than 20
# in pages of 3 to 8 whose last page joins the one before when it has 1
PAGINGS = [(6, 4, 12, 2), (20, 3, 8, 3)]


@pytest.mark.parametrize("paging", PAGINGS)
def test_listings_rebuilt_page_by_page_equal_a_cold_build(tmp_path, monkeypatch, caplog, paging):
    """The mission's papers in small pages (a digest of thousands, in small): a rebuild renders
    only the listing pages whose papers changed, and what it leaves equals a cold build after
    each kind of edit."""
    from generator.pages import render

    for name, value in zip(("PAGE_SIZE", "_PAGE_MIN", "_PAGE_MAX", "_PAGE_SPREAD"), paging):
        monkeypatch.setattr(render, name, value)
    render._ends_page.cache_clear()
    try:
        half = len(POOL) * 2 // 3
        project = Project(tmp_path / "warm", {"a.txt": POOL[: half // 2], "b.txt": POOL[half // 2 : half]})
        build_here(project.root)
        assert (project.root / "docs" / "list" / "title-3.md").is_file()
        kept_pages = []
        for n, (kind, pick) in enumerate([("append", 3), ("edit", 7), ("curate", 5), ("remove", 2), ("new file", 1),
                                          ("append", 11), ("drop file", 0)]):
            project.edit(kind, pick)
            caplog.clear()
            caplog.set_level("DEBUG", logger="generator.pipeline")
            build_here(project.root)
            said = re.search(r"pages of the listings that changed: (\d+) of (\d+) as they were", caplog.text)
            kept_pages.append(int(said.group(1)) if said else 0)
            warm = generated(project.root / "docs")
            cold = cold_build(project, tmp_path / f"cold-{n}")
            differ = sorted(k for k in warm.keys() | cold.keys() if warm.get(k) != cold.get(k) and k not in DECLARED)
            assert differ == [], f"after {kind}: {differ[:10]}"
        # an appended paper left most pages of the listings it joined as they were
        assert kept_pages[0] > 10 and kept_pages[5] > 10, kept_pages
    finally:
        render._ends_page.cache_clear()
