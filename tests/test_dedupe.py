"""The dedupe stage: one paper per abstract however often, and however differently, it was submitted."""
from __future__ import annotations

import re
import shutil
import textwrap
from collections import Counter
from dataclasses import dataclass, replace

import pytest
from support import REPO, corpus_files
from test_parse import A1, A2, A3

from generator.core.errors import SeedError
from generator.core.model import Digest, Link, Paper, Source
from generator.derive import dedupe
from generator.derive.dedupe import deduplicate, merge
from generator.pipeline import build
from generator.seeds.identify import paper_id
from generator.seeds.parse import parse_all
from generator.seeds.read import display_path, read_seeds, seed_paths

CODE_SENTENCE = " Code is available at https://github.com/planted/repo-{n}."


def paper(text: str, file: str, line: int, links: tuple[Link, ...] = (), venue: str = "ICML", year: int = 2026) -> Paper:
    return Paper(
        id=paper_id(text), text=text, venue=venue, year=year, sources=(Source(file, line, venue, year),), links=links
    )


def sources(p: Paper) -> list[str]:
    return [str(s) for s in p.sources]


# -- variants of one abstract ----------------------------------------------------------


def curly(text: str) -> str:
    """Straight quotes made typographic, and one more word put in curly quotes."""
    text = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", text).replace("'", "\u2019")
    words = text.split(" ")
    words[4] = f"\u201c{words[4]}\u201d"
    return " ".join(words)


def typo(text: str) -> str:
    """Two letters swapped in the longest word of the middle third."""
    words = text.split(" ")
    third = len(words) // 3
    i = max(range(third, 2 * third), key=lambda k: (len(words[k]) if words[k].isalpha() else 0, -k))
    w = words[i]
    words[i] = w[:2] + w[3] + w[2] + w[4:]
    return " ".join(words)


def added(text: str, n: int) -> str:
    return text + CODE_SENTENCE.format(n=n)


VARIANTS = {
    "rewrap": lambda t, n: t,
    "quotes": lambda t, n: curly(t),
    "typo": lambda t, n: typo(t),
    "sentence": added,
    "combined": lambda t, n: added(typo(curly(t)), n),
}


def test_variants_really_differ_from_the_original():
    assert typo(A1) != A1 and curly(A1) != A1
    assert [(a, b) for a, b in zip(A1.split(" "), typo(A1).split(" ")) if a != b] == [("curvature", "cuvrature")]
    assert curly('a "b" c\'s d e') == "a \u201cb\u201d c\u2019s d \u201ce\u201d"
    assert len({paper_id(f(A1, 0)) for name, f in VARIANTS.items() if name != "rewrap"} | {paper_id(A1)}) == 5


@pytest.mark.parametrize("kind", sorted(VARIANTS))
def test_near_duplicate_is_merged_listing_both_sources(kind):
    original = paper(A2, "seeds/a.txt", 3, links=(Link("https://github.com/example/fast-student", "code"),))
    variant_text = VARIANTS[kind](A2, 7)
    variant = paper(variant_text, "seeds/b.txt", 5, links=(Link("https://github.com/planted/repo-7", "code"),))
    other = paper(A3, "seeds/b.txt", 9)
    merged, alone = sorted(deduplicate([variant, other, original]), key=lambda p: len(p.sources), reverse=True)
    assert sources(merged) == ["seeds/a.txt:3", "seeds/b.txt:5"]
    assert sources(alone) == ["seeds/b.txt:9"]
    assert merged.links == (
        Link("https://github.com/example/fast-student", "code"),
        Link("https://github.com/planted/repo-7", "code"),
    )
    longest = variant_text if len(variant_text.split()) > len(A2.split()) else A2
    assert merged.text == longest
    assert merged.id == min(original.id, variant.id)
    assert merged.aliases == (tuple(sorted({original.id, variant.id} - {merged.id})))


def test_exact_duplicates_share_an_id_and_keep_the_first_submitted_text():
    a = paper(A1, "seeds/b.txt", 3, venue="ICLR", year=2025)
    b = paper(A1.upper(), "seeds/a.txt", 7)
    c = paper("\n".join(textwrap.wrap(A1, 20)), "seeds/a.txt", 40)
    [merged] = deduplicate([a, b, c])
    assert merged.id == paper_id(A1)
    assert merged.aliases == ()
    assert sources(merged) == ["seeds/a.txt:7", "seeds/a.txt:40", "seeds/b.txt:3"]
    assert merged.text == A1.upper()  # same length: the first submitted (smallest file and line) is shown
    assert (merged.venue, merged.year) == ("ICML", 2026)
    assert merged.merged == 2


