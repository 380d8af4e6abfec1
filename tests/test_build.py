"""The whole pipeline in-process: gather everything, then write; a failed build writes nothing."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from support import REPO, run_generator
from test_cli import fingerprint
from test_parse import A1, A2, A3, BROKEN

from generator.core.errors import BuildError, CurationError, ErrorList, SeedError
from generator.pipeline import build
from generator.seeds.read import seed_paths

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)  # sources are named relative to the working directory, as for a user
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / "docs" / "assets").mkdir(parents=True)
    (tmp_path / "docs" / "contribute.md").write_text("# Contribute\n", encoding="utf-8")
    (tmp_path / "docs" / "assets" / "digest.css").write_text("body {}\n", encoding="utf-8")
    return tmp_path


def papers_json(docs: Path) -> list[dict]:
    return json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]


def test_build_the_mission_seeds(project):
    result = build([Path("seeds")], Path("docs"))
    assert (len(result.digest), result.seed_files, result.removed) == (36, 2, 0)
    assert sum(p.merged for p in result.digest) == 2
    papers = papers_json(project / "docs")
    assert [p["id"] for p in papers] == sorted(p.id for p in result.digest)
    assert result.written == len(list((project / "docs").rglob("*.*"))) - 2  # all but the hand-written pages
    frames = ["_alias.md", "_frame.md"]  # what `python -m generator site` fills in for every page
    assert sorted(f.name for f in (project / "docs" / "papers").iterdir()) == sorted([f"{p['id']}.md" for p in papers] + frames)
    assert {s["file"] for p in papers for s in p["sources"]} == {
        "seeds/000_ca08d30626a6d4f8.txt", "seeds/004_a8c92079105dd28c.txt"
    }


def test_rebuild_writes_nothing_and_a_new_seed_only_what_changed(project):
    build([Path("seeds")], Path("docs"))
    again = build([Path("seeds")], Path("docs"))
    assert (again.written, again.removed) == (0, 0)
    before = {p.relative_to(project / "docs").as_posix(): p.read_bytes() for p in (project / "docs").rglob("*.*")}
    related_before = {p["id"]: p["related"] for p in papers_json(project / "docs")}
    shutil.copy(FIXTURES / "seed_crlf_bom.txt", project / "seeds" / "neurips.txt")
    more = build([Path("seeds")], Path("docs"))
    assert len(more.digest) == 39
    after = {p.relative_to(project / "docs").as_posix(): p.read_bytes() for p in (project / "docs").rglob("*.*")}
    changed = {path for path, data in after.items() if before.get(path) != data}
    assert more.written == len(changed) and more.removed == 0
    # A paper page is rewritten only when it is new or its related papers changed (the new
    # papers, or a rank moved by the new term counts); a feed only when it holds a new paper.
    related_after = {p["id"]: (p["related"], p["tags"]) for p in papers_json(project / "docs")}
    new_ids = set(related_after) - set(related_before)
    assert len(new_ids) == 3
    for path in changed:
        if path.startswith("papers/"):
            pid = path.removeprefix("papers/").removesuffix(".md")
            assert pid in new_ids or related_after[pid][0] != related_before[pid], path
    new_topics = {t.slug for t in more.digest.topics if any(t.name in related_after[i][1] for i in new_ids)}
    assert {p for p in changed if p.endswith("feed.xml")} == {"feed.xml"} | {f"topics/{s}/feed.xml" for s in new_topics}
    assert sum(p.startswith("papers/") for p in changed) < 39
    abstracts = {p["abstract"]: p["sources"] for p in papers_json(project / "docs")}
    assert [abstracts[a] for a in (A1, A2, A3)] == [
        [{"file": "seeds/neurips.txt", "line": n}] for n in (3, 13, 23)
    ]


def test_removing_a_seed_removes_its_pages(project):
    shutil.copy(FIXTURES / "seed_crlf_bom.txt", project / "seeds" / "neurips.txt")
    build([Path("seeds")], Path("docs"))
    (project / "seeds" / "neurips.txt").unlink()
    result = build([Path("seeds")], Path("docs"))
    assert len(result.digest) == 36
    assert result.removed >= 3  # the three paper pages, and any topic or venue page only they had
    assert not (project / "docs" / "venues" / "neurips-2025.md").exists()
    assert (project / "docs" / "contribute.md").read_text(encoding="utf-8") == "# Contribute\n"


@pytest.mark.parametrize("name", ["seed_several_problems.txt", "seed_not_utf8.txt"])
def test_a_failed_build_writes_nothing(project, name):
    build([Path("seeds")], Path("docs"))
    shutil.copy(FIXTURES / name, project / "seeds" / name)
    before = fingerprint(project / "docs")
    with pytest.raises((SeedError, ErrorList)) as info:
        build([Path("seeds")], Path("docs"))
    assert [str(e) for e in getattr(info.value, "errors", [info.value])] == BROKEN[name]
    assert fingerprint(project / "docs") == before


def test_seed_paths_are_every_txt_file_sorted_and_recursive(project):
    (project / "seeds" / "sub").mkdir()
    (project / "seeds" / "sub" / "a.txt").write_text("x", encoding="utf-8")
    (project / "seeds" / "notes.md").write_text("x", encoding="utf-8")
    assert [p.as_posix() for p in seed_paths([Path("seeds")])] == [
        "seeds/000_ca08d30626a6d4f8.txt", "seeds/004_a8c92079105dd28c.txt", "seeds/sub/a.txt"
    ]


def test_no_seed_files(project):
    (project / "empty").mkdir()
    with pytest.raises(SeedError) as info:
        build([Path("empty")], Path("docs"))
    assert str(info.value) == "empty: no seed files (*.txt) found"


def test_a_build_that_cannot_write_one_page_leaves_docs_as_it_was(project):
    # The new seed adds papers (so index.md, list.md and papers.json change) and a venue
    # whose page cannot be written: a folder is where it must go. (Permissions would
    # not do: the tests may run as root.)
    build([Path("seeds")], Path("docs"))
    shutil.copy(FIXTURES / "seed_crlf_bom.txt", project / "seeds" / "neurips.txt")
    (project / "docs" / "venues" / "neurips-2025.md").mkdir()
    before = fingerprint(project / "docs")
    with pytest.raises(BuildError) as info:
        build([Path("seeds")], Path("docs"))
    assert str(info.value) == "docs: cannot write the site: Is a directory (docs/venues/neurips-2025.md)"
    assert fingerprint(project / "docs") == before


# -- only regular files inside the seed folder are read ------------------------------------


def test_a_named_pipe_is_refused_not_waited_on(project):
    os.mkfifo(project / "seeds" / "pipe.txt")
    message = "seeds/pipe.txt: this is not a regular file but a named pipe: only plain files are read\n"
    for command in (["validate", "seeds/pipe.txt"], ["build"]):
        run = run_generator(*command, cwd=project, timeout=60)  # today validate waits for a writer forever
        assert (run.returncode, run.stderr) == (1, message), command


def test_a_link_out_of_the_seed_folder_is_refused_and_its_text_not_shown(project):
    secret = project / "outside.txt"
    secret.write_text("ICML 2026 Papers\n\nA secret of the machine that builds the site.\n", encoding="utf-8")
    (project / "seeds" / "evil.txt").symlink_to(secret)
    (project / "seeds" / "sub").mkdir()
    (project / "seeds" / "sub" / "evil2.txt").symlink_to("../../outside.txt")
    for command in (["validate", "seeds/evil.txt"], ["build"]):
        run = run_generator(*command, cwd=project, timeout=60)
        assert run.returncode == 1, command
        assert "secret" not in run.stdout + run.stderr
        if command == ["build"]:
            assert run.stderr == (
                "seeds/evil.txt: this is a symbolic link to a file outside seeds: put the file itself in the folder\n"
                "seeds/sub/evil2.txt: this is a symbolic link to a file outside seeds: put the file itself in the folder\n"
            )
        else:
            assert run.stderr == "seeds/evil.txt: this is a symbolic link to a file outside seeds: put the file itself in the folder\n"
    assert not (project / "docs" / "papers").exists()


@pytest.mark.parametrize("name, shown", [
    (b"bad\xff.txt", "seeds/bad\\udcff.txt"),
    (b"x\n::error::forged.txt", "seeds/x\\n::error::forged.txt"),
    ("a\u202etxt.exe.txt".encode(), "seeds/a\\u202etxt.exe.txt"),
])
def test_a_seed_whose_name_is_not_printable_text_is_refused_by_name(project, name, shown):
    # A name that is not UTF-8 (git takes any bytes) stopped `build` with a UnicodeEncodeError
    # traceback: the surrogates Python reads it with cannot be written into a page. A line
    # break starts a line of the CI log of its own (a forged "::error::" workflow command),
    # and a bidi control shows the name reversed in the pull-request summary and on pages.
    with open(os.path.join(os.fsencode(project / "seeds"), name), "wb") as f:
        f.write(b"ICML 2026 Papers\n\n" + A1.encode() + b"\n")
    message = f"{shown}: the file's name is not printable text (a line break, control or bidi character, or not UTF-8): rename it\n"
    run = run_generator("build", cwd=project, timeout=120)
    assert (run.returncode, run.stderr) == (1, message)
    assert not (project / "docs" / "papers").exists()
    path = os.fsdecode(os.path.join(b"seeds", name))
    run = run_generator("validate", "--format", "markdown", path, cwd=project, timeout=120)
    assert (run.returncode, run.stderr) == (1, message)
    assert run.stdout.startswith("## Seed check\n\nThe seed files have problems; nothing was added:")


def test_a_link_to_the_seed_folder_from_inside_is_read(project):
    (project / "seeds" / "again.txt").symlink_to("000_ca08d30626a6d4f8.txt")
    result = build([Path("seeds")], Path("docs"))
    assert len(result.digest) == 36 and result.seed_files == 3


def test_a_curation_file_linked_from_outside_is_refused(project):
    (project / "elsewhere.yml").write_text("aaaaaaaaaaaa:\n  title: secret\n", encoding="utf-8")
    (project / "seeds" / "curation.yml").unlink()
    (project / "seeds" / "curation.yml").symlink_to(project / "elsewhere.yml")
    with pytest.raises(CurationError) as info:
        build([Path("seeds")], Path("docs"))
    assert str(info.value) == (
        "seeds/curation.yml: this is a symbolic link to a file outside seeds: put the file itself in the folder"
    )


def _restored_map(project: Path, span: str) -> Path:
    """A built project whose docs/map.json was tampered with as a restored cache could be: its
    ``span`` replaced by the literal ``span``, and one paper's row dropped (so the next build
    has a new paper, and lays the map out again from the previous places)."""
    build([Path("seeds")], Path("docs"))
    path = project / "docs" / "map.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["papers"] = data["papers"][1:]
    data["span"] = 0
    path.write_text(json.dumps(data).replace('"span": 0', f'"span": {span}'), encoding="utf-8")
    return path


def _spread(path: Path) -> tuple[float, int, int]:
    """The span of a map.json, its papers' distinct places, and its papers."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["span"], len({(row[1], row[2]) for row in data["papers"]}), len(data["papers"])


