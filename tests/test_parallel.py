"""Parallel stages give exactly the serial result."""
from __future__ import annotations

import hashlib

import pytest
from support import REPO, corpus_files, run_generator

from generator.core import parallel


def _square_all(items):
    return [x * x for x in items]


def test_split_keeps_order_and_sizes():
    chunks = parallel.split(list(range(10)), 3)
    assert [list(c) for c in chunks] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_map_chunks_equals_serial(monkeypatch):
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    items = list(range(5000))
    assert parallel.map_chunks(_square_all, items) == _square_all(items)


def test_pending_work_gives_the_serial_result(monkeypatch):
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    items = list(range(5000))
    pending = parallel.Pending(_square_all, items)
    assert pending.result() == _square_all(items)


def _tree(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def test_parallel_build_is_byte_identical_to_serial(tmp_path, monkeypatch):
    files = corpus_files()
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in files:  # enough abstracts to go parallel; U+0002 removed (the format rejects it)
        (seeds / f"{f.parent.name}-{f.name}").write_bytes(f.read_bytes().replace(b"\x02", b""))
    out = {}
    for mode in ("serial", "parallel"):
        docs = tmp_path / mode
        docs.mkdir()
        if mode == "serial":
            monkeypatch.setenv("DIGEST_SERIAL", "1")
        else:
            monkeypatch.delenv("DIGEST_SERIAL", raising=False)
        run = run_generator("build", "--seeds", str(seeds), "--docs", str(docs), cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        out[mode] = _tree(docs)
    assert len(out["serial"]) > 500
    assert out["serial"] == out["parallel"]


def test_a_bad_seed_stops_the_early_workers_and_writes_nothing(tmp_path, monkeypatch):
    import multiprocessing

    from generator import pipeline as build
    from generator.core.errors import GeneratorError

    monkeypatch.setattr(parallel, "workers", lambda: 2)
    monkeypatch.setattr(build, "workers", lambda: 2)
    monkeypatch.setattr(build, "EARLY_BYTES", 0)  # start them even for two small files
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    good = REPO / "seeds"
    for f in sorted(good.glob("*.txt")):
        (seeds / f.name).write_bytes(f.read_bytes())
    (seeds / "zz_bad.txt").write_bytes(b"ICML 2026 Papers\n\nToo short.\n")
    docs = tmp_path / "docs"
    docs.mkdir()
    started = []
    real_start = build.start_early
    monkeypatch.setattr(build, "start_early", lambda *a: started.append(real_start(*a)) or started[-1])
    with pytest.raises(GeneratorError) as err:
        build.build([seeds], docs)
    assert "zz_bad.txt:3" in str(err.value)
    tagging, duplicates = started[0]
    assert tagging._pool is None, "the early workers were not stopped"
    assert duplicates is not None and duplicates.work._pool is None, "the worker finding duplicates was not stopped"
    assert multiprocessing.active_children() == []
    assert list(docs.iterdir()) == []
