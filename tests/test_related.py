"""Related papers: terms, the top-k search, exclusions, ties, determinism, and real abstracts."""
from __future__ import annotations

import base64
import json
import logging
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import sparse
from support import published_papers

from generator.core.errors import GeneratorError
from generator.core.model import Paper, Source
from generator.core.statefile import KEY, SHARDS, shard_path
from generator.derive import related as rel
from generator.derive.related import load_stop_words, related, terms
from generator.derive.related_cache import read_rows, write_rows
from generator.seeds.parse import parse_seed

SEEDS = Path(__file__).resolve().parents[1] / "seeds"

GRAPHS = [
    "Graph neural networks pass messages between the nodes of a graph; we study message passing with edge attention for molecular property prediction.",
    "We propose a message passing graph network whose node embeddings are pooled hierarchically, improving molecular graph classification.",
    "Over-smoothing limits deep graph neural networks: node embeddings converge after many message passing layers; residual edges keep them apart.",
]
BANDITS = [
    "Multi-armed bandits trade exploration against exploitation; we prove a regret bound for Thompson sampling with delayed rewards.",
    "Contextual bandits with delayed rewards: an upper confidence bound algorithm whose regret grows with the delay only additively.",
    "We study exploration in bandits where rewards arrive late, and give Thompson sampling regret guarantees under heavy tails.",
]
SPEECH = [
    "Speech recognition from raw waveforms: a convolutional acoustic model trained with connectionist temporal classification on spoken audio.",
    "End-to-end speech recognition with an acoustic encoder over waveforms and a language model decoder, for noisy spoken audio.",
    "Self-supervised acoustic representations of spoken audio waveforms improve low-resource speech recognition.",
]


def paper(pid: str, text: str, **fields) -> Paper:
    return Paper(id=pid, text=text, venue="ICML", year=2026, sources=(Source("seeds/x.txt", 3),), **fields)


def groups() -> tuple[list[Paper], dict[str, str]]:
    papers, group = [], {}
    for name, texts in (("graphs", GRAPHS), ("bandits", BANDITS), ("speech", SPEECH)):
        for i, t in enumerate(texts):
            pid = f"{name[0]}{i}{'0' * 10}"
            papers.append(paper(pid, t))
            group[pid] = name
    return papers, group


def test_each_paper_is_related_first_to_its_own_subject():
    papers, group = groups()
    out = related(papers, k=2)
    for pid, ids in out.items():
        assert len(ids) == 2
        assert [group[q] for q in ids] == [group[pid]] * 2, (pid, ids)


def test_never_the_paper_itself_and_at_most_k():
    papers, _ = groups()
    for k in (1, 3, 8):
        out = related(papers, k=k)
        for pid, ids in out.items():
            assert pid not in ids
            assert len(ids) <= k
            assert len(set(ids)) == len(ids)


def test_a_merged_variant_is_never_related_either_way():
    # "g0" absorbed the variant "g9"; were "g9" also in the list, neither may point at the other.
    papers, _ = groups()
    papers[0] = paper("g0" + "0" * 10, GRAPHS[0], aliases=("g9" + "0" * 10,))
    papers.append(paper("g9" + "0" * 10, GRAPHS[0] + " Code is released."))
    out = related(papers, k=8)
    assert "g9" + "0" * 10 not in out["g0" + "0" * 10]
    assert "g0" + "0" * 10 not in out["g9" + "0" * 10]
    # and a variant that is not an alias would have been the best match: the exclusion is what removed it
    unaliased = [paper(p.id, p.text) for p in papers]
    assert related(unaliased, k=1)["g0" + "0" * 10] == ("g9" + "0" * 10,)


def test_equal_scores_are_ordered_by_id_whatever_the_input_order():
    twin = GRAPHS[1]
    papers = [paper("m" * 12, GRAPHS[0]), paper("zz" + "0" * 10, twin), paper("aa" + "0" * 10, twin), paper("kk" + "0" * 10, BANDITS[0])]
    expected = ("aa" + "0" * 10, "zz" + "0" * 10)
    for seed in range(5):
        random.Random(seed).shuffle(papers)
        assert related(papers, k=2)["m" * 12] == expected


def test_a_paper_sharing_no_term_has_no_related_papers():
    papers, _ = groups()
    papers.append(paper("x" * 12, "Quokkas frolic beside eucalyptus wombats; marsupial ecology transects counted burrows nightly."))
    assert related(papers)["x" * 12] == ()


