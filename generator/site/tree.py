"""The site folder as a whole: read what is there, build the next one beside it, swap them.

A build never writes into ``site/`` nor into a file of it. The next site is *staged* in
``.site.building-<pid>`` beside it: a file whose bytes are the same as before is a hard link
to the old site's file (or to the file it came from: the rendered cache, ``docs/``), and only
a file whose bytes changed is written, as a new file. Then the two folders change places in
one step (:func:`swap`: ``renameat2(RENAME_EXCHANGE)`` where the file system has it), so
``site/`` is at every moment one whole build.

The replaced site is kept beside it as ``.site.previous`` and becomes the next build's staging
folder (:func:`adopt`, :func:`sync`): only the names that differ are unlinked, linked or made.
Making a fresh tree of links and removing the replaced one cost a folder a paper each, twice
(20,000 at 20,000 papers), and removing a folder was the slowest of all (a file system mounted
with ``discard`` trims its block). A build killed at any point leaves its staging folder
beside ``site/``; the next one adopts it in its turn, whatever state it is in, and removes
any other (:func:`adopt`).

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


def walk(root: Path, follow: bool = False, hidden: bool = False, folders: set[str] | None = None) -> dict[str, os.DirEntry]:
    """Every file under ``root`` by path relative to it ("a/b.html"), without hidden names (MkDocs
    skips them too, and the generator stages its writes as hidden files) unless ``hidden``;
    ``follow``: go into linked folders, as MkDocs does in docs/; ``folders``: a set to add the
    folders found to (relative paths, "" for ``root``)."""
    out: dict[str, os.DirEntry] = {}
    todo = [("", os.fspath(root))]
    while todo:
        prefix, folder = todo.pop()
        try:
            it = os.scandir(folder)
        except FileNotFoundError:
            continue
        if folders is not None:
            folders.add(prefix[:-1])
        with it:
            for e in it:
                if e.name.startswith(".") and not hidden:
                    continue
                rel = prefix + e.name
                if e.is_dir(follow_symlinks=follow):
                    todo.append((rel + "/", e.path))
                elif follow and e.is_file() or not follow:
                    out[rel] = e  # not following, a link or a special file is a name to remove too
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


def folders_of(rels: Iterable[str]) -> set[str]:
    """Every folder the files ``rels`` need, their parents too ("" for the root)."""
    out = {""}
    for rel in rels:
        d = rel.rpartition("/")[0]
        while d not in out:
            out.add(d)
            d = d.rpartition("/")[0]
    return out


def sync(root: Path, wanted: dict[str, tuple[str, int] | None]) -> int:
    """Make the folder ``root`` hold exactly the files ``wanted``: each a hard link to the file
    at its path with its inode, or (None) nothing yet, its folder made, for the caller to write.
    Only the names that differ change: a file is unlinked and linked again, never opened.
    Returns how many names changed."""
    base = os.fspath(root)
    folders: set[str] = set()
    there = walk(root, hidden=True, folders=folders)
    need = folders_of(wanted)
    changed = 0
    for d in sorted(folders - need, reverse=True):  # folders no longer needed go whole
        shutil.rmtree(os.path.join(base, d), ignore_errors=True)
    kept = set()
    for rel, entry in there.items():
        if rel.rpartition("/")[0] not in need:
            continue  # gone with its folder
        want = wanted.get(rel)
        if want is not None and not entry.is_symlink() and entry.inode() == want[1]:
            kept.add(rel)
        else:
            os.unlink(entry.path)
            changed += 1
    for d in sorted(need - folders):
        os.makedirs(os.path.join(base, d), exist_ok=True)
    for rel, want in wanted.items():
        if want is not None and rel not in kept:
            link(want[0], os.path.join(base, rel))
            changed += 1
    return changed


def staging(site: Path) -> Path:
    return site.with_name(f".{site.name}.building-{os.getpid()}")


def previous(site: Path) -> Path:
    """Where the replaced site is kept, to become the next build's staging folder."""
    return site.with_name(f".{site.name}.previous")


def _leftovers(site: Path) -> list[Path]:
    """The replaced site and what stopped builds left: newest first."""
    found = [p for kind in ("building-*", "removing-*", "previous") for p in site.parent.glob(f".{site.name}.{kind}")]
    return sorted((p for p in found if p.is_dir() and not p.is_symlink()), key=lambda p: p.stat().st_mtime_ns, reverse=True)


def recover(site: Path) -> None:
    """Where a build was killed between the two renames of :func:`swap`'s fallback, ``site`` is
    missing and the last whole site is set aside as ``.site.removing-<pid>``: put it back."""
    if site.exists() or site.is_symlink():
        return
    kept = sorted(site.parent.glob(f".{site.name}.removing-*"), key=lambda p: p.stat().st_mtime_ns)
    if kept:
        kept[-1].rename(site)


def adopt(site: Path) -> tuple[Path | None, subprocess.Popen | None]:
    """Take the replaced site (or what a stopped build left) as this build's staging folder,
    renamed to :func:`staging`'s name, and remove any other, in another process. Returns the
    staging folder (None: there was none to take, make one) and the remover, for the caller
    to wait for."""
    recover(site)
    found = _leftovers(site)
    mine = staging(site)
    taken = None
    if found and found[0] != mine:
        found[0].rename(mine)
        taken, found = mine, found[1:]
    elif found:
        taken, found = mine, found[1:]
    if not found:
        return taken, None
    code = "import shutil, sys\nfor p in sys.argv[1:]: shutil.rmtree(p, ignore_errors=True)"
    return taken, subprocess.Popen([sys.executable, "-c", code, *map(str, found)])


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
    now is (:func:`previous`, for the next build to adopt), or None if there was none.

    One atomic exchange where the file system has it; else two renames with Ctrl-C held back
    between them (a kill there leaves the old site set aside whole, which the next build puts
    back: :func:`recover`)."""
    had = site.exists() or site.is_symlink()
    if not had:
        new.rename(site)
        return None
    if _exchange(new, site):
        return keep(new, site)  # the staging folder's name holds the old site
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
    return keep(old, site)


def keep(old: Path, site: Path) -> Path:
    """Keep the replaced site ``old`` as :func:`previous`; where that name is taken, it stays a
    leftover, which the next build adopts or removes."""
    try:
        old.rename(previous(site))
    except OSError:
        return old
    return previous(site)
