"""Builds are reproducible, all-or-nothing, and rewrite nothing that did not change.

The generator runs as a user runs it (``python -m generator build``), each build in
its own process, so that hash randomisation (PYTHONHASHSEED) differs between them.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_html import HOSTILE_SEEDS, REPO

BROKEN_SEED = b"ICML 2026 Papers\n\nfar too short to be an abstract\n"


def generate(cwd: Path, docs: str, seeds: list[str], hash_seed: str = "0") -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "generator", "build", "--docs", docs]
    for s in seeds:
        args += ["--seeds", s]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": hash_seed}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)


def digests(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root``, by relative path."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def make_workdir(path: Path) -> Path:
    """A working directory holding the mission seeds and the hostile seed, as relative paths."""
    shutil.copytree(REPO / "seeds", path / "seeds")
    shutil.copytree(HOSTILE_SEEDS, path / "hostile")
    (path / "hostile" / "curation.yml").unlink()  # one curation file: the mission's
    (path / "docs").mkdir()
    shutil.copy(REPO / "docs" / "contribute.md", path / "docs" / "contribute.md")
    return path


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return make_workdir(tmp_path)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A working directory whose docs/ a build left (PYTHONHASHSEED=1): the first of the two
    builds compared below, and the last good build of the failed one."""
    root = make_workdir(tmp_path_factory.mktemp("built"))
    shutil.copytree(root / "docs", root / "docs2")  # for the second build, before the first writes
    a = generate(root, "docs", ["seeds", "hostile"], hash_seed="1")
    assert a.returncode == 0, a.stderr
    return root


def test_two_builds_are_byte_identical(built):
    b = generate(built, "docs2", ["seeds", "hostile"], hash_seed="2")
    assert b.returncode == 0, b.stderr
    first, second = digests(built / "docs"), digests(built / "docs2")
    assert "papers.json" in first and any(k.startswith("papers/") for k in first)
    assert first == second


def test_a_failed_build_leaves_docs_as_it_was(workdir, built):
    shutil.rmtree(workdir / "docs")
    shutil.copytree(built / "docs", workdir / "docs")  # the last good build's pages, their times kept
    before = digests(workdir / "docs")
    mtimes = {p: p.stat().st_mtime_ns for p in (workdir / "docs").rglob("*")}

    # A new seed folder with one good file (it would add pages) and one broken file.
    (workdir / "more").mkdir()
    shutil.copy(REPO / "tests" / "hostile" / "seeds" / "harmless" / "harmless.txt", workdir / "more" / "good.txt")
    (workdir / "more" / "broken.txt").write_bytes(BROKEN_SEED)
    failed = generate(workdir, "docs", ["seeds", "hostile", "more"])
    assert failed.returncode == 1
    assert "more/broken.txt:3: " in failed.stderr
    assert "Traceback" not in failed.stderr
    assert digests(workdir / "docs") == before
    assert {p: p.stat().st_mtime_ns for p in (workdir / "docs").rglob("*")} == mtimes


def test_a_rebuild_without_changes_rewrites_nothing(workdir):
    first = generate(workdir, "docs", ["seeds", "hostile"])
    assert first.returncode == 0, first.stderr
    mtimes = {p.relative_to(workdir).as_posix(): p.stat().st_mtime_ns for p in (workdir / "docs").rglob("*")}
    time.sleep(0.05)  # so that a rewrite would show in st_mtime_ns on any file system we run on
    again = generate(workdir, "docs", ["seeds", "hostile"])
    assert again.returncode == 0, again.stderr
    # the build's manifest (.cache/build.json) sees nothing changed and ends early...
    assert "nothing changed since the last build" in again.stderr
    assert {p.relative_to(workdir).as_posix(): p.stat().st_mtime_ns for p in (workdir / "docs").rglob("*")} == mtimes
    # ...and without it, the whole build runs and still rewrites nothing
    (workdir / ".cache" / "build.json").unlink()
    whole = generate(workdir, "docs", ["seeds", "hostile"])
    assert whole.returncode == 0, whole.stderr
    assert "0 file(s) written, 0 removed" in whole.stderr
    assert {p.relative_to(workdir).as_posix(): p.stat().st_mtime_ns for p in (workdir / "docs").rglob("*")} == mtimes
