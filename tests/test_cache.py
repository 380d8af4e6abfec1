"""The derive cache: a rebuild reuses the titles and tags of texts it has seen, and only while
the generator and the taxonomy are the ones that derived them."""
from __future__ import annotations

import json
import logging
import re
import shutil
from pathlib import Path

import pytest
from support import REPO

from generator import pipeline as build_module
from generator.core.statefile import KEY, SHARDS, shard_path
from generator.derive.cache import fingerprint, text_key
from generator.pipeline import build

POISON = "A Title Only the Cache Knows"


def _stand_in(text: str) -> str:
    """A title the title stage does not give ``text`` but could have (words of it): what a
    test puts in the cache to see that a build takes its title from there."""
    return " ".join(w.capitalize() for w in re.findall(r"[A-Za-z]+", text)[3:8])


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


def _load(cache: Path) -> dict:
    """The cache's shards as one document: their fingerprints and every entry."""
    docs = [json.loads(shard_path(cache, s).read_text(encoding="utf-8")) for s in SHARDS]
    return {"fingerprints": {d["fingerprint"] for d in docs}, "derived": {k: v for d in docs for k, v in d["derived"].items()}}


def _edit(cache: Path, key: str, change) -> None:
    """``change`` the document of the shard that holds ``key``, written back as the generator
    writes JSON and with its hash as it was: only the content differs from what was hashed."""
    path = shard_path(cache, key[0])
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert "mac" in doc, "the generator wrote no hash"
    change(doc)
    mac = doc.pop("mac")
    doc["mac"] = mac
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _poison(cache: Path, text: str, stamp: str | None = None, title: str = POISON) -> None:
    """Give one text another title in the cache, keeping (or replacing) its shard's fingerprint."""
    def change(doc: dict) -> None:
        doc["derived"][text_key(text)][2] = title
        if stamp is not None:
            doc["fingerprint"] = stamp
    _edit(cache, text_key(text), change)


def test_a_build_from_the_cache_is_the_build_without_it(project):
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=None)
    without = _tree(project / "docs")
    build([Path("seeds")], Path("cold"), cache=cache)
    doc = _load(cache)
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
    assert _titles(project / "docs")[text] != _stand_in(text)
    _poison(cache, text, title=_stand_in(text))
    build([Path("seeds")], Path("docs"), cache=cache)
    titles = _titles(project / "docs")
    assert titles[text] == _stand_in(text)
    assert list(titles.values()).count(_stand_in(text)) == 1


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
    doc = _load(cache)
    keys = {text_key(t): t for t in _CLASHING}
    ranked = [k for k, v in doc["derived"].items() if len(v) == 4]
    assert len(ranked) == 1 and ranked[0] in keys, "the clashing text's titles are not in the cache"
    second = keys[ranked[0]]
    assert _titles(Path("docs"))[second] in doc["derived"][ranked[0]][3]
    _edit(cache, ranked[0], lambda d: d["derived"][ranked[0]].__setitem__(3, [d["derived"][ranked[0]][2], _stand_in(second)]))
    build([Path("seeds")], Path("docs"), cache=cache)
    assert _titles(Path("docs"))[second] == _stand_in(second)


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
    assert _load(cache)["fingerprints"] == {fingerprint(b"")}
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
    shard = shard_path(cache, "7")
    if isinstance(content, bytes):
        shard.write_bytes(content)
    else:
        shard.write_text(content.replace("STAMP", fingerprint(b"")), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        result = build([Path("seeds")], Path("docs"), cache=cache)
    assert len(result.digest) == 36
    assert "deriving every title and tag" in caplog.text
    assert len(_load(cache)["derived"]) == 36


def test_a_cache_that_cannot_be_written_does_not_fail_the_build(project, caplog):
    cache = project / ".cache" / "derived.json"
    for s in SHARDS:  # each shard's name taken by a folder
        (shard_path(cache, s) / "inside").mkdir(parents=True)
    with caplog.at_level(logging.WARNING):
        result = build([Path("seeds")], Path("docs"), cache=cache)
    assert len(result.digest) == 36 and (project / "docs" / "papers.json").is_file()
    assert "cannot write the cache" in caplog.text
    assert not list(cache.parent.glob("derived-*.tmp"))


def test_a_rebuild_of_the_same_texts_leaves_the_cache_and_one_of_other_texts_rewrites_it(project, monkeypatch):
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    shards = {s: shard_path(cache, s).stat() for s in SHARDS}
    before = _load(cache)
    writes = []
    real = build_module.write_cache
    monkeypatch.setattr(build_module, "write_cache", lambda *a, **k: writes.append(a) or real(*a, **k))
    build([Path("seeds")], Path("docs"), cache=cache)
    assert writes == [] and _load(cache) == before  # nothing derived anew: 1 s of JSON at 50,000 papers
    seed = sorted(Path("seeds").glob("*.txt"))[0]
    text = seed.read_text(encoding="utf-8")
    dropped = text.split("\n\n")[-1].strip()  # the file's last abstract leaves the digest
    seed.write_text(text[: text.rindex(dropped)].rstrip() + "\n", encoding="utf-8")
    build([Path("seeds")], Path("docs"), cache=cache)
    assert len(writes) == 1
    assert text_key(dropped) not in _load(cache)["derived"]
    assert text_key(dropped) in before["derived"]
    # only the shard that held the dropped text was written again
    rewritten = {s for s in SHARDS if shard_path(cache, s).stat().st_ino != shards[s].st_ino}
    assert rewritten == {text_key(dropped)[0]}


def _papers(docs: Path) -> dict[str, dict]:
    return {p["abstract"]: p for p in json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]}