def test_workers_do_not_change_the_answer():
    # real abstracts, handed out in uneven chunks: the answer must be the one computed in one
    papers = parse_seed((SEEDS / "000_ca08d30626a6d4f8.txt").read_bytes(), "seeds/000.txt")[:60]
    whole = related(papers)

    def uneven(fn, items):
        cut = [0, 5, 23, len(items)]
        return [r for a, b in zip(cut, cut[1:]) for r in fn(items[a:b])]

    assert related(papers, mapper=uneven) == whole
    assert related(list(reversed(papers))) == whole


def test_terms_words_pairs_and_what_is_left_out():
    stop = frozenset({"we", "the", "of", "for"})
    words, pairs = terms(r"We train the \textbf{graph networks} of proteins. Networks for https://x.org/a code!", stop)
    assert words == ["train", "graph", "network", "protein", "network", "code"]
    # no pair across a stop word ("train the graph"), a sentence end or a removed URL's place
    assert pairs == ["graph network"]
    assert "textbf" not in words


def test_shipped_stop_words_load_and_hold_no_booleans():
    words = load_stop_words()
    assert {"the", "we", "no", "on", "off"} <= words
    assert all(isinstance(w, str) for w in words)


def test_a_bad_stop_word_file_names_its_line(tmp_path):
    path = tmp_path / "words.yml"
    path.write_text("stop_words: [the, of,\n  no]\n", encoding="utf-8")
    with pytest.raises(GeneratorError) as e:
        load_stop_words.__wrapped__(path)
    assert str(e.value) == f"{path}:2: 'stop_words' entries must be words (quote on, no, yes), not False"
    path.write_text("stop_words: [the, Two Words]\n", encoding="utf-8")
    with pytest.raises(GeneratorError) as e:
        load_stop_words.__wrapped__(path)
    assert str(e.value) == f"{path}:1: a stop word must be one lower-case word, not 'Two Words'"
    path.write_text("words: [the]\n", encoding="utf-8")
    with pytest.raises(GeneratorError, match="stop_words"):
        load_stop_words.__wrapped__(path)


@pytest.mark.parametrize("k", [1, 3, 40])
def test_top_k_is_the_exact_best_of_each_row(k):
    # against every score of every row, from scipy's product in the same single precision
    # and sorted the slow way; with exclusions, and k beyond some rows' positive scores
    papers = parse_seed((SEEDS / "000_ca08d30626a6d4f8.txt").read_bytes(), "seeds/000.txt")
    papers += parse_seed((SEEDS / "004_a8c92079105dd28c.txt").read_bytes(), "seeds/004.txt")
    m = sparse.csr_matrix(rel.vectors(papers), dtype=np.float32)
    full = (m @ m.T).toarray()
    excluded = [[(i * 7) % len(papers), (i + 1) % len(papers)] for i in range(len(papers))]
    expected = []
    for i, row in enumerate(full):
        ranked = sorted((j for j in range(len(row)) if j != i and j not in excluded[i] and row[j] > 0),
                        key=lambda j: (-row[j], j))
        expected.append(ranked[:k])
    assert any(len(e) < k for e in expected) == (k == 40)
    assert rel.top_k(m, k, excluded) == expected


def test_top_k_breaks_ties_by_index():
    # rows 1, 2 and 4 are the same vector: each is equally like row 0, and rows 3 and 5
    # share nothing with anyone; the lower index comes first, whatever the order of the work
    m = sparse.csr_matrix(np.array([[1, 1, 0], [1, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 0, 0]], dtype=np.float32))
    m = sparse.csr_matrix(m.multiply(1 / np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).clip(1e-9))))
    assert rel.top_k(m, 2) == [[1, 2], [2, 4], [1, 4], [], [1, 2], []]
    assert rel.top_k(m, 5, excluded=[[2], [], [0], [], [], []]) == [[1, 4], [2, 4, 0], [1, 4], [], [1, 2, 0], []]


def test_the_few_rows_a_rebuild_finds_again_are_found_as_the_compiled_loop_finds_them():
    # top_some (numpy, for the few rows a rebuild redoes) against top_k (numba's loop, for a
    # cold build): the same lists, to the last tie, over every row of real abstracts; a build
    # would otherwise give another page than a cold build of the same seeds
    papers = [p for f in sorted(SEEDS.glob("*.txt")) for p in parse_seed(f.read_bytes(), f"seeds/{f.name}")]
    m = sparse.csr_matrix(rel.vectors(papers), dtype=np.float32)
    excluded = [[(i * 7) % len(papers)] if i % 5 == 0 else [] for i in range(len(papers))]
    for k in (1, 8, 40):
        assert rel.top_some(m, k, excluded, range(len(papers))) == rel.top_k(m, k, excluded)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.7, 1 / 3, 1 / 7]), min_size=8, max_size=8),
       st.integers(2, 9), st.integers(1, 5), st.randoms(use_true_random=False))
