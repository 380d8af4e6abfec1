"""Rebuilds in proportion to what changed (issue 31): what a build costs after each kind of edit.

In a temporary copy of the project's site sources with a synthetic digest of N papers in
seed files of 100 (:mod:`benchmarks.corpus`), one sequence of edits, each built as
``make site`` builds (``python -m generator build``; with ``--site`` also
``python -m generator site``), with the caches a deploy restores kept between builds:

- cold: no ``docs/`` outputs, no ``.cache/``;
- nothing changed;
- one abstract appended to a seed file;
- one abstract edited in place (a few of its words changed);
- a new seed file of 100 abstracts;
- a seed file removed;
- a curation change (a title set for one paper);
- the cache lost with ``docs/`` kept: what a deploy of a new generator version does.

For each: seconds (generate, site step), files written or removed in ``docs/``, HTML pages
whose bytes changed in ``site/`` (with ``--site``), paper pages changed that are neither
a paper the edit touched nor link to one (the target is 0: a rebuild in proportion to
what changed), and the peak memory of the build (the largest process, workers included:
:data:`MEASURED`). A mutating edit is repeated ``--runs`` times on different papers (each
run another edit of the same kind, built on the last); rows show medians.

Targets (issue 31, 2 cores, 20,000 papers): nothing changed <= 3 s for ``make site``;
one abstract appended <= 10 s (goal 5); a new seed file of 100 <= 15 s; unrelated paper
pages changed <= 20 (goal 0); cold no slower (3,300 <= 15 s, 20,000 <= 90 s); peak memory
not above a cold build's. Asserts nothing.

    .venv/bin/python -m benchmarks.incremental [--papers 3300 20000] [--runs 3] [--site] [--code DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.corpus import PER_FILE, SOURCES, abstracts, read_abstracts

REPO = Path(__file__).resolve().parents[1]
HAND_WRITTEN = ("contribute.md", "assets")
_ID = re.compile(r"[0-9a-f]{12}")


def prepare(root: Path, code: Path) -> None:
    """A copy of the site sources of ``code`` (config, templates, hand-written docs)."""
    shutil.copy(code / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(code / "overrides", root / "overrides")
    (root / "docs").mkdir()
    for name in HAND_WRITTEN:
        src = code / "docs" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / "docs" / name)


# ``python -m generator <step>``, run so that it says its own peak memory when it ends: the
# high-water mark of its own memory since it started (``VmHWM``) and the largest of its workers'
# (``RUSAGE_CHILDREN``), written as two numbers of kilobytes to the file named by PEAK_FILE.
# ``wait4``'s figure for the process would not do: Linux keeps the high-water mark of the memory
# the process was started from (this benchmark's, at fork), so after a 20,000-paper build in
# this process, a 3,300-paper build read about 340 MB it never held.
MEASURED = """
import os, resource, runpy, sys
sys.argv = ["generator", *sys.argv[1:]]
try:
    runpy.run_module("generator", run_name="__main__", alter_sys=True)
