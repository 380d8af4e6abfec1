"""The split search index (generator/pages/search_index.py), read back with a decoder written here
from the file formats its docstring gives, and checked against the papers' words
counted here independently: every word of every paper is found, in the shard a query
for it opens, and nothing else is."""
from __future__ import annotations

import json
import re
import struct
from collections import defaultdict

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.model import Link, Paper, Source, Topic
from generator.pages.search_index import MAX_KEY, STOP, Known, home, numbers, search_files, search_files_kept, slots

WORD = re.compile(r"[^\W_]+")
TOPICS = (
    Topic("Reinforcement Learning", "reinforcement-learning", "", ()),
    Topic("Computer Vision", "computer-vision", "", ()),
)


def paper(i: int, title: str, text: str, tags=(), code=False, year=2024, venue="ICML") -> Paper:
    links = (Link("https://github.com/a/b", "code"),) if code else ()
    return Paper(id=f"{i:012x}", text=text, venue=venue, year=year, sources=(Source("seeds/x.txt", 1 + i),),
                 links=links, title=title, tags=tuple(tags))


def fnv1a(text: str) -> int:
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) % 2**32
    return h


def fmix(h: int) -> int:
    h ^= h >> 16
    h = (h * 0x85EBCA6B) % 2**32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) % 2**32
    return h ^ (h >> 16)


def decode(files: dict) -> dict:
    meta = json.loads(files["search/meta.json"])
    fmt = "H" if meta["width"] == 2 else "I"
    shards = []
    for key in meta["keys"]:
        raw = files[f"search/t/{key.encode('utf-8').hex()}.bin"]
        (length,) = struct.unpack_from("<I", raw, 0)
        header = json.loads(raw[4 : 4 + length].decode("utf-8"))
        at = 4 + length + (-(4 + length) % 4)
        total = sum(df for _, df in header)
        ids = struct.unpack_from(f"<{total}{fmt}", raw, at)
        scores = raw[at + total * meta["width"] : at + total * meta["width"] + total]
        terms, start = {}, 0
        for term, df in header:
            terms[term] = list(zip(ids[start : start + df], scores[start : start + df]))
            start += df
        shards.append((key, terms))
    pairs = {}
    for b in range(meta["pairs"]):
        raw = files[f"search/p/{b}.bin"]
        (count,) = struct.unpack_from("<I", raw, 0)
        hashes = struct.unpack_from(f"<{count}I", raw, 4)
        offsets, at = [0], 4 + 4 * count
        for _ in range(count):  # each hash's number of papers, unsigned LEB128
            n = shift = 0
            while True:
                byte = raw[at]
                at += 1
                n |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            offsets.append(offsets[-1] + n)
        at += -at % meta["width"]
        assert len(raw) == at + offsets[-1] * meta["width"]
        ids = struct.unpack_from(f"<{offsets[-1]}{fmt}", raw, at)
        for k, h in enumerate(hashes):
            assert h % meta["pairs"] == b
            pairs[h] = set(ids[offsets[k] : offsets[k + 1]])
    # the result files by number: numbers are slots of a table of meta["slots"], not all used
    docs = {}
    for path, data in files.items():
        if path.startswith("search/d/"):
            d = int(path.removeprefix("search/d/").removesuffix(".json"))
            assert 0 <= d < meta["slots"] and (meta["width"] == 4 or d <= 0xFFFF)
            docs[d] = json.loads(data)
    assert len(docs) == meta["docs"]
    order = list(struct.unpack(f"<{meta['docs']}{fmt}", files["search/order.bin"]))
    assert sorted(order) == sorted(docs)
    return {"meta": meta, "shards": shards, "pairs": pairs, "docs": docs, "order": order,
            "facets": json.loads(files["search/facets.json"])}


def shard_for(meta: dict, word: str) -> int:
    """The worker's rule: the longest key the word starts with."""
    for n in range(min(MAX_KEY, len(word)), 0, -1):
        if word[:n] in meta["keys"]:
            return meta["keys"].index(word[:n])
    return -1


