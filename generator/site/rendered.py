"""MkDocs' part of the site, rendered only when what it renders changed, and kept.

``mkdocs build --strict`` renders the pages no frame stands for (the reading list, hand-written
pages, 404), one page per frame (the home and index pages are their own frames:
:data:`generator.site.stamp.SELF_FRAMED`), and copies the theme's files and the static files of
docs/. Its inputs are few and do not change when a seed does: the MkDocs config, the theme's
templates (``overrides/``), the pages it renders (hand-written ones, the frames), which files it
reads (their names: links are checked against them), and the versions of MkDocs and its theme.
:func:`inputs_key` hashes them all.

Its output is kept in ``.cache/site/rendered/``, compacted (:mod:`generator.site.compact`; the
frames as rendered, to be cut), with ``rendered.json``: the generator's version, the inputs'
key, the static files MkDocs copied as they are (the site links those from docs/, where their
bytes are now), and the signature of every kept file. :func:`rendered` reuses it when the
version and the key are the same and every file is there with its signature, and renders
anew otherwise. A file rendered the same as before is linked to the kept one, so the site
sees it unchanged.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import GeneratorError
from generator.core.fingerprint import versions
from generator.site import tree
from generator.site.compact import compact_html
from generator.site.config import mkdocs_config

log = logging.getLogger("generator")

RECORD = "rendered.json"
# What MkDocs renders with, besides the project's files: a new version may render differently.
PACKAGES = ("mkdocs", "mkdocs-material", "markdown", "jinja2", "pymdown-extensions")
_HERE = Path(__file__).resolve().parent


def generator_version() -> str:
    """A hash of the code that decides what the site step writes: this package and the core."""
    h = hashlib.blake2b(digest_size=12)
    for folder in (_HERE, _HERE.parent / "core"):
        for path in sorted(folder.glob("*.py")):
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _versions() -> str:
    return f"{sys.version}\n{versions(PACKAGES)}"


def _configs(config: Path) -> list[Path]:
    """The config and the configs it inherits (``INHERIT``), nearest first."""
    out, at = [], config.resolve()
    while at not in out and at.is_file():
        out.append(at)
        parent = mkdocs_config(at).get("INHERIT")
        if not isinstance(parent, str):
            break
        at = (at.parent / parent).resolve()
    return out


def _theme_dirs(config: Path) -> list[Path]:
    theme = mkdocs_config(config).get("theme")
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    return [config.resolve().parent / custom] if isinstance(custom, str) else []


def inputs_key(config: Path, frame_config: str, names: list[str], pages: dict[str, Path]) -> str:
    """The hash of what the frame build renders from: the configs (as written and as read:
    ``!ENV`` values), the frame build's own config, every file of the theme's custom folder,
    the ``names`` of docs/'s files (sorted) and the bytes of the ``pages`` MkDocs renders."""
    h = hashlib.blake2b(digest_size=16)

    def put(*parts: str | bytes) -> None:
        for p in parts:
            h.update(p if isinstance(p, bytes) else p.encode("utf-8", "surrogateescape"))
            h.update(b"\0")

    put("versions", _versions(), "frame config", frame_config)
    for path in _configs(config):
        put("config", str(path), path.read_bytes(), json.dumps(mkdocs_config(path), sort_keys=True, default=str))
    for folder in _theme_dirs(config):
        for here, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                path = Path(here, name)
                put("theme", path.relative_to(folder).as_posix(), path.read_bytes())
    put("names", "\n".join(names))
    for rel in sorted(pages):
        put("page", rel, pages[rel].read_bytes())
    return h.hexdigest()


@dataclass(frozen=True)
class Rendered:
    """MkDocs' output, kept: its folder, its files (path: signature), and the static files of
    docs/ it copied as they were."""

    root: Path
    files: dict[str, tree.Sig]
    copied: frozenset[str]
    ran: bool  # rendered by this build (False: reused)