def test_top_some_and_top_k_agree_on_ties_and_rounding(base, others, k, rnd):
    # every row the same weights over other terms: scores equal but for the order of their
    # sums, so the last bits decide (an order or a precision other than the loop's flips ties)
    m = np.array([base] + [rnd.sample(base, len(base)) for _ in range(others)], dtype=np.float64)
    norms = np.sqrt((m * m).sum(axis=1, keepdims=True))
    m = sparse.csr_matrix(np.divide(m, norms, out=np.zeros_like(m), where=norms > 0), dtype=np.float32)
    n = m.shape[0]
    excluded = [[j for j in range(n) if j != i and rnd.random() < 0.15] for i in range(n)]
    which = [i for i in range(n) if rnd.random() < 0.7]
    every = rel.top_k(m, k, excluded)
    assert rel.top_some(m, k, excluded, which) == [every[i] for i in which]


# -- on the site --------------------------------------------------------------------------


def test_papers_json_and_pages_list_the_related_papers(mission_site):
    import html as html_lib
    import re

    papers = published_papers(mission_site.site)
    by_id = {p["id"]: p for p in papers}
    listed = 0
    for p in papers:
        assert len(p["related"]) <= 8
        assert p["id"] not in p["related"] and not set(p["aliases"]) & set(p["related"])
        assert all(q in by_id for q in p["related"]), p["id"]
        page = (mission_site.site / p["url"] / "index.html").read_text(encoding="utf-8")
        section = page.split('<section class="digest-related">', 1)[1].split("</section>", 1)[0] if p["related"] else ""
        hrefs = re.findall(r'<a href="\.\./([0-9a-f]{12})/">([^<]*)</a>', section)
        assert [h for h, _ in hrefs] == p["related"], p["id"]
        for q, shown in hrefs:
            assert html_lib.unescape(shown) == by_id[q]["title"]
            assert (mission_site.site / "papers" / q / "index.html").is_file()
        listed += len(hrefs)
    assert listed >= 8 * len(papers) // 2  # most papers of a conference have 8


def seed_papers() -> list[Paper]:
    out = {}
    for path in sorted(SEEDS.glob("*.txt")):
        for p in parse_seed(path.read_bytes(), f"seeds/{path.name}"):
            out.setdefault(p.id, p)
    return sorted(out.values(), key=lambda p: p.id)


def test_adding_a_paper_changes_a_list_only_by_entering_it():
    # issue 31: near-ties flipped whenever a corpus-wide statistic moved, so one new paper
    # reshuffled most other pages' related lists. Each paper in turn is the new one.
    papers = seed_papers()
    assert len(papers) > 30
    for new in papers:
        before = related([p for p in papers if p is not new])
        after = related(papers)
        for pid, listed in before.items():
            if new.id in after[pid]:
                at = after[pid].index(new.id)
                expected = (listed[:at] + (new.id,) + listed[at:])[:rel.K]
            else:
                expected = listed
            assert after[pid] == expected, (new.id, pid)


def test_a_score_is_the_same_whatever_the_other_papers():
    papers = seed_papers()
    whole = rel.vectors(papers)
    for i, j in ((0, 1), (3, 17), (20, 35)):
        two = rel.vectors([papers[i], papers[j]])
        assert whole[i].multiply(whole[j]).sum() == two[0].multiply(two[1]).sum() > 0


def test_shipped_term_table_loads_and_a_bad_one_names_its_line(tmp_path):
    table = rel.load_term_weights()
    assert table.abstracts > 3000 and table.words["network"] > table.words["graph"] > 1
    assert "neural network" in table.pairs
    path = tmp_path / "weights.yml"
    path.write_text('about: "x"\nabstracts: 10\nwords:\n  "3": "graph node"\n  "2": "Two"\npairs:\n  "x": "a+b"\n', encoding="utf-8")
    with pytest.raises(GeneratorError) as e:
        rel.load_term_weights.__wrapped__(path)
    assert str(e.value).splitlines() == [
        f"{path}:5: 'words': 'Two' is not a word",
        f"{path}:7: 'pairs': a document frequency must be a number above 0, not 'x'",
    ]
    path.write_text('about: "x"\nabstracts: many\nwords: {}\npairs: {}\n', encoding="utf-8")
    with pytest.raises(GeneratorError) as e:
        rel.load_term_weights.__wrapped__(path)
    assert str(e.value) == f"{path}:2: 'abstracts' must be a whole number above 0, not 'many'"


