"""The write edge: generated files into docs/, only when changed, never over a hand-written page."""
from __future__ import annotations

import builtins
import errno
import os
import shutil
from pathlib import Path

import pytest

from generator.core.errors import BuildError
from generator.pages import write
from generator.pages.write import write_tree

FILES = {
    "index.md": "home\n",
    "list.md": "list\n",
    "papers.json": '{"papers":[]}\n',
    "papers/aaaaaaaaaaaa.md": "paper a\n",
    "papers/bbbbbbbbbbbb.md": "paper b \u2014 \u00e9\n",
    "topics/index.md": "topics\n",
    "topics/vision.md": "vision\n",
    "venues/index.md": "venues\n",
    "venues/icml-2026.md": "icml\n",
}


def tree(docs: Path) -> dict[str, bytes]:
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in sorted(docs.rglob("*")) if p.is_file()}


def stamps(docs: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(docs).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns) for p in docs.rglob("*") if p.is_file()}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A docs folder with its hand-written pages."""
    d = tmp_path / "docs"
    (d / "assets").mkdir(parents=True)
    (d / "contribute.md").write_text("# Contribute\n", encoding="utf-8")
    (d / "assets" / "digest.css").write_text("body {}\n", encoding="utf-8")
    (d / "notes").mkdir()
    (d / "notes" / "draft.md").write_text("draft\n", encoding="utf-8")
    return d


HAND_WRITTEN = {
    "assets/digest.css": b"body {}\n",
    "contribute.md": b"# Contribute\n",
    "notes/draft.md": b"draft\n",
}


def test_first_write_creates_every_file_in_utf8(docs):
    assert write_tree(docs, FILES) == (9, 0)
    assert tree(docs) == {**HAND_WRITTEN, **{k: v.encode("utf-8") for k, v in FILES.items()}}
    assert not list(docs.rglob(".*.tmp"))


def test_unchanged_files_are_not_rewritten(docs):
    write_tree(docs, FILES)
    before = stamps(docs)
    changed = {**FILES, "papers/aaaaaaaaaaaa.md": "paper a, corrected\n"}
    assert write_tree(docs, changed) == (1, 0)
    after = stamps(docs)
    assert {k for k in before if before[k] != after[k]} == {"papers/aaaaaaaaaaaa.md"}
    assert write_tree(docs, changed) == (0, 0)
    assert stamps(docs) == after


def test_stale_generated_pages_are_deleted_and_empty_folders_removed(docs):
    extra = {**FILES, "papers/cccccccccccc.md": "c\n", "venues/old/deep.md": "old\n"}
    write_tree(docs, extra)
    (docs / "topics" / "leftover.md").write_text("from an older build\n", encoding="utf-8")
    assert write_tree(docs, FILES) == (0, 3)
    assert tree(docs) == {**HAND_WRITTEN, **{k: v.encode("utf-8") for k, v in FILES.items()}}
    assert not (docs / "venues" / "old").exists()


def test_hand_written_pages_are_never_touched(docs):
    before = stamps(docs)
    write_tree(docs, FILES)
    write_tree(docs, {"index.md": "only the home page\n"})
    after = stamps(docs)
    assert {k: after[k] for k in HAND_WRITTEN} == {k: before[k] for k in HAND_WRITTEN}
    # top-level generated files are always rendered, so they are overwritten, never swept
    assert sorted(tree(docs)) == ["assets/digest.css", "contribute.md", "index.md", "list.md", "notes/draft.md", "papers.json"]


@pytest.mark.parametrize(
    "path",
    [
        "contribute.md",
        "assets/digest.css",
        "notes/new.md",
        "papers",
        "papers/../contribute.md",
        "papers/../../outside.md",
        "papers/./a.md",
        "papers//a.md",
        "/etc/passwd",
        "../outside.md",
        "papers\\..\\contribute.md",
        "README.md",
    ],
)
def test_non_generated_paths_are_refused_before_anything_is_written(docs, path):
    before = tree(docs)
    with pytest.raises(BuildError) as info:
        write_tree(docs, {**FILES, path: "x\n"})
    assert str(info.value) == f"{docs}: refusing to write {path}: it is not a generated path"
    assert tree(docs) == before
    assert not (docs.parent / "outside.md").exists()


def test_write_failure_is_a_build_error_naming_the_file(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "papers").write_text("a file where a folder should be\n", encoding="utf-8")
    with pytest.raises(BuildError) as info:
        write_tree(docs, {"papers/aaaaaaaaaaaa.md": "a\n"})
    assert str(info.value).startswith(f"{docs}: cannot write the site: ")
    assert str(docs / "papers") in str(info.value)


# -- all or nothing ----------------------------------------------------------------------

# The next build: two pages changed, two new (one in a new folder), three stale (one alone in its folder).
NEXT = {
    **{k: v for k, v in FILES.items() if k not in ("topics/vision.md", "venues/icml-2026.md")},
    "index.md": "home, with more papers\n",
    "papers/aaaaaaaaaaaa.md": "paper a, corrected\n",
    "papers/dddddddddddd.md": "paper d\n",
    "venues/neurips/2025.md": "neurips\n",
}


def snapshot(docs: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (None) under ``docs``."""
    return {p.relative_to(docs).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(docs.rglob("*"))}


