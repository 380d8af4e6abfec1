"""The parse stage: seed file bytes in, one paper per abstract out, or errors naming path and line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import CORPORA, run_generator

from generator.core.errors import ErrorList, GeneratorError, SeedError
from generator.seeds.identify import paper_id
from generator.seeds.parse import abstract_texts, parse_all, parse_seed
from generator.seeds.venues import check_venues

FIXTURES = Path(__file__).parent / "fixtures"

A1 = (
    "Graph neural networks struggle to propagate information between distant nodes, a problem known as "
    "over-squashing. We propose RewireNet, a curvature-guided rewiring scheme that adds a small number of edges "
    "where the discrete Ricci curvature is most negative. On eleven node classification benchmarks RewireNet "
    "improves accuracy by two points on average while adding fewer than five percent new edges."
)
A2 = (
    "Diffusion models generate images of high quality but sample slowly because they need hundreds of denoising "
    "steps. We distill a pretrained diffusion model into a student that samples in four steps by matching the "
    "teacher's trajectory in a learned latent space. The student keeps ninety percent of the teacher's image "
    "quality on ImageNet at a tenth of the cost. Code is available at https://github.com/example/fast-student."
)
A3 = (
    "Offline reinforcement learning learns a policy from a fixed dataset of transitions without interacting with "
    "the environment. Value overestimation on actions absent from the data makes such policies brittle. We "
    "introduce a conservative critic that penalizes the value of actions in proportion to their distance from the "
    "dataset and show that it matches or exceeds prior methods on the D4RL locomotion and navigation tasks."
)
HEADER_HINT = "the first line must be '<Venue> <Year> Papers', e.g. 'ICML 2026 Papers'"
EMPTY = "the file is empty; a seed starts with a header line such as 'ICML 2026 Papers'"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def messages(data: bytes, path: str) -> list[str]:
    """The messages a user sees for a seed that must not parse."""
    with pytest.raises(GeneratorError) as info:
        parse_seed(data, path)
    return [str(e) for e in getattr(info.value, "errors", [info.value])]


def seed(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


# -- good input ------------------------------------------------------------------------


def test_crlf_bom_fixture_really_has_crlf_and_bom():
    # Guards the fixture itself: a checkout that normalizes line ends would make the tests below vacuous.
    data = fixture("seed_crlf_bom.txt")
    assert data.startswith(b"\xef\xbb\xbfNeurIPS 2025 Papers\r\n\r\n")
    assert data.count(b"\r\n") == data.count(b"\n") == 32


def test_crlf_bom_hard_wrapped_abstracts_with_their_first_lines():
    papers = parse_seed(fixture("seed_crlf_bom.txt"), "seeds/seed_crlf_bom.txt")
    assert [p.text for p in papers] == [A1, A2, A3]
    assert [str(p.source) for p in papers] == [
        "seeds/seed_crlf_bom.txt:3",
        "seeds/seed_crlf_bom.txt:13",
        "seeds/seed_crlf_bom.txt:23",
    ]
    assert {(p.venue, p.year) for p in papers} == {("NeurIPS", 2025)}
    assert {(s.venue, s.year) for p in papers for s in p.sources} == {("NeurIPS", 2025)}
    assert [p.id for p in papers] == [paper_id(A1), paper_id(A2), paper_id(A3)]


def test_lf_one_line_per_abstract_and_several_blank_lines():
    papers = parse_seed(fixture("seed_lf_one_line_each.txt"), "seeds/seed_lf_one_line_each.txt")
    assert [(p.text, p.source.line) for p in papers] == [(A1, 3), (A2, 5), (A3, 10)]


def test_same_abstracts_in_both_layouts_get_the_same_ids():
    crlf = parse_seed(fixture("seed_crlf_bom.txt"), "a.txt")
    lf = parse_seed(fixture("seed_lf_one_line_each.txt"), "b.txt")
    assert [p.id for p in crlf] == [p.id for p in lf]


def test_lone_cr_line_ends_count_as_lines():
    data = seed("ICML 2026 Papers", "", A1, "", "", A2).replace(b"\n", b"\r")
    assert [(p.text, p.source.line) for p in parse_seed(data, "s.txt")] == [(A1, 3), (A2, 6)]


def test_wrapped_lines_are_joined_by_single_spaces_whatever_their_indentation():
    words = A1.split()
    data = seed("ICML 2026 Papers", "", "  " + " ".join(words[:10]) + "   ", "\t" + " ".join(words[10:]))
    [paper] = parse_seed(data, "s.txt")
    assert paper.text == A1
    assert paper.source.line == 3


def test_header_forms():
    def header(line: str) -> tuple[str, int]:
        [p] = parse_seed(seed(line, "", A1), "s.txt")
        return p.venue, p.year

    assert header("ICML 2026 Papers") == ("ICML", 2026)
    assert header("ACM Multimedia 2022 Papers  ") == ("ACM Multimedia", 2022)
    assert header("3DV 2020 Papers") == ("3DV", 2020)


def test_invisible_characters_are_removed_from_the_text():
    [paper] = parse_seed(seed("ICML 2026 Papers", "", A1.replace("Graph", "Gr\u200bap\u202eh")), "s.txt")
    assert paper.text == A1


@pytest.mark.parametrize("line", ["\u200b", "\ufeff", "\u202e\u2066 ", "\u00ad", "\u2061\t"],
                         ids=["zero-width space", "BOM", "bidi controls", "soft hyphen", "invisible operator"])
def test_a_line_that_shows_nothing_separates_abstracts(line):
    # It looks blank in an editor and in the pull request's diff, and the invisible marks
    # are removed from the text: joined, the two abstracts were published as one paper.
    data = seed("ICML 2026 Papers", "", A1, line, A2)
    papers = parse_seed(data, "s.txt")
    assert [(p.text, p.source.line) for p in papers] == [(A1, 3), (A2, 5)]
    assert abstract_texts(data, "s.txt") == [A1, A2]


# Bidi controls and zero-width marks, every one: they would reorder or hide the venue
# name on every page that shows it.
HIDDEN = "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u061c\u180e\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("header", [
    "ICML\u202e 2026 Papers",
    "\u2067ICML 2026 Papers",
    "IC\u200bML 2026\u2069 Papers",
    "".join(HIDDEN) + "ICML 2026 Papers",
])
def test_invisible_characters_are_removed_from_the_header(header):
    # Removed as in abstracts rather than refused: they are invisible in an editor, the
    # contributor could not see what to fix, and the name without them is what was meant.
    [paper] = parse_seed(seed(header, "", A1), "s.txt")
    assert (paper.venue, paper.year) == ("ICML", 2026)
    assert (paper.source.venue, paper.source.year) == ("ICML", 2026)


# Characters a font draws as nothing though they are not format characters: the Hangul
# fillers are letters, U+2800 is a symbol, U+034F a combining mark, U+FE0F a variation selector.
DRAWN_AS_NOTHING = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\ufe0f", "\u00ad", "\U000e0041"]


@pytest.mark.parametrize("blank", DRAWN_AS_NOTHING, ids=lambda c: f"U+{ord(c):04X}")
def test_a_header_with_a_character_drawn_as_nothing_is_the_venue_it_looks_like(blank):
    # "ICML<filler> 2026" showed as "ICML 2026" on a venue page of its own, beside the real
    # one's: two lookalike venues, each with part of the conference.
    papers = parse_seed(seed(f"IC{blank}ML{blank} 2026 Papers", "", A1), "a.txt")
    papers += parse_seed(seed("ICML 2026 Papers", "", A2), "b.txt")
    assert {(p.venue, p.year) for p in papers} == {("ICML", 2026)}
    check_venues(papers)  # one venue, written one way


def test_no_invisible_character_of_a_header_reaches_the_generated_pages(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "s.txt").write_bytes(seed("NeurIPS\u202e" + HIDDEN + " 2025 Papers", "", A1))
    result = run_generator("build", "--seeds", str(seeds), "--docs", str(tmp_path / "docs"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # the search index's .bin shards hold UTF-8 terms between binary numbers: read them too
    pages = {p: p.read_bytes().decode("utf-8", "replace") for p in (tmp_path / "docs").rglob("*") if p.is_file()}
    assert sorted(p.name for p in pages if "venues" in p.parts and not p.name.startswith("_")) == ["index.md", "neurips-2025.md", "newest.md"]  # and the frames
    for path, text in pages.items():
        assert not set(HIDDEN) & set(text), path
        for ref in re.findall(r"&#(\d+);|\\u([0-9a-fA-F]{4})", text):  # nor escaped as a reference or in JSON
            code = int(ref[0]) if ref[0] else int(ref[1], 16)
            assert chr(code) not in HIDDEN, path


# -- bad input: one file, exact message ------------------------------------------------

BROKEN = {
    "seed_not_utf8.txt": ["seeds/seed_not_utf8.txt:15: byte 0xef is not UTF-8; save the file as UTF-8"],
    "seed_control_char.txt": [
        "seeds/seed_control_char.txt:14: invisible control character U+0002 at column 8: remove it (it is not text)"
    ],
    "seed_binary.txt": ["seeds/seed_binary.txt:3: this is a binary file (it contains NUL bytes), not a text seed"],
    "seed_utf16.txt": ["seeds/seed_utf16.txt:1: the file is saved as UTF-16; save it as UTF-8"],
    "seed_empty.txt": [f"seeds/seed_empty.txt:1: {EMPTY}"],
    "seed_bom_only.txt": [f"seeds/seed_bom_only.txt:1: {EMPTY}"],
    "seed_no_header.txt": [
        f"seeds/seed_no_header.txt:1: {HEADER_HINT}; found 'Graph neural networks struggle to propagate information'"
    ],
    "seed_malformed_header.txt": [f"seeds/seed_malformed_header.txt:1: {HEADER_HINT}; found 'NeurIPS Papers 2025'"],
    "seed_header_only.txt": ["seeds/seed_header_only.txt:1: the header is followed by no abstracts"],
    "seed_short_paragraph.txt": [
        "seeds/seed_short_paragraph.txt:11: this paragraph has 5 word(s), too short to be an abstract "
        "(at least 20): 'Accepted as an oral presentation.'"
    ],
    "seed_several_problems.txt": [
        f"seeds/seed_several_problems.txt:1: {HEADER_HINT}; found 'Papers of NeurIPS 2025'",
        "seeds/seed_several_problems.txt:5: invisible control character U+0002 at column 27, "
        "U+001F at column 32: remove it (it is not text)",
        "seeds/seed_several_problems.txt:11: this paragraph has 2 word(s), too short to be an abstract "
        "(at least 20): 'To appear.'",
    ],
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_seed_is_reported_with_path_and_line(name):
    assert messages(fixture(name), f"seeds/{name}") == BROKEN[name]


def test_every_problem_is_a_seed_error_with_path_and_line():
    with pytest.raises(ErrorList) as info:
        parse_seed(fixture("seed_several_problems.txt"), "seeds/x.txt")
    assert [(type(e), e.path, e.line) for e in info.value.errors] == [
        (SeedError, "seeds/x.txt", 1),
        (SeedError, "seeds/x.txt", 5),
        (SeedError, "seeds/x.txt", 11),
    ]


def test_not_utf8_names_the_line_after_crlf_line_ends():
    data = seed("ICML 2026 Papers", "", A1, "", A2.replace("quality", "qualit\xe9")).replace(b"\n", b"\r\n")
    data = data.replace("qualité".encode(), b"qualit\xe9")
    assert messages(data, "s.txt") == ["s.txt:5: byte 0xe9 is not UTF-8; save the file as UTF-8"]


def test_nul_byte_in_an_otherwise_text_file_names_its_line():
    data = seed("ICML 2026 Papers", "", A1, "", A2).replace(b"Diffusion", b"Diff\x00usion")
    assert messages(data, "s.txt") == ["s.txt:5: this is a binary file (it contains NUL bytes), not a text seed"]


@pytest.mark.parametrize(
    "char, name", [("\x07", "U+0007"), ("\x0b", "U+000B"), ("\x1b", "U+001B"), ("\x7f", "U+007F"), ("\x85", "U+0085")]
)
def test_other_control_characters(char, name):
    data = seed("ICML 2026 Papers", "", A1, "", A2.replace("We distill", f"We{char} distill"))
    assert messages(data, "s.txt") == [
        f"s.txt:5: invisible control character {name} at column 117: remove it (it is not text)"
    ]


def test_many_control_characters_on_one_line_are_summarized():
    data = seed("ICML 2026 Papers", "", "\x02 ".join(A1.split(" ")))
    assert messages(data, "s.txt") == [
        "s.txt:3: invisible control character U+0002 at column 6, U+0002 at column 14, U+0002 at column 24, "
        "U+0002 at column 34, U+0002 at column 38 and 52 more: remove it (it is not text)"
    ]


def test_a_pile_of_combining_marks_on_one_character_is_refused():
    # Chromium shapes one character with its marks in time quadratic in their number:
    # "a" and 50,000 U+0301 (100 KB of a seed) took 4.9 s to show here, 200,000 took 108 s.
    pile = "a" + "\u0301" * 40
    data = seed("ICML 2026 Papers", "", A1, "", A2.replace("We distill", f"We {pile} distill"))
    assert messages(data, "s.txt") == [
        "s.txt:5: 40 combining marks in a row at column 119: no writing needs more than 16 on one "
        "character, and a pile of them hangs the reader's browser: remove them"
    ]
    # zero-width joiners between the marks are removed from the text, which joins the pile
    joined = "a" + "\u0301\u200d" * 40
    data = seed("ICML 2026 Papers", "", A1, "", A2.replace("We distill", f"We {joined} distill"))
    assert messages(data, "s.txt")[0].startswith("s.txt:5: 40 combining marks in a row at column 119:")
    # Vietnamese, Devanagari and Hebrew with cantillation stack a few
    fine = "Vi\u1ec7\u0323t \u0915\u094d\u0937\u093f \u05d1\u05bc\u05b0\u0591 " + "e" + "\u0301" * 16
    [_, p] = parse_seed(seed("ICML 2026 Papers", "", A1, "", A2 + " " + fine), "s.txt")
    assert p.text.endswith(fine)


def test_a_paragraph_too_long_to_be_an_abstract_is_refused():
    # Chromium lays out a long paragraph of Thai or Khmer, or of Arabic and Latin mixed, in
    # more than linear time: 80,000 characters of Khmer took 3.7 s to show here, 500,000
    # took 156 s. The longest of 548 real abstracts in the shared corpora is 2,009 characters.
    thai = "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 " * 2000
    data = seed("ICML 2026 Papers", "", A1, "", A2 + " " + thai)
    assert messages(data, "s.txt") == [
        f"s.txt:5: this paragraph is {len(A2) + 1 + len(thai.strip()):,} characters long, too long to be an abstract "
        "(at most 10,000): is a blank line missing between two abstracts?"
    ]
    assert len(parse_seed(seed("ICML 2026 Papers", "", A1 + " " + "x" * (10_000 - len(A1) - 1)), "s.txt")) == 1


def test_whitespace_only_file_is_empty():
    assert messages(b" \n\r\n\t\n", "s.txt") == [f"s.txt:1: {EMPTY}"]


def test_implausible_year():
    assert messages(seed("ICML 1026 Papers", "", A1), "s.txt") == [
        "s.txt:1: the header's year 1026 is not a plausible publication year"
    ]


def test_overlong_header_is_shown_shortened():
    line = "The Proceedings of the Very Long Named International Conference on Everything 2026 Papers"
    assert messages(seed(line, "", A1), "s.txt") == [
        f"s.txt:1: {HEADER_HINT}; found 'The Proceedings of the Very Long Named International Conf...'"
    ]


def test_short_paragraph_message_shows_a_long_one_shortened():
    short = "Accepted at the main conference as a spotlight presentation with supplementary material."
    assert messages(seed("ICML 2026 Papers", "", A1, "", short), "s.txt") == [
        "s.txt:5: this paragraph has 12 word(s), too short to be an abstract (at least 20): "
        "'Accepted at the main conference as a spotlight ...'"
    ]


# -- several files ---------------------------------------------------------------------


def test_all_problems_of_all_files_are_listed_in_order():
    seeds = [
        (f"seeds/{name}", fixture(name))
        for name in ("seed_short_paragraph.txt", "seed_crlf_bom.txt", "seed_several_problems.txt", "seed_empty.txt")
    ]
    with pytest.raises(ErrorList) as info:
        parse_all(seeds)
    assert str(info.value).splitlines() == [
        *BROKEN["seed_empty.txt"],
        *BROKEN["seed_several_problems.txt"],
        *BROKEN["seed_short_paragraph.txt"],
    ]


def test_good_files_parse_together_with_links():
    papers = parse_all([("seeds/a.txt", fixture("seed_crlf_bom.txt")), ("seeds/b.txt", fixture("seed_lf_one_line_each.txt"))])
    assert [str(p.source) for p in papers] == [
        "seeds/a.txt:3", "seeds/a.txt:13", "seeds/a.txt:23", "seeds/b.txt:3", "seeds/b.txt:5", "seeds/b.txt:10",
    ]
    assert [[(l.url, l.kind) for l in p.links] for p in papers[:3]] == [
        [], [("https://github.com/example/fast-student", "code")], []
    ]


def test_kept_links_read_vouched_for_or_checked_are_the_same_and_a_forged_one_is_refused(tmp_path, caplog):
    """.cache/parsed.json (generator/seeds/parsed.py): with this machine's key the links are
    taken as written; edited after writing (its hash no longer matches), they are checked."""
    import json
    import logging

    from generator.core.statefile import KEY
    from generator.seeds.parsed import read_parsed, write_parsed

    seeds = [("seeds/a.txt", fixture("seed_crlf_bom.txt")), ("seeds/b.txt", fixture("seed_lf_one_line_each.txt"))]
    papers = parse_all(seeds)
    path = tmp_path / "parsed.json"
    write_parsed(path, "s", seeds, papers)
    fast = read_parsed(path, "s", seeds)
    (tmp_path / KEY).rename(tmp_path / "away")
    checked = read_parsed(path, "s", seeds)
    assert dict(fast) == dict(checked) and len(fast) == 2
    assert fast[seeds[0]][1] == papers[1].links and papers[1].links
    # the ids too, from the file this machine wrote only; either way the papers are a full parse's
    assert [i for s in seeds for i in fast.ids[s]] == [p.id for p in papers] and checked.ids == {}
    assert parse_all(seeds, fast, fast.ids) == parse_all(seeds, checked, checked.ids) == papers
    (tmp_path / "away").rename(tmp_path / KEY)
    doc = json.loads(path.read_text(encoding="utf-8"))
    key = next(k for k, v in doc["files"].items() if any(v))
    doc["files"][key] = [[["javascript:alert(1)", "code"]] if links else links for links in doc["files"][key]]
    path.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")  # the hash as it was
    with caplog.at_level(logging.INFO):
        assert read_parsed(path, "s", seeds) == {}
    assert "hold links this generator does not make" in caplog.text


def test_a_rebuild_takes_the_ids_kept_with_a_files_links():
    # (what read_parsed gives for a file this machine's generator wrote): not made again
    from generator.seeds.parsed import Checked

    seeds = [("seeds/b.txt", fixture("seed_lf_one_line_each.txt"))]
    papers = parse_all(seeds)
    checked = Checked()
    checked[seeds[0]] = tuple(p.links for p in papers)
    checked.ids[seeds[0]] = tuple(f"{k:012x}" for k in range(len(papers)))
    assert [p.id for p in parse_all(seeds, checked, checked.ids)] == list(checked.ids[seeds[0]])
    checked.ids[seeds[0]] = ("0" * 12,)  # not one a paragraph: the ids are made
    assert [p.id for p in parse_all(seeds, checked, checked.ids)] == [p.id for p in papers]


# -- the real corpus -------------------------------------------------------------------


def test_real_corpus_file_with_pdf_control_characters_is_rejected_at_line_39():
    path = CORPORA / "ismir2024" / "ismir-2024-01.txt"
    if not path.is_file():
        pytest.skip(f"the shared corpora are not at {CORPORA} (they live beside the repository, not in it)")
    assert messages(path.read_bytes(), "ismir-2024-01.txt") == [
        "ismir-2024-01.txt:39: invisible control character U+0002 at column 339, U+0002 at column 618, "
        "U+0002 at column 1009, U+0002 at column 1122: remove it (it is not text)"
    ]