def expected(papers: list[Paper], docs: list[dict]) -> dict[str, set[int]]:
    """term -> paper numbers, from the title, the shown text and the topics of each paper."""
    number = {d["url"]: i for i, d in docs.items()}
    out = defaultdict(set)
    for p in papers:
        d = number[f"papers/{p.id}/"]
        for w in WORD.findall(f"{p.title} {docs[d]['text']} {' '.join(p.tags)}".lower()):
            if w not in STOP:
                out[w].add(d)
    return out


def utf16(text: str) -> bytes:
    """A string as JavaScript compares strings: by UTF-16 code units (big-endian bytes sort alike)."""
    return text.encode("utf-16-be", "surrogatepass")


def worker_expand(terms: list[str], prefix: str) -> list[str]:
    """The worker's expandIn: a binary search with JavaScript's ``<`` on the shard's terms
    as listed, then every term from there that starts with ``prefix``."""
    lo, hi = 0, len(terms)
    while lo < hi:
        mid = (lo + hi) // 2
        if utf16(terms[mid]) < utf16(prefix):
            lo = mid + 1
        else:
            hi = mid
    out = []
    while lo < len(terms) and terms[lo].startswith(prefix):
        out.append(terms[lo])
        lo += 1
    return out


def check(papers: list[Paper]) -> dict:
    files = search_files(papers, TOPICS)
    index = decode(files)
    meta, docs = index["meta"], index["docs"]
    assert sorted(d["url"] for d in docs.values()) == sorted(f"papers/{p.id}/" for p in papers)
    want = expected(papers, docs)
    found = {}
    for key, terms in index["shards"]:
        for term, postings in terms.items():
            assert term.startswith(key) and term not in found
            found[term] = {d for d, _ in postings}
    assert found == dict(want)
    for term in want:  # a query for the word opens the shard that has it
        key, terms = index["shards"][shard_for(meta, term)]
        assert term in terms, (term, key)
        # and the worker's binary search finds it there, with every term it is a prefix of
        assert worker_expand(list(terms), term) == [t for t in terms if t.startswith(term)], (term, key)
        if len(term) > MAX_KEY:  # and every longer term it is a prefix of
            longer = {t for t in want if t.startswith(term)}
            assert longer <= set(terms), (term, key)
    by_number = {f"papers/{p.id}/": p for p in papers}
    for key, terms in index["shards"]:
        for term, postings in terms.items():
            for d, score in postings:
                p = by_number[docs[d]["url"]]
                assert bool(score & 64) == (term in WORD.findall(p.title.lower())), (term, p.title)
                assert bool(score & 128) == (term in WORD.findall(" ".join(p.tags).lower()))
    for d, doc in docs.items():  # every adjacent pair of title + text is filed under its hash
        seq = WORD.findall(doc["title"].lower()) + WORD.findall(doc["text"].lower())
        for a, b in zip(seq, seq[1:]):
            h = fmix(((fnv1a(a) * 16777619) % 2**32) ^ fnv1a(b))
            assert d in index["pairs"][h], (a, b)
    return index


def test_index_finds_every_word_and_pair_of_small_digest():
    papers = [
        paper(0, "Deep Q-Networks for Atari", "We play Atari games with deep Q-networks. Code at https://github.com/a/b.",
              tags=["Reinforcement Learning"], code=True),
        paper(1, "Convolutional Image Models", "Image classification with convolutional networks and $\\alpha$-blending.",
              tags=["Computer Vision"], year=2023),
        paper(2, "Über Lernen", "Ein Modell für naïve Lernverfahren; 𝒜-Räume und 東京 data.", venue="NeurIPS"),
    ]
    index = check(papers)
    # order.bin lists the papers by title
    assert [index["docs"][d]["title"] for d in index["order"]] == sorted((p.title for p in papers), key=str.casefold)
    facets = index["facets"]
    topic = {slug: name for slug, name, _ in facets["topic"]}
    assert topic == {"reinforcement-learning": "Reinforcement Learning", "computer-vision": "Computer Vision"}

    def members(entry):
        out, d = [], 0
        for delta in entry[2]:
            d += delta
            out.append(index["docs"][d]["title"])
        return sorted(out)

    assert members(facets["code"][0]) == ["Deep Q-Networks for Atari"]
    assert {e[0]: members(e) for e in facets["year"]} == {"2024": ["Deep Q-Networks for Atari", "Über Lernen"], "2023": ["Convolutional Image Models"]}


