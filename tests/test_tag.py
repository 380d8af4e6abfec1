"""The tagging stage: the taxonomy's validation, phrase matching, weighting, and the corpora."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from generator.core.errors import ErrorList, TaxonomyError
from generator.core.model import Paper, Source, Topic
from generator.derive.tag import (
    MAX_TAGS,
    TopicModel,
    _matcher,
    load_taxonomy,
    load_topic_model,
    outlook_checked,
    outlook_only,
    tag_paper,
    tag_papers,
)
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
         "(expected one of: name, slug, description, phrases, acronyms, catch_all, parent)"),
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
        "(expected one of: name, slug, description, phrases, acronyms, catch_all, parent)",
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


# A model of phrases alone, with weights chosen by hand (bias, phrase, phrase_share, terms,
# terms_share, classifier, classifier_gap): a mention in the first sentence (score 3) or three later ones give a tag
# (logit -3 + 2 log 4 + 1 = 0.77, probability 0.68 >= 0.5); one late mention beside a
# stronger topic does not (-3 + 2 log 2 + 1/6.5 = -1.46, 0.19). The toy taxonomies below have
# no term profiles, so the fitted model's weights would test the fit, not the matching.
PHRASES_ONLY = TopicModel((-3.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0), threshold=0.5, share_of_top=0.2, early_weight=1.0,
                          idf={}, profiles={})


def tags_of(text: str, topics=MATCHING) -> tuple[str, ...]:
    return tag_paper(paper(text), topics, PHRASES_ONLY).tags


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


def test_a_topic_only_the_outlook_sentence_names_is_a_suspect():
    m = _matcher(tuple(MATCHING), PHRASES_ONLY)
    body = "Graph neural networks pass messages. We change the message function. It is cheap to run. "
    assert outlook_only(body + "It may also help reinforcement learning.", m) == {2}
    # named before the last sentence too: what the paper does, not an outlook
    assert outlook_only(body.replace("cheap", "cheap for RL") + "It may also help reinforcement learning.", m) == set()
    # three sentences: the last is not taken for an outlook
    assert outlook_only("Graph networks pass messages. They are cheap. They may help RL.", m) == set()


def test_an_outlook_suspect_keeps_its_place_only_by_the_rest_of_the_abstract():
    model = TopicModel((0.0,) * 7, threshold=0.5, share_of_top=0.0, early_weight=1.0, idf={}, profiles={},
                       later_thresholds=(0.3,))
    logits = {0: 5.0, 1: -3.0, 2: 0.0}  # probabilities 0.99, 0.05, 0.5
    assert outlook_checked([0, 1, 2], logits, {1}, model) == [0, 2]  # the suspect falls below 0.3
    assert outlook_checked([0, 1, 2], logits, set(), model) == [0, 1, 2]  # no suspect: nothing dropped
    assert outlook_checked([0, 2, 1], logits, {2}, model) == [0, 2, 1]  # 0.5 reaches the second place's 0.3
    assert outlook_checked([1, 0], logits, {1}, model) == [1, 0]  # the first tag stays


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
        MATCHING, PHRASES_ONLY,
    )
    assert result.tags == ("RL", "Graphs")
    assert result.tag_evidence == (("RL", ("reinforcement learning", "RL", "MDP")), ("Graphs", ("graph",)))


def test_at_most_four_tags():
    # an expert gives a primary topic and up to three more (../shared/topic_labelling.md)
    topics = [topic(f"Topic {c}", f"word{c}") for c in "abcdefgh"]
    result = tag_paper(paper(" ".join(f"word{c}" for c in "abcdefgh") + "."), topics, PHRASES_ONLY)
    assert len(result.tags) == MAX_TAGS == 4
    assert result.tags == tuple(f"Topic {c}" for c in "abcd")


def test_catch_all_only_when_nothing_matches():
    nothing = tag_paper(paper("We prove a lemma."), MATCHING, PHRASES_ONLY)
    assert nothing.tags == ("Machine Learning",)
    assert nothing.tag_evidence == (("Machine Learning", ()),)
    # one weak mention still says more than the catch-all
    late = "We prove a lemma. It is short. It is new. It uses a graph."
    assert tags_of(late) == ("Graphs",)


def test_curated_tags_are_left_alone():
    curated = paper("Reinforcement learning in MDPs.", tags=("Graphs",), curated=("tags",))
    derived = paper("Reinforcement learning in MDPs.", curated=("title",))
    out = tag_papers([curated, derived], MATCHING, PHRASES_ONLY)
    assert out[0] is curated
    assert out[1] == replace(derived, tags=("RL",), tag_evidence=(("RL", ("reinforcement learning", "MDP")),))


# -- the shipped taxonomy on realistic abstracts -----------------------------------------


def test_unlearning_abstract_is_tagged_unlearning_first(taxonomy):
    text = (FIXTURES / "abstract_machine_unlearning.txt").read_text(encoding="utf-8").strip()
    result = tag_paper(paper(text), taxonomy)
    assert result.tags[0] == "Machine Unlearning"
    assert dict(result.tag_evidence)["Machine Unlearning"][:2] == ("machine unlearning", "forget set")


def test_late_mention_of_rl_in_a_diffusion_abstract_comes_after_its_subjects(taxonomy):
    # The rule fitted by venue (benchmarks/fit_topics.py) gives a third tag to a topic named once in
    # the last sentence: F1 is the same as with fewer tags, and more papers keep their primary
    # topic. What must hold is that the mention never outranks what the paper is about.
    text = (FIXTURES / "abstract_diffusion_late_rl_mention.txt").read_text(encoding="utf-8").strip()
    result = tag_paper(paper(text), taxonomy)
    assert result.tags[0] == "Generative Models"
    assert "Reinforcement Learning" not in result.tags[:2]


def test_mission_seeds_get_subject_tags(taxonomy):
    papers = [p for f in sorted(SEEDS.glob("*.txt")) for p in parse_seed(f.read_bytes(), f.name)]
    tagged = tag_papers(papers, taxonomy)
    assert all(1 <= len(p.tags) <= MAX_TAGS and "Machine Learning" not in p.tags for p in tagged)

    def tags(start: str) -> tuple[str, ...]:
        (found,) = {p.tags for p in tagged if p.text.startswith(start)}
        return found

    assert tags("We study hybrid reinforcement learning")[0] == "Reinforcement Learning"
    assert tags("We study linear contextual bandits")[0] == "Bandits and Online Learning"
    assert set(tags("Partial identification provides")[:2]) == {"Causal Inference", "Optimal Transport"}
    assert tags("Unlearning in large language models")[0] == "Machine Unlearning"
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


def test_every_corpus_paper_gets_one_to_four_tags_and_the_catch_all_is_rare(taxonomy):
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


# -- the terms: what a topic's papers say, beyond its phrases ------------------------------

TERMS = [topic("Music", "music"), topic("Graphs", "graph neural network"), topic("Machine Learning", catch_all=True)]
# bias, phrase, phrase_share, terms, terms_share, classifier, classifier_gap: terms alone can make a tag (a cosine of 0.6
# with the profile: -3 + 5 * 0.6 + 2 = 2, probability 0.88)
TERMS_MODEL = TopicModel(
    (-3.0, 2.0, 1.0, 5.0, 2.0, 0.0, 0.0), threshold=0.5, share_of_top=0.2, early_weight=1.0,
    idf={"melody": 2.0, "chord": 2.0, "chord progression": 3.0, "node": 1.0},
    profiles={"music": {"melody": 0.6, "chord": 0.6, "chord progression": 0.52}, "graphs": {"node": 1.0}},
)


def test_terms_tag_an_abstract_that_never_names_its_topic():
    result = tag_paper(paper("We generate a melody over a chord progression."), TERMS, TERMS_MODEL)
    assert result.tags == ("Music",)
    # no phrase matched: the evidence is the strongest terms, the pair first
    assert result.tag_evidence == (("Music", ("chord progression", "chord", "melody")),)


def test_without_phrases_or_known_terms_the_catch_all_is_given():
    result = tag_paper(paper("We prove a lemma about sets."), TERMS, TERMS_MODEL)
    assert result.tags == ("Machine Learning",)


def test_phrase_evidence_comes_before_term_evidence():
    text = "Music is generated. Each melody follows a chord."
    result = tag_paper(paper(text), TERMS, TERMS_MODEL)
    assert result.tags == ("Music",)
    assert dict(result.tag_evidence)["Music"][0] == "music"
    assert set(dict(result.tag_evidence)["Music"][1:]) == {"melody", "chord"}


# bias and classifier alone: the classifier's score -1 + 6 x (the abstract's tf-idf weight of "melody")
CLASSIFIER_MODEL = TopicModel(
    (-3.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0), threshold=0.5, share_of_top=0.2, early_weight=1.0,
    idf={"melody": 2.0, "node": 1.0}, profiles={},
    classifiers={"music": {"melody": 6.0}, "graphs": {"node": 6.0}}, intercepts={"music": -1.0, "graphs": -1.0},
)


def test_a_topic_classifier_alone_can_make_a_tag_and_shows_its_terms():
    # "melody" is the only term: weight 1, classifier score 5, logit 2, probability 0.88
    result = tag_paper(paper("A melody."), TERMS, CLASSIFIER_MODEL)
    assert result.tags == ("Music",)
    assert result.tag_evidence == (("Music", ("melody",)),)
    # no term of either classifier: both score -1, below any tag
    assert tag_paper(paper("We prove a lemma about sets."), TERMS, CLASSIFIER_MODEL).tags == ("Machine Learning",)


def test_max_tags_caps_the_tags_after_the_best():
    text = "Music on graph neural networks. More music."
    assert tag_paper(paper(text), TERMS, PHRASES_ONLY).tags == ("Music", "Graphs")
    one = replace(PHRASES_ONLY, max_tags=1)
    assert tag_paper(paper(text), TERMS, one).tags == ("Music",)


# "Music on graph neural networks. More music.": Music 3 + 2.5 = 5.5, Graphs 3 (first sentence), so
# Music -3 + 2 log 6.5 + 1 = 1.74 (probability 0.85) and Graphs -3 + 2 log 4 + 3 / 5.5 = 0.32 (0.58).
def test_a_later_tag_must_reach_the_threshold_of_its_place():
    text = "Music on graph neural networks. More music."
    assert tag_paper(paper(text), TERMS, replace(PHRASES_ONLY, later_thresholds=(0.6,))).tags == ("Music",)
    strict_first = replace(PHRASES_ONLY, threshold=0.7)
    assert tag_paper(paper(text), TERMS, strict_first).tags == ("Music",)
    # a second tag may need less than the first
    assert tag_paper(paper(text), TERMS, replace(strict_first, later_thresholds=(0.55,))).tags == ("Music", "Graphs")


def test_a_place_past_the_given_thresholds_takes_the_last():
    model = replace(PHRASES_ONLY, later_thresholds=(0.1, 0.3))
    assert [model.place_threshold(p) for p in range(4)] == [0.5, 0.1, 0.3, 0.3]
    assert [PHRASES_ONLY.place_threshold(p) for p in range(4)] == [0.5] * 4


def test_the_fitted_model_is_read_and_covers_the_taxonomy(taxonomy):
    model = load_topic_model()
    assert len(model.weights) == 7
    assert 1 <= model.max_tags <= MAX_TAGS
    assert set(model.classifiers) <= set(model.profiles)
    assert all(term in model.idf for terms in model.classifiers.values() for term in terms)
    assert 0 < model.threshold < 1
    assert {t.slug for t in taxonomy if not t.catch_all} <= set(model.profiles)
    assert all(term in model.idf for terms in model.profiles.values() for term in terms)
    assert (Path(__file__).resolve().parents[1] / "generator" / "derive" / "topic_weights.json").stat().st_size < 5_000_000  # 3,000 weights a classifier: 4.4 MB


@pytest.mark.parametrize(
    "change, message",
    [
        ('"threshold": "high"', "'threshold' must be a number, not a string"),
        ('"weights": {"bias": 1}', "'weights' must give a number for each feature"),
        ('"profiles": {"music": {"melody": "loud"}}', "'profiles.music' must map strings to numbers, not 'melody' to a string"),
        ('"place_thresholds": {"3": 0.3}', "'place_thresholds' must map the places of the tags after the first, from 2"),
        ('"place_thresholds": {"2": "low"}', "'place_thresholds' must map strings to numbers, not '2' to a string"),
    ],
)
def test_a_broken_model_file_is_an_error_naming_it(tmp_path, change, message):
    import json

    good = {"about": "x", "fitted_on": ["x"], "weights": dict(zip(("bias", "phrase", "phrase_share", "terms", "terms_share",
                                                                  "classifier", "classifier_gap"), (0,) * 7)),
            "threshold": 0.5, "share_of_top": 0.2, "early_weight": 1.0, "idf": {"melody": 1.0},
            "profiles": {"music": {"melody": 1.0}}}
    key, _, value = change.partition(": ")
    good[json.loads(key)] = json.loads(value)
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(TaxonomyError) as caught:
        load_topic_model(path)
    assert str(caught.value).startswith(f"{path}:")
    assert message in str(caught.value)


def test_tagging_is_deterministic(taxonomy):
    papers = [paper(t) for t in ("Graph neural networks for molecules.", "A melody generator for jazz.")]
    assert tag_papers(papers, taxonomy) == tag_papers(papers, taxonomy)


# -- parents ------------------------------------------------------------------------------


def write_taxonomy(tmp_path, body: str) -> Path:
    path = tmp_path / "taxonomy.yml"
    path.write_text("topics:\n" + body, encoding="utf-8")
    return path


def test_parents_are_read(taxonomy):
    parent = {t.slug: t.parent for t in taxonomy}
    assert parent["gans"] == "generative-models"
    assert parent["domain-adaptation"] == "distribution-shift"
    assert parent["variational-inference"] == "probabilistic-inference"
    assert parent["semi-supervised-learning"] == "weak-supervision"
    assert parent["meta-learning"] == "continual-meta-learning"
    assert parent["generative-models"] == ""


def test_an_unknown_parent_names_file_line_and_topic(tmp_path):
    path = write_taxonomy(tmp_path, (
        "  - name: Generative Models\n    slug: generative-models\n    description: d\n    phrases: [diffusion]\n"
        "  - name: GANs\n    slug: gans\n    description: d\n    phrases: [gan]\n    parent: generative-model\n"
    ))
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy(path)
    assert str(caught.value) == (f"{path}:10: topic 'GANs': parent 'generative-model' is not the slug of a topic "
                                 "(did you mean 'generative-models'? a parent is named by its slug)")


def test_parents_in_a_circle_are_an_error(tmp_path):
    path = write_taxonomy(tmp_path, (
        "  - name: A\n    slug: a\n    description: d\n    phrases: [aa]\n    parent: b\n"
        "  - name: B\n    slug: b\n    description: d\n    phrases: [bb]\n    parent: a\n"
        "  - name: C\n    slug: c\n    description: d\n    phrases: [cc]\n    parent: c\n"
    ))
    with pytest.raises(ErrorList) as caught:
        load_taxonomy(path)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}:6: topic 'A': parents go round in a circle: a -> b -> a",
        f"{path}:16: topic 'C': a topic cannot be its own parent",
    ]


def test_the_catch_all_has_no_parent_and_is_none(tmp_path):
    path = write_taxonomy(tmp_path, (
        "  - name: ML\n    slug: ml\n    description: d\n    catch_all: true\n"
        "  - name: B\n    slug: b\n    description: d\n    phrases: [bb]\n    parent: ml\n"
    ))
    with pytest.raises(TaxonomyError) as caught:
        load_taxonomy(path)
    assert str(caught.value) == f"{path}:10: topic 'B': the catch-all topic cannot be a parent or have one"
