"""The YAML loader keeps the line of every key and item, and turns YAML problems into located errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import CurationError, ErrorList, GeneratorError, TaxonomyError
from generator.yamlfile import load_yaml, parse_yaml

FIXTURES = Path(__file__).parent / "fixtures"


def test_data_is_plain_python():
    doc = load_yaml(FIXTURES / "yaml_nested.yml")
    assert doc.data == {
        "first": {"title": "A title", "tags": ["Music", "Speech and Audio"]},
        "second": {"title": "Inline", "featured": True},
        "list": ["plain item", {"key": "value", "other": 2}],
    }


def test_every_key_and_item_has_its_line():
    doc = load_yaml(FIXTURES / "yaml_nested.yml")
    assert doc.line("first") == 2
    assert doc.line("first", "title") == 3
    assert doc.line("first", "tags") == 4
    assert doc.line("first", "tags", 1) == 6
    assert doc.line("second", "featured") == 8
    assert doc.line("list", 1) == 11
    assert doc.line("list", 1, "other") == 12


def test_missing_key_gives_the_line_of_the_nearest_entry():
    doc = load_yaml(FIXTURES / "yaml_nested.yml")
    assert doc.line("first", "note") == 2
    assert doc.line("list", 1, "absent", 3) == 11
    assert doc.line("nowhere") == 2


def test_errors_name_the_file_as_given():
    path = FIXTURES / "yaml_nested.yml"
    assert load_yaml(path).path == str(path)
    assert load_yaml(path, name="curation.yml").path == "curation.yml"


def test_syntax_error_becomes_the_callers_error_with_its_line():
    with pytest.raises(CurationError) as caught:
        load_yaml(FIXTURES / "yaml_syntax_error.yml", CurationError, "seeds/curation.yml")
    assert str(caught.value) == (
        "seeds/curation.yml:4: invalid YAML: while parsing a flow sequence expected ',' or ']', but got ':'"
    )


def test_duplicate_keys_are_all_reported():
    # PyYAML keeps the last of two equal keys without a word; a person meant something else.
    with pytest.raises(ErrorList) as caught:
        load_yaml(FIXTURES / "yaml_duplicate_key.yml", CurationError, "c.yml")
    assert str(caught.value) == (
        "c.yml:3: duplicate key 'title' (first given on line 2)\n"
        "c.yml:5: duplicate key 'paper-a' (first given on line 1)"
    )
    assert all(isinstance(e, CurationError) for e in caught.value.errors)


def test_empty_file_has_no_data():
    doc = load_yaml(FIXTURES / "yaml_empty.yml")
    assert doc.data is None
    assert doc.line("anything") == 1


def test_unreadable_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(TaxonomyError) as caught:
        load_yaml(tmp_path / "missing.yml", TaxonomyError, "missing.yml")
    assert caught.value.path == "missing.yml"
    assert caught.value.line is None
    assert str(caught.value).startswith("missing.yml: cannot read the file: ")


def test_unsafe_tags_are_refused():
    with pytest.raises(GeneratorError) as caught:
        parse_yaml("a: !!python/object/apply:os.system [ls]\n", "evil.yml")
    assert str(caught.value).startswith("evil.yml:1: invalid YAML: ")


def test_keys_keep_their_yaml_type():
    doc = parse_yaml("2024: a\n'2024': b\n", "t.yml")
    assert doc.data == {2024: "a", "2024": "b"}
    assert (doc.line(2024), doc.line("2024")) == (1, 2)
