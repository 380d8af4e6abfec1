"""``make serve``: a live preview that rebuilds what a save changed and reloads the browser.

The preview serves ``site/`` as the site step builds it, with a small HTTP server of the
standard library (a thread per request), so a paper page is never rendered by MkDocs one by
one: at 20,000 papers ``mkdocs serve`` took minutes to render them all. It watches the seed
folder (and its curation file), the hand-written pages of docs/, ``overrides/`` and
``mkdocs.yml``; on a change it asks its builder, one child process for the whole preview
(``python -m generator.serve --work``, :func:`work`), to run the generator and the site step,
which write only what changed (:mod:`generator.site.build`); the site step swaps the new site
in whole. The builder keeps what the last build left in memory (:mod:`generator.core.warm`):
a save costs no process start, no imports and no decoding of unchanged state.

Each page the preview sends carries a small script (put in as it is sent, never into
``site/``) that asks ``/__preview__/build`` whether a newer build is in: the server holds the
question until there is one, or a broken seed, and the page reloads once per build, or shows
the problem in a bar at the top while it keeps showing the last good build. The terminal
says the same, as ``path:line: message``.

The builder runs in a process group of its own, and it is stopped (the group) however this
process ends: Ctrl-C, SIGTERM (a task runner, an editor, a container stop: issue 31 found the
server left running) or SIGHUP; on Linux it is also told to stop should this process be
killed outright. The HTTP server is a thread of this process: it ends with it.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import http.server
import json
import logging
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from generator.core import outputs
from generator.core.errors import GeneratorError
from generator.core.warm import Warm
from generator.derive.curate import CURATION_FILE
from generator.pipeline import build
from generator.site.build import build_site
from generator.site.config import mkdocs_config

log = logging.getLogger("generator.serve")

DEFAULT_ADDR = "127.0.0.1:8000"
STOP_SECONDS = 5.0  # how long a build has to stop after Ctrl-C before it is killed
POLL_SECONDS = 0.2  # how often the watched files are looked at
SETTLE_SECONDS = 0.1  # a save is taken once the files have stayed the same this long
WAIT_SECONDS = 25.0  # how long the server holds a page's question before it answers "no news"
ENDPOINT = "/__preview__/build"

# The script each HTML response gets before its </body>: reload once a newer build is in,
# and show a broken seed's message meanwhile (as text). The server fills in the build it sent.
RELOAD_SCRIPT = """<script>(function () {
  var state = %s, bar = null;
  function show(error) {
    if (!error) { if (bar) { bar.remove(); bar = null; } return; }
    if (!bar) {
      bar = document.createElement("pre");
      bar.setAttribute("role", "alert");
      bar.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:1000;margin:0;padding:.6em 1em;" +
        "background:#b00020;color:#fff;font:13px/1.4 monospace;white-space:pre-wrap;max-height:40vh;overflow:auto";
      document.body.appendChild(bar);
    }
    bar.textContent = error + "\\n(the preview shows the last good build: fix the seed and save)";
  }
  function ask() {
    fetch("%s?build=" + state.build + "&error=" + encodeURIComponent(state.error || ""), {cache: "no-store"})
      .then(function (r) { return r.json(); })
      .then(function (now) {
        if (now.build !== state.build) { location.reload(); return; }
        state = now; show(state.error); ask();
      })
      .catch(function () { setTimeout(ask, 2000); });
  }
  show(state.error); ask();
})();</script>"""

PLACEHOLDER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Building the preview</title></head>
<body><p>The preview is being built; this page reloads when it is ready.</p></body></html>"""


class State:
    """The preview's news: how many builds are in, and the last build's problem (or None)."""

    def __init__(self) -> None:
        self.build = 0
        self.error: str | None = None
        self.closed = False
        self._changed = threading.Condition()

    def now(self) -> dict:
        return {"build": self.build, "error": self.error}

    def update(self, built: bool, error: str | None) -> None:
        with self._changed:
            self.build += built
            self.error = error
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait(self, build: int, error: str | None, seconds: float) -> dict:
        """The news once it differs from (``build``, ``error``), or after ``seconds``."""
        with self._changed:
            self._changed.wait_for(lambda: self.closed or (self.build, self.error or "") != (build, error or ""), seconds)
            return self.now()


