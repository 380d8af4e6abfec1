"""generator/site/tree.py: the site folder is swapped whole, and never written through a link."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.site import tree


def _folder(path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    return path


def _read(path: Path) -> dict[str, str]:
    return {p.relative_to(path).as_posix(): p.read_text(encoding="utf-8") for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("atomic", [True, False], ids=["exchange", "two renames"])
def test_swap_puts_the_new_site_in_place_and_keeps_the_old_for_the_next_build(tmp_path, monkeypatch, atomic):
    if not atomic:
        monkeypatch.setattr(tree, "_exchange", lambda a, b: False)
    site = _folder(tmp_path / "site", {"index.html": "old", "papers/a/index.html": "a"})
    new = _folder(tree.staging(site), {"index.html": "new"})
    old = tree.swap(new, site)
    assert _read(site) == {"index.html": "new"}
    assert old == tmp_path / ".site.previous" and _read(old) == {"index.html": "old", "papers/a/index.html": "a"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.previous", "site"]


def test_the_staging_folder_is_synced_name_by_name(tmp_path):
    """The kept site becomes the next staging folder: a file with the wanted inode stays, any
    other name is unlinked (never opened) and linked again, a folder no longer needed goes."""
    src = _folder(tmp_path / "src", {"a.html": "A", "b.html": "B2", "c.html": "C"})
    stage = _folder(tmp_path / "stage", {"gone/x.html": "x", ".hidden": "h"})
    os.link(src / "a.html", stage / "a.html")
    _folder(stage, {"b.html": "B1"})
    kept_b = (stage / "b.html").stat().st_ino
    wanted = {rel: (str(src / rel), (src / rel).stat().st_ino) for rel in ("a.html", "b.html")}
    wanted["new/c.html"] = (str(src / "c.html"), (src / "c.html").stat().st_ino)
    wanted["d/index.html"] = None  # to be written by the caller: its folder made, its name empty
    assert tree.sync(stage, wanted) == 4  # b unlinked and linked, .hidden unlinked, c linked
    assert _read(stage) == {"a.html": "A", "b.html": "B2", "new/c.html": "C"}
    assert (stage / "d").is_dir() and not (stage / "gone").exists()
    assert (stage / "b.html").stat().st_ino == (src / "b.html").stat().st_ino != kept_b


def test_a_swap_with_no_site_yet_renames(tmp_path):
    site = tmp_path / "site"
    assert tree.swap(_folder(tree.staging(site), {"index.html": "new"}), site) is None
    assert _read(site) == {"index.html": "new"}


def test_the_next_build_puts_back_a_site_set_aside_by_a_killed_swap_and_adopts_a_leftover(tmp_path):
    """Killed between the two renames of the fallback: site/ is missing and the last site is set
    aside whole; a killed staging folder and an older one lie beside it too. The next build puts
    the site back, stages in the newest leftover and removes the other."""
    _folder(tmp_path / ".site.removing-123", {"index.html": "last"})
    _folder(tmp_path / ".site.building-455", {"index.html": "older"})
    os.utime(tmp_path / ".site.building-455", (1, 1))
    _folder(tmp_path / ".site.building-456", {"index.html": "half"})
    staging, remover = tree.adopt(tmp_path / "site")
    assert remover is not None and remover.wait() == 0
    assert _read(tmp_path / "site") == {"index.html": "last"}
    assert staging == tree.staging(tmp_path / "site") and _read(staging) == {"index.html": "half"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [staging.name, "site"]
    shutil.rmtree(staging)


def test_a_file_is_written_only_where_none_is(tmp_path):
    """A changed page is a new file: writing over the last site's file (a link the new site
    shares) is refused, and a link made beside it leaves the old file's bytes alone."""
    old = _folder(tmp_path, {"old.html": "last build"}) / "old.html"
    staged = tmp_path / "staged.html"
    tree.link(str(old), str(staged))
    assert os.stat(staged).st_ino == os.stat(old).st_ino
    with pytest.raises(FileExistsError):
        tree.write_new(str(staged), b"next build")
    os.unlink(staged)
    tree.write_new(str(staged), b"next build")
    assert old.read_text(encoding="utf-8") == "last build" and os.stat(staged).st_ino != os.stat(old).st_ino
