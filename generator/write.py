"""The output edge: put the rendered files into the docs folder.

The generator owns ``docs/papers/``, ``docs/topics/``, ``docs/venues/`` and the
files ``index.md``, ``list.md`` and ``papers.json`` at the top of ``docs/``; every
other file there is hand-written and never touched. Everything is rendered in
memory before this runs, so a build that fails writes nothing. Files whose
content is unchanged are not rewritten (so ``mkdocs serve`` reloads only what
changed); a changed page goes to a temporary file renamed over the old one, so a
reader never sees half a page (a new page is written directly: there is no old
one to keep whole); stale generated files are deleted.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from .errors import BuildError
from .render import GENERATED_DIRS, GENERATED_FILES

log = logging.getLogger(__name__)


def _owned(rel: str) -> bool:
    """Whether ``rel`` names a file the generator owns, and nothing outside it.

    A path such as ``papers/../contribute.md`` starts in a generated folder but ends
    at a hand-written page, so every part must be a plain name.
    """
    parts = rel.split("/")
    if any(part in ("", ".", "..") or "\\" in part for part in parts):
        return False
    return rel in GENERATED_FILES or (len(parts) > 1 and parts[0] in GENERATED_DIRS)


def write_tree(docs: Path, files: dict[str, str]) -> tuple[int, int]:
    """Write ``files`` under ``docs``; return (files written, stale files removed)."""
    for rel in files:
        if not _owned(rel):
            raise BuildError(f"refusing to write {rel}: it is not a generated path", str(docs))
    written = removed = 0
    try:
        made: set[str] = set()
        base = os.fspath(docs)
        for rel, content in sorted(files.items()):
            # Plain os calls: pathlib's overhead shows at tens of thousands of pages.
            path = os.path.join(base, rel)
            data = content.encode("utf-8")
            try:
                with open(path, "rb") as f:
                    if f.read() == data:
                        continue
            except FileNotFoundError:
                parent = os.path.dirname(path)
                if parent not in made:
                    os.makedirs(parent, exist_ok=True)
                    made.add(parent)
                # A new page: nothing to keep whole, so no temporary file and rename
                # (a fresh build of a conference is thousands of them).
                with open(path, "wb") as f:
                    f.write(data)
                written += 1
                continue
            tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.tmp")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            written += 1
        for d in GENERATED_DIRS:
            root = docs / d
            if not root.is_dir():
                continue
            for path in sorted(root.rglob("*"), reverse=True):
                rel = path.relative_to(docs).as_posix()
                if path.is_file() and rel not in files:
                    path.unlink()
                    removed += 1
                elif path.is_dir() and not any(path.iterdir()):
                    path.rmdir()
    except OSError as e:
        raise BuildError(f"cannot write the site: {e.strerror} ({e.filename})", str(docs)) from None
    log.debug("wrote %d file(s), removed %d stale file(s) in %s", written, removed, docs)
    return written, removed