@pytest.mark.parametrize("span", ["1e999", "1e300", "-Infinity", "NaN", "1e-300"])
def test_a_restored_map_with_a_span_out_of_range_is_laid_out_from_a_sane_start(project, span):
    """The deploy restores docs/map.json from the Actions cache. A span of 1e999 (read as
    infinity) crashed the next build with a segmentation fault and no message, in t-SNE; 1e300
    froze every point where it started and was written back, for good. Run as a user runs it:
    a crash must show as a failed command, not take the test run with it."""
    path = _restored_map(project, span)
    run = run_generator("build", "--seeds", "seeds", "--docs", "docs", "--no-cache", cwd=project, timeout=300)
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    written_span, places, papers = _spread(path)
    assert 1 < written_span < 10_000
    assert places == papers == 36  # every paper has a place of its own
    shown = {"1e999": "inf", "1e300": "1e+300", "-Infinity": "-inf", "NaN": "nan"}.get(span, span)
    assert f"docs/map.json: its span {shown} is not one a layout of 35 papers has" in run.stderr


def test_changed_is_replace_for_the_fields_it_is_given():
    from dataclasses import replace

    from generator.core.model import Paper, Source, changed

    p = Paper(id="0123456789ab", text="An abstract.", venue="ICML", year=2026, sources=(Source("s.txt", 2, "ICML", 2026),))
    q = changed(p, title="A Title", tags=("Optimization",))
    assert q == replace(p, title="A Title", tags=("Optimization",)) and p.title == "" and q.title == "A Title"
    assert hash(q) == hash(replace(p, title="A Title", tags=("Optimization",)))
    with pytest.raises(TypeError, match="no field of Paper"):
        changed(p, titel="typo")
