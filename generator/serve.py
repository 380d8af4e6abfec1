"""``make serve``: a live preview that picks up edited seed files.

``mkdocs serve --dirty`` reloads the browser when ``docs/`` changes and renders
again only the pages that changed; this runs it and, beside it, rebuilds the
generated pages whenever a seed file (or the curation file) changes. The generator
rewrites only pages whose content changed, so MkDocs sees just those. A broken seed
is reported as ``path:line: message`` and the last good pages stay served.

The server runs in a process group of its own, and it is stopped (the group, so
nothing it started lingers on the port) however this process ends: Ctrl-C, SIGTERM
(a task runner, an editor, a container stop: issue 31 found the server left running)
or SIGHUP; on Linux the server is also told to stop should this process be killed
outright.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from generator.core.errors import GeneratorError
from generator.pipeline import build
from generator.seeds.read import seed_paths

log = logging.getLogger("generator.serve")

DEFAULT_ADDR = "127.0.0.1:8000"
# How long the server has to stop after SIGTERM before it is killed.
STOP_SECONDS = 5.0


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


def regenerate(seeds: Path, docs: Path) -> bool:
    """Build the pages; on a problem in the seeds, say where and keep the pages as they are."""
    try:
        result = build([seeds], docs)
    except GeneratorError as e:
        log.error("%s\nthe preview still shows the last good build: fix the seed and save to rebuild", e)
        return False
    log.info("regenerated %d papers: %d file(s) changed", len(result.digest), result.written + result.removed)
    return True


class Stop(Exception):
    """A signal asked the preview to end."""


_MAIN_PID = os.getpid()


def _stop_on_signal(signum: int, frame: object) -> None:
    if os.getpid() != _MAIN_PID:  # a build's forked worker inherits the handler: end as a worker would
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise Stop(signal.Signals(signum).name)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """Linux: have the kernel send SIGTERM to the server if the preview itself is killed (SIGKILL)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def start_server(addr: str) -> subprocess.Popen:
    mkdocs = Path(sys.executable).with_name("mkdocs")
    # --dirty warns that navigation may be stale, which strict mode (mkdocs.yml) makes fatal;
    # `make site` stays strict, the preview only prints the warnings
    return subprocess.Popen([str(mkdocs), "serve", "--dirty", "--no-strict", "--dev-addr", addr], start_new_session=True,
                            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)


def stop_server(server: subprocess.Popen) -> None:
    """SIGTERM to the server's process group, then SIGKILL to what is left after STOP_SECONDS."""
    for sig, wait in ((signal.SIGTERM, STOP_SECONDS), (signal.SIGKILL, None)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            break
        try:
            server.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    server.wait()
    try:  # a child of the server that outlived it
        os.killpg(server.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m generator.serve", description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=Path, default=Path("seeds"))
    ap.add_argument("--docs", type=Path, default=Path("docs"))
    ap.add_argument("--addr", default=os.environ.get("ADDR") or DEFAULT_ADDR, help=f"host:port (default {DEFAULT_ADDR})")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop_on_signal)
    server = None
    try:
        regenerate(args.seeds, args.docs)
        server = start_server(args.addr)
        seen = snapshot(args.seeds)
        while server.poll() is None:
            time.sleep(1.0)
            now = snapshot(args.seeds)
            if now != seen:
                seen = now
                regenerate(args.seeds, args.docs)
    except (KeyboardInterrupt, Stop):
        pass
    finally:
        # no second signal may cut the cleanup short
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        if server is not None:
            stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
