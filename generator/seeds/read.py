"""The input edge: which seed files there are, their bytes, when each entered the repository,
and the curation file beside them. Every other stage is handed what is read here."""
from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from generator.core.errors import GeneratorError, SeedError, raise_all


def display_path(path: Path) -> str:
    """How a file is named in messages and sources: relative to the working directory."""
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def seed_paths(locations: Iterable[Path]) -> list[Path]:
    """Every ``*.txt`` seed under the given folders (recursively) or the given files, sorted.

    Seeds come by pull request, so each must be a regular file inside its folder (the
    folder given, or a given file's own folder): a symbolic link out of it would
    publish (and quote in messages) a file of the machine that builds the site, and
    reading a named pipe never ends. Every such file is an error naming it.
    """
    out: set[Path] = set()
    errors: list[GeneratorError] = []
    for loc in locations:
        if loc.is_dir():
            found = [(p, loc) for p in loc.rglob("*.txt") if not p.is_dir()]
        elif loc.exists() or loc.is_symlink():
            found = [(loc, loc.parent)]
        else:
            errors.append(SeedError("no such file or folder", display_path(loc)))
            continue
        for path, folder in found:
            shown = display_path(path)
            problem = _unprintable_name(shown) or unsafe_input(path, folder)
            if problem:
                errors.append(SeedError(problem, _escaped(shown)))
            else:
                out.add(path)
    raise_all(errors)
    return sorted(out, key=lambda p: display_path(p))


def _unprintable_name(shown: str) -> str | None:
    """Why a seed's name cannot be shown as written, or None if it can.

    The name is quoted on pages, in the pull-request summary and in messages: a name that
    is not UTF-8 (git takes any bytes; Python reads them as surrogates) cannot be written
    into a page at all, a line break would start a line of the CI log of its own (a
    "::error::" workflow command), and a bidi control would show it reversed.
    """
    if shown.isprintable():
        return None
    return "the file's name is not printable text (a line break, control or bidi character, or not UTF-8): rename it"


def _escaped(shown: str) -> str:
    """A path for a message: every character that is not printable as its Python escape."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in shown)


_KINDS = {stat.S_IFIFO: "a named pipe", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
          stat.S_IFDIR: "a folder"}


def unsafe_input(path: Path, folder: Path) -> str | None:
    """Why ``path`` must not be read as input from ``folder``, or None if it may."""
    try:
        target = path.resolve(strict=True)
        inside = target.is_relative_to(folder.resolve(strict=True))
        mode = target.stat().st_mode
    except (OSError, RuntimeError):  # a link to nothing, or a loop of links
        return "cannot read the file: it is a symbolic link to nothing"
    if not inside:
        return (f"this is a symbolic link to a file outside {display_path(folder)}: "
                "put the file itself in the folder")
    if not stat.S_ISREG(mode):
        return _not_regular(mode)
    return None


def _not_regular(mode: int) -> str:
    return f"this is not a regular file but {_KINDS.get(stat.S_IFMT(mode), 'a special file')}: only plain files are read"


def read_seeds(paths: Iterable[Path]) -> list[tuple[str, bytes]]:
    """The input edge: (display path, bytes) of each seed file.

    Opened without blocking and checked on the open file, so a path that became a
    named pipe since :func:`seed_paths` listed it is refused rather than waited on.
    """
    out = []
    for p in paths:
        shown = display_path(p)
        try:
            with os.fdopen(os.open(p, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
                mode = os.fstat(f.fileno()).st_mode
                if not stat.S_ISREG(mode):
                    raise SeedError(_not_regular(mode), shown)
                out.append((shown, f.read()))
        except OSError as e:
            raise SeedError(f"cannot read the file: {e.strerror}", shown) from None
    return out


def _git(cwd: Path, *args: str) -> str | None:
    """The output of a git command, or None when git is missing or the command fails.

    Bytes that are not UTF-8 (a file name git took, even one removed since) are read as
    U+FFFD: such a name matches no seed, where a strict read stopped every later build."""
    try:
        run = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, encoding="utf-8",
                             errors="replace")
    except OSError:
        return None
    return run.stdout if run.returncode == 0 else None


def seed_dates(paths: Sequence[Path]) -> tuple[dict[str, datetime], str]:
    """When each seed file entered the repository (committer date of the commit that added
    it, followed through renames), by display path; and what the dates came from.

    One ``git log`` over the history of the files' folders (a file's own path would
    hide the commit that added it under its old name). Without usable history (no git,
    not a checkout, a shallow clone whose first commit would look like it added every
    file) the mapping is empty, and the feeds date papers by their header's year.
    """
    if not paths:
        return {}, "no seed files"
    where = paths[0].resolve().parent
    top = _git(where, "rev-parse", "--show-toplevel")
    if top is None:
        return {}, "not a git checkout"
    if (_git(where, "rev-parse", "--is-shallow-repository") or "").strip() == "true":
        return {}, "a shallow clone (fetch the history, e.g. fetch-depth: 0)"
    root = Path(top.strip())
    shown = {}
    for p in paths:
        try:
            shown[p.resolve().relative_to(root).as_posix()] = display_path(p)
        except ValueError:  # a seed outside the checkout
            continue
    out = _git(root, "-c", "core.quotePath=false", "log", "--reverse", "--format=@%cI", "--name-status",
               "--diff-filter=AR", "--", *sorted({rel.rpartition("/")[0] or "." for rel in shown}))
    if out is None:
        return {}, "git log failed"
    added: dict[str, datetime] = {}
    when = None
    for line in out.splitlines():
        if line.startswith("@"):
            when = datetime.fromisoformat(line[1:])
        elif line and when is not None:
            status, *names = line.split("\t")
            if status.startswith("R") and len(names) == 2:
                added.setdefault(names[1], added.get(names[0], when))
            elif status == "A" and names:
                added.setdefault(names[0], when)
    dates = {shown[rel]: d for rel, d in added.items() if rel in shown}
    return dates, "git history"


def describe_dates(dates: dict[str, datetime], how: str, files: int) -> str:
    """The log line saying what the feeds' dates came from."""
    if not dates:
        return f"feed dates: January 1 of each seed file's header year ({how})"
    if len(dates) == files:
        return f"feed dates: git history, for all {files} seed file(s)"
    return (f"feed dates: git history for {len(dates)} of {files} seed file(s); "
            "the others (not committed yet) by January 1 of their header's year")