def _by_ids(papers: list[Paper], found: list[list[int]]) -> dict[str, tuple[str, ...]]:
    return {p.id: tuple(papers[j].id for j in js) for p, js in zip(papers, found)}


def test_rows_kept_in_the_cache_give_what_every_abstract_tokenised_gives(tmp_path, monkeypatch):
    # issue 31: a rebuild tokenises only the new abstracts; the answer is the one of the
    # whole matrix made at once (vectors(), which the cache's rows never pass through).
    papers = seed_papers()
    cold = _by_ids(papers, rel.top_k(rel.vectors(papers), rel.K))
    new = papers[7]
    _, rows = rel.related_rows([p for p in papers if p is not new], None)
    path = tmp_path / "related.json"
    write_rows(path, "stamp", rows)
    assert read_rows(path, "other").rows == {}
    known = read_rows(path, "stamp")
    assert known.rows.keys() == rows.rows.keys()
    tokenised = []
    named = rel._named_vectors
    monkeypatch.setattr(rel, "_named_vectors", lambda ps, *a: tokenised.append(len(ps)) or named(ps, *a))
    found, made = rel.related_rows(papers, known)
    assert tokenised == [1]
    assert found == cold
    assert made.rows.keys() == known.rows.keys() | {rel.row_key(new)}


def _shard_of_a_row(path: Path) -> tuple[Path, dict, str]:
    """The first shard of ``path``'s rows that holds a row, its document (hash taken out) and that row's key."""
    for shard in SHARDS:
        doc = json.loads(shard_path(path, shard).read_text(encoding="utf-8"))
        if doc["rows"]:
            del doc["mac"]
            return shard_path(path, shard), doc, next(iter(doc["rows"]))
    raise AssertionError("no rows written")


def test_a_broken_related_cache_is_said_and_not_used(tmp_path, caplog):
    papers = seed_papers()[:5]
    _, rows = rel.related_rows(papers, None)
    path = tmp_path / "related.json"
    write_rows(path, "s", rows)
    (tmp_path / KEY).unlink()  # as the deploy finds it: every entry is checked
    shard, good, key = _shard_of_a_row(path)
    b64 = lambda a: base64.b64encode(a.tobytes()).decode("ascii")  # noqa: E731
    for change, said in ((lambda d: d["terms"].__setitem__(0, "w Two"), "a term the tokenizer does not make"),
                         (lambda d: d["rows"][key].__setitem__(1, "AAAAAA=="), "not one weight a term, or more than 60 terms"),
                         (lambda d: d["rows"].__setitem__(key, [b64(np.array([len(d["terms"])], "<i4")), b64(np.array([0.5], "<f4"))]),
                          "terms that are not the table's"),
                         (lambda d: d["rows"].__setitem__(key, "x"), "an entry that is not [terms, weights]")):
        doc = json.loads(json.dumps(good))
        change(doc)
        shard.write_text(json.dumps(doc), encoding="utf-8")
        with caplog.at_level(logging.INFO):
            assert read_rows(path, "s").rows == {}
        assert f"{path}: {said}, which this generator does not write" in caplog.text
    shard.write_text("{not json", encoding="utf-8")
    with caplog.at_level(logging.INFO):  # a shard that cannot be read is as none: its rows are made again
        assert read_rows(path, "s").rows.keys() == rows.rows.keys() - good["rows"].keys()
    assert f"cannot read {shard}" in caplog.text


def test_a_related_shard_edited_after_writing_is_checked_and_refused(tmp_path, caplog):
    papers = seed_papers()[:5]
    _, rows = rel.related_rows(papers, None)
    path = tmp_path / "related.json"
    write_rows(path, "s", rows)
    shard, doc, key = _shard_of_a_row(path)
    written = shard.read_text(encoding="utf-8")
    mac = json.loads(written)["mac"]
    doc["rows"][key][1] = "AAAAAA=="  # the hash as it was, the content changed
    doc["mac"] = mac
    shard.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        assert read_rows(path, "s").rows == {}
    assert f"{path}: not one weight a term, or more than 60 terms, which this generator does not write" in caplog.text


