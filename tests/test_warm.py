"""The preview's warm builder (generator/core/warm.py, generator.serve's builder): a read is
answered from memory only while every file the reader opened is unchanged, and builds made
with what it keeps give what a cold build of the same seeds gives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_incremental import POOL, Project, generated

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


def warm_build(root: Path, warm: Warm | None) -> None:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        build([Path("seeds")], Path("docs"), cache=Path(".cache/derived.json"), warm=warm)
    finally:
        if warm is not None:
            warm.refresh()  # as the preview's builder does after a build, where it builds
        os.chdir(cwd)


def test_warm_builds_equal_fresh_builds_step_by_step_and_a_broken_seed_changes_nothing(tmp_path):
    """The same edits built with what the builder keeps and by a fresh build each time (as
    `python -m generator build` runs): docs/ the same after every step, the map included."""
    files = {"a.txt": POOL[:10], "b.txt": POOL[10:16]}
    kept, fresh = Project(tmp_path / "kept", files), Project(tmp_path / "fresh", {k: list(v) for k, v in files.items()})
    warm = Warm()
    warm_build(kept.root, warm)
    warm_build(fresh.root, None)
    # the second edit is of the abstract the first appended: it keeps its id only if the papers.json
    # read is the last build's, not the first one's
    for n, (kind, pick) in enumerate([("append", 3), ("edit", 16), ("curate", 5), ("remove", 2), ("new file", 1)]):
        for project in (kept, fresh):
            project.edit(kind, pick)
        if n == 1:  # a broken seed between two edits: refused, and the next build starts from the last good one
            seed = kept.root / "seeds" / "a.txt"
            good = seed.read_bytes()
            seed.write_bytes(good + b"\n\nToo short.\n")
            before = generated(kept.root / "docs")
            with pytest.raises(GeneratorError):
                warm_build(kept.root, warm)
            assert generated(kept.root / "docs") == before
            seed.write_bytes(good)
        warm_build(kept.root, warm)
        warm_build(fresh.root, None)
        a, b = generated(kept.root / "docs"), generated(fresh.root / "docs")
        assert sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k)) == [], f"after {kind}"
    assert warm.hits > 0  # it did answer from memory


def test_results_kept_per_build_are_reused_once_and_then_dropped():
    """generator/core/memo.py: a call equal to one of the last build's is answered from it; what
    the last build did not ask for is gone after the next one begins (memory holds one build)."""
    from generator.core.memo import PerBuild, next_build

    calls = []
    square = PerBuild(lambda x: calls.append(x) or x * x)
    next_build()
    assert [square(2), square(3), square(2)] == [4, 9, 4] and calls == [2, 3]
    next_build()
    assert square(3) == 9 and calls == [2, 3]  # kept from the last build
    next_build()
    assert square(2) == 4 and calls == [2, 3, 2]  # not asked for by the last build: made again
    next_build(keep=False)
    assert square(2) == 4 and calls == [2, 3, 2, 2]
