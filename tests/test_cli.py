"""The command line: `python -m generator build|validate` as a contributor runs it.

Every broken seed stops both commands with exit code 1 and `path:line: message` on
stderr, without a traceback; a failed build leaves the docs folder exactly as it was.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from support import CORPORA, REPO, run_generator
from support import summary_references as md
from test_parse import BROKEN

FIXTURES = Path(__file__).parent / "fixtures"


def fingerprint(folder: Path) -> str:
    """A hash of every file's path, bytes and modification time under ``folder``."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(p.relative_to(folder).as_posix().encode())
        if p.is_file():
            h.update(p.read_bytes())
            h.update(str(p.stat().st_mtime_ns).encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory) -> Path:
    """A docs folder as a previous good build left it: hand-written pages and generated ones."""
    root = tmp_path_factory.mktemp("good")
    shutil.copytree(REPO / "seeds", root / "seeds")
    docs = root / "docs"
    docs.mkdir()
    (docs / "contribute.md").write_text("# Contribute\n", encoding="utf-8")
    result = run_generator("build", "--docs", str(docs), cwd=root)
    assert result.returncode == 0, result.stderr
    return docs


@pytest.fixture
def project(tmp_path, built_docs) -> Path:
    """A project folder with the mission seeds and a built docs/."""
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    shutil.copytree(built_docs, tmp_path / "docs")
    return tmp_path


def test_build_reports_what_it_did(project):
    result = run_generator("build", cwd=project)
    assert result.returncode == 0
    assert result.stdout == ""
    dates, address, built = result.stderr.splitlines()
    # the project folder is no git checkout: the feeds say what they were dated by instead
    assert dates == "feed dates: January 1 of each seed file's header year (not a git checkout)"
    # and without SITE_URL, the build says what the site goes without
    assert address == ("no site_url (mkdocs.yml reads it from SITE_URL): no sitemaps, canonical links, og:url or og:image, "
                       "and the feeds link relatively")
    assert built.startswith("built 36 papers from 2 seed file(s) (2 duplicates merged) into docs in ")
    assert built.endswith("s: 0 file(s) written, 0 removed")


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_seed_stops_build_and_validate(project, name):
    shutil.copy(FIXTURES / name, project / "seeds" / name)
    before = fingerprint(project)
    expected = "".join(m + "\n" for m in BROKEN[name])

    build = run_generator("build", cwd=project)
    assert (build.returncode, build.stdout, build.stderr) == (1, "", expected)
    assert fingerprint(project) == before

    validate = run_generator("validate", f"seeds/{name}", cwd=project)
    assert (validate.returncode, validate.stdout, validate.stderr) == (1, "", expected)
    assert fingerprint(project) == before


def test_validate_markdown_lists_the_problems_for_the_pull_request(project):
    shutil.copy(FIXTURES / "seed_several_problems.txt", project / "new.txt")
    result = run_generator("validate", "new.txt", "--format", "markdown", cwd=project)
    messages = [m.replace("seeds/seed_several_problems.txt", "new.txt") for m in BROKEN["seed_several_problems.txt"]]
    assert result.returncode == 1
    assert result.stdout == (
        "## Seed check\n\nThe seed files have problems; nothing was added:\n\n"
        + "".join(f"- <code>{md(m)}</code>\n" for m in messages)
    )
    assert result.stderr == "".join(m + "\n" for m in messages)


def test_all_broken_files_of_a_run_are_reported_together(project):
    for name in ("seed_empty.txt", "seed_short_paragraph.txt", "seed_several_problems.txt"):
        shutil.copy(FIXTURES / name, project / "seeds" / name)
    before = fingerprint(project)
    result = run_generator("build", cwd=project)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        *BROKEN["seed_empty.txt"],
        *BROKEN["seed_several_problems.txt"],
        *BROKEN["seed_short_paragraph.txt"],
    ]
    assert fingerprint(project) == before


