"""The derive cache: a rebuild reuses the titles and tags of texts it has seen, and only while
the generator and the taxonomy are the ones that derived them."""
from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from support import REPO

from generator import pipeline as build_module
from generator.derive.cache import fingerprint, text_key
from generator.pipeline import build

POISON = "A Title Only the Cache Knows"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / "docs").mkdir()
    return tmp_path


def _tree(docs: Path) -> dict[str, bytes]:
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*") if p.is_file()}


def _titles(docs: Path) -> dict[str, str]:
    return {p["abstract"]: p["title"] for p in json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]}


def _poison(cache: Path, text: str, stamp: str | None = None) -> None:
    """Give one text another title in the cache, keeping (or replacing) its fingerprint."""
    doc = json.loads(cache.read_text(encoding="utf-8"))
    doc["derived"][text_key(text)][2] = POISON
    if stamp is not None:
        doc["fingerprint"] = stamp
    cache.write_text(json.dumps(doc), encoding="utf-8")


def test_a_build_from_the_cache_is_the_build_without_it(project):
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=None)
    without = _tree(project / "docs")
    build([Path("seeds")], Path("cold"), cache=cache)
    doc = json.loads(cache.read_text(encoding="utf-8"))
    # every text of the build (the merged variants' too), and nothing else
    assert {text_key(t) for t in _titles(project / "docs")} <= set(doc["derived"])
    assert len(doc["derived"]) == 36  # one entry a text: the two merged pairs were submitted word for word
    build([Path("seeds")], Path("warm"), cache=cache)
    assert _tree(project / "cold") == without
    assert _tree(project / "warm") == without


@pytest.mark.parametrize("early", [False, True], ids=["in this process", "in early workers"])
def test_a_rebuild_takes_each_texts_title_from_the_cache(project, monkeypatch, early):
    if early:  # workers start from the seed bytes however small they are
        monkeypatch.setattr(build_module, "EARLY_BYTES", 0)
    else:
        monkeypatch.setenv("DIGEST_SERIAL", "1")
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    text = sorted(_titles(project / "docs"))[0]
    _poison(cache, text)
    build([Path("seeds")], Path("docs"), cache=cache)
    titles = _titles(project / "docs")
    assert titles[text] == POISON
    assert list(titles.values()).count(POISON) == 1


_OPENING = "We propose GraphMixer, a model for link prediction in temporal graphs."
_CLASHING = (
    f"{_OPENING} It encodes each edge with a fixed time encoding and mixes neighbours with MLPs alone. "
    "On seven benchmarks it is more accurate than attention-based models and trains three times faster.",
    f"{_OPENING} Its neighbour sampler keeps the most recent interactions and its readout is a mean. "
    "Ablations show that the time encoding matters more than the mixer on sparse interaction graphs.",
)


def test_a_rebuild_takes_a_clashing_texts_other_titles_from_the_cache(tmp_path, monkeypatch):
    """Two abstracts whose preferred titles are the same: the second takes one of its other
    titles, which the cache keeps (they cost a second analysis) and a rebuild reuses."""
    monkeypatch.chdir(tmp_path)
    Path("seeds").mkdir()
    Path("seeds/clash.txt").write_text("ICML 2026 Papers\n\n" + "\n\n".join(_CLASHING) + "\n", encoding="utf-8")
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    doc = json.loads(cache.read_text(encoding="utf-8"))
    keys = {text_key(t): t for t in _CLASHING}
    ranked = [k for k, v in doc["derived"].items() if len(v) == 4]
    assert len(ranked) == 1 and ranked[0] in keys, "the clashing text's titles are not in the cache"
    second = keys[ranked[0]]
    assert _titles(Path("docs"))[second] in doc["derived"][ranked[0]][3]
    doc["derived"][ranked[0]][3] = [doc["derived"][ranked[0]][2], POISON]
    cache.write_text(json.dumps(doc), encoding="utf-8")
    build([Path("seeds")], Path("docs"), cache=cache)
    assert _titles(Path("docs"))[second] == POISON


def test_a_cache_from_another_generator_or_taxonomy_is_not_used(project, caplog):
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    text = sorted(_titles(project / "docs"))[0]
    _poison(cache, text, stamp="0" * 32)
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert _titles(project / "docs")[text] != POISON
    assert "changed since the cache" in caplog.text
    # the cache was written again, for this generator
    assert json.loads(cache.read_text(encoding="utf-8"))["fingerprint"] == fingerprint(b"")
    # a taxonomy of one's own is part of the fingerprint
    taxonomy = project / "taxonomy.yml"
    shutil.copy(REPO / "generator" / "derive" / "taxonomy.yml", taxonomy)
    assert fingerprint(taxonomy.read_bytes()) != fingerprint(b"")
    _poison(cache, text)
    build([Path("seeds")], Path("docs"), taxonomy=taxonomy, cache=cache)
    assert _titles(project / "docs")[text] != POISON


@pytest.mark.parametrize("content", [
    "not json {",
    "[1, 2]",
    '{"fingerprint": "STAMP", "derived": {"k": [1, 2]}}',
    '{"fingerprint": "STAMP", "derived": {"k": [["Music"], [["Music", "not a list"]], "T"]}}',
    b"\xff\xfe not utf-8",
], ids=["not JSON", "a list", "an entry of two", "evidence of another shape", "not UTF-8"])
def test_a_broken_cache_is_derived_again_and_rewritten(project, caplog, content):
    cache = project / ".cache" / "derived.json"
    cache.parent.mkdir()
    if isinstance(content, bytes):
        cache.write_bytes(content)
    else:
        cache.write_text(content.replace("STAMP", fingerprint(b"")), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        result = build([Path("seeds")], Path("docs"), cache=cache)
    assert len(result.digest) == 36
    assert "deriving every title and tag" in caplog.text
    assert len(json.loads(cache.read_text(encoding="utf-8"))["derived"]) == 36


def test_a_cache_that_cannot_be_written_does_not_fail_the_build(project, caplog):
    cache = project / "cache-is-a-folder"
    (cache / "inside").mkdir(parents=True)
    with caplog.at_level(logging.WARNING):
        result = build([Path("seeds")], Path("docs"), cache=cache)
    assert len(result.digest) == 36 and (project / "docs" / "papers.json").is_file()
    assert "cannot write the cache" in caplog.text
    assert not list(project.glob("cache-is-a-folder.tmp"))


def test_a_rebuild_of_the_same_texts_leaves_the_cache_and_one_of_other_texts_rewrites_it(project, monkeypatch):
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = cache.read_bytes()
    writes = []
    real = build_module.write_cache
    monkeypatch.setattr(build_module, "write_cache", lambda *a, **k: writes.append(a) or real(*a, **k))
    build([Path("seeds")], Path("docs"), cache=cache)
    assert writes == [] and cache.read_bytes() == before  # nothing derived anew: 1 s of JSON at 50,000 papers
    seed = sorted(Path("seeds").glob("*.txt"))[0]
    text = seed.read_text(encoding="utf-8")
    dropped = text.split("\n\n")[-1].strip()  # the file's last abstract leaves the digest
    seed.write_text(text[: text.rindex(dropped)].rstrip() + "\n", encoding="utf-8")
    build([Path("seeds")], Path("docs"), cache=cache)
    assert len(writes) == 1
    assert text_key(dropped) not in json.loads(cache.read_text(encoding="utf-8"))["derived"]
    assert text_key(dropped) in json.loads(before)["derived"]
