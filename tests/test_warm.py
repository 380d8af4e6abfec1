"""The preview's warm builder (generator/core/warm.py, generator.serve's builder): a read is
answered from memory only while every file the reader opened is unchanged, and builds made
with what it keeps give what a cold build of the same seeds gives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_incremental import DECLARED, POOL, Project, cold_build, generated

from generator.core.errors import GeneratorError
from generator.core.warm import Warm
from generator.pipeline import build


class Reader:
    """A reader that counts its calls and reads the files it is given (and their folder's listing)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *paths: Path) -> list[str]:
        self.calls += 1
        out = []
        for path in paths:
            try:
                out.append(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                out.append("")
        return out


def replace(path: Path, text: str) -> None:
    """As the generator writes state: a whole new file renamed into place."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def test_a_read_is_kept_until_a_file_it_opened_changes(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text("1", encoding="utf-8")
    b.write_text("2", encoding="utf-8")
    warm, reader = Warm(), Reader()
    assert warm.read(reader, a, b) == ["1", "2"]
    assert warm.read(reader, a, b) == ["1", "2"] and reader.calls == 1
    replace(b, "3")  # the second file alone: the reader's own opens say it depends on it
    assert warm.read(reader, a, b) == ["1", "3"] and reader.calls == 2
    with a.open("w", encoding="utf-8") as f:  # written in place, same size: its change time moves
        f.write("4")
    assert warm.read(reader, a, b) == ["4", "3"] and reader.calls == 3
    b.unlink()
    assert warm.read(reader, a, b) == ["4", ""] and reader.calls == 4
    b.write_text("5", encoding="utf-8")  # a file that was missing appears
    assert warm.read(reader, a, b) == ["4", "5"] and reader.calls == 5
    assert warm.read(reader, b, a) == ["5", "4"] and reader.calls == 6  # other arguments, another read


def test_a_reader_that_raises_is_not_kept_and_refresh_reads_again_what_changed(tmp_path):
    a = tmp_path / "a.json"
    a.write_text("1", encoding="utf-8")
    warm, reader = Warm(), Reader()

    def failing(path: Path) -> None:
        reader(path)
        raise GeneratorError("broken", str(path))

    for _ in range(2):
        with pytest.raises(GeneratorError):
            warm.read(failing, a)
    assert reader.calls == 2 and len(warm) == 0

    counting = Reader()
    warm.read(counting, a)
    replace(a, "2")
    assert warm.refresh(stop=lambda: True) == 0 and counting.calls == 1  # a save came in: stop at once
    assert warm.refresh() == 1 and counting.calls == 2
    assert warm.read(counting, a) == ["2"] and counting.calls == 2  # read between the builds
    assert warm.refresh() == 0


def warm_build(root: Path, warm: Warm) -> None:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        build([Path("seeds")], Path("docs"), cache=Path(".cache/derived.json"), warm=warm)
    finally:
        os.chdir(cwd)


def test_warm_builds_equal_a_cold_build_and_a_broken_seed_changes_nothing(tmp_path):
    project = Project(tmp_path / "warm", {"a.txt": POOL[:14], "b.txt": POOL[14:24]})
    warm = Warm()
    warm_build(project.root, warm)
    for n, (kind, pick) in enumerate([("append", 3), ("edit", 7), ("curate", 5), ("remove", 2), ("new file", 1),
                                      ("drop file", 0)]):
        warm.refresh()
        project.edit(kind, pick)
        if n == 2:  # a broken seed between two edits: refused, and the next build starts from the last good one
            seed = project.root / "seeds" / "a.txt"
            good = seed.read_bytes()
            seed.write_bytes(good + b"\n\nToo short.\n")
            before = generated(project.root / "docs")
            with pytest.raises(GeneratorError):
                warm_build(project.root, warm)
            assert generated(project.root / "docs") == before
            seed.write_bytes(good)
        warm_build(project.root, warm)
    assert warm.hits > 0  # it did answer from memory
    kept = generated(project.root / "docs")
    cold = cold_build(project, tmp_path / "cold")
    assert sorted(k for k in kept.keys() | cold.keys() if kept.get(k) != cold.get(k) and k not in DECLARED) == []
