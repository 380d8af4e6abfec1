"""State a build keeps for the next one (``.cache/*.json``): written whole or not at all.

Each file is written to a temporary name beside it and renamed into place, so a build killed
while writing leaves the last file or the new one, never half of one. A file that cannot be
written costs the next build time, not this one its result: it is said, with what follows,
and the build goes on.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


def write_state(path: Path, doc: object, then: str, name: str = "") -> None:
    """``doc`` as JSON at ``path``, whole; on failure say so and ``then`` (what the next build
    does without it). ``name`` says what the file is ("the cache"), before its path."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        log.warning("cannot write %s (%s): %s", f"{name} {path}" if name else path, e, then)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def read_state(path: Path, then: str, name: str = "") -> object | None:
    """The JSON at ``path``, or None: silently when there is no file, said (with ``then``, what
    the build does without it) when it cannot be read. Its shape is the caller's to check."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        log.info("cannot read %s (%s): %s", f"{name} {path}" if name else path, e, then)
        return None