def _tamper(cache: Path, text: str, change) -> None:
    _edit(cache, text_key(text), lambda doc: change(doc["derived"][text_key(text)]))


@pytest.mark.parametrize("change, said", [
    (lambda e: e.__setitem__(0, ["Cryptocurrency"]), "tags that are not up to 4 topics of the taxonomy"),
    (lambda e: e.__setitem__(0, e[0] + e[0]), "tags that are not up to 4 topics of the taxonomy"),
    (lambda e: e.__setitem__(0, "Music"), "tags that are not a list of names"),
    (lambda e: e[1][0].__setitem__(1, ["<b>buy now</b>"]), "evidence that is not phrases of its topic or words"),
    (lambda e: e.__setitem__(1, e[1][::-1] + [["Music", []]]), "evidence that is not for the tags"),
    (lambda e: e.__setitem__(2, ["A", "B"]), "titles that are not strings"),
    (lambda e: e.append({"x": 1}), "titles that are not strings"),
], ids=["a tag no topic", "tags twice", "tags a string", "evidence no phrase of its topic", "evidence not the tags'",
        "a title a list", "other titles a mapping"])
def test_a_cache_with_tags_no_topic_or_values_of_another_shape_is_not_used(project, caplog, change, said):
    """The deploy restores .cache/derived.json from a cache, with the fingerprint anyone can
    compute from the source: a tag that names no topic was published as it was."""
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _papers(project / "docs")
    text = next(t for t, p in sorted(before.items()) if p["tag_evidence"] and all(p["tag_evidence"].values()))
    _tamper(cache, text, change)
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert f".cache/derived.json: {said}, which this generator does not write: deriving every title and tag" in caplog.text
    assert _papers(project / "docs") == before


@pytest.mark.parametrize("hostile", [
    "<img src=x onerror=alert(document.domain)>",
    "Buy Cheap Pills at Evil Example",
    "A Title Only the Cache Knows",
    "Graph\nNetworks",
    "Graph\x1b[2J Networks",
    "Learning " * 20,
    " ",
], ids=["markup", "words of no abstract", "a title of other words", "a line break", "a control character",
        "too long", "blank"])
def test_a_cached_title_the_title_stage_could_not_make_of_its_abstract_is_not_published(project, caplog, hostile):
    """Keys and fingerprint are hashes of public text, so a forged cache passes both: a title
    is reused only when it is made of its abstract's own words (generator.derive.title.could_be_title),
    else that abstract is titled again and the log says so."""
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _titles(project / "docs")
    text = sorted(before)[0]
    _tamper(cache, text, lambda e: e.__setitem__(2, hostile))
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert _titles(project / "docs") == before
    assert ".cache/derived.json: 1 cached title(s) or evidence not made of their abstract: derived again" in caplog.text


def test_a_cached_other_title_the_title_stage_could_not_make_is_not_published(tmp_path, monkeypatch, caplog):
    """The other titles of a text whose first title another paper holds are checked the same."""
    monkeypatch.chdir(tmp_path)
    Path("seeds").mkdir()
    Path("seeds/clash.txt").write_text("ICML 2026 Papers\n\n" + "\n\n".join(_CLASHING) + "\n", encoding="utf-8")
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _titles(Path("docs"))
    doc = _load(cache)
    key = next(k for k, v in doc["derived"].items() if len(v) == 4)
    _edit(cache, key, lambda d: d["derived"][key].__setitem__(3, [d["derived"][key][2], POISON]))
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert _titles(Path("docs")) == before
    assert ".cache/derived.json: 1 cached title(s) or evidence not made of their abstract: derived again" in caplog.text


