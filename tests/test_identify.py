"""The identify stage: a paper's id depends on its abstract alone, normalized."""
from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from support import REPO
from test_parse import A1, A2, A3

from generator.pipeline import build
from generator.seeds.identify import ID_LENGTH, normalize, paper_id

FIXTURES = Path(__file__).parent / "fixtures"

TEXT = (
    "We propose \"FlowNet\" \u2013 a model that doesn't forget. It learns long-range dependencies in "
    "time series with state-space layers and beats Transformer baselines on five forecasting benchmarks."
)
STRAIGHT = TEXT.replace("\u2013", "-")


def test_id_is_twelve_hex_digits_of_sha256_of_the_normalized_text():
    assert ID_LENGTH == 12
    assert paper_id("Hello  World") == "b94d27b9934d"  # sha256("hello world")[:12]
    assert paper_id(STRAIGHT) == paper_id(TEXT)
    assert len(paper_id(TEXT)) == 12 and int(paper_id(TEXT), 16) >= 0


def test_normalize_shows_what_is_folded():
    assert normalize("  \u201cCurly\u201d \u2018quotes\u2019 \u2014 and\u00a0\uff26\uff55\uff4c\uff4c\uff57\uff49\uff44\uff54\uff48\nSTRASSE \ufb01t\u2026 ") == (
        "\"curly\" 'quotes' - and fullwidth strasse fit..."
    )


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("\n".join(textwrap.wrap(STRAIGHT, 30)), id="rewrapped"),
        pytest.param(STRAIGHT.replace(" ", "\r\n", 3), id="crlf"),
        pytest.param(STRAIGHT.replace(" ", "  \t "), id="extra-spaces"),
        pytest.param(STRAIGHT.replace('"FlowNet"', "\u201cFlowNet\u201d").replace("doesn't", "doesn\u2019t"), id="curly"),
        pytest.param(STRAIGHT.replace('"FlowNet"', "\u201eFlowNet\u201f").replace("doesn't", "doesn\u2032t"), id="low-quotes"),
        pytest.param(STRAIGHT.replace(" - ", " \u2014 "), id="em-dash"),
        pytest.param(STRAIGHT.replace(" - ", " \u2212 "), id="minus"),
        pytest.param(STRAIGHT.replace(" - ", " \u2010 "), id="hyphen"),
        pytest.param(STRAIGHT.replace("long-range", "long\u2011range"), id="non-breaking-hyphen"),
        pytest.param(STRAIGHT.upper(), id="upper"),
        pytest.param(STRAIGHT.lower(), id="lower"),
        pytest.param(STRAIGHT.replace("five", "\uff46\uff49\uff56\uff45"), id="nfkc-fullwidth"),
        pytest.param(STRAIGHT.replace(" ", "\u00a0", 5), id="nfkc-nbsp"),
        pytest.param(STRAIGHT.replace("state-space", "state\ufe63space"), id="small-hyphen"),
    ],
)
def test_id_is_stable_under_presentation_changes(variant):
    assert paper_id(variant) == paper_id(STRAIGHT)


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(STRAIGHT.replace("five", "six"), id="one-word"),
        pytest.param(STRAIGHT + " Code is available.", id="sentence-added"),
        pytest.param(STRAIGHT.replace("doesn't", "does not"), id="contraction"),
        pytest.param(STRAIGHT.replace("long-range", "long range"), id="hyphen-removed"),
        pytest.param(STRAIGHT[:-1], id="final-period"),
    ],
)
def test_different_abstracts_have_different_ids(other):
    assert paper_id(other) != paper_id(STRAIGHT)


# -- ids across builds -----------------------------------------------------------------

UNRELATED = (
    "Speech recognition systems degrade on accented speech that is rare in their training data. We collect a "
    "corpus of read speech from forty accents and show that adapting only the layer norms of a pretrained encoder "
    "halves the word error rate on the rarest accents."
)


def _ids(docs: Path) -> dict[str, str]:
    """abstract -> id, from the papers.json users download."""
    papers = json.loads((docs / "papers.json").read_text(encoding="utf-8"))["papers"]
    return {p["abstract"]: p["id"] for p in papers}


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory) -> tuple[dict[str, str], dict[str, str]]:
    """The mission seeds plus a fixture, built once as is and once renamed, reordered and with a file added."""
    first = tmp_path_factory.mktemp("first")
    shutil.copytree(REPO / "seeds", first / "seeds")
    shutil.copy(FIXTURES / "seed_crlf_bom.txt", first / "seeds" / "neurips.txt")
    build([first / "seeds"], first / "docs")

    second = tmp_path_factory.mktemp("second")
    seeds = second / "seeds"
    (seeds / "nested").mkdir(parents=True)
    for i, f in enumerate(sorted((REPO / "seeds").glob("*.txt"), reverse=True)):
        shutil.copy(f, seeds / "nested" / f"{i}_renamed.txt")
    shutil.copy(FIXTURES / "seed_crlf_bom.txt", seeds / "000_first_now.txt")
    # an exact duplicate of the fixture's abstracts, laid out differently, and an unrelated paper
    shutil.copy(FIXTURES / "seed_lf_one_line_each.txt", seeds / "zz_again.txt")
    (seeds / "mm_new.txt").write_text(f"Interspeech 2025 Papers\n\n{UNRELATED}\n", encoding="utf-8")
    build([seeds], second / "docs")
    return _ids(first / "docs"), _ids(second / "docs")


def test_ids_survive_renaming_reordering_and_another_file(two_builds):
    before, after = two_builds
    assert len(before) == 39  # 36 mission papers and the fixture's 3
    assert {text: after[text] for text in before} == before
    assert set(after) - set(before) == {UNRELATED}


def test_ids_in_papers_json_are_the_ids_of_the_abstracts(two_builds):
    before, _ = two_builds
    assert [before[a] for a in (A1, A2, A3)] == [paper_id(A1), paper_id(A2), paper_id(A3)]