def test_a_parent_topics_filter_holds_the_papers_of_the_topics_inside_it():
    topics = (*TOPICS, Topic("Deep RL", "deep-rl", "", (), parent="reinforcement-learning"),
              Topic("Atari Agents", "atari-agents", "", (), parent="deep-rl"))
    papers = [paper(0, "Atari", "Agents for Atari.", tags=["Atari Agents"]),
              paper(1, "Bandit Theory", "Regret bounds.", tags=["Reinforcement Learning"]),
              paper(2, "Deep Q", "Deep Q-learning on images.", tags=["Computer Vision", "Deep RL"]),
              paper(3, "Images", "Image classification.", tags=["Computer Vision"])]
    index = check_topics(papers, topics)
    assert index == {"reinforcement-learning": ["Atari", "Bandit Theory", "Deep Q"],
                     "computer-vision": ["Deep Q", "Images"], "deep-rl": ["Atari", "Deep Q"], "atari-agents": ["Atari"]}


def check_topics(papers: list[Paper], topics) -> dict[str, list[str]]:
    """Topic slug -> the titles of the papers its filter holds."""
    files = search_files(papers, topics)
    docs = decode(files)["docs"]
    out = {}
    for slug, _, deltas in json.loads(files["search/facets.json"])["topic"]:
        d, out[slug] = 0, []
        for delta in deltas:
            d += delta
            out[slug].append(docs[d]["title"])
        out[slug].sort()
    return out


def test_words_the_worker_orders_otherwise_are_found():
    """The worker binary-searches a shard's terms with JavaScript's ``<``, which compares
    UTF-16 code units; the terms were listed in Python's order, by code point. The two
    differ where a character beyond U+FFFF (two code units from U+D800) meets one from
    U+E000 to U+FFFF: math letters pasted from a PDF ("𝐛", "𝑥") beside full-width letters,
    ligatures ("ﬁ") or presentation forms. The search for "ａ𝐛" then missed its paper."""
    papers = [paper(0, "Full-width", "Models of ａｂ and ａｃ for all."),
              paper(1, "Math letters", "Models of ａ𝐛 and ａ𝑥 for all.")]
    index = check(papers)
    key, terms = index["shards"][shard_for(index["meta"], "ａ𝐛")]
    assert worker_expand(list(terms), "ａ𝐛") == ["ａ𝐛"]


def test_big_shards_are_split_and_still_found():
    """Many words sharing a start make shards split down to MAX_KEY characters."""
    vocab = [f"con{a}{b}{c}tion" for a in "abcdefgh" for b in "abcdefgh" for c in "abcd"]
    papers = [paper(i, f"Paper {i} con", " ".join(vocab[(i * 7 + k) % len(vocab)] for k in range(120)) + " contrast con co c")
              for i in range(200)]
    index = check(papers)
    keys = index["meta"]["keys"]
    assert any(len(k) == MAX_KEY for k in keys) and "con" in keys  # "con" itself stays in the split key's shard


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=40), st.text(max_size=300)), min_size=1, max_size=12))
def test_index_of_arbitrary_text(items):
    check([paper(i, title, text) for i, (title, text) in enumerate(items)])


def test_pair_counts_are_unsigned_leb128():
    from generator.pages.search_index import varints

    # the format's own examples: 300 is 0xAC 0x02 (low seven bits first, high bit "more")
    assert varints(np.array([0, 1, 127, 128, 300, 16_384, 2**28])) == bytes(
        [0x00, 0x01, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0x80, 0x80, 0x01, 0x80, 0x80, 0x80, 0x80, 0x01])


def test_a_pair_in_hundreds_of_papers_is_found_in_each():
    # 300 papers share "spectral wavelets": its count takes two bytes, the others' one
    papers = [paper(i, f"Paper {i}", f"Spectral wavelets number {i} for graphs of kind k{i % 7}.") for i in range(300)]
    index = check(papers)
    pair = lambda a, b: fmix(((fnv1a(a) * 16777619) % 2**32) ^ fnv1a(b))  # noqa: E731
    assert index["pairs"][pair("spectral", "wavelets")] == set(index["docs"])
    assert len(index["pairs"][pair("kind", "k3")]) == sum(1 for i in range(300) if i % 7 == 3)


