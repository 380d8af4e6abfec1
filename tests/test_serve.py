"""make serve: a real preview server on a small project, asked over HTTP as a browser asks it.

An appended abstract appears at its paper's address after one save, and the reload endpoint
moves once; a broken seed keeps the last good page, is logged as path:line and shown to the
page; SIGTERM or Ctrl-C, even in the middle of a build, leaves nothing running and the port free.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from support import HAND_WRITTEN, REPO

SEED = REPO / "seeds" / "000_ca08d30626a6d4f8.txt"
APPENDED = ("Quokkas foraging on Rottnest Island motivate a sparse attention scheme that routes each query "
            "to a handful of learned prototypes, cutting the memory of long-context transformers by a factor "
            "of eight while matching dense attention on five language modelling benchmarks.")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a closed connection's TIME_WAIT is no server
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting for a parent to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def descendants(pid: int) -> set[int]:
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = {int(c) for c in (task / "children").read_text().split()}
            except FileNotFoundError:
                continue
            todo += kids - out
            out |= kids
    return out


def wait_for(check, seconds: float, what: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {seconds} s (serve {'ended' if proc.poll() is not None else 'running'})\n"
                        + log.read_text(errors="replace")[-3000:])
        time.sleep(0.2)


def get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


def news(port: int, build: int = -1, wait: float = 0) -> dict:
    """The reload endpoint: at once with build=-1, else once the build differs from ``build`` (or after ``wait``)."""
    status, body = get(port, f"/__preview__/build?build={build}&wait={wait}", timeout=wait + 10)
    assert status == 200, body
    return json.loads(body)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(REPO / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(REPO / "overrides", tmp_path / "overrides")
    (tmp_path / "docs").mkdir()
    for name in HAND_WRITTEN:
        src = REPO / "docs" / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / "docs" / name)
        elif src.exists():
            shutil.copy(src, tmp_path / "docs" / name)
    (tmp_path / "seeds").mkdir()
    shutil.copy(SEED, tmp_path / "seeds" / SEED.name)
    return tmp_path


def start(project: Path, port: int) -> tuple[subprocess.Popen, Path]:
    log = project / "serve.log"
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"} | {
        "PYTHONPATH": str(REPO), "ADDR": f"127.0.0.1:{port}", "DIGEST_SERIAL": "1", "NO_MKDOCS_2_WARNING": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "generator.serve"], cwd=project, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    return proc, log


def stop(proc: subprocess.Popen, sig: int, port: int) -> None:
    children = descendants(proc.pid)
    proc.send_signal(sig)
    assert proc.wait(60) == 0
    assert [pid for pid in children if alive(pid)] == []
    assert port_free(port)


def paper_id(project: Path, words: str) -> str | None:
    try:
        papers = json.loads((project / "docs" / "papers.json").read_text(encoding="utf-8"))["papers"]
    except (OSError, ValueError):
        return None
    return next((p["id"] for p in papers if words in p["abstract"]), None)


def test_a_save_shows_at_its_address_a_broken_seed_keeps_the_last_page_and_sigterm_ends_all(project):
    port = free_port()
    proc, log = start(project, port)  # the address from ADDR, as `make serve ADDR=...` passes it
    try:
        wait_for(lambda: news(port)["build"] == 1 if get(port, "/")[0] else False, 240,
                 "the first build served", proc, log)
        status, home = get(port, "/")
        assert status == 200 and b"ML Paper Digest" in home
        assert b"/__preview__/build" in home  # the reload script, put in as the page is sent...
        assert b"/__preview__/build" not in (project / "site" / "index.html").read_bytes()  # ...not into site/

        # An appended abstract: one save, one build, the page at its address.
        seed = project / "seeds" / SEED.name
        text = seed.read_text(encoding="utf-8").rstrip("\n")
        seed.write_text(f"{text}\n\n{APPENDED}\n", encoding="utf-8")
        assert news(port, 1, wait=120)["build"] == 2, log.read_text(errors="replace")[-3000:]
        new = paper_id(project, "Quokkas foraging on Rottnest Island")
        assert new is not None
        status, page = get(port, f"/papers/{new}/")
        assert status == 200 and b"Quokkas foraging on Rottnest Island" in page
        assert news(port, 2, wait=2) == {"build": 2, "error": None}  # once per save: no second reload

        # A broken seed: path:line in the log and on the page's endpoint; the last good page stays.
        before = (project / "site" / "papers" / new / "index.html").read_bytes()
        seed.write_text(f"{text}\n\n{APPENDED}\n\nToo short.\n", encoding="utf-8")
        line = text.count("\n") + 5
        message = f"seeds/{SEED.name}:{line}: this paragraph has 2 word(s)"
        state = news(port, 2, wait=120)
        assert state["build"] == 2 and message in (state["error"] or ""), state
        assert message in log.read_text(errors="replace")
        assert "the preview still shows the last good build" in log.read_text(errors="replace")
        status, page = get(port, f"/papers/{new}/")
        script = page.find(b"<script>(function () {\n  var state")
        assert status == 200 and page[:script] + page[page.find(b"</script>", script) + 9:] == before

        stop(proc, signal.SIGTERM, port)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert [p.name for p in project.glob(".site.*")] == [".site.previous"]  # kept to stage the next build in


def test_ctrl_c_in_the_middle_of_a_build_stops_it_and_leaves_the_port_free(project):
    port = free_port()
    proc, log = start(project, port)
    try:
        wait_for(lambda: bool(descendants(proc.pid)), 60, "a build started", proc, log)
        # served while building: the placeholder page (a loaded machine may be slow to answer,
        # so a refused or timed-out request is asked again; an answer must be one of these)
        answers = []
        wait_for(lambda: answers.append(get(port, "/", timeout=30)[0]) or answers[-1] != 0, 90,
                 "an answer while building", proc, log)
        assert answers[-1] in (200, 503), answers
        stop(proc, signal.SIGINT, port)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