def read_seeds_at(commit: str, folder: Path, curation_file: str) -> tuple[list[tuple[str, bytes]], tuple[str, bytes] | None]:
    """The input edge of a pull request's base: (display path, bytes) of every seed file under
    ``folder`` as it was at ``commit``, and (display path, bytes) of the curation file there
    named ``curation_file``, read with git.

    What the pull request changes is compared with this: a paper of an edited file that
    was already published is not new. Only regular files are read (a symbolic link in the
    base is no seed, as it is none in a checkout); a commit git cannot read is an error.
    """
    shown = display_path(folder)
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top is None or not re.fullmatch(r"[0-9A-Za-z_./~^@{}-]+", commit) or commit.startswith("-"):
        raise SeedError(f"cannot read the seeds at the base commit {commit!r}: not a git checkout or not a commit", shown)
    root = Path(top.strip())
    try:
        rel = folder.resolve().relative_to(root).as_posix()
    except ValueError:
        raise SeedError("the seed folder is outside the git checkout", shown) from None
    listing = _git_bytes(root, "ls-tree", "-r", "-z", "--full-tree", f"{commit}^{{tree}}", "--", rel)
    if listing is None:
        raise SeedError(f"cannot read the seeds at the base commit {commit!r}: git ls-tree failed", shown)
    seeds, curation = [], None
    for entry in sorted(filter(None, listing.split(b"\0"))):
        meta, _, name = entry.partition(b"\t")
        mode, kind, blob = meta.decode("ascii", "replace").split(" ")
        path = name.decode("utf-8", "replace")
        if kind != "blob" or mode not in ("100644", "100755"):
            continue
        data = _git_bytes(root, "cat-file", "blob", blob)
        if data is None:
            raise SeedError(f"cannot read {path} at the base commit {commit!r}", shown)
        where = display_path(root / path)
        if path.endswith(".txt"):
            seeds.append((where, data))
        elif path == f"{rel}/{curation_file}".removeprefix("./"):
            curation = (where, data)
    return seeds, curation


def _git_bytes(cwd: Path, *args: str) -> bytes | None:
    """The output of a git command as bytes (a seed's own), or None when it fails."""
    try:
        run = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True)
    except OSError:
        return None
    return run.stdout if run.returncode == 0 else None