def test_numbers_depend_on_the_set_of_papers_not_their_order():
    """A rebuild must number the papers as a build from nothing does: the index of the same
    papers in another order is the same files, byte for byte."""
    papers = [paper(i, f"Paper {i}", f"Words of paper {i} about topic k{i % 5}.") for i in range(60)]
    assert search_files(papers, TOPICS) == search_files(papers[::-1], TOPICS)


def test_numbers_are_slots_of_a_table_by_the_ids_hash():
    papers = [paper(i * 7919, f"P{i}", "text") for i in range(2_000)]
    number = numbers(papers)
    space = slots(len(papers))
    assert sorted(set(number.values())) == sorted(number.values())  # one paper a slot
    for p in papers:  # each at its home slot or after it, with every slot between full
        h, d = home(p.id, space), number[p.id]
        assert h <= d and set(range(h, d)) <= set(number.values())


def test_one_paper_more_changes_a_few_search_files():
    """Issue 31: one new abstract renumbered every paper titled after it, and so rewrote
    nearly every file of the index. Now it changes its own result file, the shards and
    pair buckets holding its words, the files about every paper (meta, facets, order) and
    the result files of the few papers it moves in the table."""
    base = [paper(i * 7919, f"Paper {i:03d}", f"Models of kind k{i % 50} with w{i} and v{i % 13} in it.") for i in range(400)]
    added = paper(999_999, "Aardvark first", "Models of kind k3 with zebra in it.")
    before, after = search_files(base, TOPICS), search_files([*base, added], TOPICS)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    results = {k for k in changed if k.startswith("search/d/")}
    assert 1 <= len(results) <= 6, sorted(results)
    index = decode(after)
    new_words = set(WORD.findall(f"{added.title} {added.text}".lower())) - STOP
    touched = {f"search/t/{key.encode('utf-8').hex()}.bin" for key, terms in index["shards"] if new_words & set(terms)}
    moved = {d["url"] for k in results if (d := json.loads(after.get(k) or before[k]))["url"] != f"papers/{added.id}/"}
    shards = {k for k in changed if k.startswith("search/t/")}
    assert touched <= shards
    if not moved:  # the new paper moved no other: only the shards with its words changed
        assert shards == touched
    assert len(shards) < len([k for k in after if k.startswith("search/t/")])
    assert {k for k in changed if not k.startswith(("search/d/", "search/t/", "search/p/"))} == {
        "search/meta.json", "search/facets.json", "search/order.bin"}


def test_what_a_long_lived_builder_keeps_gives_the_same_index():
    """The preview's builder keeps each paper's words and result between builds: the next
    build's index is the one made from nothing, and only a new or changed paper is made anew."""
    base = [paper(i, f"Paper {i:03d}", f"Models of kind k{i % 7} with w{i} and $x^{i}$ in it.", tags=("Computer Vision",))
            for i in range(30)]
    files, learned = search_files_kept(base, TOPICS, Known())
    assert files == search_files(base, TOPICS) and len(learned.words) == len(learned.docs) == 30
    known = Known().after(base, TOPICS, learned)
    retitled = Paper(**{**base[3].__dict__, "title": "Another title"})
    now = [*base[:3], retitled, *base[4:], paper(99, "Aardvark", "A new abstract about zebras and models.")]
    files, learned = search_files_kept(now, TOPICS, known)
    assert files == search_files(now, TOPICS)
    assert set(learned.words) == {now[-1].text}  # the retitled paper's words are its text's, known
    assert {key[0] for key in learned.docs} == {retitled.id, now[-1].id}
    assert len(known.after(now, TOPICS, learned).docs) == 31  # the old result of the retitled paper is gone