def test_cached_evidence_of_words_the_abstract_does_not_hold_is_not_published(project, caplog):
    """The tagger shows the abstract's own words as evidence beside its topic's phrases: a
    forged cache could put any plain words there, so an entry whose evidence holds a word its
    abstract does not is derived again (that abstract alone)."""
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _papers(project / "docs")
    text = next(t for t, p in sorted(before.items()) if p["tag_evidence"] and all(p["tag_evidence"].values()))
    _tamper(cache, text, lambda e: e[1][0].__setitem__(1, e[1][0][1] + ["cryptocurrency giveaway"]))
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert _papers(project / "docs") == before
    assert "giveaway" not in json.dumps(_papers(project / "docs")[text]["tag_evidence"])
    assert ".cache/derived.json: 1 cached title(s) or evidence not made of their abstract: derived again" in caplog.text


def test_an_entry_with_more_other_titles_than_read_is_left_out_not_the_whole_cache(tmp_path):
    # at 20,000 synthetic papers two abstracts had 66 other titles where the reader took at
    # most 64: the whole cache was refused, and every rebuild derived all 20,000 texts again
    from generator.derive.cache import MAX_OTHERS, read_cache, write_cache
    from generator.derive.tag import load_taxonomy

    topics = load_taxonomy(None)
    many = tuple(f"Title {n}" for n in range(MAX_OTHERS + 1))
    entries = {"a" * 32: ((), (), "One", None), "b" * 32: ((), (), "Two", many[:MAX_OTHERS]), "c" * 32: ((), (), "Three", many)}
    path = tmp_path / "derived.json"
    write_cache(path, "stamp", entries)
    assert set(read_cache(path, "stamp", topics)) == {"a" * 32, "b" * 32}


def test_a_forged_entry_with_no_local_key_is_refused_as_before(project, caplog):
    """The deploy starts without the key (no workflow restores it): every entry is checked."""
    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _papers(project / "docs")
    text = sorted(before)[0]
    _tamper(cache, text, lambda e: e.__setitem__(0, ["Cryptocurrency"]))
    (cache.parent / KEY).unlink()
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert ".cache/derived.json: tags that are not up to 4 topics of the taxonomy, which this generator does not write" in caplog.text
    assert _papers(project / "docs") == before


def test_a_corrupt_local_key_is_said_and_every_entry_checked(project, caplog):
    """A forgery hashed under the key (only this machine can) is taken as the generator's own;
    once the key file is corrupt, it is checked and refused, and the build says why."""
    from generator.core.statefile import write_state

    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    before = _titles(project / "docs")
    text = sorted(before)[0]
    path = shard_path(cache, text_key(text)[0])
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["mac"]
    doc["derived"][text_key(text)][2] = POISON
    write_state(path, doc, "")  # hashed under this machine's key
    build([Path("seeds")], Path("other"), cache=cache)
    assert _titles(project / "other")[text] == POISON  # vouched for: not checked
    (cache.parent / KEY).write_bytes(b"not a key")
    with caplog.at_level(logging.INFO):
        build([Path("seeds")], Path("docs"), cache=cache)
    assert f"cannot use the local key {cache.parent / KEY} (9 bytes, not 32)" in caplog.text
    assert ".cache/derived.json: 1 cached title(s) or evidence not made of their abstract: derived again" in caplog.text
    assert _titles(project / "docs") == before


def test_the_vouched_for_and_the_checked_reading_give_the_same_entries(project):
    from generator.derive.cache import read_cache
    from generator.derive.tag import load_taxonomy

    cache = Path(".cache/derived.json")
    build([Path("seeds")], Path("docs"), cache=cache)
    topics = load_taxonomy(None)
    fast = read_cache(cache, fingerprint(b""), topics)
    assert len(fast) == 36 and fast.vouched == set(fast) and fast.vouched_shards == set(SHARDS)
    (cache.parent / KEY).unlink()
    checked = read_cache(cache, fingerprint(b""), topics)
    assert checked.vouched == set() and checked.vouched_shards == set()
    assert dict(checked) == dict(fast)


def test_a_new_python_unicode_table_or_library_makes_every_cache_cold(monkeypatch):
    """Kept words, tags and rows are made with ``re``'s and ``str.lower``'s Unicode tables and
    with numpy and the rest: a character unassigned in Python 3.11's tables (U+31350) is a
    letter in 3.12's, so a kept entry could differ from what a build from nothing makes. The
    caches' key changes with each."""
    import platform
    import unicodedata
    from importlib import metadata

    base = fingerprint(b"")
    assert fingerprint(b"") == base  # deterministic
    with monkeypatch.context() as m:
        m.setattr(unicodedata, "unidata_version", "15.0.0" if unicodedata.unidata_version != "15.0.0" else "14.0.0")
        assert fingerprint(b"") != base
    with monkeypatch.context() as m:
        m.setattr(platform, "python_version", lambda: "3.99.0")
        assert fingerprint(b"") != base
    real = metadata.version
    with monkeypatch.context() as m:
        m.setattr(metadata, "version", lambda name: "0.0.1" if name == "numpy" else real(name))
        assert fingerprint(b"") != base
    assert fingerprint(b"") == base