def _read(folder: Path, version: str, key: str) -> Rendered | None:
    """The kept output, if it is whole and was rendered by this generator from these inputs."""
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
        if record.get("version") != version or record.get("inputs") != key:
            return None
        files = {rel: tuple(s) for rel, s in record["files"].items()}
        copied = frozenset(record["copied"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    there = tree.walk(folder)
    there.pop(RECORD, None)
    if there.keys() != files.keys() or any(tree.sig(there[rel]) != s for rel, s in files.items()):
        log.info("%s: the kept MkDocs output is not as it was left: rendering it again", folder)
        return None
    return Rendered(folder, files, copied, ran=False)


def _same_bytes(a: str, b: str) -> bool:
    try:
        if os.path.getsize(a) != os.path.getsize(b):
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


def _settle(out: Path, docs: Path, static: list[str], frames: set[str], previous: Path) -> frozenset[str]:
    """After MkDocs wrote ``out``: take out the static files it copied from docs/ as they are
    (returned), compact its pages but the frames (``frames``: their folders, "papers/_frame/",
    and the pages that are their own frames, "list/index.html"), and link what it wrote the
    same as the ``previous`` output to that file."""
    base = os.fspath(out)
    copied = set()
    for rel in static:
        target = os.path.join(base, rel)
        # an .html file is compacted like every page of the site, so it is MkDocs' output, not a copy
        if not rel.endswith(".html") and _same_bytes(target, os.path.join(docs, rel)):
            os.unlink(target)
            copied.add(rel)
    for rel, entry in tree.walk(out).items():
        path = entry.path
        if rel.endswith(".html") and rel.rpartition("/")[0] + "/" not in frames and rel not in frames:
            with open(path, encoding="utf-8") as f:
                html = f.read()
            small = compact_html(html)
            if small != html:
                os.unlink(path)
                tree.write_new(path, small.encode("utf-8"))
        old = os.path.join(previous, rel)
        if _same_bytes(path, old):
            os.unlink(path)
            tree.link(old, path)
    for here, dirs, files in os.walk(out, topdown=False):  # folders the copies leave empty
        if here != base and not dirs and not files:
            os.rmdir(here)
    return frozenset(copied)


def render(config: Path, frame_config: str, cache: Path, docs: Path, static: list[str], frames: set[str],
           version: str, key: str) -> Rendered:
    """Run ``mkdocs build --strict`` with ``frame_config`` into a new folder of ``cache`` and
    keep it as ``cache/rendered`` once it is whole."""
    root = config.resolve().parent
    cache.mkdir(parents=True, exist_ok=True)
    out = cache / f"rendering-{os.getpid()}"
    kept = cache / "rendered"
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    try:
        # Never --quiet: it drops the warnings that --strict counts.
        run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "-", "-d", str(out)],
                             input=frame_config, text=True, cwd=root, env=env)
        if run.returncode:
            raise GeneratorError("mkdocs build failed: its messages are above", str(config))
        copied = _settle(out, docs, static, frames, kept)
        files = {rel: tree.sig(e) for rel, e in tree.walk(out).items()}
        record = {"version": version, "inputs": key, "copied": sorted(copied), "files": files}
        (out / RECORD).write_text(json.dumps(record), encoding="utf-8")
        old = cache / f"replaced-{os.getpid()}"
        if kept.exists():
            kept.rename(old)
        out.rename(kept)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    return Rendered(kept, files, copied, ran=True)


def rendered(config: Path, frame_config: str, cache: Path, docs: Path, names: list[str], pages: dict[str, Path],
             static: list[str], frames: set[str], version: str) -> Rendered:
    """MkDocs' output for these inputs: the kept one if it is theirs, else rendered now.
    ``names``: every file of docs/; ``pages``: those MkDocs renders; ``static``: those it may
    copy; ``frames``: the frames' folders in the output ("papers/_frame/") and the pages that are
    their own frames ("list/index.html")."""
    for stale in [*cache.glob("rendering-*"), *cache.glob("replaced-*")]:  # what a stopped build left
        shutil.rmtree(stale, ignore_errors=True)
    key = inputs_key(config, frame_config, names, pages)
    kept = _read(cache / "rendered", version, key)
    if kept is not None:
        return kept
    return render(config, frame_config, cache, docs, static, frames, version, key)
