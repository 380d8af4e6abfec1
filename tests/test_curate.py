"""The curation stage: loading ``curation.yml`` and applying it to papers."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.core.errors import CurationError, GeneratorError
from generator.core.model import Paper, Source, Topic
from generator.derive import curate
from generator.derive.tag import load_taxonomy
from generator.pipeline import derive
from generator.seeds.parse import parse_seed

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).parent.parent

TOPICS = [
    Topic("Generative Models", "generative-models", "Models that generate data.", ("diffusion",)),
    Topic("Reinforcement Learning", "reinforcement-learning", "Learning from rewards.", ("reward",)),
    Topic("Machine Learning", "machine-learning", "Everything else.", (), catch_all=True),
]


def paper(paper_id: str, aliases: tuple[str, ...] = (), **fields: object) -> Paper:
    return Paper(
        id=paper_id,
        text=f"The abstract of {paper_id}.",
        venue="ICML",
        year=2026,
        sources=(Source("seeds/icml.txt", 3),),
        aliases=aliases,
        **fields,
    )


PAPERS = [
    paper("aaaaaaaaaaaa", title="Derived Title", tags=("Machine Learning",)),
    paper("bbbbbbbbbbbb", aliases=("cccccccccccc",)),
]


def load(name: str) -> curate.Curation:
    return curate.load_curation(FIXTURES / name, f"seeds/{name}")


def messages(error: GeneratorError) -> list[str]:
    return [str(e) for e in getattr(error, "errors", [error])]


# -- loading ---------------------------------------------------------------------------


def test_load_reads_every_field_with_its_line():
    curation = load("curation_full.yml")
    assert curation.path == "seeds/curation_full.yml"
    assert [e.id for e in curation] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    first, second = curation.entries
    assert first == curate.Entry(
        id="aaaaaaaaaaaa",
        line=2,
        title="A Better Title",
        tags=("Generative Models", "Reinforcement Learning"),
        tag_lines=(4, 4),
        featured=True,
        note="Best paper award.",
    )
    assert second == curate.Entry(id="bbbbbbbbbbbb", line=7, hide="withdrawn by the authors")
    assert curation.get("bbbbbbbbbbbb") is second
    assert curation.get("cccccccccccc") is None


def test_a_file_of_comments_only_is_an_empty_curation():
    assert len(load("curation_comments_only.yml")) == 0


def test_not_a_mapping():
    with pytest.raises(CurationError) as e:
        load("curation_not_a_mapping.yml")
    assert str(e.value) == (
        "seeds/curation_not_a_mapping.yml:1: expected a mapping from paper id to corrections, not a list"
    )


def test_entry_not_a_mapping():
    with pytest.raises(GeneratorError) as e:
        load("curation_entry_not_a_mapping.yml")
    assert messages(e.value) == [
        "seeds/curation_entry_not_a_mapping.yml:1: entry 'aaaaaaaaaaaa': expected a mapping with at least one of: "
        "title, tags, featured, hide, note",
        "seeds/curation_entry_not_a_mapping.yml:2: entry 'bbbbbbbbbbbb': expected a mapping with at least one of: "
        "title, tags, featured, hide, note",
    ]


def test_unknown_keys_are_named_with_the_nearest_key():
    with pytest.raises(GeneratorError) as e:
        load("curation_unknown_key.yml")
    assert messages(e.value) == [
        "seeds/curation_unknown_key.yml:2: entry 'aaaaaaaaaaaa': unknown key 'tittle' "
        "(did you mean 'title'? expected one of: title, tags, featured, hide, note)",
        "seeds/curation_unknown_key.yml:3: entry 'aaaaaaaaaaaa': unknown key 'hidden' "
        "(did you mean 'hide'? expected one of: title, tags, featured, hide, note)",
    ]


def test_wrong_types_are_all_reported_on_their_lines():
    with pytest.raises(GeneratorError) as e:
        load("curation_wrong_types.yml")
    path = "seeds/curation_wrong_types.yml"
    assert messages(e.value) == [
        f"{path}:2: entry 'aaaaaaaaaaaa': 'title' must be a string, not a number",
        f"{path}:3: entry 'aaaaaaaaaaaa': 'tags' must be a list of topic names, not a string",
        f"{path}:4: entry 'aaaaaaaaaaaa': 'featured' must be a boolean (true or false), not a string",
        f"{path}:6: entry 'bbbbbbbbbbbb': 'tags' entries must be topic names, not 3",
        f"{path}:6: entry 'bbbbbbbbbbbb': topic 'Generative Models' is listed twice",
        f"{path}:7: entry 'bbbbbbbbbbbb': 'hide' must not be empty",
        f"{path}:8: entry 'bbbbbbbbbbbb': 'note' must be a string, not a list",
    ]


def test_an_id_of_digits_must_be_quoted():
    with pytest.raises(CurationError) as e:
        load("curation_unquoted_digit_id.yml")
    assert str(e.value) == (
        "seeds/curation_unquoted_digit_id.yml:1: paper id 123456789012 must be written in quotes, "
        'like "123456789012"'
    )


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "curation.yml"
    path.write_text("aaaaaaaaaaaa:\n  title: [unclosed\n", encoding="utf-8")
    with pytest.raises(CurationError) as e:
        curate.load_curation(path, "seeds/curation.yml")
    assert str(e.value).startswith("seeds/curation.yml:3: invalid YAML")


def test_a_repeated_id_is_an_error(tmp_path):
    path = tmp_path / "curation.yml"
    path.write_text("aaaaaaaaaaaa:\n  featured: true\naaaaaaaaaaaa:\n  note: again\n", encoding="utf-8")
    with pytest.raises(CurationError) as e:
        curate.load_curation(path, "seeds/curation.yml")
    assert str(e.value) == "seeds/curation.yml:3: duplicate key 'aaaaaaaaaaaa' (first given on line 1)"


# -- applying --------------------------------------------------------------------------


def test_apply_retitles_retags_features_hides_and_notes():
    first, second = curate.apply_curation(PAPERS, load("curation_full.yml"), TOPICS)
    assert first.title == "A Better Title"
    assert first.tags == ("Generative Models", "Reinforcement Learning")
    assert first.featured is True
    assert first.note == "Best paper award."
    assert first.curated == ("tags", "title")
    assert first.hidden == ""
    assert second.hidden == "withdrawn by the authors"
    assert second.curated == ()
    assert (second.title, second.featured, second.note) == ("", False, "")


def test_apply_leaves_unnamed_papers_and_the_input_alone():
    papers = PAPERS + [paper("dddddddddddd")]
    out = curate.apply_curation(papers, load("curation_full.yml"), TOPICS)
    assert out[2] is papers[2]
    assert papers[0].title == "Derived Title"


def test_an_alias_id_curates_the_paper_it_was_merged_into():
    out = curate.apply_curation(PAPERS, load("curation_alias_id.yml"), TOPICS)
    assert out[1].id == "bbbbbbbbbbbb"
    assert out[1].title == "Named by a duplicate's id"
    assert out[1].curated == ("title",)


def test_two_entries_for_one_paper_are_an_error():
    with pytest.raises(CurationError) as e:
        curate.apply_curation(PAPERS, load("curation_same_paper_twice.yml"), TOPICS)
    assert str(e.value) == (
        "seeds/curation_same_paper_twice.yml:3: entry 'cccccccccccc' is the same paper as entry 'bbbbbbbbbbbb' "
        "(line 1): merge the two entries under 'bbbbbbbbbbbb'"
    )


def test_unknown_ids_name_the_line_and_the_nearest_id():
    with pytest.raises(GeneratorError) as e:
        curate.apply_curation(PAPERS, load("curation_unknown_id.yml"), TOPICS)
    assert messages(e.value) == [
        "seeds/curation_unknown_id.yml:3: unknown paper id 'aaaaaaaaaaab'; did you mean 'aaaaaaaaaaaa'? "
        "(docs/papers.json lists every id after a build)",
        "seeds/curation_unknown_id.yml:5: unknown paper id '0123456789ab' "
        "(docs/papers.json lists every id after a build)",
    ]


def test_unknown_topics_name_the_line_and_the_nearest_topic():
    with pytest.raises(GeneratorError) as e:
        curate.apply_curation(PAPERS, load("curation_unknown_topic.yml"), TOPICS)
    assert messages(e.value) == [
        "seeds/curation_unknown_topic.yml:4: entry 'aaaaaaaaaaaa': unknown topic 'Reinforcment Learning'; "
        "did you mean 'Reinforcement Learning'?",
        "seeds/curation_unknown_topic.yml:5: entry 'aaaaaaaaaaaa': unknown topic 'Knitting'; "
        "the topics are listed in generator/derive/taxonomy.yml",
    ]


# -- in the pipeline -------------------------------------------------------------------

SEED = (
    "ICML 2026 Papers\n\n"
    "We propose a diffusion model for image generation that denoises latent codes with a learned schedule, "
    "and show that it improves sample quality on standard image benchmarks while halving sampling cost.\n\n"
    "We study reinforcement learning agents that learn from sparse rewards in robotic manipulation tasks, "
    "and introduce a policy optimization method that explores with a learned curiosity bonus.\n"
).encode()


def test_curated_title_and_tags_survive_the_later_stages(tmp_path):
    topics = load_taxonomy()
    papers = parse_seed(SEED, "seeds/icml.txt")
    diffusion, rl = papers
    path = tmp_path / "curation.yml"
    path.write_text(
        f"{diffusion.id}:\n  title: Latent Diffusion, Faster\n  tags: [Reinforcement Learning]\n"
        f"{rl.id}:\n  hide: off topic\n",
        encoding="utf-8",
    )
    digest = derive(papers, topics, curate.load_curation(path, "seeds/curation.yml"))
    assert digest.get(diffusion.id).title == "Latent Diffusion, Faster"
    assert digest.get(diffusion.id).tags == ("Reinforcement Learning",)
    assert [p.id for p in digest.visible()] == [diffusion.id]
    assert digest.get(rl.id).hidden == "off topic"


def _write(where: Path, text: str) -> Path:
    path = where / "written.yml"
    path.write_text(text, encoding="utf-8")
    return path


def _commented_example(path: Path) -> str:
    """The example block of a file's header comment, uncommented."""
    text = path.read_text(encoding="utf-8")
    block = text.split("# Example:\n#\n", 1)[1].split("\n#\n", 1)[0]
    return "\n".join(re.sub(r"^#   ", "", line) for line in block.splitlines()) + "\n"


