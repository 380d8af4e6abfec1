"""Red-team findings against the fix of issue 10: inputs the other hostile tests do not hold.

Each test is named for the case and fails on the code it was written against for the
reason its docstring gives; the report of the red-team round has the reproductions.
"""
from __future__ import annotations

import pytest

from generator.core import markup as clean

PROSE = "We study robust sparse attention for long documents and report gains on five benchmarks across many settings. "


# -- links: the host the browser opens is not the host that was checked ----------------------


@pytest.mark.parametrize(
    "text",
    [
        "Code is at [code](https://evil.example\\@github.com/x/y) for all to use.",
        "Code is at \\url{https://evil.example\\@github.com/x/y} for all to use.",
        "Code is at \\href{https://evil.example\\@github.com/x/y}{our repository} for all to use.",
    ],
    ids=["mdlink", "url", "href"],
)
def test_backslash_before_userinfo_link_button_opens_another_host(text):
    """urlsplit reads ``https://evil.example\\@github.com/`` as host github.com (so the link is
    classed "code"), but a browser reads a backslash in an http(s) URL as a slash: host
    evil.example. The abstract's <a> is percent-encoded (%5C, so the browser agrees with
    urlsplit), but paper.html writes Link.url raw into the "Code" button's href, so the
    button labelled as the GitHub code link opens evil.example. A stored link must not hold
    a character that browsers and urlsplit read differently."""
    links = clean.extract_links(PROSE + text)
    assert links, "the link was not found at all"
    for link in links:
        assert "\\" not in link.url, f"{link.url!r} (kind {link.kind}) goes into href raw; Chromium opens host evil.example"


# -- math: KaTeX still moves things far, past the generator's dimension check -------------------

# Measured in headless Chromium with the site's katex.min.js and math.js: each drew the
# formula, and the drawn box reached ~97,000 px left of the page, or 174,000 px down, or
# made the page 100,000-230,000 px taller.
FAR = {
    "unit_from_macro": r"\def\u{em}\kern{-5000\u} x",
    "number_from_macro": r"\def\n{-5000}\kern{\n em} x",
    "trailing_dot_number": r"\kern{-5000.em} x",
    "raisebox_trailing_dot": r"\raisebox{-9000.em}{x}",
    "row_gap_of_newline": r"\begin{aligned}a\\[-5000em]b\end{aligned}",
    "arraystretch": r"\def\arraystretch{5000}\begin{matrix}a\\b\end{matrix}",
    # each distance under 5 em, together far: nested raiseboxes lift x by 39 em, and kerns
    # in a row draw what follows the formula 98 em to the left, over the page or off it
    "nested_raiseboxes": r"\raisebox{4.9em}{" * 8 + "x" + "}" * 8,
    "kerns_in_a_row": r"\kern{-4.9em}" * 20 + " x",
    "row_gaps_in_a_row": r"\begin{aligned}" + r"a\\[4.9em]" * 10 + r"b\end{aligned}",
    # negative spaces without a unit: 200 of \! are -33 em
    "negative_thin_spaces": r"\!" * 200 + " x",
    "negative_thick_spaces": r"\negthickspace" * 30 + " x",
}


@pytest.mark.parametrize("tex", FAR.values(), ids=FAR.keys())
def test_math_that_moves_things_far_is_not_drawn(tex):
    """math_problem refuses ``\\kern{-5000em}`` but not the same distance written so that
    _NUMBER_UNIT does not see a number next to a unit (a macro, ``5000.em``, which KaTeX
    reads as 5000 em), nor the distances of ``\\\\[...]`` and ``\\arraystretch``, which
    _DIMENSION does not list. KaTeX's maxSize caps only positive sizes."""
    assert clean.math_problem(tex), f"{tex!r} would be drawn"
    assert "arithmatex" not in clean.to_html(PROSE + f"${tex}$")


# Commands that draw their content over the text beside it (a zero-width or zero-height
# box): a white box drawn over the abstract hides its words, \smash hides the height of a
# tall array, which then covers the lines above and below.
OVER = {
    "llap_white_box": r"\mathllap{\colorbox{white}{\text{MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM}}}",
    "rlap": r"\rlap{\text{covering the words after the formula}} x",
    "clap": r"\clap{\colorbox{white}{\text{MMMMMMMMMMMMMMMMMMMMMMMM}}}",
    "smash_array": r"\smash{\begin{array}{c}" + "x\\\\" * 40 + r"\end{array}}",
    "llap": r"\llap{\text{over the words before}}",
}


