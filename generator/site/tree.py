"""The site folder as a whole: read what is there, build the next one beside it, swap them.

A build never writes into ``site/`` nor into a file of it. The next site is *staged* in
``.site.building-<pid>`` beside it: a file whose bytes are the same as before is a hard link
to the old site's file (or to the file it came from: the rendered cache, ``docs/``), and only
a file whose bytes changed is written, as a new file. Then the two folders change places in
one step (:func:`swap`: ``renameat2(RENAME_EXCHANGE)`` where the file system has it), so
``site/`` is at every moment one whole build. A build killed at any point leaves its
staging folder beside ``site/``; the next build removes it (:func:`clear_leftovers`).

Nothing here writes through a link: a file is written only where no file was
(``open(..., "xb")``), so a changed page is a new inode and the old site keeps its own.
"""
from __future__ import annotations

import ctypes
import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

# A file's signature: (inode, size, mtime in ns). Renaming a folder keeps its files' signatures;
# writing a file anew (as the generator and this step do) changes the inode.
Sig = tuple[int, int, int]


def walk(root: Path, follow: bool = False, skip: Iterable[str] = ()) -> dict[str, os.DirEntry]:
    """Every file under ``root`` by path relative to it ("a/b.html"), skipping hidden names (MkDocs
    skips them too, and the generator stages its writes as hidden files) and the top-level
    folders ``skip``; ``follow``: go into linked folders, as MkDocs does in docs/."""
    out: dict[str, os.DirEntry] = {}
    skipped = set(skip)
    todo = [("", os.fspath(root))]
    while todo:
        prefix, folder = todo.pop()
        try:
            it = os.scandir(folder)
        except FileNotFoundError:
            continue
        with it:
            for e in it:
                if e.name.startswith("."):
                    continue
                rel = prefix + e.name
                if e.is_dir(follow_symlinks=follow):
                    if not (prefix == "" and e.name in skipped):
                        todo.append((rel + "/", e.path))
                elif e.is_file():
                    out[rel] = e
    return out


def sig(entry: os.DirEntry | os.stat_result) -> Sig:
    st = entry.stat(follow_symlinks=False) if isinstance(entry, os.DirEntry) else entry
    return st.st_ino, st.st_size, st.st_mtime_ns


def link(src: str, dst: str) -> None:
    """``dst`` the same file as ``src`` (a hard link), or a copy where links cannot be made."""
    try:
        os.link(src, dst)
    except OSError as e:
        if e.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
            raise
        shutil.copyfile(src, dst)


def write_new(path: str, data: bytes) -> None:
    """Write ``data`` to ``path``, which must not exist (never through a link into another site)."""
    with open(path, "xb") as f:
        f.write(data)


def make_dirs(root: Path, rels: Iterable[str]) -> None:
    """Create the folders of the files ``rels`` under ``root`` (a new, empty folder)."""
    made: set[str] = {""}
    base = os.fspath(root)
    for rel in sorted({r.rpartition("/")[0] for r in rels}):
        parts = rel.split("/")
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in made:
                os.mkdir(os.path.join(base, d))
                made.add(d)


def staging(site: Path) -> Path:
    return site.with_name(f".{site.name}.building-{os.getpid()}")


def _leftovers(site: Path) -> list[Path]:
    return sorted(p for kind in ("building", "removing") for p in site.parent.glob(f".{site.name}.{kind}-*"))


def recover(site: Path) -> None:
    """Where a build was killed between the two renames of :func:`swap`'s fallback, ``site`` is
    missing and the last whole site is set aside as ``.site.removing-<pid>``: put it back."""
    if site.exists() or site.is_symlink():
        return
    kept = sorted(site.parent.glob(f".{site.name}.removing-*"), key=lambda p: p.stat().st_mtime_ns)
    if kept:
        kept[-1].rename(site)


def clear_leftovers(site: Path) -> subprocess.Popen | None:
    """Remove, in another process, what stopped builds left beside ``site``: a staging folder
    (``.site.building-*``) and a replaced site whose removal was cut short (``.site.removing-*``).
    Returns the remover, for the caller to wait for."""
    recover(site)
    old = _leftovers(site)
    if not old:
        return None
    code = "import shutil, sys\nfor p in sys.argv[1:]: shutil.rmtree(p, ignore_errors=True)"
    return subprocess.Popen([sys.executable, "-c", code, *map(str, old)])


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names ``a`` and ``b`` in one step (Linux ``renameat2``); False where the system
    or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def swap(new: Path, site: Path) -> Path | None:
    """Put the finished build ``new`` in the place of ``site``. Returns where the replaced site
    now is (the caller removes it: :func:`remove`), or None if there was none.

    One atomic exchange where the file system has it; else two renames with Ctrl-C held back
    between them (a kill there leaves the old site set aside whole, which the next build puts
    back: :func:`recover`)."""
    had = site.exists() or site.is_symlink()
    if not had:
        new.rename(site)
        return None
    if _exchange(new, site):
        return new  # the staging folder's name now holds the old site
    old = site.with_name(f".{site.name}.removing-{os.getpid()}")
    held = hasattr(signal, "pthread_sigmask")
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        site.rename(old)
        try:
            new.rename(site)
        except OSError:
            old.rename(site)
            raise
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    return old


def remove(path: Path | None) -> None:
    """Remove a replaced site or a failed staging folder (a symlinked site: the link only)."""
    if path is None:
        return
    if path.is_symlink():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)