finally:
    with open("/proc/self/status") as f:
        own = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    with open(os.environ["PEAK_FILE"], "w") as f:
        f.write(f"{own} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
"""


def run(step: str, cwd: Path, code: Path, said: list[str] | None = None) -> tuple[float, float, int]:
    """(seconds, CPU seconds, peak resident memory in MB of the largest of its processes) of
    ``python -m generator <step>``; ``said`` is given what it wrote to stderr. The machines here
    are shared: CPU seconds are the steadier figure under load."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile(mode="r") as peak:
        env = {**os.environ, "PYTHONPATH": str(code), "NO_MKDOCS_2_WARNING": "1", "PEAK_FILE": peak.name}
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", MEASURED, step], cwd=cwd, env=env,
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
        if proc.returncode:
            sys.exit(f"python -m generator {step} failed:\n{text[-3000:]}")
        if said is not None:
            said.append(text)
        own, workers = map(int, peak.read().split())
    return seconds, usage.ru_utime + usage.ru_stime, max(own, workers) // 1024  # kilobytes on Linux


def snapshot(folder: Path, suffix: str = "") -> dict[str, tuple[int, int, bytes]]:
    """{path: (inode, mtime ns, content hash)} of every file under ``folder`` ending in ``suffix``."""
    out = {}
    for dirpath, _, names in os.walk(folder):
        for name in names:
            if not name.endswith(suffix):
                continue
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            with open(path, "rb") as f:
                digest = hashlib.blake2b(f.read(), digest_size=16).digest()
            out[os.path.relpath(path, folder)] = (st.st_ino, st.st_mtime_ns, digest)
    return out


def papers_of(root: Path) -> dict[str, dict]:
    doc = json.loads((root / "docs" / "papers.json").read_text(encoding="utf-8"))
    return {p["id"]: p for p in doc["papers"]}


@dataclass
class Row:
    edit: str
    generate: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    site: list[float] = field(default_factory=list)
    written: list[int] = field(default_factory=list)
    html: list[int] = field(default_factory=list)
    unrelated: list[int] = field(default_factory=list)
    memory: list[int] = field(default_factory=list)
    mkdocs: list[bool] = field(default_factory=list)  # whether the site step had MkDocs run


class Bench:
    def __init__(self, root: Path, code: Path, site: bool, pool: list, fresh: list[str]) -> None:
        self.root, self.code, self.with_site = root, code, site
        self.seeds = root / "seeds"
        self.pool = pool
        self.fresh = fresh  # abstracts not in the digest yet, used up by edits that add papers
        self.rng = random.Random(31)

    def build(self, row: Row) -> None:
        docs_before = snapshot(self.root / "docs")
        papers_before = papers_of(self.root) if (self.root / "docs" / "papers.json").exists() else {}
        site_before = snapshot(self.root / "site", ".html") if self.with_site and (self.root / "site").exists() else {}
        seconds, cpu, memory = run("build", self.root, self.code)
        row.generate.append(seconds)
        row.cpu.append(cpu)
        row.memory.append(memory)
        if self.with_site:
            said: list[str] = []
            seconds, _, memory = run("site", self.root, self.code, said)
            row.site.append(seconds)
            row.mkdocs.append("MkDocs ran" in said[0])
            site_after = snapshot(self.root / "site", ".html")
            row.html.append(sum(site_before.get(k, (0, 0, b""))[2] != v[2] for k, v in site_after.items())
                            + len(site_before.keys() - site_after.keys()))
        docs_after = snapshot(self.root / "docs")
        row.written.append(sum(docs_before.get(k, (0, 0, b""))[:2] != v[:2] for k, v in docs_after.items())
                           + len(docs_before.keys() - docs_after.keys()))
        papers_after = papers_of(self.root)
        row.unrelated.append(self.unrelated(docs_before, docs_after, papers_before, papers_after))

    def unrelated(self, before: dict, after: dict, papers_before: dict, papers_after: dict) -> int:
        """Paper pages whose bytes changed though the paper is none the edit touched and links to none."""
        if not papers_before:
            return 0
        touched = set(papers_before) ^ set(papers_after)
        for pid in set(papers_before) & set(papers_after):
            a = {k: v for k, v in papers_before[pid].items() if k != "related"}
            b = {k: v for k, v in papers_after[pid].items() if k != "related"}
            if a != b:
                touched.add(pid)
        count = 0
        docs = self.root / "docs"
        for rel, (_, _, digest) in after.items():
            if not rel.startswith("papers/") or rel not in before or before[rel][2] == digest:
                continue
            pid = Path(rel).stem
            if pid in touched:
                continue
            related = set(papers_before.get(pid, {}).get("related", ())) | set(papers_after.get(pid, {}).get("related", ()))
            if related & touched:
                continue
            text = (docs / rel).read_text(encoding="utf-8")
            if not touched & set(_ID.findall(text)):
                count += 1
        return count

    # the edits, each on the current seeds

    def seed_files(self) -> list[Path]:
        return sorted(p for p in self.seeds.glob("*.txt"))

    def append_abstract(self) -> None:
        path = self.rng.choice(self.seed_files())
        text = path.read_text(encoding="utf-8").rstrip("\n")
        path.write_text(text + "\n\n" + self.fresh.pop() + "\n", encoding="utf-8")

    def edit_abstract(self) -> None:
        path = self.rng.choice(self.seed_files())
        head, _, body = path.read_text(encoding="utf-8").partition("\n\n")
        paragraphs = body.rstrip("\n").split("\n\n")
        k = self.rng.randrange(len(paragraphs))
        words = paragraphs[k].split(" ")
        for _ in range(3):  # a few words changed: still the same paper (an edit in place)
            i = self.rng.randrange(len(words))
            words[i] = words[i] + "s" if words[i].isalpha() else words[i]
        words.append("(Revised.)")
        paragraphs[k] = " ".join(words)
        path.write_text(head + "\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")

    def new_seed_file(self) -> None:
        texts = [self.fresh.pop() for _ in range(PER_FILE)]
        n = len(list(self.seeds.glob("added-*.txt")))
        (self.seeds / f"added-{n:02d}.txt").write_text("NewConf 2027 Papers\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8")

    def remove_seed_file(self) -> None:
        self.rng.choice([p for p in self.seed_files() if not p.name.startswith("added-")]).unlink()

    def lose_cache(self) -> None:
        """As a deploy of a new generator finds it: the last docs/ (papers.json, the map) is
        there, but no kept state is this generator's (its fingerprint changed)."""
        shutil.rmtree(self.root / ".cache", ignore_errors=True)

    def curate(self) -> None:
        ids = sorted(papers_of(self.root))
        pid = self.rng.choice(ids)
        curation = self.seeds / "curation.yml"
        old = curation.read_text(encoding="utf-8") if curation.exists() else ""
        curation.write_text(old + f'"{pid}":\n  title: "A Curated Title {self.rng.randrange(10**6)}"\n  featured: true\n',
                            encoding="utf-8")


def bench(n: int, runs: int, site: bool, code: Path, pool: list) -> list[Row]:
    tmp = Path(tempfile.mkdtemp(prefix=f"incremental-{n}-"))
    try:
        root = tmp / "project"
        root.mkdir()
        prepare(root, code)
        made = abstracts(n + (PER_FILE + 2) * runs + 2 * runs, pool)
        write_corpus(root / "seeds", made[:n])
        b = Bench(root, code, site, pool, [a.text for a in made[n:]])
        rows = []
        steps: list[tuple[str, Callable[[], None] | None, int]] = [
            ("cold", None, 1),
            ("nothing changed", None, runs),
            ("one abstract appended", b.append_abstract, runs),
            ("one abstract edited in place", b.edit_abstract, runs),
            ("a new seed file of 100", b.new_seed_file, runs),
            ("a seed file removed", b.remove_seed_file, runs),
            ("a curation change", b.curate, runs),
            ("the cache lost, docs/ kept", b.lose_cache, 1),
        ]
        for name, edit, times in steps:
            row = Row(name)
            for _ in range(times):
                if edit is not None:
                    edit()
                b.build(row)
                print(f"  {n} papers, {name}: generate {row.generate[-1]:.2f} s ({row.cpu[-1]:.1f} CPU s)"
                      + (f", site {row.site[-1]:.2f} s{' (MkDocs ran)' if row.mkdocs[-1] else ''}" if site else "")
                      + f", {row.written[-1]} file(s) written, {row.unrelated[-1]} unrelated paper page(s), "
                        f"{row.memory[-1]} MB", file=sys.stderr)
            rows.append(row)
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_corpus(dest: Path, made: list) -> None:
    """Seed files of 100 abstracts grouped by venue and year, as :func:`benchmarks.corpus.write_seeds` writes them."""
    dest.mkdir(parents=True)
    groups: dict[tuple[str, int], list[str]] = {}
    for a in made:
        groups.setdefault((a.venue, a.year), []).append(a.text)
    for (venue, year), texts in sorted(groups.items()):
        slug = re.sub(r"[^a-z0-9]+", "-", venue.casefold()).strip("-")
        for k in range(0, len(texts), PER_FILE):
            chunk = texts[k : k + PER_FILE]
            (dest / f"bench-{slug}-{year}-{k // PER_FILE:02d}.txt").write_text(
                f"{venue} {year} Papers\n\n" + "\n\n".join(chunk) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", type=int, nargs="+", default=[3300])
    ap.add_argument("--runs", type=int, default=3, help="repeats of each edit (different papers each time)")
    ap.add_argument("--site", action="store_true", help="run the site step after each build and count HTML pages changed")
    ap.add_argument("--code", type=Path, default=REPO, help="the project whose generator runs (default: this one)")
    args = ap.parse_args()
    code = args.code.resolve()
    if not (code / "docs" / "assets" / "katex" / "katex.min.js").exists():
        sys.exit(f"{code}/docs/assets/katex is missing: run `make docs` there first")
    pool = read_abstracts(SOURCES)
    results = {n: bench(n, args.runs, args.site, code, pool) for n in args.papers}
    med = statistics.median
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.runs} run(s) but cold; generator of {code}")
    head = ["papers", "edit", "generate s", "generate CPU s"] + (["site s", "total s", "HTML changed", "MkDocs ran"]
                                                                 if args.site else []) + \
           ["docs/ files written", "unrelated paper pages", "peak MB"]
    print("| " + " | ".join(head) + " |")
    print("| " + " | ".join("---" if h == "edit" else "---:" for h in head) + " |")
    for n, rows in results.items():
        for r in rows:
            cells = [f"{n:,}", r.edit, f"{med(r.generate):.2f}", f"{med(r.cpu):.1f}"]
            if args.site:
                cells += [f"{med(r.site):.2f}", f"{med(g + s for g, s in zip(r.generate, r.site)):.2f}", f"{med(r.html):.0f}",
                          f"{sum(r.mkdocs)} of {len(r.mkdocs)}"]
            cells += [f"{med(r.written):.0f}", f"{med(r.unrelated):.0f}", f"{max(r.memory)}"]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