@pytest.mark.parametrize("tex", OVER.values(), ids=OVER.keys())
def test_math_that_draws_over_other_text_is_not_drawn(tex):
    """The distance checks see no number here: the laps and \\smash make boxes of no width
    or height, and their content is drawn over the page however wide or tall it is."""
    assert clean.math_problem(tex), f"{tex!r} would be drawn"


# -- scans: a math opener whose closer is far away is rescanned for every opener ------------------


class _CountingStr(str):
    """A str that adds up how many characters were copied out of it by slicing."""

    sliced = 0

    def __getitem__(self, key):
        part = str.__getitem__(self, key)
        if isinstance(key, slice):
            type(self).sliced += len(part)
        return part


@pytest.mark.parametrize(
    "unit, closer",
    [("\\[$", "\\]"), ("\\($", "\\)"), ("\\( $ ", "\\)")],
    ids=["bracket_dollar", "paren_dollar", "paren_dollar_spaced"],
)
def test_math_opener_with_far_closer_is_scanned_once(unit, closer):
    """For each ``\\[`` segments() copies the whole text up to the one far ``\\]`` (and
    replaces in it) to find that the body holds a ``$``, then moves one opener on: quadratic.
    Timed on this machine (median of 3): 0.08 s at 10 KB, 0.73 s at 40 KB, 2.6 s at 80 KB;
    a 210 KB seed of it takes 35 s in ``python -m generator build``. Counted here instead of
    timed: the characters sliced out of the text must stay proportional to its length."""
    text = _CountingStr(PROSE + unit * 3000 + closer)
    _CountingStr.sliced = 0
    clean.segments.__wrapped__(text)
    assert _CountingStr.sliced <= 20 * len(text), f"sliced {_CountingStr.sliced} characters of a {len(text)}-character text"


# -- a "duplicate" in a pull request rewrites a paper already on the site -------------------------


def test_duplicate_that_replaces_the_shown_abstract_is_reported_as_such():
    """dedupe.merge shows the variant with the most words, and a variant may add up to as
    many shingles as the original has (MIN_JACCARD 0.5). So a pull request that resubmits a
    paper already on the site with ~45 words appended (a "retraction" and links to
    evil.example) replaces the abstract on that paper's page, and its links become the
    paper's buttons. The pull-request summary calls it "duplicate of <title>", word for word
    what it says for a harmless exact resubmission, so a reviewer has no reason to look."""
    from support import REPO

    from generator.derive.tag import load_taxonomy
    from generator.seeds.parse import parse_all
    from generator.validate import check, report_markdown

    mission = REPO / "seeds" / "000_ca08d30626a6d4f8.txt"
    existing = parse_all([(str(mission), mission.read_bytes())])
    original = next(p for p in existing if p.sources[0].line == 3).text
    extra = (
        " Update: the authors have retracted these results; the official code and the corrected paper now live at"
        " https://evil.example/code and https://evil.example/paper, please cite that version and disregard the"
        " numbers above, which a later audit of the submission showed to be fabricated."
    )
    topics = load_taxonomy()

    def summary(text: str) -> tuple[str, str]:
        seed = ("seeds/999_new.txt", f"ICML 2026 Papers\n\n{text}\n".encode())
        digest, [verdict] = check(existing, parse_all([seed]), topics)
        assert verdict.status == "duplicate"
        row = next(line for line in report_markdown([verdict]).splitlines() if line.startswith("| 3 |"))
        shown = next(p for p in digest if seed[0] in {s.file for s in p.sources}).text
        return row.rsplit("|", 2)[-2], shown

    plain_status, plain_shown = summary(original)
    takeover_status, takeover_shown = summary(original + extra)
    assert plain_shown == original
    assert "evil.example" in takeover_shown  # the page of the existing paper now shows the new text
    assert takeover_status != plain_status, f"both reported as {plain_status.strip()!r}"