@pytest.fixture
def built(docs: Path) -> Path:
    """``docs`` as the previous build left it, with a stale page alone in its folder."""
    write_tree(docs, {**FILES, "topics/old/only.md": "old\n"})
    return docs


# The steps a write can fail at: opening a file (page or temporary), renaming one over a
# page, deleting a stale page, creating or removing a folder.
STEPS = [(write, "open"), (os, "replace"), (os, "unlink"), (os, "mkdir"), (os, "rmdir")]


def patch_step(monkeypatch, owner, attr: str, fail_at: int | None) -> list[int]:
    """Count the calls of ``owner.attr`` during a write, raising on call number ``fail_at``."""
    real = getattr(owner, attr, None) or getattr(builtins, attr)
    calls = [0]

    def step(*args, **kwargs):
        calls[0] += 1
        if calls[0] == fail_at:
            raise OSError(errno.ENOSPC, "No space left on device", str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, attr, step, raising=False)
    return calls


def test_the_next_build_changes_what_these_tests_undo(built):
    # so that the failures below have a write, a rename, a deletion and folders to undo
    before = snapshot(built)
    assert write_tree(built, NEXT) == (4, 3)
    after = snapshot(built)
    assert {k for k in before.keys() | after.keys() if before.get(k, b"") != after.get(k, b"")} == {
        "index.md", "papers/aaaaaaaaaaaa.md", "papers/dddddddddddd.md", "topics/vision.md",
        "topics/old", "topics/old/only.md", "venues/icml-2026.md", "venues/neurips", "venues/neurips/2025.md",
    }


@pytest.mark.parametrize("owner, attr", STEPS, ids=[attr for _, attr in STEPS])
def test_a_failure_at_any_call_leaves_docs_as_it_was(built, monkeypatch, tmp_path, owner, attr):
    shutil.copytree(built, tmp_path / "trial")
    with monkeypatch.context() as m:
        calls = patch_step(m, owner, attr, None)
        write_tree(tmp_path / "trial", NEXT)
    assert calls[0] >= 1
    before = snapshot(built)
    for n in range(1, calls[0] + 1):
        with monkeypatch.context() as m:
            patch_step(m, owner, attr, n)
            with pytest.raises(BuildError) as info:
                write_tree(built, NEXT)
        assert "cannot write the site: No space left on device" in str(info.value)
        assert snapshot(built) == before, f"{attr} call {n} of {calls[0]}"
    assert write_tree(built, NEXT) == (4, 3)  # and nothing was left behind that stops the next build


