"""The YAML loader keeps the line of every key and item, and turns YAML problems into located errors."""
from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core.errors import CurationError, ErrorList, GeneratorError, TaxonomyError
from generator.core.yamlfile import MAX_DEPTH, load_yaml, parse_yaml

FIXTURES = Path(__file__).parent / "fixtures"
REPO = FIXTURES.parent.parent


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


# -- limits: what no data file needs and a hostile pull request would send ------------------


def _load_limited(path: Path, name: str) -> subprocess.CompletedProcess:
    """Load ``path`` as the curation file in a child with 1 GB of memory and 60 s.

    Run apart so that a loader which expands the aliases fails this test instead of
    taking the machine's memory with it.
    """
    code = (
        "import sys; from pathlib import Path; from generator.core.yamlfile import load_yaml;"
        "from generator.core.errors import CurationError\n"
        "try:\n"
        f"    load_yaml(Path(sys.argv[1]), CurationError, {name!r})\n"
        "except CurationError as e:\n"
        "    print(e); sys.exit(1)\n"
    )

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-c", code, str(path)], cwd=REPO, capture_output=True, text=True,
        timeout=60, preexec_fn=cap,
    )


def test_alias_bomb_is_refused_at_its_first_anchor():
    # 307 bytes; eight levels of [*a, *a, ...] of nine would be 43 million items
    done = _load_limited(FIXTURES / "yaml_alias_bomb.yml", "seeds/curation.yml")
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "seeds/curation.yml:1: YAML anchors (&a) are not allowed in data files: write each value out\n", "",
    )


def test_an_alias_is_refused_with_its_line():
    with pytest.raises(CurationError) as caught:
        parse_yaml("a: 1\nb:\n  - *a\n", "c.yml", CurationError)
    assert str(caught.value) == "c.yml:3: YAML aliases (*a) are not allowed in data files: write the value out"


def test_a_merge_key_needs_an_alias_and_is_refused():
    with pytest.raises(CurationError) as caught:
        parse_yaml("base: &base {featured: true}\npaper:\n  <<: *base\n", "c.yml", CurationError)
    assert str(caught.value) == "c.yml:1: YAML anchors (&base) are not allowed in data files: write each value out"


def test_a_list_nested_5000_deep_is_an_error_not_a_recursion_error():
    with pytest.raises(CurationError) as caught:
        load_yaml(FIXTURES / "yaml_list_nested_5000_deep.yml", CurationError, "c.yml")
    assert str(caught.value) == f"c.yml:1: nested more than {MAX_DEPTH} levels deep"


def test_mappings_nested_too_deep_are_refused_on_the_line_that_goes_too_far():
    text = "".join("  " * level + f"k{level}:\n" for level in range(MAX_DEPTH + 1)) + "  " * (MAX_DEPTH + 1) + "leaf\n"
    with pytest.raises(CurationError) as caught:
        parse_yaml(text, "c.yml", CurationError)
    # the 33rd mapping opens at its first key, k32, on line 33
    assert str(caught.value) == f"c.yml:{MAX_DEPTH + 1}: nested more than {MAX_DEPTH} levels deep"


def test_nesting_up_to_the_limit_is_read():
    doc = parse_yaml("[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH, "c.yml")
    value = doc.data
    for _ in range(MAX_DEPTH):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    assert value == "x"
    assert doc.line(*[0] * MAX_DEPTH) == 1


def test_a_long_flat_file_keeps_every_line():
    # the explicit stack: every item of a 3,000-entry file, in file order
    text = "".join(f"p{i}: {{title: t{i}}}\n" for i in range(3_000))
    doc = parse_yaml(text, "c.yml")
    assert doc.line("p2999", "title") == 3_000
    assert list(doc.data)[:3] == ["p0", "p1", "p2"]


def test_every_shipped_data_file_reads_the_same_fast_and_carefully():
    # load_yaml has libyaml compose the generator's own YAML files: each must give the careful
    # reader's data and lines, with no problem
    from generator.core import yamlfile

    package = Path(yamlfile.__file__).resolve().parents[1]
    files = sorted(package.rglob("*.yml"))
    assert len(files) >= 6, files
    for path in files:
        assert yamlfile.shipped(path)
        fast = load_yaml(path)
        careful = parse_yaml(path.read_text(encoding="utf-8"), str(path))
        assert fast.data == careful.data and fast.lines == careful.lines, path


def test_a_shipped_file_read_fast_still_says_the_line_of_a_duplicate_key():
    # a maintainer edits the shipped taxonomy and word lists: a repeated key is an error with its
    # line there too, not the last value kept in silence
    from generator.core.errors import TaxonomyError

    text = "topics:\n  - slug: a\n    name: A\n    name: B\n"
    for trusted in (False, True):
        with pytest.raises(TaxonomyError) as caught:
            parse_yaml(text, "taxonomy.yml", TaxonomyError, trusted=trusted)
        assert "taxonomy.yml:4: duplicate key 'name'" in str(caught.value), (trusted, str(caught.value))
    doc = parse_yaml("topics:\n  - slug: a\n    name: A\n", "t.yml", trusted=True)
    assert doc.line("topics", 0, "name") == 3


def test_a_file_outside_the_package_is_read_carefully(tmp_path):
    from generator.core import yamlfile

    outside = tmp_path / "taxonomy.yml"
    outside.write_text("a: &x [1]\nb: *x\n", encoding="utf-8")
    assert not yamlfile.shipped(outside)
    with pytest.raises(GeneratorError, match="anchors"):
        load_yaml(outside)