def test_duplicate_that_moves_a_paper_to_another_venue_is_reported_as_such():
    """A merged paper takes the venue of its first source, by file name: the same abstract
    resubmitted word for word in a file that sorts first, under another header, moved the
    paper already on the site to that venue and year, and the summary said "duplicate of
    <title>" as for any harmless resubmission."""
    from support import REPO

    from generator.derive.tag import load_taxonomy
    from generator.seeds.parse import parse_all
    from generator.validate import check, report_markdown, report_text

    mission = REPO / "seeds" / "000_ca08d30626a6d4f8.txt"
    existing = parse_all([("seeds/" + mission.name, mission.read_bytes())])
    paper = next(p for p in existing if p.sources[0].line == 3)
    seed = ("seeds/000_000.txt", f"Fake Venue 1999 Papers\n\n{paper.text}\n".encode())
    digest, [verdict] = check(existing, parse_all([seed]), load_taxonomy())
    merged = next(p for p in digest if seed[0] in {s.file for s in p.sources})
    assert (verdict.status, merged.venue, merged.year) == ("duplicate", "Fake Venue", 1999)
    assert f"moves it from {paper.venue} {paper.year} to Fake Venue 1999" in report_text([verdict])
    row = next(line for line in report_markdown([verdict]).splitlines() if line.startswith("| 3 |"))
    assert "moves it from" in row and "<code>Fake Venue 1999</code>" in row


# -- seeds/curation.yml (comes in by pull request): tracebacks instead of path:line: message ------

CURATION_TRACEBACKS = {
    "int_over_4300_digits": "0f6a98a6a2a8:\n  featured: " + "9" * 5000 + "\n",
    "timestamp_bad_month": "0f6a98a6a2a8:\n  title: !!timestamp 9999-99-99\n",
    "timestamp_year_zero": "0f6a98a6a2a8:\n  hide: !!timestamp 0000-01-01\n",
    "float_tag_on_word": "0f6a98a6a2a8:\n  note: !!float abc\n",
    "lone_surrogate_escape": '0f6a98a6a2a8:\n  title: "\\ud800"\n',
}


@pytest.mark.parametrize("command", ["build", "validate"])
@pytest.mark.parametrize("curation", CURATION_TRACEBACKS.values(), ids=CURATION_TRACEBACKS.keys())
def test_curation_value_gives_path_line_message_not_traceback(tmp_path, curation, command):
    """PyYAML's safe constructors raise plain ValueError (int() past Python's 4,300-digit
    limit, datetime() on an impossible !!timestamp, float() under !!float), which
    yamlfile.parse_yaml does not catch; and a YAML "\\ud800" escape makes a lone surrogate
    that passes the curation checks and raises UnicodeEncodeError when write.py encodes the
    page. Each is a traceback from `python -m generator build`; `validate`, which the
    pull-request check runs, gives the same tracebacks, except for the surrogate, which it
    passes (exit 0) although the build then fails on it."""
    import shutil

    from support import REPO, run_generator

    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for f in (REPO / "seeds").glob("*.txt"):
        shutil.copy(f, seeds / f.name)
    (seeds / "curation.yml").write_text(curation, encoding="utf-8")
    if command == "build":
        r = run_generator("build", "--seeds", str(seeds), "--docs", str(tmp_path / "docs"), timeout=120)
    else:
        r = run_generator("validate", "--seeds", str(seeds), str(seeds / "000_ca08d30626a6d4f8.txt"), timeout=120)
    assert "Traceback" not in r.stderr, r.stderr[-600:]
    assert r.returncode == 1 and "curation.yml:" in r.stderr, (r.returncode, r.stderr[-300:])


# -- math: a short formula whose macros expand to tens of thousands of glyphs freezes the tab -----

_B200 = "\\def\\b{" + "x" * 200 + "}"
HANGS = {
    # 340 characters: \c is 60 calls of \b, each 200 glyphs; twice: 24,000 glyphs
    "macro_of_macros": _B200 + "\\def\\c{" + "\\b" * 60 + "}" + "\\c\\c",
    # 488 characters: a one-letter macro called 190 times (one-letter names are not counted as commands)
    "one_letter_macro_190_calls": "\\def\\b{" + "x" * 100 + "}" + "\\b" * 190,
}


@pytest.mark.parametrize("tex", HANGS.values(), ids=HANGS.keys())
def test_math_that_expands_to_thousands_of_glyphs_is_not_drawn(tex):
    """Under 500 characters, 8 levels and 60 counted commands, so math_problem lets it through
    (commands of one letter, like \\b, are not counted, and \\def is allowed). maxExpand 200
    caps expansions, not their size: in headless Chromium with the site's KaTeX options,
    katex.render took 22.6 s plus 6.4 s of layout for "macro_of_macros" (24,010 elements;
    with \\c three times, 44 s plus 3 s) and 7.6 s plus 4.4 s for the other, with the
    reader's tab frozen throughout; on a topic or venue page when it is in the first sentence."""
    assert clean.math_problem(tex), f"{len(tex)}-character formula would be drawn"