def test_the_committed_file_and_its_documented_example_load(tmp_path):
    shipped = ROOT / "seeds" / "curation.yml"
    curate.load_curation(shipped, "seeds/curation.yml")
    example = tmp_path / "curation.yml"
    example.write_text(_commented_example(shipped), encoding="utf-8")
    curation = curate.load_curation(example, "example")
    assert len(curation) == 2
    topic_names = {t.name for t in load_taxonomy()}
    assert all(set(e.tags or ()) <= topic_names for e in curation)


@pytest.mark.parametrize("doc", ["docs/contribute.md", "CONTRIBUTING.md"])
def test_the_example_in_the_contributor_guide_loads(tmp_path, doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    block = text.split("## Curation", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    example = tmp_path / "curation.yml"
    example.write_text(block, encoding="utf-8")
    assert [e for e in curate.load_curation(example, doc)] == [
        e for e in curate.load_curation(_write(tmp_path, _commented_example(ROOT / "seeds" / "curation.yml")), "seed")
    ]


def test_control_and_bidi_characters_in_curated_text_are_refused_on_their_lines():
    # A NUL, a bidi override or an isolate would reach the page unseen; the YAML escapes
    # (\0, \u202E) let them in where a raw byte would be refused by the YAML reader.
    with pytest.raises(GeneratorError) as e:
        load("curation_hidden_characters.yml")
    path = "seeds/curation_hidden_characters.yml"
    why = "remove it (control and bidi characters are invisible or reorder the text)"
    assert messages(e.value) == [
        f"{path}:2: entry 'aaaaaaaaaaaa': 'title' contains U+0000 at column 19: {why}",
        f"{path}:3: entry 'aaaaaaaaaaaa': 'note' contains U+202E (RIGHT-TO-LEFT OVERRIDE) at column 7, "
        f"U+202C (POP DIRECTIONAL FORMATTING) at column 17: {why}",
        f"{path}:4: entry 'aaaaaaaaaaaa': 'tags' entry 'Reinforcement\\u2066 Learning' contains "
        f"U+2066 (LEFT-TO-RIGHT ISOLATE) at column 14: {why}",
        f"{path}:6: entry 'bbbbbbbbbbbb': 'hide' contains U+0009 at column 4, U+001B at column 15, "
        f"U+0007 at column 25 and 1 more: {why}",
    ]


@pytest.mark.parametrize("char", ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
                                  "\u2066", "\u2067", "\u2068", "\u2069", "\x00", "\x7f", "\x85", "\n"])
def test_every_bidi_control_and_control_character_is_refused(tmp_path, char):
    escaped = "\\x{:02X}".format(ord(char)) if ord(char) < 0x100 else "\\u{:04X}".format(ord(char))
    (tmp_path / "c.yml").write_text(f'aaaaaaaaaaaa:\n  title: "Before{escaped}after"\n', encoding="utf-8")
    with pytest.raises(CurationError) as e:
        curate.load_curation(tmp_path / "c.yml", "c.yml")
    assert str(e.value).startswith(f"c.yml:2: entry 'aaaaaaaaaaaa': 'title' contains U+{ord(char):04X}")


def test_letters_of_right_to_left_scripts_and_emoji_are_fine(tmp_path):
    (tmp_path / "c.yml").write_text('aaaaaaaaaaaa:\n  title: "نموذج 🤖 with a ZWJ: 👩\u200d🔬"\n', encoding="utf-8")
    assert curate.load_curation(tmp_path / "c.yml", "c.yml").get("aaaaaaaaaaaa").title == "نموذج 🤖 with a ZWJ: 👩\u200d🔬"
