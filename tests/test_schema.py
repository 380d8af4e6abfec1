"""The declared shapes of the data files, and the one checker that reports every problem."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import schema
from generator.core.errors import ErrorList, GeneratorError, TaxonomyError
from generator.core.schema import Field, LinkRule, MapOf, Record, check, load, load_link_rules, load_text_words, load_title_words
from generator.core.yamlfile import parse_yaml
from generator.derive.tag import load_taxonomy

FIXTURES = Path(__file__).parent / "fixtures"
GENERATOR = Path(schema.__file__).parent


def messages(error: Exception) -> list[str]:
    return [str(e) for e in getattr(error, "errors", [error])]


# -- link_kinds.yml ------------------------------------------------------------------------


def test_the_shipped_link_rules_load_in_file_order():
    rules = load_link_rules()
    assert rules[:3] == (
        LinkRule("huggingface.co", "data", "/datasets/"), LinkRule("github.io", "project"), LinkRule("github.com", "code"),
    )
    assert {r.kind for r in rules} == {"code", "data", "paper", "project"}


def test_every_problem_of_a_link_rules_file_is_reported_on_its_line():
    with pytest.raises(ErrorList) as caught:
        load_link_rules(FIXTURES / "link_kinds_several_problems.yml")
    path = "tests/fixtures/link_kinds_several_problems.yml"  # a file in the repository is named from its root
    assert messages(caught.value) == [
        f"{path}:3: rule #2: 'kind' is 'repo' (expected one of: code, data, paper, project)",
        f"{path}:4: rule #3: missing key 'host'",
        f"{path}:5: rule #4: unknown key 'prefix' (expected one of: host, path, kind)",
        f"{path}:6: rule #5: 'host' contains U+202E (RIGHT-TO-LEFT OVERRIDE) at column 8: "
        "remove it (control and bidi characters are invisible or reorder the text)",
        f"{path}:8: rule #6: expected a mapping with keys host, path, kind",
    ]


def test_a_link_rules_file_of_another_shape():
    with pytest.raises(GeneratorError) as caught:
        load_link_rules(FIXTURES / "link_kinds_not_rules.yml")
    assert str(caught.value) == "tests/fixtures/link_kinds_not_rules.yml:1: expected a mapping with one key, 'rules', holding a list of rules"


# -- title_words.yml -----------------------------------------------------------------------


def test_the_shipped_title_words_load_as_sets_and_a_symbol_table():
    words = load_title_words()
    assert "the" in words["stop_words"] and "on" in words["stop_words"]
    assert isinstance(words["small_words"], frozenset)
    text = load_text_words()
    assert text["latex_symbols"]["alpha"] == "α"
    assert text["latex_symbols"]["sim"] == "~"  # was YAML's null, written bare
    assert "e.g" in text["abbreviations"]


def test_a_bare_on_and_a_missing_list_in_title_words_are_reported(tmp_path):
    text = (GENERATOR.parent / "derive" / "title" / "words.yml").read_text(encoding="utf-8")
    text = text.replace("in, 'on', at, by", "in, on, at, by", 1)
    start = text.index("light_verbs:")
    end = text.index("\n\n", start)
    (tmp_path / "title_words.yml").write_text(text[:start] + text[end + 2:], encoding="utf-8")
    lines = text.splitlines()
    line = next(i for i, l in enumerate(lines, 1) if "in, on, at, by" in l)
    first_key = next(i for i, l in enumerate(lines, 1) if l.startswith("stop_words:"))  # where the mapping starts
    with pytest.raises(ErrorList) as caught:
        load_title_words(tmp_path / "title_words.yml")
    assert sorted(messages(caught.value)) == sorted([
        f"{tmp_path}/title_words.yml:{first_key}: missing key 'light_verbs'",
        f"{tmp_path}/title_words.yml:{line}: 'stop_words' entries must be words (quote on, no, yes), not True",
    ])


# -- the checker ---------------------------------------------------------------------------

PAPER = Record(
    {"title": Field(str, required=True), "kind": Field(str, choices=("oral", "poster")), "tags": Field(list, unique="tag")},
    noun="paper",
)
PAPERS = MapOf(PAPER, "expected a mapping of papers, not a {type}")


def test_every_problem_of_every_record_at_once_each_on_its_line():
    doc = parse_yaml(
        "a:\n  title: One\n  kind: orla\n"
        "b:\n  kind: poster\n  tags: [x, y, x]\n"
        "c: [not, a, mapping]\n"
        "d:\n  title: ''\n  colour: red\n",
        "p.yml",
    )
    report = check(doc, PAPERS, GeneratorError)
    assert messages(ErrorList(report.errors)) == [
        "p.yml:3: paper 'a': 'kind' is 'orla' (did you mean 'oral'? expected one of: oral, poster)",
        "p.yml:4: paper 'b': missing key 'title'",
        "p.yml:6: paper 'b': tag 'x' is listed twice",
        "p.yml:7: paper 'c': expected a mapping with keys title, kind, tags",
        "p.yml:9: paper 'd': 'title' must not be empty",
        "p.yml:10: paper 'd': unknown key 'colour' (expected one of: title, kind, tags)",
    ]
    assert report.bad == {("a",), ("b",), ("c",), ("d",)}
    assert not report.fatal


def test_records_that_pass_are_handed_on_and_the_others_are_not():
    doc = parse_yaml("a: {title: Good}\nb: {title: 3}\n", "p.yml")
    report = check(doc, PAPERS, GeneratorError)
    assert report.records() == [("a", {"title": "Good"})]
    assert messages(ErrorList(report.errors)) == ["p.yml:2: paper 'b': 'title' must be a string, not a number"]


def test_a_file_of_the_wrong_shape_is_one_fatal_problem():
    report = check(parse_yaml("- a\n- b\n", "p.yml"), PAPERS, GeneratorError)
    assert report.fatal and messages(ErrorList(report.errors)) == ["p.yml:1: expected a mapping of papers, not a list"]


def test_load_returns_the_checked_file_or_raises_the_callers_error(tmp_path):
    (tmp_path / "p.yml").write_text("a: {title: Good, kind: oral}\n", encoding="utf-8")
    assert load(tmp_path / "p.yml", PAPERS).data == {"a": {"title": "Good", "kind": "oral"}}
    (tmp_path / "p.yml").write_text("a: {kind: oral}\n", encoding="utf-8")
    with pytest.raises(TaxonomyError) as caught:
        load(tmp_path / "p.yml", PAPERS, TaxonomyError, "shown.yml")
    assert str(caught.value) == "shown.yml:1: paper 'a': missing key 'title'"


def test_taxonomy_text_is_checked_for_hidden_characters_too(tmp_path):
    (tmp_path / "t.yml").write_text(
        'topics:\n  - name: Music\n    slug: music\n    description: "Songs\\u2067 and scores."\n'
        "    phrases: [music]\n",
        encoding="utf-8",
    )
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy(tmp_path / "t.yml")
    assert str(caught.value) == (
        f"{tmp_path}/t.yml:4: topic 'Music': 'description' contains U+2067 (RIGHT-TO-LEFT ISOLATE) at column 6: "
        "remove it (control and bidi characters are invisible or reorder the text)"
    )


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), True, "0.5", None, 10 ** 400, 1e308])
def test_a_number_map_names_the_one_entry_that_is_no_finite_number(bad):
    # the weights of a fitted table are checked at C speed when all are numbers; one that is not
    # (or does not end: NaN, infinity) is still named, among many good ones
    shape = Record({"weights": Field(dict, required=True, name="mapping from feature name to number", values=float)})
    weights = {f"w{k}": k / 7 for k in range(5000)} | {"broken": bad}
    if bad == 1e308:  # a finite number, in a table whose sum does not end: still fine
        weights |= {"big": 1e308, "bigger": 1e308}
    if bad == 10 ** 400:  # two such integers cancel out as integers, not as floats
        weights |= {"minus": -10 ** 400}
    from generator.core.yamlfile import YamlFile

    problems = check(YamlFile("t.json", {"weights": weights}, {(): 1}), shape, GeneratorError).errors
    if bad == 1e308:
        assert problems == []
    else:
        assert len(problems) == (2 if bad == 10 ** 400 else 1) and "not 'broken' to" in str(problems[0]), problems
    fine = check(YamlFile("t.json", {"weights": {f"w{k}": k / 7 for k in range(5000)} | {"n": 3}}, {(): 1}), shape,
                 GeneratorError).errors
    assert fine == []
