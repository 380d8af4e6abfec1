"""make serve: the address, a broken seed, and nothing left running after SIGTERM or Ctrl-C."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import HAND_WRITTEN, REPO

SEED = REPO / "seeds" / "000_ca08d30626a6d4f8.txt"


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
        time.sleep(0.5)


def serving(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


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
        "PYTHONPATH": str(REPO), "ADDR": f"127.0.0.1:{port}", "DIGEST_SERIAL": "1"}
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "generator.serve"], cwd=project, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    return proc, log


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_leaves_nothing_running_and_a_broken_seed_keeps_the_preview(project, sig):
    port = free_port()
    proc, log = start(project, port)  # the address from ADDR, as `make serve ADDR=...` passes it
    try:
        wait_for(lambda: serving(port), 240, f"serving on {port}", proc, log)
        page = next((project / "docs" / "papers").glob("*.md"))
        good = page.read_bytes()
        seed = project / "seeds" / SEED.name
        text = seed.read_text(encoding="utf-8").rstrip("\n")
        seed.write_text(text + "\n\nToo short.\n", encoding="utf-8")
        line = text.count("\n") + 3
        wait_for(lambda: f"seeds/{SEED.name}:{line}: this paragraph has 2 word(s)" in log.read_text(errors="replace"), 120,
                 "the broken seed reported as path:line", proc, log)
        assert "the preview still shows the last good build" in log.read_text()
        assert proc.poll() is None and serving(port)
        assert page.read_bytes() == good
        children = descendants(proc.pid)
        assert children, "mkdocs serve runs as a child"
        proc.send_signal(sig)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert [pid for pid in children if alive(pid)] == []
    assert port_free(port)