def test_different_abstracts_with_one_id_stop_the_build_naming_both():
    # An id is 48 bits of a SHA-256: a text with a chosen paper's id costs about 2**48
    # hashes, hours on a GPU. Taken for an exact duplicate, it was merged into that paper
    # and, longer, shown in its place: an abstract replaced by one that shares no word.
    original = paper(A1, "seeds/a.txt", 3)
    forged = replace(paper(A2, "seeds/b.txt", 7), id=original.id)
    with pytest.raises(SeedError) as info:
        deduplicate([forged, original])
    assert str(info.value) == (
        f"seeds/b.txt:7: this abstract has the id {original.id} of a different one, at seeds/a.txt:3 "
        "(their texts' hashes begin alike): change a word of it"
    )
    # the same text written differently is one abstract
    again = paper(A1.replace("Graph", "GRAPH").replace(" ", "  "), "seeds/b.txt", 7)
    assert again.id == original.id and len(deduplicate([again, original])) == 1


def test_a_chain_of_near_duplicates_does_not_merge_two_different_papers():
    # Each text a near duplicate of the next, A1 with more and more of A3 added, then less
    # and less of A1: the ends share no sentence. Merged through the chain, the paper of
    # A1 and the paper of A3 became one, and a pull request of five texts took a paper
    # already on the site off it (its page an alias of the other's).
    x, y = A1.split(), A3.split()
    steps = [x + y[: len(y) // 3], x + y[: 2 * len(y) // 3], x + y, x[len(x) // 3:] + y, x[2 * len(x) // 3:] + y]
    chain = [A1, *(" ".join(s) for s in steps), A3]
    sets = [dedupe.shingles(t) for t in chain]
    assert all(dedupe.is_duplicate(a, b) for a, b in zip(sets, sets[1:])) and not dedupe.is_duplicate(sets[0], sets[-1])
    merged = deduplicate(paper(t, "seeds/a.txt", 3 + 2 * n) for n, t in enumerate(chain))
    holding = {t: [p for p in merged if any(s.line == 3 + 2 * n for s in p.sources)] for n, t in enumerate(chain)}
    assert all(len(ps) == 1 for ps in holding.values())  # every source in exactly one paper
    assert holding[A1][0] is not holding[A3][0]
    for p in merged:  # and every paper's texts are duplicates of each other
        texts = [chain[(s.line - 3) // 2] for s in p.sources]
        assert all(dedupe.is_duplicate(dedupe.shingles(a), dedupe.shingles(b)) for a in texts for b in texts)


def test_different_abstracts_are_not_merged():
    papers = [paper(A1, "a", 1), paper(A2, "a", 3), paper(A3, "a", 5)]
    assert [sources(p) for p in deduplicate(papers)] == [[str(p.source)] for p in sorted(papers, key=lambda p: p.id)]


def test_a_short_abstract_inside_a_longer_one_is_not_a_duplicate():
    longer = A1 + " " + A3
    assert [len(p.sources) for p in deduplicate([paper(A1, "a", 1), paper(longer, "a", 3)])] == [1, 1]


def test_merge_is_order_independent():
    ps = [paper(A2, "b", 3), paper(added(A2, 1), "a", 9), paper(typo(A2), "c", 1)]
    assert deduplicate(ps) == deduplicate(list(reversed(ps))) == [merge(ps)]


def test_merged_aliases_resolve_in_the_digest():
    ps = [paper(A2, "a", 3), paper(added(A2, 1), "b", 3)]
    [merged] = deduplicate(ps)
    digest = Digest([merged])
    assert digest.get(ps[0].id) is merged and digest.get(ps[1].id) is merged


# -- the real corpora ------------------------------------------------------------------


@dataclass
class CorpusBuild:
    digest: Digest
    parsed: list[Paper]  # every abstract of every seed file, before deduplication
    planted: dict[str, tuple[str, str, str]]  # variant source -> (original source, kind, variant text)
    mission_files: set[str]
    corpus_files: set[str]


@pytest.fixture(scope="module")
def corpus_build(tmp_path_factory) -> CorpusBuild:
    """Mission seeds, both corpora (U+0002 removed) and ~50 planted variants, built once."""
    files = corpus_files()
    root = tmp_path_factory.mktemp("corpora")
    corpora = root / "corpora"
    for f in files:
        dest = corpora / f.relative_to(files[0].parents[1])
        dest.parent.mkdir(parents=True, exist_ok=True)
        # The seed format rejects the PDF junk U+0002 in one file; the abstracts themselves are fine.
        dest.write_bytes(f.read_bytes().replace(b"\x02", b""))
    shutil.copytree(REPO / "seeds", root / "seeds")
    (root / "seeds" / "curation.yml").unlink(missing_ok=True)

    corpus_papers = parse_all(read_seeds(seed_paths([corpora])))
    chosen = corpus_papers[:: len(corpus_papers) // 50][:50]
    lines = ["Planted 2030 Papers"]
    planted_file = root / "planted" / "planted.txt"
    planted: dict[str, tuple[str, str, str]] = {}
    kinds = sorted(VARIANTS)
    for n, p in enumerate(chosen):
        kind = kinds[n % len(kinds)]
        text = VARIANTS[kind](p.text, n)
        lines.append("")
        planted[f"{display_path(planted_file)}:{len(lines) + 1}"] = (str(p.source), kind, text)
        lines += textwrap.wrap(text, 40 + n % 30, break_on_hyphens=False, break_long_words=False)
    planted_file.parent.mkdir()
    planted_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    dirs = [root / "seeds", corpora, planted_file.parent]
    result = build(dirs, root / "docs")
    return CorpusBuild(
        digest=result.digest,
        parsed=parse_all(read_seeds(seed_paths(dirs))),
        planted=planted,
        mission_files={display_path(p) for p in seed_paths([root / "seeds"])},
        corpus_files={display_path(p) for p in seed_paths([corpora])},
    )


def test_the_corpora_and_the_planted_file_are_all_there(corpus_build):
    assert len(corpus_build.corpus_files) == 68
    assert Counter(s.file in corpus_build.corpus_files for p in corpus_build.parsed for s in p.sources) == {
        True: 510,  # 133 ISMIR abstracts and 377 neural-fields abstracts
        False: 38 + 50,  # the mission seeds' abstracts and the planted variants
    }
    assert Counter(kind for _, kind, _ in corpus_build.planted.values()) == {k: 10 for k in VARIANTS}


def test_every_abstract_ends_up_in_exactly_one_paper(corpus_build):
    submitted = Counter(s for p in corpus_build.parsed for s in p.sources)
    assert max(submitted.values()) == 1
    listed = Counter(s for p in corpus_build.digest for s in p.sources)
    assert listed == submitted


def test_no_two_corpus_abstracts_are_merged(corpus_build):
    for p in corpus_build.digest:
        from_corpora = [s for s in sources(p) if s.rsplit(":", 1)[0] in corpus_build.corpus_files]
        assert len(from_corpora) <= 1, f"false merge: {from_corpora}"


def test_mission_seeds_merge_only_their_two_known_duplicates(corpus_build):
    merged = [
        [s.split("/")[-1] for s in sources(p)]
        for p in corpus_build.digest
        if any(s.file in corpus_build.mission_files for s in p.sources) and p.merged
    ]
    assert sorted(merged) == [
        ["000_ca08d30626a6d4f8.txt:31", "004_a8c92079105dd28c.txt:23"],
        ["000_ca08d30626a6d4f8.txt:37", "004_a8c92079105dd28c.txt:25"],
    ]


def test_every_planted_variant_is_merged_with_its_original_and_nothing_else(corpus_build):
    planted_into = {}
    for p in corpus_build.digest:
        mine = [s for s in sources(p) if s in corpus_build.planted]
        for s in mine:
            original, kind, _ = corpus_build.planted[s]
            planted_into[s] = (kind, sorted(sources(p)))
    expected = {
        s: (kind, sorted([original, s])) for s, (original, kind, _) in corpus_build.planted.items()
    }
    assert planted_into == expected


def test_a_merged_paper_shows_the_most_complete_text_and_all_links(corpus_build):
    by_source = {s: p for p in corpus_build.digest for s in sources(p)}
    checked = 0
    for s, (original, kind, text) in corpus_build.planted.items():
        p = by_source[s]
        if kind in ("sentence", "combined"):
            n = list(corpus_build.planted).index(s)
            assert p.text == text
            assert Link(f"https://github.com/planted/repo-{n}", "code") in p.links
            originals = next(q for q in corpus_build.parsed if str(q.source) == original)
            assert set(originals.links) <= set(p.links)
            checked += 1
    assert checked == 20


def test_candidate_pairs_stay_near_linear(corpus_build, monkeypatch):
    verified = []
    real = dedupe.is_duplicate
    monkeypatch.setattr(dedupe, "is_duplicate", lambda a, b: verified.append(1) or real(a, b))
    papers = deduplicate(corpus_build.parsed)
    n = len(corpus_build.parsed)
    assert len(papers) == len(corpus_build.digest)
    # all pairs would be n(n-1)/2, about 280,000; the planted variants alone need 40 (rewraps are exact)
    assert 40 <= len(verified) <= 2 * n


def test_pairs_found_beforehand_give_the_same_papers(corpus_build):
    # a build finds the near duplicates in a worker from the seed texts while it parses;
    # handed those pairs, deduplicate must make exactly the papers it makes on its own
    pairs = dedupe.duplicate_pairs(p.text for p in corpus_build.parsed)
    assert len(pairs) == len(set(pairs)) == 40  # the planted variants but the rewraps (exact, one id); the mission seeds repeat two texts exactly
    assert all(a < b for a, b in pairs)
    found = deduplicate(corpus_build.parsed, pairs)
    assert found == deduplicate(corpus_build.parsed)
    assert [(p.id, p.sources) for p in found] == [(p.id, p.sources) for p in corpus_build.digest]
    # the pairs are what merges near duplicates: without them, only exact ones are
    assert len(deduplicate(corpus_build.parsed, [])) == len(corpus_build.digest) + len(pairs)


def test_pairs_found_beforehand_still_keep_a_chain_apart():
    x, y = A1.split(), A3.split()
    steps = [x + y[: len(y) // 3], x + y[: 2 * len(y) // 3], x + y, x[len(x) // 3:] + y, x[2 * len(x) // 3:] + y]
    chain = [A1, *(" ".join(s) for s in steps), A3]
    papers = [paper(t, "seeds/a.txt", 3 + 2 * n) for n, t in enumerate(chain)]
    pairs = dedupe.duplicate_pairs(chain)
    assert len(pairs) >= len(chain) - 1
    assert deduplicate(papers, pairs) == deduplicate(papers)
    assert len(deduplicate(papers, pairs)) >= 2


def test_kept_sketches_read_vouched_for_or_checked_are_the_same_and_a_forged_one_is_refused(tmp_path, caplog):
    """.cache/sketches-*.json (generator/derive/sketches.py): with this machine's key a shard
    is not checked; without it (the deploy) a sketch of another shape refuses them all."""
    import json
    import logging

    from generator.core.statefile import KEY, SHARDS, shard_path
    from generator.derive.sketches import read_sketches, write_sketches

    texts = [A1, A2, A3]
    made: dict[str, list[int]] = {}
    dedupe.duplicate_pairs(texts, frozenset(), None, keep=made)
    path = tmp_path / "sketches.json"
    write_sketches(path, "s", made)
    fast = read_sketches(path, "s")
    assert fast == made and fast.vouched == set(SHARDS)
    # a new text: only its shard is written again
    before = {s: shard_path(path, s).stat().st_ino for s in SHARDS}
    new_id = next(c * 12 for c in "fedcba9876543210" if c * 12 not in made)
    more = {**made, new_id: [1, 2, 3]}
    write_sketches(path, "s", more, fast)
    assert {s for s in SHARDS if shard_path(path, s).stat().st_ino != before[s]} == {new_id[0]}
    (tmp_path / KEY).unlink()
    checked = read_sketches(path, "s")
    assert checked == more and checked.vouched == set()
    pid = next(iter(made))
    shard = shard_path(path, pid[0])
    doc = json.loads(shard.read_text(encoding="utf-8"))
    doc["sketches"][pid] = [3, 2, 1]  # not sorted: not a sketch this generator makes
    shard.write_text(json.dumps(doc), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        assert read_sketches(path, "s") == {}
    assert "are not what this generator writes" in caplog.text
