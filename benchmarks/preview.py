"""The live preview at conference scale: `make serve` over a built digest of 20,000 papers (or --papers N).

Builds the digest as `make site` does (a synthetic one from benchmarks/corpus.py, unless --root
names a project built before), starts `python -m generator.serve` on it, and prints:

- first page: seconds from starting the preview to the home page served (the last build's site);
- startup rebuild: seconds until the preview's own first rebuild is in (the generator and the
  site step, run at start as after a save);
- appended abstract: seconds from saving a seed file with one abstract more to that paper's
  page served at its address (median of --saves), and the generator's and the site step's
  part of it as the preview logs them, with their CPU seconds (workers included).

Targets (issue 31): the first page within 30 s, an appended abstract within 5 s at 20,000
papers. Asserts nothing.

    .venv/bin/python -m benchmarks.preview [--papers 20000] [--saves 3] [--root DIR]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.corpus import SOURCES, write_seeds
from benchmarks.site import prepare, timed
from generator.seeds.identify import paper_id

REPO = Path(__file__).resolve().parents[1]
REBUILT = re.compile(r"rebuilt (\d+) papers: generator ([\d.]+)s .*?, site ([\d.]+)s \((.*)\)")
GENERATOR_CPU = re.compile(r"generator [\d.]+s \(\d+ file\(s\) changed; ([\d.]+) CPU s\)")  # the preview's builder logs it


def abstract(n: int, seed_text: str) -> str:
    """A new abstract: 80 words of the seeds drawn at random (so the deduplicator merges it with
    none), after a phrase that finds its page."""
    words = re.findall(r"[a-z]{4,}", seed_text)
    rng = random.Random(f"{n}-{os.getpid()}")
    return f"Preview benchmark {n} {os.getpid()} " + " ".join(rng.choice(words) for _ in range(80)) + "."


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b""
    except OSError:
        return 0, b""


def until(check, seconds: float, what: str) -> float:
    """Seconds until ``check()`` holds (polled every 20 ms); exits after ``seconds``."""
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > seconds:
            sys.exit(f"{what}: not within {seconds} s")
        time.sleep(0.02)
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, default=20_000)
    ap.add_argument("--saves", type=int, default=3)
    ap.add_argument("--root", type=Path, help="a project built before (mkdocs.yml, docs/, site/, seeds/): not rebuilt")
    args = ap.parse_args()
    tmp = None
    root = args.root
    if root is None:
        if not (REPO / "docs" / "assets" / "katex" / "katex.min.js").exists():
            sys.exit("docs/assets/katex is missing: run `make docs` first")
        tmp = Path(tempfile.mkdtemp())
        root = tmp / "preview-bench"
        root.mkdir()
        prepare(root)
        write_seeds(root / "seeds", args.papers, SOURCES)
        print(f"building {args.papers} papers as `make site` does", file=sys.stderr)
        timed([sys.executable, "-m", "generator", "build"], root)
        timed([sys.executable, "-m", "generator", "site"], root)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = root / "preview-bench.log"
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1", "ADDR": f"127.0.0.1:{port}"}
    with log.open("wb") as out:
        serve = subprocess.Popen([sys.executable, "-m", "generator.serve"], cwd=root, env=env, stdout=out,
                                 stderr=subprocess.STDOUT)
    rows = []
    try:
        first = until(lambda: get(base + "/")[0] == 200, 120, "the first page")
        rows.append(("first page (s)", f"{first:.2f}", "<= 30"))

        def builds() -> int:
            return len(REBUILT.findall(log.read_text(errors="replace")))

        startup = until(lambda: builds() >= 1, 1800, "the startup rebuild") + first
        rows.append(("startup rebuild in (s)", f"{startup:.2f}", "generator and site step, as after a save"))
        seed = sorted((root / "seeds").glob("*.txt"))[0]
        latencies, parts, lines = [], [], []
        for n in range(args.saves):
            text = abstract(n, seed.read_text(encoding="utf-8"))
            url = f"{base}/papers/{paper_id(text)}/"
            done = builds()
            seed.write_text(seed.read_text(encoding="utf-8").rstrip("\n") + f"\n\n{text}\n", encoding="utf-8")
            latencies.append(until(lambda: text[:60].encode() in get(url)[1], 1800, "the appended abstract"))
            until(lambda: builds() > done, 60, "the rebuild's log line")
            parts.append(REBUILT.findall(log.read_text(errors="replace"))[-1])
            lines.append([x for x in log.read_text(errors="replace").splitlines() if x.startswith("rebuilt ")][-1])
            time.sleep(1)
        gen = statistics.median(float(p[1]) for p in parts)
        site = statistics.median(float(p[2]) for p in parts)
        rows.append(("appended abstract shown (s, median)", f"{statistics.median(latencies):.2f}",
                     f"<= 5; each: {', '.join(f'{x:.2f}' for x in latencies)}"))
        cpu = [float(m.group(1)) for m in map(GENERATOR_CPU.search, lines) if m]
        rows.append(("  of which generator (s)", f"{gen:.2f}",
                     f"{statistics.median(cpu):.1f} CPU s (median)" if cpu else ""))
        rows.append(("  of which site step (s)", f"{site:.2f}", parts[-1][3]))
        rows.append(("papers", parts[-1][0], ""))
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(60)
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>8}  {note}")
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