def test_vouched_for_and_checked_rows_are_the_same(tmp_path):
    papers = seed_papers()
    _, rows = rel.related_rows(papers, None)
    path = tmp_path / "related.json"
    write_rows(path, "s", rows)
    fast = read_rows(path, "s")
    assert fast.vouched == {*SHARDS, "lists"}
    (tmp_path / KEY).unlink()
    checked = read_rows(path, "s")
    assert checked.vouched == frozenset()
    assert fast.terms == checked.terms and fast.lists == checked.lists == rows.lists
    assert fast.rows.keys() == checked.rows.keys() == rows.rows.keys()
    keys = sorted(rows.rows)
    assert (rel.assemble(fast, keys) != rel.assemble(rows, keys)).nnz == 0
    assert (rel.assemble(checked, keys) != rel.assemble(rows, keys)).nnz == 0


def test_only_the_shards_whose_rows_changed_are_written_again(tmp_path):
    papers = seed_papers()
    _, rows = rel.related_rows(papers[1:], None)
    path = tmp_path / "related.json"
    write_rows(path, "s", rows)
    before = {s: shard_path(path, s).stat().st_ino for s in SHARDS}
    known = read_rows(path, "s")
    _, made = rel.related_rows(papers, known)
    write_rows(path, "s", made, known)
    after = {s: shard_path(path, s).stat().st_ino for s in SHARDS}
    assert {s for s in SHARDS if before[s] != after[s]} == {rel.row_key(papers[0])[0]}
    assert read_rows(path, "s").rows.keys() == made.rows.keys()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_related_lists_kept_between_builds_are_what_a_cold_build_finds(data):
    # issue 31: a rebuild finds again only the lists a new, changed or removed paper may
    # touch (related.py, _stale_rows); after any edits, every list is the one the whole
    # matrix made at once gives (vectors() and top_k over every row: no kept state).
    pool = seed_papers()
    papers = pool[: len(pool) // 2]
    rest = pool[len(pool) // 2:]
    _, rows = rel.related_rows(papers, None)
    for _ in range(data.draw(st.integers(1, 3))):
        current = list(papers)
        for _ in range(data.draw(st.integers(0, 2))):  # papers removed
            if len(current) > 3:
                current.pop(data.draw(st.integers(0, len(current) - 1)))
        for _ in range(data.draw(st.integers(0, 2))):  # papers added
            if rest:
                current.append(rest.pop(data.draw(st.integers(0, len(rest) - 1))))
        if data.draw(st.booleans()):  # a paper's tags changed (its row changes, not its id)
            i = data.draw(st.integers(0, len(current) - 1))
            current[i] = replace(current[i], tags=("Optimization",) if current[i].tags != ("Optimization",) else ())
        if data.draw(st.booleans()):  # one paper merged as another's variant
            i, j = data.draw(st.integers(0, len(current) - 1)), data.draw(st.integers(0, len(current) - 1))
            if i != j:
                current[i] = replace(current[i], aliases=(current[j].id,))
        ordered = sorted(current, key=lambda p: p.id)
        index = {p.id: n for n, p in enumerate(ordered)}
        excluded = [[index[a] for a in p.aliases if a in index and index[a] != n] for n, p in enumerate(ordered)]
        for n, x in enumerate(excluded):
            for m in x:
                excluded[m].append(n)
        cold = _by_ids(ordered, rel.top_k(rel.vectors(ordered), rel.K, excluded))
        known = rel.Rows(rows.terms, dict(rows.rows), rows.lists)
        found, rows = rel.related_rows(current, known)
        assert found == cold
        papers = current


def test_one_new_paper_finds_again_only_the_lists_it_enters(monkeypatch):
    papers = seed_papers()
    _, rows = rel.related_rows(papers[1:], None)
    whole = []
    monkeypatch.setattr(rel, "top_k", lambda *a, **k: whole.append(1) or [])
    some = []
    top_some = rel.top_some
    monkeypatch.setattr(rel, "top_some", lambda m, k, x, which: some.append(list(which)) or top_some(m, k, x, which))
    found, _ = rel.related_rows(papers, rows)
    assert whole == []  # not every row again
    entered = {pid for pid, listed in found.items() if papers[0].id in listed}
    redone = {sorted(papers, key=lambda p: p.id)[i].id for i in some[0]}
    assert papers[0].id in redone and entered <= redone
    assert len(redone) < len(papers) // 2
