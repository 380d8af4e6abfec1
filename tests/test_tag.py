"""The tagging stage: the taxonomy's validation, phrase matching, weighting, and the corpora."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from generator.core.errors import ErrorList, TaxonomyError
from generator.core.model import Paper, Source, Topic
from generator.derive.tag import MAX_TAGS, load_taxonomy, tag_paper, tag_papers
from generator.seeds.parse import parse_seed

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = Path(__file__).resolve().parents[1] / "seeds"
CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def paper(text: str, **fields) -> Paper:
    return Paper(id="p", text=text, venue="ICML", year=2026, sources=(Source("seeds/x.txt", 3),), **fields)


def topic(name: str, *phrases: str, catch_all: bool = False) -> Topic:
    return Topic(name, name.lower().replace(" ", "-"), f"About {name}.", phrases, catch_all)


@pytest.fixture(scope="module")
def taxonomy() -> list[Topic]:
    return load_taxonomy()


# -- the taxonomy file --------------------------------------------------------------------


def test_shipped_taxonomy_is_valid(taxonomy):
    assert len(taxonomy) >= 30
    assert [t.name for t in taxonomy if t.catch_all] == ["Machine Learning"]
    assert len({t.slug for t in taxonomy}) == len(taxonomy)
    rl = next(t for t in taxonomy if t.slug == "reinforcement-learning")
    assert "reinforcement learning" in rl.phrases
    assert "RL" in rl.phrases  # acronyms keep their capitals


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ("taxonomy_duplicate_slug.yml",
         "7: topic 'Deep Reinforcement Learning': duplicate slug 'reinforcement-learning' (first used on line 3)"),
        ("taxonomy_duplicate_name.yml", "6: topic 'music': duplicate name 'music' (first used on line 2)"),
        ("taxonomy_unknown_key.yml",
         "6: topic 'Optimal Transport': unknown key 'keywords' "
         "(expected one of: name, slug, description, phrases, acronyms, catch_all)"),
        ("taxonomy_empty_phrases.yml",
         "5: topic 'Causal Inference': no phrases or acronyms: the topic could never be given"),
        ("taxonomy_missing_key.yml", "2: topic 'Graph Learning': missing key 'slug'"),
        ("taxonomy_acronym_without_capitals.yml",
         "6: topic 'Neural Fields': acronym 'nerf' has no capitals; put it under 'phrases'"),
        ("taxonomy_two_catch_alls.yml",
         "9: topic 'Miscellaneous': only one topic may be the catch-all (already 'Machine Learning')"),
        ("taxonomy_invalid_yaml.yml", "4: invalid YAML: mapping values are not allowed here"),
        ("taxonomy_not_a_list.yml", "1: expected a mapping with one key, 'topics', holding a list of topics"),
    ],
)
def test_taxonomy_problem_names_file_line_and_topic(fixture, message):
    path = FIXTURES / fixture
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy(path)
    assert str(caught.value) == f"{path}:{message}"


def test_wrong_types_are_reported_together():
    path = FIXTURES / "taxonomy_wrong_types.yml"
    with pytest.raises(ErrorList) as caught:
        load_taxonomy(path)
    assert str(caught.value) == (
        f"{path}:5: topic 'Bandits': 'phrases' must be a list of strings, not str\n"
        f"{path}:6: topic 'Bandits': 'catch_all' must be a boolean (true or false), not str"
    )


def test_every_problem_of_the_file_is_reported_at_once():
    path = FIXTURES / "taxonomy_several_problems.yml"
    with pytest.raises(ErrorList) as caught:
        load_taxonomy(path)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}:4: topic 'Federated Learning': slug 'Federated Learning' must be lower-case words joined by hyphens",
        f"{path}:7: topic 'Fairness': missing key 'description'",
        f"{path}:10: topic 'Fairness': unknown key 'weight' "
        "(expected one of: name, slug, description, phrases, acronyms, catch_all)",
        f"{path}:12: topic 'Privacy': duplicate slug 'fairness' (first used on line 8)",
    ]


# -- matching -----------------------------------------------------------------------------


MATCHING = [
    topic("Graphs", "graph neural network", "graph"),
    topic("Self-Supervised", "self-supervised learning", "contrastive"),
    topic("RL", "reinforcement learning", "RL", "MDP"),
    topic("Language Models", "language model", "LLM"),
    topic("Vision-Language", "vision language model"),
    topic("Text", "text"),
    topic("Machine Learning", catch_all=True),
]


def tags_of(text: str, topics=MATCHING) -> tuple[str, ...]:
    return tag_paper(paper(text), topics).tags


def test_phrases_match_whole_words_only():
    assert tags_of("Paragraphs about computer graphics and holography.") == ("Machine Learning",)
    assert tags_of("We study graphs.") == ("Graphs",)


def test_phrases_ignore_case_hyphens_dashes_and_plurals():
    assert tags_of("Self-Supervised Learning scales.") == ("Self-Supervised",)
    assert tags_of("Self–supervised   learning scales.") == ("Self-Supervised",)
    assert tags_of("Graph Neural Networks are popular.") == ("Graphs",)
    assert tags_of("Vision-Language Models see.") == ("Vision-Language",)


def test_acronyms_match_their_capitals_only():
    assert tags_of("We study RL in MDPs.") == ("RL",)
    assert tags_of("LLMs are large.") == ("Language Models",)
    assert tags_of("The url, the curl and rl in lower case.") == ("Machine Learning",)
    assert tags_of("Rl and Mdp are not written so.") == ("Machine Learning",)
    assert tags_of("URLs and MDPX and XRL are other words.") == ("Machine Learning",)


def test_urls_and_latex_macro_names_are_not_words():
    assert tags_of(r"See https://github.com/org/graph-text and \textbf{\emph{Ours}}.") == ("Machine Learning",)
    assert tags_of(r"We call it \textbf{Graph} learning.") == ("Graphs",)


def test_the_longest_phrase_wins():
    # "vision-language model" is not also evidence of "language model"
    assert tags_of("Vision-language models align images and words.") == ("Vision-Language",)


def test_a_passing_mention_late_in_the_abstract_is_not_a_tag():
    text = (
        "Graph neural networks pass messages between nodes. Deeper graph networks oversmooth. "
        "We propose a new normalization. It is cheap. Experiments on ten graph benchmarks confirm it. "
        "It may also help reinforcement learning."
    )
    assert tags_of(text) == ("Graphs",)


def test_repeated_mentions_make_a_tag():
    text = (
        "Graph neural networks pass messages between nodes. We change the message function. "
        "Our analysis uses reinforcement learning. We then train with reinforcement learning. "
        "Finally, reinforcement learning tunes the depth."
    )
    assert tags_of(text) == ("Graphs", "RL")


def test_tags_are_ordered_by_score_and_keep_their_evidence():
    result = tag_paper(
        paper("We study reinforcement learning (RL) in MDPs. Graphs give the states. Graphs are sparse."),
        MATCHING,
    )
    assert result.tags == ("RL", "Graphs")
    assert result.tag_evidence == (("RL", ("reinforcement learning", "RL", "MDP")), ("Graphs", ("graph",)))


def test_at_most_five_tags():
    topics = [topic(f"Topic {c}", f"word{c}") for c in "abcdefgh"]
    result = tag_paper(paper(" ".join(f"word{c}" for c in "abcdefgh") + "."), topics)
    assert len(result.tags) == MAX_TAGS == 5
    assert result.tags == tuple(f"Topic {c}" for c in "abcde")


def test_catch_all_only_when_nothing_matches():
    nothing = tag_paper(paper("We prove a lemma."), MATCHING)
    assert nothing.tags == ("Machine Learning",)
    assert nothing.tag_evidence == (("Machine Learning", ()),)
    # one weak mention still says more than the catch-all
    late = "We prove a lemma. It is short. It is new. It uses a graph."
    assert tags_of(late) == ("Graphs",)


def test_curated_tags_are_left_alone():
    curated = paper("Reinforcement learning in MDPs.", tags=("Graphs",), curated=("tags",))
    derived = paper("Reinforcement learning in MDPs.", curated=("title",))
    out = tag_papers([curated, derived], MATCHING)
    assert out[0] is curated
    assert out[1] == replace(derived, tags=("RL",), tag_evidence=(("RL", ("reinforcement learning", "MDP")),))


# -- the shipped taxonomy on realistic abstracts -----------------------------------------


def test_unlearning_abstract_is_tagged_unlearning_first(taxonomy):
    text = (FIXTURES / "abstract_machine_unlearning.txt").read_text(encoding="utf-8").strip()
    result = tag_paper(paper(text), taxonomy)
    assert result.tags[0] == "Machine Unlearning"
    assert "Large Language Models" in result.tags
    assert dict(result.tag_evidence)["Machine Unlearning"][:2] == ("machine unlearning", "forget set")


def test_late_mention_of_rl_in_a_diffusion_abstract_adds_no_rl(taxonomy):
    text = (FIXTURES / "abstract_diffusion_late_rl_mention.txt").read_text(encoding="utf-8").strip()
    result = tag_paper(paper(text), taxonomy)
    assert result.tags[0] == "Generative Models"
    assert "Reinforcement Learning" not in result.tags


def test_mission_seeds_get_subject_tags(taxonomy):
    papers = [p for f in sorted(SEEDS.glob("*.txt")) for p in parse_seed(f.read_bytes(), f.name)]
    tagged = tag_papers(papers, taxonomy)
    assert all(1 <= len(p.tags) <= MAX_TAGS and "Machine Learning" not in p.tags for p in tagged)

    def tags(start: str) -> tuple[str, ...]:
        (found,) = {p.tags for p in tagged if p.text.startswith(start)}
        return found

    assert tags("We study hybrid reinforcement learning")[0] == "Reinforcement Learning"
    assert tags("We study linear contextual bandits")[0] == "Bandits and Online Learning"
    assert tags("Partial identification provides")[:2] == ("Causal Inference", "Optimal Transport")
    assert tags("Unlearning in large language models")[:2] == ("Machine Unlearning", "Large Language Models")
    assert tags("Visual-language-action (VLA) models")[0] == "Robotics and Embodied AI"


# -- the shared corpora -------------------------------------------------------------------


def corpus_papers() -> list[Paper]:
    """The corpora's abstracts, read as the seed format defines them (header line, blank-line paragraphs).

    Not through the seed parser: it rightly rejects a few corpus files (control
    characters), and the tagger must cope with whatever text reaches it.
    """
    if not CORPORA.is_dir():
        pytest.skip(f"the shared corpora are not at {CORPORA} (they live beside the repository, not in it)")
    papers = []
    for path in sorted(CORPORA.rglob("*.txt")):
        body = path.read_text(encoding="utf-8").partition("\n")[2]
        for n, block in enumerate(re.split(r"\n\s*\n", body)):
            if block.strip():
                papers.append(replace(paper(" ".join(block.split())), id=f"{path.name}#{n}"))
    return papers


def test_every_corpus_paper_gets_one_to_five_tags_and_the_catch_all_is_rare(taxonomy):
    papers = corpus_papers()
    tagged = tag_papers(papers, taxonomy)
    assert len(tagged) > 500
    untagged = [str(p) for p in tagged if not 1 <= len(p.tags) <= MAX_TAGS]
    assert untagged == []
    catch_all = [p for p in tagged if p.tags == ("Machine Learning",)]
    assert len(catch_all) / len(tagged) < 0.05, [p.text[:60] for p in catch_all]
    counts = Counter(t for p in tagged for t in p.tags)
    # the two corpora are about music and about neural fields: their main topics must show it
    assert counts.most_common(3)[0][0] in {"Neural Fields and Rendering", "3D Vision"}
    assert counts["Music"] >= 120