def test_what_a_one_shot_build_keeps_on_disk_gives_the_same_index(tmp_path):
    """``.cache/search-*.json`` (generator/pages/search_cache.py): read back, the next build's
    index is the one made from nothing, and only the shards whose papers changed are written."""
    from generator.pages.search_cache import KeptSearch, read_search_cache, search_files_cached, write_search_cache
    path = tmp_path / "search.json"
    base = [paper(i * 7919, f"Paper {i:03d}", f"Models of kind k{i % 7} with w{i} and $x^{i}$ in it.", tags=("Computer Vision",))
            for i in range(40)]
    files, shards = search_files_cached(base, TOPICS, KeptSearch(), "s")
    assert files == search_files(base, TOPICS) and len(shards) == 16
    write_search_cache(path, shards)
    kept = read_search_cache(path, "s")
    assert len(kept.papers) == 40 and len(kept.vouched) == 16
    retitled = Paper(**{**base[3].__dict__, "title": "Another title"})
    now = [*base[:3], retitled, *base[4:], paper(99, "Aardvark", "A new abstract about zebras and models.")]
    files, shards = search_files_cached(now, TOPICS, kept, "s")
    assert files == search_files(now, TOPICS)
    assert 1 <= len(shards) <= 3  # the shards of the retitled paper's old and new keys and of the new paper's
    assert read_search_cache(path, "another generator").papers == {}


def test_a_kept_search_shard_this_machine_did_not_write_is_not_published(tmp_path):
    """Its result files are published as they are: an entry edited on disk (or restored from
    another machine's cache) must not reach the index, however well formed."""
    from generator.pages.search_cache import read_search_cache, search_files_cached, write_search_cache
    path = tmp_path / "search.json"
    base = [paper(i, f"Paper {i:03d}", f"Plain words number w{i} here.") for i in range(20)]
    write_search_cache(path, search_files_cached(base, TOPICS, read_search_cache(path, "s"), "s")[1])
    for shard in path.parent.glob("search-*.json"):
        doc = json.loads(shard.read_text(encoding="utf-8"))
        for key, (words, result) in doc["papers"].items():
            forged = json.loads(result)
            forged["title"] = '<img src=x onerror="alert(1)">'
            doc["papers"][key] = [words + " injected", json.dumps(forged)]
        shard.write_text(json.dumps(doc), encoding="utf-8")  # the local key's hash still there, now wrong
    kept = read_search_cache(path, "s")
    assert kept.papers == {} and kept.vouched == frozenset()
    files = search_files_cached(base, TOPICS, kept, "s")[0]
    assert files == search_files(base, TOPICS)
    assert not any(b"onerror" in (v if isinstance(v, bytes) else v.encode()) for v in files.values())


def test_the_index_worker_reads_and_writes_the_kept_papers_itself(tmp_path, monkeypatch):
    """At a digest's size the index runs in a forked worker (``pipeline._index_kept``), which
    reads the kept shards and writes the changed ones there, sending back the files alone: a
    second build in a worker gives the index of a build from nothing, from what the first wrote."""
    import pytest

    from generator import pipeline
    from generator.core.parallel import Background, workers
    from generator.pages.search_cache import read_search_cache

    monkeypatch.delenv("DIGEST_SERIAL", raising=False)
    if workers() < 2:
        pytest.skip("one core: no worker is forked")
    path = tmp_path / "search.json"
    base = [paper(i * 7919, f"Paper {i:03d}", f"Models of kind k{i % 50} with w{i} and v{i % 13} in it.") for i in range(450)]
    first = Background(lambda: pipeline._index_kept(base, TOPICS, path, "s"), worth_it=True)
    assert first._pool is not None  # a forked worker, not this process
    assert first.result() == search_files(base, TOPICS)
    assert len(read_search_cache(path, "s").papers) == 450  # written by the worker
    now = [*base[:-1], paper(999_999, "Aardvark first", "Models of kind k3 with zebra in it.")]
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("search-*.json")}
    second = Background(lambda: pipeline._index_kept(now, TOPICS, path, "s"), worth_it=True)
    assert second.result() == search_files(now, TOPICS)
    after = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("search-*.json")}
    assert 1 <= sum(before[k] != after[k] for k in after) <= 2  # the removed paper's shard and the new one's
    assert len(read_search_cache(path, "s").papers) == 450