def test_the_real_corpus_file_with_u0002_is_rejected_at_line_39(project):
    path = CORPORA / "ismir2024" / "ismir-2024-01.txt"
    if not path.is_file():
        pytest.skip(f"the shared corpora are not at {CORPORA} (they live beside the repository, not in it)")
    before = fingerprint(project)
    shown = Path(os.path.relpath(path, project)).as_posix()
    expected = (
        f"{shown}:39: invisible control character U+0002 at column 339, U+0002 at column 618, "
        "U+0002 at column 1009, U+0002 at column 1122: remove it (it is not text)\n"
    )
    build = run_generator("build", "--seeds", "seeds", "--seeds", str(path.parent), cwd=project)
    assert (build.returncode, build.stderr) == (1, expected)
    assert fingerprint(project) == before
    validate = run_generator("validate", str(path), cwd=project)
    assert (validate.returncode, validate.stderr) == (1, expected)


def test_missing_seed_folder(project):
    result = run_generator("build", "--seeds", "nowhere", cwd=project)
    assert (result.returncode, result.stderr) == (1, "nowhere: no such file or folder\n")


def test_debug_shows_the_traceback(project):
    shutil.copy(FIXTURES / "seed_empty.txt", project / "seeds" / "seed_empty.txt")
    result = run_generator("--debug", "build", cwd=project)
    assert result.returncode == 1
    assert "Traceback" in result.stderr
    assert result.stderr.rstrip().endswith(f"generator.core.errors.SeedError: {BROKEN['seed_empty.txt'][0]}")


def test_no_traceback_without_debug(project):
    shutil.copy(FIXTURES / "seed_binary.txt", project / "seeds" / "seed_binary.txt")
    for args in (["build"], ["validate", "seeds/seed_binary.txt"], ["validate", "--format", "markdown", "seeds/seed_binary.txt"]):
        result = run_generator(*args, cwd=project)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr


def test_inputs_that_raised_tracebacks_build(tmp_path):
    """A bracketed link host (urlsplit raised ValueError), an unclosed one, and 500 nested
    \\textbf{ (RecursionError) are text or emphasis on the page, never a traceback."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    shutil.copy(FIXTURES / "seed_traceback_inputs.txt", seeds / "trace.txt")
    docs = tmp_path / "docs"
    result = run_generator("build", "--seeds", str(seeds), "--docs", str(docs), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    from mkdocs.utils.meta import get_data

    pages = {p.name: get_data(p.read_text(encoding="utf-8"))[1]["body"] for p in (docs / "papers").glob("[!_]*.md")}  # not the frames
    assert len(pages) == 3
    joined = "\n".join(pages.values())
    assert "[code](https://[evil.example]/x)" in joined  # shown as text, not a link
    assert "\\url{https://[::1}" in joined
    assert 'href="https://[' not in joined
    assert joined.count("<strong>") <= 5  # emphasis nested deeper than 4 shows its words only


def test_a_build_runs_without_cyclic_collection_and_restores_it(tmp_path, monkeypatch):
    # A full collection walks every object a build holds (at 20,000 papers about a quarter of an
    # appended abstract's main-process CPU): the build turns collection off while it runs and
    # puts it back as it found it, so an in-process caller (a test, the preview) is unchanged.
    import gc

    import generator.pipeline
    from generator import cli

    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    collections: list[int] = []
    seen = {}
    real_build = generator.pipeline.build

    def build(*args, **kwargs):
        seen["enabled"] = gc.isenabled()
        before = len(collections)
        result = real_build(*args, **kwargs)
        seen["collections"] = len(collections) - before
        return result

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    monkeypatch.setattr(generator.pipeline, "build", build)
    assert gc.isenabled()
    gc.callbacks.append(count)
    try:
        assert cli.main(["build", "--docs", "docs"]) == 0
        gc.collect()  # the callback itself works: a collection outside the build is seen
    finally:
        gc.callbacks.remove(count)
    assert (tmp_path / "docs" / "papers.json").exists()
    assert seen == {"enabled": False, "collections": 0}
    assert collections[-1] == 2
    assert gc.isenabled()