def inject(page: bytes, state: dict) -> bytes:
    """``page`` with the reload script before its last ``</body>`` (or at its end)."""
    data = json.dumps(state).replace("<", "\\u003c")  # nothing in it can end the script
    script = (RELOAD_SCRIPT % (data, ENDPOINT)).encode("utf-8")
    at = page.rfind(b"</body>")
    return page + script if at < 0 else page[:at] + script + page[at:]


class Handler(http.server.SimpleHTTPRequestHandler):
    """The built site, as a static host serves it, HTML pages with the reload script; and the
    preview's endpoint. Nothing is cached by the browser: a reload must show the new build."""

    state: State
    site: Path

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        log.debug("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:
        if urlsplit(self.path).path == ENDPOINT:
            self._news()
        else:
            super().do_GET()

    def _news(self) -> None:
        query = parse_qs(urlsplit(self.path).query)
        try:
            build = int(query.get("build", ["-1"])[0])
            seconds = min(float(query.get("wait", [WAIT_SECONDS])[0]), WAIT_SECONDS)
        except ValueError:
            build, seconds = -1, 0.0
        body = json.dumps(self.state.wait(build, query.get("error", [""])[0], seconds)).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _page(self, status: int, page: bytes):
        import io

        body = inject(page, self.state.now())
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_head(self):
        if not self.site.is_dir():
            return self._page(503, PLACEHOLDER.encode("utf-8"))
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to the folder's address
            path = os.path.join(path, "index.html")
        if path.endswith(".html"):
            try:
                with open(path, "rb") as f:
                    return self._page(200, f.read())
            except OSError:
                pass
        if not os.path.exists(path):
            try:  # the site step may swap the folder in between: then the plain 404
                return self._page(404, (self.site / "404.html").read_bytes())
            except OSError:
                pass
        return super().send_head()


def make_server(addr: str, site: Path, state: State) -> http.server.ThreadingHTTPServer:
    host, _, port = addr.rpartition(":")
    if not host or not port.isdigit():
        raise GeneratorError(f"the address must be host:port, not {addr!r}", "ADDR")
    handler = type("PreviewHandler", (Handler,), {"state": state, "site": site})
    try:
        return http.server.ThreadingHTTPServer((host.strip("[]"), int(port)),
                                               functools.partial(handler, directory=str(site)))
    except OSError as e:
        raise GeneratorError(f"cannot serve on {addr}: {e.strerror}", "ADDR") from None


def watched(seeds: Path, docs: Path, config: Path) -> dict[str, tuple[int, int, int]]:
    """(inode, size, mtime) of every file whose change needs a rebuild: the seed folder (seeds
    and curation file), the MkDocs config, the theme's custom folder, docs/'s hand-written files."""
    out: dict[str, tuple[int, int, int]] = {}

    def add(path: Path) -> None:
        try:
            st = path.stat()
        except OSError:
            return
        out[str(path)] = (st.st_ino, st.st_size, st.st_mtime_ns)

    add(config)
    for here, dirs, files in os.walk(seeds):  # what the generator reads there
        for name in files:
            if (name.endswith(".txt") or name == CURATION_FILE) and not name.startswith("."):
                add(Path(here, name))
    theme = mkdocs_config(config).get("theme")
    generated = set(outputs.DIRS) | set(outputs.FILES)
    folders = [docs] + ([config.parent / theme["custom_dir"]]
                        if isinstance(theme, dict) and isinstance(theme.get("custom_dir"), str) else [])
    for folder in folders:
        for here, dirs, files in os.walk(folder):
            if here == str(docs):
                dirs[:] = [d for d in dirs if d not in generated]
                files = [f for f in files if f not in generated]
            for name in files:
                if not _scratch(name):
                    add(Path(here, name))
    return out


def _scratch(name: str) -> bool:
    """A hidden file (an editor's swap file, the generator's staged write: MkDocs skips them too)
    or an editor's backup: no reason to rebuild."""
    return name.startswith((".", "#")) or name.endswith("~")


def once(seeds: Path, docs: Path, config: Path, warm: Warm | None = None) -> int:
    """One rebuild, as the preview's builder runs it: the generator, then the site step. With
    ``warm``, what the last build left is read from memory where its files are unchanged."""
    start, cpu = time.perf_counter(), _cpu()
    result = build([seeds], docs, cache=config.resolve().parent / ".cache" / "derived.json", warm=warm)
    generated, cpu_generated = time.perf_counter(), _cpu()
    site = build_site(config, warm)
    done = time.perf_counter()
    what = ("nothing changed" if site.unchanged else
            f"{site.html_written} HTML page(s) and {len(site.written) - site.html_written} other file(s) written, "
            f"{site.removed} removed")
    steps = ", ".join(f"{name} {sec:.1f}" for name, sec in site.seconds.items())
    log.info("rebuilt %d papers: generator %.1fs (%d file(s) changed; %.1f CPU s), site %.1fs (%s; %s; %.1f CPU s)",
             len(result.digest), generated - start, result.written + result.removed, cpu_generated - cpu,
             done - generated, what, steps, _cpu() - cpu_generated)
    return 0


def _cpu() -> float:
    """CPU seconds of this process and of the workers it has waited for."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def work(seeds: Path, docs: Path, config: Path) -> int:
    """The preview's builder: one process for every rebuild, which keeps what the last build
    left in memory (:class:`generator.core.warm.Warm`), so a save costs no start, no imports
    and no decoding of unchanged state. Each line on stdin asks for a rebuild; each rebuild
    answers one line of JSON on stdout: ``{"code": 0}``, or 1 and the build's problems
    (``path:line: message``). Between builds it reads again what the last build rewrote.
    It ends at the end of its input, or on Ctrl-C (the generator then undoes a half-done write)."""
    warm = Warm()
    out = sys.stdout
    # No cyclic garbage collection during a build: a build makes millions of objects and next to
    # no cycles, and each full collection walks all of them, the kept state included (at 20,000
    # papers about 4 of a save's 20 CPU s, workers included: handbook/performance.md). What
    # cycles there are (a failed build's traceback) are collected after the build, while the
    # preview waits for the next save.
    gc.disable()
    while sys.stdin.readline():
        try:
            code, problems = once(seeds, docs, config, warm), ""
        except GeneratorError as e:  # a broken seed: nothing was written, and what is kept stays true
            code, problems = 1, str(e)  # one problem a line (ErrorList's text)
        out.write(json.dumps({"code": code, "problems": problems}) + "\n")
        out.flush()
        warm.refresh(stop=_asked)
        gc.collect()
    return 0


def _asked() -> bool:
    """Whether a line waits on stdin (a save came in while the builder was refreshing)."""
    return bool(select.select([sys.stdin], [], [], 0)[0])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """Linux: the kernel sends SIGINT to the build should the preview itself be killed (SIGKILL):
    SIGINT, so that the generator undoes a half-done write."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _code_state() -> tuple:
    """The generator's own files (code and data) by size and time: a builder started before
    they changed runs the old code, and is started again."""
    here = Path(__file__).resolve().parent
    out = []
    for path in sorted(here.rglob("*")):
        if path.suffix in (".py", ".yml", ".yaml", ".json") and "__pycache__" not in path.parts:
            try:
                st = path.stat()
            except OSError:
                continue
            out.append((str(path), st.st_size, st.st_mtime_ns))
    return tuple(out)


class Builder:
    """Runs rebuilds, one at a time, in one long-lived child process (:func:`work`), which keeps
    the last build's state in memory; starts it again when it ended (a build stopped, a crash)
    or when the generator's code changed; and can stop it."""

    def __init__(self, seeds: Path, docs: Path, config: Path, site: Path, state: State) -> None:
        self.args = ["--seeds", str(seeds), "--docs", str(docs), "--config", str(config)]
        self.site, self.state = site, state
        self.child: subprocess.Popen | None = None
        self.code: tuple = ()

    def _identity(self) -> int | None:
        try:
            return self.site.stat().st_ino  # the site step swaps a new folder in
        except OSError:
            return None

    def _start(self) -> subprocess.Popen:
        self.code = _code_state()
        # The child logs to the terminal; its answers (and problems: path:line: message) come on its stdout.
        self.child = subprocess.Popen(
            [sys.executable, "-m", "generator.serve", "--work", *self.args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None)
        return self.child

    def _ask(self) -> tuple[int, str]:
        """One rebuild by the child: its exit status (or the build's) and its problems."""
        if self.child is not None and (self.child.poll() is not None or _code_state() != self.code):
            self.stop()
        child = self.child or self._start()
        try:
            child.stdin.write(b"build\n")
            child.stdin.flush()
            line = child.stdout.readline()
        except OSError:  # it ended meanwhile
            line = b""
        try:
            answer = json.loads(line)
            return int(answer["code"]), str(answer["problems"])
        except (ValueError, KeyError, TypeError):  # it ended during the build: its traceback is on the terminal
            self.stop()
            return child.returncode or 1, ""

    def rebuild(self) -> bool:
        before = self._identity()
        code, problems = self._ask()
        if code:
            if problems:
                print(problems, file=sys.stderr, flush=True)
            log.error("the preview still shows the last good build: fix the seed and save to rebuild")
            self.state.update(False, problems[-4000:] or f"the build failed (exit status {code}): see the terminal")
            return False
        self.state.update(self._identity() != before, None)
        return True

    def stop(self) -> None:
        """Stop the child and a build it runs: Ctrl-C to its group (the generator undoes a
        half-done write), then SIGKILL."""
        child, self.child = self.child, None
        if child is None:
            return
        for sig, wait in ((signal.SIGINT, STOP_SECONDS), (signal.SIGKILL, None)):
            try:
                os.killpg(child.pid, sig)
            except ProcessLookupError:
                break
            try:
                child.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
        child.wait()
        for pipe in (child.stdin, child.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        # What the build started (its workers, MkDocs) may outlive it: kill the group, and wait
        # until it is gone, since a process busy with the disk dies only when that call returns.
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                break
            time.sleep(0.05)


class Stop(Exception):
    """A signal asked the preview to end."""


_MAIN_PID = os.getpid()


def _stop_on_signal(signum: int, frame: object) -> None:
    if os.getpid() != _MAIN_PID:  # a forked worker inherits the handler: end as a worker would
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise Stop(signal.Signals(signum).name)


def watch(builder: Builder, seeds: Path, docs: Path, config: Path) -> None:
    """Rebuild now, and after each save, until stopped."""
    seen = None
    while True:
        now = watched(seeds, docs, config)
        if now != seen:
            while True:  # an editor may save in steps: wait until the files stay still
                time.sleep(SETTLE_SECONDS)
                later = watched(seeds, docs, config)
                if later == now:
                    break
                now = later
            seen = now
            builder.rebuild()
        time.sleep(POLL_SECONDS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m generator.serve", description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=Path, default=Path("seeds"))
    ap.add_argument("--docs", type=Path, default=Path("docs"))
    ap.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    ap.add_argument("--addr", default=os.environ.get("ADDR") or DEFAULT_ADDR, help=f"host:port (default {DEFAULT_ADDR})")
    ap.add_argument("--once", action="store_true", help="rebuild once (generator and site step) and exit")
    ap.add_argument("--work", action="store_true",
                    help="the preview's builder: rebuild for each line on stdin, keeping the last build in memory")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.once or args.work:
        # Ctrl-C is how the preview stops a build (the generator then undoes a half-done write),
        # also where the preview was started with SIGINT ignored (a background job of a script)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            return work(args.seeds, args.docs, args.config) if args.work else once(args.seeds, args.docs, args.config)
        except KeyboardInterrupt:
            return 130
        except GeneratorError as e:
            print(e, flush=True)
            return 1
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _stop_on_signal)
    root = args.config.resolve().parent
    site = root / (mkdocs_config(args.config).get("site_dir") or "site")
    state = State()
    builder = Builder(args.seeds, args.docs, args.config, site, state)
    server = None
    try:
        try:
            server = make_server(args.addr, site, state)
        except GeneratorError as e:
            print(e, file=sys.stderr)
            return 1
        threading.Thread(target=server.serve_forever, name="preview-server", daemon=True).start()
        host, port = server.server_address[:2]
        log.info("serving the preview at http://%s:%d/ (%s); it rebuilds when a seed, hand-written page or "
                 "template is saved. Ctrl-C stops it.", host, port,
                 "the last build until this one is in" if site.is_dir() else "building it first")
        watch(builder, args.seeds, args.docs, args.config)
    except (KeyboardInterrupt, Stop):
        pass
    finally:
        # no second signal may cut the cleanup short
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        builder.stop()
        state.close()
        if server is not None:
            server.shutdown()
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