def test_an_unwritable_papers_folder_writes_no_listing(built, monkeypatch):
    # The case: docs/papers/ not writable, but index.md, list.md and papers.json
    # were already replaced. chmod does not stop root, so the refusal is simulated.
    def refusing(file, mode="r", *args, **kwargs):
        if "/papers/" in str(file) and mode != "rb":
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return open(file, mode, *args, **kwargs)

    before = snapshot(built)
    monkeypatch.setattr(write, "open", refusing, raising=False)
    with pytest.raises(BuildError) as info:
        write_tree(built, NEXT)
    assert str(info.value).startswith(f"{built}: cannot write the site: Permission denied ({built}/papers/")
    assert snapshot(built) == before


def test_temporaries_a_killed_build_left_are_removed_and_pages_kept_are_not_stale(docs):
    write_tree(docs, FILES)
    (docs / ".papers.json.tmp").write_text("half", encoding="utf-8")  # killed between stage and rename
    (docs / "papers" / ".aaaaaaaaaaaa.md.tmp").write_text("half", encoding="utf-8")
    kept = "papers/bbbbbbbbbbbb.md"
    written, removed = write_tree(docs, {k: v for k, v in FILES.items() if k != kept}, keep={kept})
    assert (written, removed) == (0, 2)
    assert not (docs / ".papers.json.tmp").exists() and not (docs / "papers" / ".aaaaaaaaaaaa.md.tmp").exists()
    assert (docs / kept).read_text(encoding="utf-8") == FILES[kept]


def test_a_temporary_a_killed_build_left_for_a_page_that_changes_now_is_staged_over_not_stale(docs):
    """Found by the incremental-equals-cold property test: a build killed between staging and
    renaming left ``.papers.json.tmp``; the next build, whose papers.json changes, staged its
    new bytes to that name, renamed it, and then failed deleting it as stale."""
    write_tree(docs, FILES)
    (docs / ".papers.json.tmp").write_text("half", encoding="utf-8")
    (docs / "papers" / ".aaaaaaaaaaaa.md.tmp").write_text("half", encoding="utf-8")
    changed = {**FILES, "papers.json": '{"papers": [1]}\n', "papers/aaaaaaaaaaaa.md": "paper a, edited\n"}
    written, removed = write_tree(docs, changed)
    assert written == 2
    assert tree(docs) == {**HAND_WRITTEN, **{k: v.encode("utf-8") for k, v in changed.items()}}
    assert not list(docs.rglob(".*.tmp"))


def test_a_file_the_last_write_left_with_the_same_bytes_is_not_read(docs):
    """With the states the last write left, a file whose new bytes hash as they did and whose
    size and time are as left is taken as unchanged without being opened. Shown by changing
    one behind the write's back, keeping its size and time: the write leaves it."""
    states: dict = {}
    write_tree(docs, FILES, states=states)
    assert set(states) == set(FILES)
    page = docs / "topics" / "vision.md"
    st = page.stat()
    page.write_text("VISION\n", encoding="utf-8")  # same size
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert write_tree(docs, FILES, states=states) == (0, 0)
    assert page.read_text(encoding="utf-8") == "VISION\n"
    # touched since (another time): read, found different, written
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert write_tree(docs, FILES, states=states) == (1, 0)
    assert page.read_text(encoding="utf-8") == "vision\n"
    # without states, every file is read
    page.write_text("VISION\n", encoding="utf-8")
    os.utime(page, ns=(st.st_atime_ns, states["topics/vision.md"][2]))
    assert write_tree(docs, FILES) == (1, 0)


def test_states_follow_the_write(docs):
    states: dict = {}
    write_tree(docs, FILES, states=states)
    smaller = {k: v for k, v in FILES.items() if k != "topics/vision.md"}
    changed = {**smaller, "index.md": "home, again\n"}
    assert write_tree(docs, changed, states=states) == (1, 1)
    assert set(states) == set(changed)
    st = (docs / "index.md").stat()
    assert states["index.md"][1:] == (st.st_size, st.st_mtime_ns)
    # files kept by the caller keep their states; others not written are forgotten
    write_tree(docs, {"index.md": "home, again\n"}, keep={"list.md"}, states=states)
    assert set(states) == {"index.md", "list.md"}
