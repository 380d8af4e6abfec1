"""``make serve``: a live preview that picks up edited seed files.

``mkdocs serve`` reloads the browser when ``docs/`` changes; this runs it and,
beside it, rebuilds the generated pages whenever a seed file (or the curation
file) changes. The generator rewrites only pages whose content changed, so
MkDocs sees just those. A broken seed is reported and the last good pages stay.
"""
from __future__ import annotations

import argparse
import logging
import subprocess
import sys
import time
from pathlib import Path

from generator.core.errors import GeneratorError
from generator.pipeline import build
from generator.seeds.read import seed_paths

log = logging.getLogger("generator.serve")


def snapshot(seeds: Path) -> dict[Path, tuple[int, int]]:
    """(mtime, size) of every file under the seed folder."""
    out = {}
    for p in [*seed_paths([seeds]), seeds / "curation.yml"]:
        try:
            st = p.stat()
        except FileNotFoundError:
            continue
        out[p] = (st.st_mtime_ns, st.st_size)
    return out


def regenerate(seeds: Path, docs: Path) -> None:
    try:
        result = build([seeds], docs)
    except GeneratorError as e:
        log.error("%s\n(the preview keeps the last good pages)", e)
        return
    log.info("regenerated %d papers: %d file(s) changed", len(result.digest), result.written + result.removed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m generator.serve", description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=Path, default=Path("seeds"))
    ap.add_argument("--docs", type=Path, default=Path("docs"))
    ap.add_argument("--addr", default="127.0.0.1:8000")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    regenerate(args.seeds, args.docs)
    mkdocs = Path(sys.executable).with_name("mkdocs")
    server = subprocess.Popen([str(mkdocs), "serve", "--dev-addr", args.addr])
    seen = snapshot(args.seeds)
    try:
        while server.poll() is None:
            time.sleep(1.0)
            now = snapshot(args.seeds)
            if now != seen:
                seen = now
                regenerate(args.seeds, args.docs)
    except KeyboardInterrupt:
        pass
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
