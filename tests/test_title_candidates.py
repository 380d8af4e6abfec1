"""The title stage's candidates, its word classes and its fitted choice, case by case.

Each fixture abstract is named for the case it holds (tests/fixtures/title_*.txt) and was
written for it; the titled corpora are used only by the last test, which skips without them.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.core.errors import GeneratorError, WordsError
from generator.core.text import first_sentence, plain, sentences, tokens
from generator.derive.tag import load_taxonomy
from generator.derive.title import derive_title
from generator.derive.title.candidates import KINDS, candidates
from generator.derive.title.choose import FEATURES, Scorer, context, features, fitted_weights, load_weights, score
from generator.derive.title.phrases import can_end, noun_phrases
from generator.derive.title.words import load_words
from generator.pipeline import Derived, _tag_and_title

FIXTURES = Path(__file__).parent / "fixtures"
TITLED = Path(__file__).resolve().parents[2] / "shared" / "titled"


def abstract(name: str) -> str:
    return " ".join((FIXTURES / name).read_text(encoding="utf-8").split())


# -- names the contribution patterns used to miss -------------------------------------------

@pytest.mark.parametrize("fixture, name", [
    ("title_generic_head_appositive.txt", "FreeLB"),  # "a novel adversarial training algorithm, FreeLB, that"
    ("title_resulting_model_appositive.txt", "Reformer"),  # "The resulting model, the Reformer, performs"
    ("title_capitalised_compound_name.txt", "Poly-encoder"),  # "architecture, the Poly-encoder, that"
    ("title_lowercase_long_form_acronym.txt", "SQIL"),  # "Our method, soft Q imitation learning (SQIL),"
    ("title_hyphenated_acronym_name.txt", "N-BEATS"),  # "which we call N-BEATS"
    ("title_propose_bare_name.txt", "GenDICE"),  # "we propose GenDICE."
    ("title_propose_name_comma_variant.txt", "SAdam"),  # written as the abstract writes it, not "Sadam"
    ("title_fragment_first_words.txt", "TinyForest"),  # "is TinyForest, a compact library"
])
def test_a_named_method_leads_the_title(fixture: str, name: str) -> None:
    assert derive_title(abstract(fixture)).startswith(f"{name}: ")


@pytest.mark.parametrize("fixture, expected", [
    ("title_lowercase_long_form_acronym.txt", "SQIL: Soft Q Imitation Learning"),
    ("title_propose_bare_name.txt", "GenDICE: Real-World Reinforcement Learning Applications"),  # not "Many ..."
    ("title_fragment_first_words.txt", "TinyForest: Compact Library of Decision Forests for Microcontrollers"),
])
def test_named_titles_say_what_the_method_is(fixture: str, expected: str) -> None:
    assert derive_title(abstract(fixture)) == expected


def test_an_acronym_spelled_out_in_another_sentence_leads_with_its_long_form() -> None:
    # "what we call elastic gang scheduling (EGS)" names it; "EGS is a more faithful model ..."
    # is the sentence the name is taken from, and it says less of what EGS is
    title = derive_title(abstract("title_acronym_spelled_out_elsewhere.txt"))
    assert title.startswith("EGS: Elastic Gang Scheduling")


# -- failure classes ------------------------------------------------------------------------

def test_a_title_of_only_words_every_abstract_uses_yields_to_a_specific_one() -> None:
    # the opening subject is "Deep Neural Networks": three words of most ML abstracts
    title = derive_title(abstract("title_generic_subject.txt"))
    assert title != "Deep Neural Networks"
    assert re.search(r"Temperature Scaling|Label Smoothing|Calibrat|ImageNet", title), title


def test_html_character_references_are_text() -> None:
    title = derive_title(abstract("title_html_entities.txt"))
    assert "&" not in title and "#39" not in title, title
    assert plain("Harsanyi&#39;s theorem &quot;holds&quot;") == "Harsanyi's theorem \"holds\""


@pytest.mark.parametrize("latex, text", [
    (r"the Cram\'er-Rao bound", "the Cramér-Rao bound"),
    (r'generalized Nystr\"om kernel regression', "generalized Nyström kernel regression"),
    (r'the Hyv{\"a}rinen scoring rule', "the Hyvärinen scoring rule"),
    (r"Mondrian forests~\cite{lakshminarayanan2014mondrianforests}.", "Mondrian forests."),
    (r"the cheap gradient principle~\citep[see][Ch.~3]{Griewank} holds", "the cheap gradient principle holds"),
    (r"a parameter server~(PS) framework", "a parameter server (PS) framework"),
    (r"SON~--~a convex procedure", "SON – a convex procedure"),
    (r"as in Section~\ref{sec:proof}, about ~10\% faster", "as in Section, about ~10% faster"),
])
def test_latex_accents_citations_and_ties_read_as_text(latex: str, text: str) -> None:
    # accents as the letters they make; citation keys and references are no words; an
    # unbreakable space before a bracket, a mark or a dash is a space ("~10%" means about)
    assert plain(latex) == text


@pytest.mark.parametrize("word, ends", [
    ("rather", False), ("directly", False), ("reduces", False), ("proposed", False), ("global", False),
    ("of", False), ("it", False), ("can", False), ("off-policy", False),
    ("networks", True), ("music", True), ("Transformers", True), ("inference", True), ("GAN", True),
])
def test_a_phrase_ends_where_a_phrase_can_end(word: str, ends: bool) -> None:
    assert can_end(word) is ends


def test_noun_phrases_end_by_word_class_not_length() -> None:
    found = noun_phrases(tokens("In this work we develop a transformer architecture that learns global rather "
                                "than token level features of long documents"))
    assert ["transformer", "architecture"] in found
    assert all(can_end(p[-1]) for p in found), found
    # a verb after a singular noun ends the phrase: "completion predicts" is not one noun phrase
    assert ["Semantic", "scene", "completion"] in noun_phrases(tokens("Semantic scene completion predicts occupancy"))


@pytest.mark.parametrize("sentence, phrase", [
    # a plural noun before its bracketed abbreviation is no verb ("models (LFMs)", "fields (NeRF)")
    ("We extend inference for latent feature models (LFMs).", ["inference", "for", "latent", "feature", "models"]),
    ("We build on neural radiance fields (NeRF).", ["neural", "radiance", "fields"]),
    # a figure in brackets is no abbreviation: the verb before it still ends the phrase
    ("Scene completion predicts (Fig. 2) the occupancy of voxels.", ["Scene", "completion"]),
    # "corresponding to X" says something of the phrase before it
    ("We solve the ERM problem corresponding to the full dataset.", ["ERM", "problem"]),
])
def test_a_phrase_is_not_cut_by_its_abbreviation_or_a_comparison(sentence: str, phrase: list[str]) -> None:
    assert phrase in noun_phrases(tokens(sentence)), noun_phrases(tokens(sentence))


def test_phrases_are_not_read_from_subordinate_clauses() -> None:
    found = noun_phrases(tokens("We study hybrid learning in adversarial games, where the learner receives "
                                "both delayed and partial feedback"))
    assert not any("feedback" in p for p in found), found
    found = noun_phrases(tokens("We extend the construction to a family of losses whose on-policy gradients match "
                                "those of the divergence"))
    assert not any("gradients" in p for p in found), found


def test_the_topic_is_not_read_past_an_opening_about_our_work() -> None:
    from generator.derive.title.candidates import _topic

    ours = ["We study hybrid learning in adversarial games, where the learner receives delayed feedback",
            "Delayed feedback allows exploration against any comparator"]
    assert _topic(ours) == []
    background = ["In many games, delayed feedback allows exploration against any comparator",
                  "We study hybrid learning in adversarial games"]
    assert _topic(background) != []


# -- candidates of every kind ---------------------------------------------------------------

@pytest.mark.parametrize("fixture, kinds", [
    ("title_propose_appositive.txt", {"named", "phrase"}),
    ("title_generic_subject.txt", {"topic", "phrase"}),
    ("title_no_named_method.txt", {"subject"}),
])
def test_candidates_of_each_kind(fixture: str, kinds: set[str]) -> None:
    found = {c.kind for c in candidates(abstract(fixture))}
    assert kinds <= found, found


def test_a_question_the_abstract_asks_is_a_candidate() -> None:
    text = "Can transformers count? We probe counting in small transformers trained on synthetic sequences of tokens."
    assert any(c.kind == "question" and c.title.endswith("?") for c in candidates(text))


def test_the_subject_and_its_domain_combine() -> None:
    text = ("Graph neural networks struggle on heterophilous graphs with many node types. We propose a spectral "
            "filter bank that adapts its frequency response per node. Experiments on nine benchmarks show gains.")
    combined = [c for c in candidates(text) if c.kind == "combined"]
    assert any("for" in c.words for c in combined), [c.words for c in combined]


def test_a_later_sentence_gives_the_term_the_abstract_repeats() -> None:
    # only the opening sentences and one sentence of "we" are read for phrases; the term the
    # abstract keeps coming back to is named in neither
    text = ("Reading comprehension asks a model to answer questions about a passage. Most readers treat the "
            "passage as flat text. We propose a new reader for long documents. It is trained on web data. "
            "A hierarchical span memory stores every paragraph. The hierarchical span memory is read twice.")
    terms = [c.words for c in candidates(text) if c.kind == "term"]
    assert ("hierarchical", "span", "memory") in [tuple(w.lower() for w in t) for t in terms], terms
    # a phrase of a later sentence without a repeated term is not one
    assert not any("web" in (w.lower() for w in t) for t in terms), terms


def test_the_repeated_term_is_offered_for_what_the_opening_is_about() -> None:
    text = ("Machine reading comprehension remains difficult for long passages. Most readers treat the passage "
            "as flat text. We propose a new reader for long documents. It is trained on web data. Each paragraph "
            "is kept in a hierarchical span memory. The hierarchical span memory is read twice.")
    combined = [" ".join(c.words).lower() for c in candidates(text) if c.kind == "combined"]
    assert "hierarchical span memory for machine reading comprehension" in combined, combined


def test_the_named_method_goes_with_what_the_opening_sentence_is_about() -> None:
    text = ("Counting objects in crowded scenes remains a major challenge for visual question answering. "
            "We introduce TallyNet, a counting module. TallyNet counts by pairing detected boxes.")
    named = [c for c in candidates(text) if c.kind == "named" and c.name == "TallyNet" and c.sentence == 0]
    assert any("Visual Question Answering" in c.composed() for c in named), [c.composed() for c in named]


# -- the fitted choice ----------------------------------------------------------------------

def test_every_feature_has_a_fitted_weight_and_every_kind_a_feature() -> None:
    assert len(fitted_weights()) == len(FEATURES)
    assert set(KINDS) <= set(FEATURES)


def test_fast_scorer_agrees_with_the_features_the_fit_sees() -> None:
    weights = fitted_weights()
    for name in sorted(p.name for p in FIXTURES.glob("title_*.txt")):
        text = abstract(name)
        ctx = context(text)
        fast = Scorer(context(text), weights)
        for c in candidates(text):
            assert fast(c) == pytest.approx(score(features(c, ctx), weights)), (name, c)


def test_weights_that_do_not_fit_the_features_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "weights.json"
    bad.write_text(json.dumps({"weights": {"named": 1.0}}), encoding="utf-8")
    with pytest.raises(WordsError, match=r"weights\.json.*run benchmarks/fit_titles\.py"):
        load_weights(bad)


def test_word_lists_report_file_and_line(tmp_path: Path) -> None:
    source = (Path(__file__).resolve().parents[1] / "generator" / "derive" / "title" / "words.yml").read_text(encoding="utf-8")
    bad = tmp_path / "words.yml"
    bad.write_text(source.replace("nicknamed, denoted", "nicknamed, no, denoted") + "\nbogus: [x]\n", encoding="utf-8")
    with pytest.raises(GeneratorError) as e:
        load_words(bad, "words.yml")
    text = str(e.value)
    line = next(i for i, l in enumerate(bad.read_text().splitlines(), 1) if "nicknamed, no," in l)
    assert f"words.yml:{line}: 'naming_verbs' entries must be words (quote on, no, yes), not False" in text
    assert "unknown key 'bogus'" in text


# -- one reading of sentences ---------------------------------------------------------------

def test_sentences_do_not_end_at_abbreviations_and_may_open_with_math() -> None:
    text = "We follow Smith et al. in using e.g. dropout. $k$-means then clusters. Done."
    assert sentences(text) == ["We follow Smith et al. in using e.g. dropout.", "$k$-means then clusters.", "Done."]
    assert first_sentence(text) == "We follow Smith et al. in using e.g. dropout."


def test_workers_hand_back_a_record() -> None:
    text = abstract("title_propose_appositive.txt")
    (derived,) = _tag_and_title([text], load_taxonomy())
    assert isinstance(derived, Derived)
    assert derived.text == text and derived.title.startswith("TimeRAG: ") and derived.tags


# -- real titles ----------------------------------------------------------------------------

def test_titles_of_real_abstracts_end_where_a_phrase_can_end() -> None:
    if not (TITLED / "README.md").is_file():
        pytest.skip(f"the titled corpora are not at {TITLED} (they live beside the repository, not in it)")
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.titled import load_titled
    from benchmarks.titles import is_fragment

    rows = load_titled()[::40]
    cut = [(r.where, t) for r in rows if is_fragment(t := derive_title(r.text))]
    assert len(cut) <= len(rows) // 50, cut


# -- how abstracts name their method ----------------------------------------------------------

@pytest.mark.parametrize("text, start", [
    pytest.param("Samplers for diffusion models are slow. We build a sampler from two short chains of steps. "
                 "We name our proposed sampler QuickMix to reflect its speed.", "QuickMix: ",
                 id="name-our-proposed-x-NAME"),
    pytest.param("Vision transformers mix tokens with attention. We propose a new MLP-style block called GateNet, "
                 "which mixes tokens with learned gates.", "GateNet: ", id="called-name-beats-a-name-like-modifier"),
    pytest.param("Deep classifiers overfit small data sets. In this work we propose blendout, a simple regularizer "
                 "that blends hidden units of two examples. blendout improves accuracy.", "blendout: ",
                 id="lower-case-coined-name-with-appositive"),
    pytest.param("We build a corpus of annotated proofs, which we call e-PROOF, and train provers on it.", "e-PROOF",
                 id="one-letter-prefix-name"),
    pytest.param("Gated networks route inputs to experts. We call our approach Sparse Gated Mixture Networks, or SGMN. "
                 "SGMN halves the cost of routing.", "SGMN: Sparse Gated Mixture Networks",
                 id="long-form-or-acronym"),
    pytest.param("Inverse optimal control is slow on long horizons. We propose the Quickstep algorithm, a softened "
                 "search technique for inverse optimal control.", "Quickstep: ", id="the-NAME-algorithm"),
    pytest.param("Sums of convex functions are common in learning. We propose a primal-dual method (Lantern) which "
                 "updates a random subset of dual variables.", "Lantern: ", id="capitalised-word-bracketed-after-its-kind"),
    pytest.param("Domain shift hurts segmentation models. CoTune adapts features at the pixel and the feature level. "
                 "It needs no aligned pairs.", "CoTune: ", id="coined-name-opening-a-sentence-with-its-verb"),
    pytest.param("Sequence models forget. Attention helps them remember. We train them on long texts. "
                 "We propose DocNet: a novel encoder-decoder supplementary architecture.", "DocNet: ",
                 id="contribution-among-the-closing-sentences-is-no-pointer-to-code"),
    pytest.param("Visual analytics supports machine learning. In this paper, we propose an ontology (ONTO4ML) for a "
                 "subarea of VA, namely “VA-assisted ML”. The purpose of ONTO4ML is to describe workflows.",
                 "ONTO4ML: ", id="namely-restates-it-does-not-name"),
    pytest.param("Treatment effects are hard to estimate. Our method, termed Generative Networks for inference "
                 "of Treatment Effects (GNITE), learns counterfactuals. GNITE outperforms baselines.",
                 "GNITE: ", id="naming-verb-long-form-past-the-capitalised-words"),
    pytest.param("Style transfer across domains is hard. We introduce XGANO (\"Cross-GANO\"), a dual adversarial "
                 "autoencoder for semantic style transfer.", "XGANO: ", id="alias-in-brackets-after-the-name"),
    pytest.param("Model selection is costly. This work provides an automatic machine learning (AutoML) modelling "
                 "architecture called Autostackr. Autostackr stacks models.", "Autostackr: ",
                 id="called-rare-capitalised-word-beats-a-defined-acronym"),
    pytest.param("Dialogue systems need grounding. We propose a novel approach of Compositional Counterfactual "
                 "Contrastive Learning (CoCoCL) for video-grounded dialogues.", "CoCoCL: ", id="approach-of-long-form"),
    pytest.param("Molecules need equivariant models. We apply those layers in SchNetX: a novel deep learning "
                 "architecture modeling quantum interactions in molecules.", "SchNetX: ", id="name-colon-a-novel"),
    pytest.param("Sales talk is rare in dialogue data. With OpinionConvX, we develop the first conversational AI "
                 "for simulating sales conversations.", "OpinionConvX: ", id="with-name-we"),
    pytest.param("Feature selection lacks guarantees. This new method, DeepPINKX (Deep feature selection using "
                 "Paired-Input Nonlinear Knockoffs), is applied to simulated data.", "DeepPINKX: ",
                 id="this-new-method-NAME"),
    pytest.param("Two-sample tests are costly. The B-testX uses a smaller than quadratic number of kernel "
                 "evaluations.", "B-testX: ", id="the-NAME-verb"),
    pytest.param("Health records are sparse. To address this, we propose a Graph-based Attention Model, GRAMX that "
                 "supplements electronic health records with medical ontologies.", "GRAMX: ", id="kind-comma-NAME-that"),
    pytest.param("Images have parts. We present 3C-GANX: a novel multiple generator structure for images.", "3C-GANX: ",
                 id="name-opening-with-a-digit"),
    pytest.param("Mixed regression is hard. In this work, we study a novel convex estimator MixLassoX for the estimation "
                 "of generalized mixed regression.", "MixLassoX: ", id="a-novel-thing-we-study"),
    pytest.param("Dialogue needs grounding. We propose a novel approach of Compositional Counterfactual Contrastive "
                 "Learning (C3) for video-grounded dialogues.", "C3: ", id="digit-repeats-a-letter-of-the-acronym"),
])
def test_how_abstracts_name_their_method(text: str, start: str) -> None:
    assert derive_title(text).startswith(start), derive_title(text)


@pytest.mark.parametrize("text, start", [
    pytest.param("Incremental gradient methods are slow on sparse problems. In this work we introduce a new fast "
                 "incremental gradient method TRACE, in the spirit of earlier variance reduced methods.", "TRACE: ",
                 id="after-its-kind"),
    pytest.param("Graph models are slow to train. We propose a scalable training scheme, BRIDGE that samples "
                 "nodes by importance.", "BRIDGE: ", id="kind-comma-NAME-that"),
])
def test_a_common_word_in_capitals_set_off_as_a_name_is_one(text: str, start: str) -> None:
    # "trace" and "bridge" are common words of abstracts: in capitals they are a heading's, unless
    # the sentence sets the word off as the name of what it proposes
    assert derive_title(text).startswith(start), derive_title(text)


@pytest.mark.parametrize("text, not_start", [
    pytest.param("Exploration is costly in bandits. We propose a PAC algorithm for best arm identification under "
                 "budgets.", "PAC:", id="a-modifier"),
    pytest.param("Sparse networks save memory. We present an algorithm, DEEP R, that trains sparsely connected "
                 "networks directly.", "DEEP:", id="first-word-of-a-longer-name"),
])
def test_a_common_word_in_capitals_that_is_not_set_off_names_nothing(text: str, not_start: str) -> None:
    assert not derive_title(text).startswith(not_start), derive_title(text)


def test_a_long_name_the_abstract_abbreviates_leads_as_its_acronym() -> None:
    text = ("Distributed learning wastes rounds of communication. The resulting methods are termed Lazily Reused "
            "Updates --- justifying our acronym LRU used henceforth. LRU needs fewer rounds.")
    assert derive_title(text).startswith("LRU: Lazily Reused Updates"), derive_title(text)
    # two letters are no name of a method
    text = ("Finding the arm of lowest mean is a pure exploration problem. We propose a new sampling rule, which we "
            "call Murphy Sampling. MS stops early on easy instances.")
    assert derive_title(text).startswith("Murphy Sampling: "), derive_title(text)


def test_of_two_names_offered_together_the_one_the_abstract_comes_back_to_leads() -> None:
    text = ("Tiny devices need small recurrent models. This paper develops the QuickRNN and QuickGRU algorithms for "
            "keyword spotting. QuickRNN adds a residual connection. QuickGRU extends it with a gate. QuickGRU is "
            "small and QuickGRU runs on microcontrollers.")
    assert derive_title(text).startswith("QuickGRU: "), derive_title(text)


def test_an_acronym_defined_soon_after_a_name_of_ours_is_its_own_only_if_it_starts_like_it() -> None:
    text = ("Strategy games are hard testbeds. In this paper, we propose FLUX, an extensive platform for "
            "reinforcement learning research. Using FLUX, we implement a fast real-time strategy (RTS) engine.")
    assert derive_title(text).startswith("FLUX: "), derive_title(text)


def test_a_dash_between_words_is_a_mark_of_its_own() -> None:
    assert tokens("a method---SKETCH (fast)---which") == ["a", "method", "—", "SKETCH", "(", "fast", ")", "—", "which"]
    assert tokens("in this work—QuickNet.") == ["in", "this", "work", "—", "QuickNet."]
    assert tokens("pre- and post-processing, x -- y") == ["pre-", "and", "post-processing", ",", "x", "—", "y"]
    # a name set off by dashes after what kind of thing it is names the method
    text = ("Gradients are costly to compute. We propose a novel randomized first order optimization "
            "method---SKETCHY (SKEtched gradient method)---which progressively learns the gradient.")
    assert derive_title(text).startswith("SKETCHY: "), derive_title(text)


def test_a_word_in_s_before_a_preposition_is_a_plural_noun_not_a_verb() -> None:
    found = noun_phrases(tokens("we predict semantic and instance features from multi-view images"))
    assert ["semantic", "and", "instance", "features", "from", "multi-view", "images"] in found, found
    # with its object next it is still the verb of the phrase before it
    found = noun_phrases(tokens("Semantic scene completion predicts the occupancy of voxels"))
    assert found == [["Semantic", "scene", "completion"], ["occupancy", "of", "voxels"]], found


def test_a_participle_after_a_description_ends_it() -> None:
    # "a framework built on X": a reduced relative clause, not part of what the method is
    text = ("Open-vocabulary grounding needs fine alignment. We propose GridAlign, a vision-language alignment "
            "framework built on a multiple instance learning formulation. GridAlign pools regions.")
    assert derive_title(text) == "GridAlign: Vision-Language Alignment Framework", derive_title(text)


def test_a_sentence_reporting_what_others_found_offers_no_phrases() -> None:
    from generator.derive.title.candidates import _phrases

    sentences = ["Recent studies have found, for long documents, banded attention kernels with learned widths",
                 "We propose sliding caches for long documents"]
    assert _phrases(sentences) == [(1, True, ["sliding", "caches", "for", "long", "documents"])]


def test_the_topic_is_read_past_every_opening_subordinate_clause() -> None:
    from generator.derive.title.candidates import _topic

    assert _topic(["However, although two-bit networks are accurate, one-bit approximations lose accuracy"]) \
        == ["one-bit", "approximations"]


def test_a_plural_with_an_appositive_is_not_a_name() -> None:
    text = ("Distributed computing suffers from stragglers. We consider stragglers, a small fraction of slow "
            "processors, and propose coded computation for linear transforms.")
    assert not derive_title(text).startswith("stragglers"), derive_title(text)


def test_a_coined_name_is_written_as_its_authors_write_it() -> None:
    always_lower = "We propose blendout, a regularizer for small data. In essence, blendout mixes hidden units."
    assert derive_title(always_lower).startswith("blendout: ")
    opens_a_sentence = "We introduce flipmix, an efficient method for decorrelating gradients. Flipmix also vectorizes evolution."
    assert derive_title(opens_a_sentence).startswith("Flipmix: ")
    inner_capital = "We developed iSketch, an authoring tool for storyline layouts that users steer."
    assert derive_title(inner_capital).startswith("iSketch: ")


def test_a_capitalised_word_in_s_is_a_noun_not_a_verb() -> None:
    found = noun_phrases(tokens("We study learning in adversarial Markov Decision Processes with delayed feedback"))
    assert any("Processes" in p for p in found), found


# -- word salience --------------------------------------------------------------------------

def test_word_features_read_each_word_once_with_where_and_how_it_is_written() -> None:
    from generator.derive.title.salience import WORD_FEATURES, Lexicon, word_features

    sentences = ["Sparse graphs are everywhere", "We propose GraphLearn for sparse graphs",
                 "GraphLearn learns them quickly"]
    lexicon = Lexicon({"graphs": (20, 10)}, 0.05, 5.0)
    found = word_features(sentences, [False, True, False], {}, lexicon)
    at = {name: i for i, name in enumerate(WORD_FEATURES)}
    assert "for" not in found and "are" not in found  # stop words are no title words
    graph = found["graphlearn"]
    assert graph[at["log_count"]] == pytest.approx(__import__("math").log1p(2))
    assert graph[at["capitalised"]] == 1.0 and graph[at["acronym"]] == 1.0 and graph[at["in_ours"]] == 1.0
    assert graph[at["in_opening"]] == 0.0 and graph[at["first_position"]] == pytest.approx(1 / 3)
    sparse = found["sparse"]
    assert sparse[at["capitalised"]] == 0.0  # capitalised only where it opens a sentence
    assert sparse[at["in_opening"]] == 1.0 and sparse[at["repeated"]] == 1.0
    assert found["quickly"][at["ly"]] == 1.0
    # "sparse graphs" comes twice: both its words are of a repeated term; "quickly" is not
    assert sparse[at["in_repeated_pair"]] == 1.0 and found["graphs"][at["in_repeated_pair"]] == 1.0
    assert found["quickly"][at["in_repeated_pair"]] == 0.0
    math = __import__("math")
    # titles held "graphs" 10 times in 20 abstracts, smoothed by 5 abstracts' worth of the 5% prior
    p = (10 + 5 * 0.05) / (20 + 5)
    assert found["graphs"][at["title_prior"]] == pytest.approx(math.log(p / (1 - p)))
    assert found["graphs"][at["log_abstracts"]] == pytest.approx(math.log1p(20))
    # an abstract the lexicon counted is left out of it when the fit reads it
    own = word_features(sentences, [False, True, False], {}, lexicon, own={"graphs"})
    p = (9 + 5 * 0.05) / (19 + 5)
    assert own["graphs"][at["title_prior"]] == pytest.approx(math.log(p / (1 - p)))


def test_expected_f_rewards_likely_words_and_weighs_length() -> None:
    from generator.derive.title.salience import WordModel

    model = WordModel(tuple([0.0] * 24), 6.0)
    probs = {"graph": 0.9, "sparse": 0.6, "quickly": 0.05}
    assert model.expected_f(["graph", "sparse"], probs) == pytest.approx(2 * 1.5 / 8)
    assert model.expected_f(["graph", "sparse"], probs) > model.expected_f(["graph", "sparse", "quickly"], probs)
    assert model.expected_f(["graph", "graph"], probs) < model.expected_f(["graph"], probs)  # a repeat adds length only
    assert model.expected_f([], probs) == 0.0


def test_the_fitted_word_model_prefers_the_papers_own_terms_to_adverbs() -> None:
    from generator.derive.title.choose import context

    text = ("Sparse graphs are everywhere. We propose GraphLearn, a solver for sparse graphs. "
            "GraphLearn learns sparse graphs quickly and reliably.")
    salience = context(text).salience
    assert salience["graphlearn"] > salience["quickly"] and salience["sparse"] > salience["reliably"]


def test_a_word_model_that_does_not_fit_names_the_file(tmp_path: Path) -> None:
    from generator.derive.title.choose import load_word_model

    bad = tmp_path / "weights.json"
    bad.write_text(json.dumps({"weights": {}, "word_weights": {"bias": 1.0}, "title_words": 6}), encoding="utf-8")
    with pytest.raises(WordsError, match=r"weights\.json.*'word_weights' must give a number for each feature"):
        load_word_model(bad)


def test_an_abstract_of_one_overlong_word_still_gets_a_title() -> None:
    assert derive_title("A" * 2000) == "Untitled"


# -- where a phrase may end ------------------------------------------------------------------

def test_a_phrase_too_long_for_the_title_is_cut_only_where_a_noun_phrase_ends() -> None:
    from generator.derive.title.compose import _fit

    words = "mechanism for robust and efficient multimodal sentiment prediction".split()
    assert _fit(words, 100) == words
    # not "mechanism for robust": the adjective belongs to the noun after "and"
    assert _fit(words, 30) == ["mechanism"]
    # no place within the budget where a noun phrase ends: no words, not a cut one
    assert _fit("very long words without any boundary".split(), 10) == []


def test_an_adverb_between_to_and_its_verb_does_not_leave_the_verb_in_a_phrase() -> None:
    found = noun_phrases(tokens("To further stabilize alignment learning, we develop a consistency scheme"))
    assert not any("stabilize" in p for p in found), found
    assert ["alignment", "learning"] in found


def test_a_tail_that_names_the_method_again_is_not_whole() -> None:
    from generator.derive.title.candidates import Candidate
    from generator.derive.title.choose import _whole

    again = Candidate("", "named", 1, 0, True, ("method", "termed", "as", "WAGE", "for", "integers"), "WAGE")
    assert not _whole(again)
    assert _whole(again._replace(words=("method", "for", "low-bitwidth", "integers")))


@pytest.mark.parametrize("sentence, name", [
    ("Our proposed FD-Net achieves the best accuracy on three data sets", "FD-Net"),
    ("The proposed DifSeg consistently improves over the baselines", "DifSeg"),
    ("Our Net-Prune algorithm prunes a trained network layer by layer", "Net-Prune"),
    ("We validate our method (SMASHER) on two benchmarks", "SMASHER"),
    ("The resulting approach (PEWAX) is based on sampling", "PEWAX"),
    ("Our algorithm, DFacTor, only requires two products", "DFacTor"),
    ("The proposed NonconvEx primal-dual SpliTTing (NESTX) algorithm splits the problem", "NESTX"),
])
def test_a_name_the_abstract_marks_as_its_own(sentence: str, name: str) -> None:
    from generator.derive.title.names import own_name

    found = own_name(sentence)
    assert found is not None and found.name == name


@pytest.mark.parametrize("sentence", [
    "Our ADMM-based method prunes a trained network",  # a modifier, not a name
    "Our experiments on ImageNet show gains",
    "The proposed Sum-Product networks are deep",  # a compound in Title Case
    "Our PyTorch implementation is fast",
])
def test_words_after_our_that_are_no_name(sentence: str) -> None:
    from generator.derive.title.names import own_name

    assert own_name(sentence) is None


def test_a_name_marked_as_ours_outranks_an_acronym_defined_in_passing() -> None:
    text = ("We propose a distributed alternating least squares (ALS) scheme for tensor factorization. "
            "Our algorithm, DFacTor, only requires two matrix-vector products. DFacTor is easy to run.")
    assert derive_title(text).startswith("DFacTor: "), derive_title(text)


def test_an_acronym_our_contribution_defines_in_title_case_names_it() -> None:
    from generator.derive.title.names import defined_name

    found = defined_name(["We propose a Capsule Projection Network (CapProNet) for image classification"], [True])
    assert found is not None and (found.name, found.long) == ("CapProNet", ["Capsule", "Projection", "Network"])
    reversed_form = defined_name(["We propose a new bound, the GILBO (Generative Information Lower BOund)"], [True])
    assert reversed_form is not None and reversed_form.name == "GILBO"
    # used, not contributed; a plural names a class of things; lower case is a concept
    assert defined_name(["We use a Deep Convolutional Generative Adversarial Network (DCGANX)"], [True]) is None
    assert defined_name(["We propose to solve Partially Observed Decision Processes (PODPs)"], [True]) is None
    assert defined_name(["We propose a maximum mean discrepancy (MMDX) test"], [True]) is None


def test_a_rare_capitalised_word_opening_a_sentence_with_a_verb_is_no_name() -> None:
    text = ("Retinal prostheses restore some vision. Retinal implants stimulate cells. We learn a metric on neural "
            "responses that predicts perceived similarity.")
    assert not derive_title(text).startswith("Retinal:"), derive_title(text)


@pytest.mark.parametrize("word, ends", [
    ("descent", True), ("alignment", True), ("environment", True), ("agent", True), ("speed", True),
    ("coefficient", True), ("boundary", True), ("efficient", False), ("significant", False), ("numerous", False),
])
def test_nouns_that_end_like_adjectives_can_end_a_title(word: str, ends: bool) -> None:
    assert can_end(word) is ends


def test_a_composed_title_ending_on_a_title_cased_adjective_is_not_whole() -> None:
    from generator.derive.title.candidates import Candidate
    from generator.derive.title.choose import _whole

    assert not _whole(Candidate("Success of Deep Learning in Numerous", "topic", 0))
    assert _whole(Candidate("Deep Learning in ImageNet", "topic", 0))


def test_a_phrase_longer_than_its_limit_ends_before_a_preposition_not_at_the_count() -> None:
    from generator.derive.title.phrases import _phrase

    words = tokens("Precise localization of evidence regions in Document Visual Question Answering is crucial")
    assert _phrase(words, 0, limit=9) == ["Precise", "localization", "of", "evidence", "regions"]
    assert _phrase(words, 0, limit=12) == words[:10]  # within the limit: the whole phrase


@pytest.mark.parametrize("word", ["GRaph-based", "CNN-like", "Data-to-Text", "Sequence-to-Sequence", "CNN/Daily",
                                  "theSpatial", "DEEP", "2-SUM"])
def test_words_that_look_coined_but_are_not(word: str) -> None:
    from generator.derive.title.names import is_nameish

    assert not is_nameish(word)
    assert is_nameish("iStoryline") and is_nameish("3C-GAN") and is_nameish("Log-DenseNet") and is_nameish("e-SNLI")


def test_a_tail_that_is_another_named_contribution_is_not_whole() -> None:
    from generator.derive.title.candidates import Candidate
    from generator.derive.title.choose import _whole

    assert not _whole(Candidate("CR: Unlearning Framework CPU for Incorporating Conformal Prediction", "named", 1))
    assert _whole(Candidate("CR: Metric for Reliable Assessment of Forgetting Quality", "named", 1))


@pytest.mark.parametrize("sentence, phrase", [
    ("Despite impressive recent advances in reinforcement learning, agents fail", ["reinforcement", "learning"]),
    ("Recent works have shown that sparse attention helps", None),  # the literature, not a subject
    ("The Bayesian MAB problem in recent years has drawn attention", ["Bayesian", "MAB", "problem"]),
])
def test_the_literature_and_the_time_are_no_part_of_a_phrase(sentence: str, phrase: list[str] | None) -> None:
    from generator.derive.title.candidates import _phrases

    found = [words for _, _, words in _phrases([sentence])]
    assert not any(w.lower() in ("recent", "despite", "works", "years") for words in found for w in words), found
    if phrase:
        assert phrase in found, found


def test_the_subject_of_we_study_the_problems_of_is_what_follows() -> None:
    # "we study the problems of X and Y": the paper is about X and Y, as with "the problem of X"
    found = candidates(abstract("title_study_the_problems_of.txt"))
    subject = next(c.composed() for c in found if c.kind == "subject")
    assert subject == "Streaming Tensor Decomposition and Online Subspace Tracking under Missing Entries"


def test_a_full_stop_with_no_space_after_it_still_ends_a_sentence() -> None:
    # "... knowledge graphs.Existing relaxations ...", "... near-linear time.Our relaxation ...":
    # text copied from a PDF; the words on either side belong to two sentences
    from generator.derive.title.candidates import title_sentences
    text = abstract("title_glued_full_stop.txt")
    read = title_sentences(text)
    assert [s.split()[0] for s in read] == ["Matching", "Existing", "We", "Our"]
    assert not any(re.search(r"[a-z]\.[A-Z]", c.composed()) for c in candidates(text))


def test_a_phrase_opening_on_a_vague_head_is_read_past_it() -> None:
    # "... remains a key challenge in open-domain question answering": the phrase names the
    # field after "in", not the challenge ("Problem of X", "Performance of X" likewise)
    texts = [c.composed() for c in candidates(abstract("title_vague_head_phrase.txt"))]
    assert "Open-Domain Question Answering" in texts
    assert not any(t.startswith("Key Challenge") for t in texts)


def test_we_build_on_is_not_what_the_paper_offers() -> None:
    # "Here we build on the observation that ...": what the work rests on; the contribution is
    # the next sentence's "We propose a hierarchical mixture model for ..."
    text = abstract("title_build_on_then_propose.txt")
    assert not any(c.composed().startswith("On the") for c in candidates(text))
    assert derive_title(text) == "Hierarchical Mixture Model for Evolving Citation Graphs"


def test_the_fit_counts_sharing_any_word_with_the_real_title() -> None:
    # two candidates, one feature that marks the first; its ROUGE-1 is 0.1, the other's 0.
    # Centred: x = +-0.5, y = +-0.05, so w = 0.05 / (0.25 + 0.25 + ridge 0.5) = 0.05; with the
    # bonus of 0.2 for sharing a word y = +-0.15 and w = 0.15
    from benchmarks.fit_titles import fit
    groups = [([[1.0], [0.0]], [0.1, 0.0])]
    assert fit(groups, 0.5) == pytest.approx([0.05])
    assert fit(groups, 0.5, shared=0.2) == pytest.approx([0.15])


def test_a_phrase_too_long_for_a_title_is_scored_on_what_is_left_of_it() -> None:
    # "estimator for counterfactual off-policy evaluation combining importance-weighted
    # trajectory returns" is longer than a title may be and is cut to "Estimator": the choice
    # must weigh "Estimator", not the words the cut drops
    from generator.derive.title.choose import content_words
    found = candidates(abstract("title_phrase_too_long_is_scored_as_cut.txt"))
    assert any(c.composed() == "Estimator" for c in found)
    for c in found:
        assert set(content_words(c.text)) <= set(content_words(c.composed())), c.composed()


def test_during_joins_noun_phrases_and_never_opens_or_ends_one() -> None:
    # "during" is a preposition like "of" or "through": "... Distribution During" and "During
    # Testing of ..." were phrases, and titles ("Data Distribution During for GANs")
    drift = noun_phrases(tokens("The generator drifts from the data distribution during the first epochs of training"))
    assert ["data", "distribution"] in drift
    dead = noun_phrases(tokens("Dead units appear during testing of deep neural networks"))
    assert ["testing", "of", "deep", "neural", "networks"] in dead


def test_an_opening_subject_on_a_vague_head_is_read_past_it() -> None:
    # "The performance of retrieval-augmented language models depends on ...": the paper is
    # about the models, as a phrase on a vague head names what follows it
    found = candidates(abstract("title_vague_head_topic.txt"))
    assert next(c.composed() for c in found if c.kind == "topic") == "Retrieval-Augmented Language Models"


def test_a_tail_that_only_repeats_the_name_is_not_chosen() -> None:
    # "\textsc{Acoustic Token Router}: a module to ..." and "we study acoustic tokens": the
    # subject is the name's own words, "Acoustic Token Router: Acoustic Tokens" says nothing more
    from generator.derive.title.candidates import Candidate
    from generator.derive.title.choose import _whole

    title = derive_title(abstract("title_tail_repeats_the_name.txt"))
    name, _, tail = title.partition(": ")
    assert name == "Acoustic Token Router", title
    folded = {w.lower().rstrip("s") for w in name.split()}
    assert any(w.lower().rstrip("s") not in folded for w in tail.split()), title
    assert not _whole(Candidate("Multimodal Interaction Gate: Multimodal Interactions", "named_other", 1))
    assert _whole(Candidate("Multimodal Interaction Gate: Mechanism for Converting Unique Interactions", "named", 0))


def test_a_kind_of_thing_named_by_the_authors_is_what_the_title_says_it_is() -> None:
    # "We propose a gradient-free two-stage inversion attack named VOXTRACE that ...": the
    # authors say what VOXTRACE is where they name it; a phrase of a results sentence
    # ("Speaker Voiceprints from Ten Adapters") is no title for it
    title = derive_title(abstract("title_a_kind_named_name.txt"))
    assert title.startswith("VOXTRACE: Gradient-Free Two-Stage Inversion Attack"), title


def test_a_thing_named_as_earlier_work_is_not_what_the_paper_offers() -> None:
    # "a recently-developed differentiable logic called TensorLox": the name is of what the
    # paper builds on; what it is does not lead the title
    from generator.derive.title.candidates import _analyse

    text = ("Logical rules help knowledge base completion. We study learning such rules with a "
            "recently-developed differentiable logic called TensorLox. We propose to learn rule "
            "structure and weights jointly, end to end, in one differentiable model.")
    found = _analyse(text)[0]
    assert found is not None and found.name == "TensorLox" and not found.stated
    stated = _analyse(text.replace("recently-developed", "new"))[0]
    assert stated is not None and stated.stated


def test_a_relative_clause_without_that_ends_no_phrase() -> None:
    # "the amount of rare entity knowledge language models learn during pretraining": "language
    # models" is the subject of "learn", not a part of what the amount is of
    found = [c.composed() for c in candidates(abstract("title_relative_clause_without_that.txt"))]
    assert not any("Knowledge Language Models" in t for t in found), found
    # a plural verb after a relative clause agrees with the subject before it: the phrase stays
    kept = noun_phrases(tokens("Variational methods that rely on a recognition network to approximate the "
                               "posterior of directed graphical models offer better inference"))
    assert ["posterior", "of", "directed", "graphical", "models"] in kept


def test_an_acronym_defined_with_what_it_is_has_that_for_its_tail() -> None:
    # "fact retention rate (FRR), a probing-based measure of stored knowledge in model weights",
    # named in another sentence than "we propose": the appositive says what FRR is; and its "of"
    # goes with "measure", so no title joins it to the long form ("Fact Retention Rate of Stored ...")
    # (issue 25: the long form "FRR: Fact Retention Rate" shares no word with this title; such a
    # long form replacing an uncertain title said less of the paper as often as not, so it stays)
    text = abstract("title_relative_clause_without_that.txt")
    assert derive_title(text).startswith("FRR: Probing-Based Measure of Stored Knowledge"), derive_title(text)
    assert not any("Rate of Stored" in c.composed() for c in candidates(text))


def test_what_an_acronym_is_a_kind_of_is_not_its_tail() -> None:
    # "quasi-multitask tuning (Q-MTT), a variant of multitask tuning that ...": the appositive names
    # another thing; the long form says what Q-MTT is
    text = ("Multitask tuning shares one encoder among related tasks. We introduce quasi-multitask "
            "tuning (Q-MTT), a variant of multitask tuning that trains task heads on one task only. "
            "Q-MTT matches full multitask tuning on four benchmarks. Q-MTT halves the tuning cost.")
    ruled = [c.composed() for c in candidates(text) if not c.words]  # not a phrase of a sentence
    assert not any(t.startswith("Q-MTT: Variant") for t in ruled), ruled
    assert derive_title(text).startswith("Q-MTT: Quasi-Multitask Tuning"), derive_title(text)


def test_a_study_of_how_two_things_relate_is_the_title() -> None:
    # "we study the trade-off between privacy and accuracy in federated speech recognition": the
    # paper says what it is about; a phrase of its findings ("Private Adaptation") is a detail
    title = derive_title(abstract("title_study_the_interplay_between.txt"))
    assert title == "Trade-Off between Privacy and Accuracy in Federated Speech Recognition", title
    # not a relation between kinds of thing, nor the literature
    from generator.derive.title.candidates import _relation_between
    assert not _relation_between("connections between discrete and continuous approaches".split())
    assert not _relation_between("relationship between recent works and continuation methods".split())


def test_a_well_known_data_set_or_function_is_not_the_papers_name() -> None:
    # "we construct a relabelled version of the CelebA dataset": a data set the paper builds on,
    # whichever pattern finds it; so are functions ("ReLU"), libraries and classical methods
    from generator.derive.title.candidates import _well_known

    title = derive_title(abstract("title_known_dataset_is_no_name.txt"))
    assert not title.startswith("CelebA"), title
    assert all(_well_known(n) for n in ("CelebA", "ReLU", "TTS", "ImageNet", "Frank-Wolfe", "MuJoCo"))
    assert not any(_well_known(n) for n in ("Net-Trim", "Short-Dot", "KSTER", "ColMix"))


@pytest.mark.parametrize("fixture, not_name", [
    ("title_norm_is_no_name.txt", "L1"),  # "$L_1$ norm regularization": notation, however often repeated
    ("title_common_acronym_defined.txt", "DSL"),  # "a domain-specific language (DSL)": a kind of thing, not which
    ("title_quoted_common_word_is_no_name.txt", "experts"),  # '(which we call "experts")': a part, in common words
])
def test_notation_common_acronyms_and_common_words_are_no_names(fixture: str, not_name: str) -> None:
    title = derive_title(abstract(fixture))
    assert not title.startswith(f"{not_name}:"), title
    assert title.split()[0][:1].isupper(), title


def test_a_phrase_does_not_end_on_a_gerund_whose_object_it_left_behind() -> None:
    # "a learned spectral regularization technique for solving such problems": "for Solving"
    # without what is solved is no end of a phrase; "a model for clustering." keeps its gerund
    found = [c.composed() for c in candidates(abstract("title_gerund_without_its_object.txt"))]
    assert any(t.startswith(("Learned Spectral Regularization Technique", "Spectral Regularization Technique"))
               for t in found), found
    assert not any(t.endswith(" Solving") for t in found), found
    assert ["mixture", "model", "for", "clustering"] in noun_phrases(tokens("We fit a mixture model for clustering"))
    assert ["mixture", "model", "for", "clustering"] in noun_phrases(tokens("We fit a mixture model for clustering , then"))


@pytest.mark.parametrize("word, ends", [
    ("graph-structured", False), ("vector-valued", False), ("learning-based", False), ("Statistic-Free", False),
    ("non-convex", False), ("self-attention", True), ("high-speed", True), ("Q-learning", True),
])
def test_a_hyphenated_modifier_cannot_end_a_title(word: str, ends: bool) -> None:
    assert can_end(word) is ends


def test_a_title_does_not_end_on_a_modifier_whose_noun_was_the_name() -> None:
    # "the model of graph-structured RoadNets": without the name the tail is "Model of
    # Graph-Structured", a modifier with no noun
    title = derive_title(abstract("title_hyphenated_modifier_cut_from_its_noun.txt"))
    assert title.startswith("RoadNets: ") and not title.endswith("Structured"), title


def test_what_a_named_kind_of_thing_is_for_takes_the_verb_of_its_object() -> None:
    # "an attacker can recover private system prompts": what the attack is for is recovering
    # them, not the prompts themselves ("... Attack for Private System Prompts")
    text = ("Chat assistants keep hidden system prompts. We show that an attacker can recover private system "
            "prompts from the replies alone. We propose a black-box two-stage probing attack named LEAKPROBE "
            "that queries the assistant with crafted questions. LEAKPROBE recovers most prompts of six assistants.")
    titles = [c.composed() for c in candidates(text)]
    assert "LEAKPROBE: Black-Box Two-Stage Probing Attack for Recovering Private System Prompts" in titles, titles
    assert not any(t.endswith("Attack for Private System Prompts") for t in titles), titles


def test_the_subject_of_a_question_with_does_is_not_read_with_its_verb() -> None:
    # "When does fine-tuning unlock skills ...": after "does" come the subject and its verb in the
    # plain form, which no word class tells from a noun ("Fine-Tuning Unlock Skills")
    found = [c.composed() for c in candidates(abstract("title_question_with_do_support.txt"))]
    assert not any("Unlock" in t for t in found), found
    # where a known verb ends the subject, the subject stays
    assert ["deep", "neural", "networks"] in noun_phrases(tokens("How do deep neural networks learn such features?"))


def test_due_does_not_end_a_phrase() -> None:
    assert not can_end("due")  # "the success of deep visualization due | to the training"


def test_a_noun_phrase_of_a_question_is_no_question() -> None:
    # "Are spurious local minima a real obstacle for training deep ranking models?": the phrase
    # "real obstacle for training deep ranking models" does not ask anything
    found = candidates(abstract("title_phrase_of_a_question.txt"))
    assert not any("?" in c.composed() for c in found if c.kind != "question"), [c.composed() for c in found]


def test_a_phrase_does_not_end_on_a_possessive() -> None:
    # "classic and modern children's stories with ...": "Classic and Modern Children's" lost its noun
    found = [c.composed() for c in candidates(abstract("title_possessive_cut_from_its_noun.txt"))]
    assert not any(t.endswith("Children's") or "Children's for" in t for t in found), found
    assert can_end("SDP's") and not can_end("Network's")  # a plural acronym written with 's is a noun


# -- a phrase ends where a phrase can end, and says what it is for ---------------------------

def _candidate_titles(fixture: str) -> list[str]:
    return [c.composed() for c in candidates(abstract(fixture))]


def test_a_purpose_has_no_purpose_of_its_own() -> None:
    # the opening phrase "Method for Labelling Hand-Drawn Strokes for Interactive Whiteboard Software"
    # already says what it is for: "Stroke Grouping Network for Method for ..." chains two purposes
    combined = [c.composed() for c in candidates(abstract("title_purpose_with_a_purpose.txt")) if c.kind == "combined"]
    assert combined and not any(t.lower().count(" for ") > 1 for t in combined), combined


def test_a_phrase_opening_on_a_partitive_noun_is_what_its_of_names() -> None:
    # "in the context of open-domain question answering": the phrase is the field, not the context
    titles = _candidate_titles("title_partitive_head.txt")
    assert "Open-Domain Question Answering" in titles, titles
    assert not any("Context of" in t for t in titles), titles


def test_a_possibility_or_a_version_of_a_thing_is_the_thing() -> None:
    # "we examine the possibility of using picture-caption corpora": the subject is the using;
    # "a version of the dueling bandit problem" is that problem, without its article
    from generator.derive.title.candidates import _past_vague_head

    title = derive_title(abstract("title_vague_version_or_possibility.txt"))
    assert title.startswith("Using Picture-Caption Corpora"), title
    assert not any(t.startswith("Possibility") for t in _candidate_titles("title_vague_version_or_possibility.txt"))
    assert _past_vague_head("Version of the Dueling Bandit Problem".split()) == ["Dueling", "Bandit", "Problem"]


def test_a_phrase_ends_before_a_verb_that_is_never_a_plural_noun() -> None:
    # "The Cold-Start Session problem constitutes ...", "the popularity bias of ItemNorm disappears
    # if ...": the verb ends the subject's phrase, in a topic as in a later sentence's term
    titles = _candidate_titles("title_phrase_ends_before_its_verb.txt")
    assert "Popularity Bias of ItemNorm" in titles, titles
    assert not any(w in t for t in titles for w in ("Constitutes", "Disappears")), titles


@pytest.mark.parametrize("fixture, opener", [
    # "Although graph neural networks (GNNs) have proven ...": a first sentence with no comma
    # after its clause; the topic is its subject, not "Although Graph Neural Networks"
    ("title_subordinator_opening.txt", "Although"),
    # "neurons behave like binary classifiers during ...": "like" opens a comparison, not a phrase
    ("title_like_opens_no_phrase.txt", "Like"),
])
def test_no_candidate_opens_on_a_subordinator(fixture: str, opener: str) -> None:
    titles = _candidate_titles(fixture)
    assert not any(t.split()[0] == opener for t in titles), titles


def test_a_phrase_does_not_open_on_what_the_authors_think_of_it() -> None:
    # "an indispensable strategy for training small language models": not "Indispensable Strategy"
    titles = _candidate_titles("title_evaluative_adjective.txt")
    assert not any("Indispensable" in t for t in titles), titles


def test_a_gerund_keeps_its_infinitive_or_goes() -> None:
    # "a fully differentiable network for learning to localize efficiently ...": not "... for Learning"
    from generator.derive.title.compose import _compose

    titles = _candidate_titles("title_cut_inside_a_verb_phrase.txt")
    assert not any(t.endswith((" for Learning", " Large")) for t in titles), titles
    assert "Differentiable Network for Learning to Localize" in titles, titles
    # cut to fit, the description ends before its purpose, not inside its verb phrase
    sentence = next(s for s in sentences(abstract("title_cut_inside_a_verb_phrase.txt")) if "(AFL)" in s)
    desc = tokens(sentence.split(", a ", 1)[1].rstrip("."))
    title = _compose("Active Floor Plan Localizer", desc)
    assert title == "Active Floor Plan Localizer: Fully Differentiable Network", title


def test_a_gerund_whose_object_is_a_clause_goes_with_it() -> None:
    # "a probe for measuring how much two layers share": not "Probe for Measuring How Much Two Layers"
    titles = _candidate_titles("title_wh_clause_object.txt")
    assert not any(re.search(r"\bHow\b|Measuring$", t) for t in titles), titles
    # nor one whose object is an infinitive: "a rule for choosing to freeze the layers"
    assert not any(t.endswith("for Choosing") for t in titles), titles


def test_a_word_in_s_before_a_determiner_is_a_verb() -> None:
    # "the cell merging model joins the fragments", "... halves the extraction errors"
    titles = _candidate_titles("title_verb_before_its_object.txt")
    assert not any(t.endswith(("Joins", "Halves")) for t in titles), titles


# -- the name is of the paper's own contribution ----------------------------------------------

def test_an_acronym_after_based_on_names_a_tool() -> None:
    # "a probe based on the centered kernel alignment (CKA)": the probe is the paper's, CKA is not
    assert not derive_title(abstract("title_tool_based_on.txt")).startswith("CKA"), derive_title(abstract("title_tool_based_on.txt"))


def test_a_name_given_in_passing_does_not_outrank_the_one_proposed() -> None:
    # "we introduce Polynomial Rankers (PoR)" ... "in a compact format called Block Chain Factors (BCF)"
    assert derive_title(abstract("title_name_given_in_passing.txt")).startswith("PoR: ")


def test_an_initialism_is_not_followed_by_another_things_name() -> None:
    # "STI: Kendall-Stuart Rank Concordance Statistic" would read as what STI stands for
    titles = _candidate_titles("title_acronym_with_another_name.txt")
    assert "STI: Sliced Tail Index" in titles
    assert not any(t.startswith("STI: Kendall") for t in titles), titles


@pytest.mark.parametrize("fixture, kept, cut_end", [
    # "... Hidden Markov Models based on the method | of moments": not "... Based on the Method"
    pytest.param("title_participle_cut_short.txt", "MMHMM: Spectral Learning Approach for Mixtures of Hidden Markov Models",
                 "Based on the Method", id="a participle whose phrase a cut shortened goes whole"),
    # "for revealing the relation | between reward-augmented likelihood and ...": not "for Revealing the Relation"
    pytest.param("title_relation_cut_short.txt", None, "the Relation", id="a relation is not cut from what it relates"),
    # "on a family of parametrized control tasks and find that ...": not "... Tasks and Find"
    pytest.param("title_verb_after_and.txt", "Parametrized Control Tasks", "and Find",
                 id="a verb after and before that is not a noun of the phrase"),
])
def test_a_cut_keeps_what_its_last_words_need(fixture: str, kept: str | None, cut_end: str) -> None:
    titles = _candidate_titles(fixture)
    assert kept is None or kept in titles, titles
    assert not any(t.endswith(cut_end) for t in titles), titles


def test_a_title_does_not_open_on_an_adverbial() -> None:
    # the opening sentence's first words, "In a Dueling Bandit Problem a Learner Needs", are no title
    from generator.derive.title.candidates import Candidate
    from generator.derive.title.choose import _whole
    from generator.derive.title.compose import _compose
    from generator.derive.title.phrases import _phrase, trim

    opening = sentences(abstract("title_adverbial_opening.txt"))[0]
    words = trim(_phrase(tokens(opening), 0, limit=12))
    title = _compose("", words)
    assert title.startswith("In a Dueling Bandit Problem"), title
    assert not _whole(Candidate(title, "topic", 0))
    assert _whole(Candidate("On the Regret of Dueling Bandits", "topic", 0))


# -- a title names the paper, not its field ---------------------------------------------------

def test_a_title_that_only_names_the_field_yields_to_one_in_it() -> None:
    # the opening's subject "Optimal Transport" names the field; the paper offers a solver for it
    title = derive_title(abstract("title_field_name_only.txt"))
    assert title != "Optimal Transport" and "Optimal Transport" in title, title


def test_what_the_authors_propose_in_common_words_still_says_something() -> None:
    # "we propose an efficient approximation of gradient-based sampling": every word is common in
    # ML abstracts, but four of them together name the contribution, where "Importance Sampling"
    # names only the field
    assert derive_title(abstract("title_stated_in_common_words.txt")) == "Efficient Approximation of Gradient-Based Sampling"


def test_a_purpose_is_the_field_a_ground_noun_names() -> None:
    # "one of the foundations of deep learning": "X for Deep Learning", not "X for Foundations of ..."
    combined = [c.composed() for c in candidates(abstract("title_ground_noun_purpose.txt")) if c.kind == "combined"]
    assert "Walk-Free Encoder for Deep Learning" in combined, combined
    assert not any("Foundations" in t for t in combined), combined


def test_a_combined_title_may_lead_with_a_phrase_late_in_a_sentence_of_ours() -> None:
    # "We keep a standard encoder and its usual decoder, and add a light grounding head and a
    # contrastive region loss ...": the setting comes first, what the paper adds fourth
    combined = [c.composed() for c in candidates(abstract("title_offered_phrase_late_in_its_sentence.txt"))
                if c.kind == "combined"]
    assert "Contrastive Region Loss for Image Captioning" in combined, combined


def test_a_combined_title_is_for_the_problem_a_second_scene_setting_sentence_poses() -> None:
    # "Robots learn slowly. Sparse rewards in long-horizon manipulation tasks make exploration
    # costly. We train ...": the opening has no phrase; the second sentence, not yet about the
    # paper's work, states the problem
    combined = [c.composed() for c in candidates(abstract("title_purpose_in_the_second_sentence.txt"))
                if c.kind == "combined"]
    assert "Option Selector for Sparse Rewards in Long-Horizon Manipulation" in combined, combined


def test_what_the_paper_studies_is_what_a_partitive_noun_names() -> None:
    # "we study a series of architectural modifications for LSTM networks"
    subjects = [c.composed() for c in candidates(abstract("title_partitive_subject.txt")) if c.kind == "subject"]
    assert subjects == ["Architectural Modifications for LSTM Networks"], subjects


def test_a_goal_of_a_field_is_the_field() -> None:
    # "one crucial goal of survival clustering": the phrase is "Survival Clustering"
    titles = _candidate_titles("title_goal_of.txt")
    assert "Deep Neural Network for Survival Clustering" in titles, titles
    assert not any("Goal" in t for t in titles), titles


def test_a_two_word_name_in_brackets_after_its_long_form_leads() -> None:
    # "which we call Gated Echo Recurrent Units (GERU Cells)": the name is "GERU Cells"
    title = derive_title(abstract("title_two_word_name_in_brackets.txt"))
    assert title.startswith("GERU Cells: Gated Echo Recurrent Units"), title


def test_notation_is_not_title_material() -> None:
    # "we study robust low-rank approximation of a matrix B under a privacy constraint": the
    # stated subject names "B", a symbol of the abstract's mathematics; a title names no symbol
    from generator.derive.title.choose import _whole

    found = candidates(abstract("title_math_notation.txt"))
    assert not any(_whole(c) for c in found if re.search(r"\bB\b", c.composed())), [c.composed() for c in found]
    assert "B" not in derive_title(abstract("title_math_notation.txt")).split()


def test_the_following_points_ahead_and_is_no_word_of_a_title() -> None:
    # "we consider the following multi-component sparse PCA problem", "the following bipartite matching problem"
    found = candidates(abstract("title_the_following.txt"))
    assert any(c.kind == "subject" and c.composed() == "Multi-Component Sparse PCA Problem" for c in found), \
        [c.composed() for c in found]
    assert not any("Following" in c.composed() for c in found), [c.composed() for c in found]


def test_an_adverbial_of_manner_is_no_phrase() -> None:
    # "We train a lane graph encoder on dashcam footage in an unsupervised manner": how it is
    # trained, not what; not "... Footage in an Unsupervised Manner" nor "Unsupervised Manner"
    titles = _candidate_titles("title_manner_adverbial.txt")
    assert "Lane Graph Encoder on Dashcam Footage" in titles, titles
    assert not any(re.search(r"\b(?:Manner|Fashion)\b", t) for t in titles), titles


def test_a_single_author_speaks_of_the_work_as_i() -> None:
    # "I introduce a layout-aware transformer reader ...": what the paper offers, as "we introduce"
    # says it; "In this paper, I will talk about ...", "Finally, I'm going to ..." open no title
    from generator.derive.title.candidates import about_our_work

    assert about_our_work("In this work I introduce a reader") and about_our_work("My network encodes the mesh")
    assert not about_our_work("The test controls the type I error")
    found = candidates(abstract("title_single_author.txt"))
    assert found[0].composed() == "Layout-Aware Transformer Reader for Scanned Tax Forms", [c.composed() for c in found]
    assert not any(c.composed().split()[0].lower() in ("i", "i'm", "i’m", "my", "in") for c in found), \
        [c.composed() for c in found]


def test_a_degree_is_no_name() -> None:
    # "I present a summary of my PhD research area, handwritten tax forms": not "PhD: ..."
    found = candidates(abstract("title_degree_is_no_name.txt"))
    assert not any(c.composed().startswith("PhD") for c in found), [c.composed() for c in found]


def test_a_phrase_does_not_open_on_a_count() -> None:
    # "We propose two novel layout encoders for scanned invoices": the phrase is what they are,
    # "Layout Encoders for Scanned Invoices", not how many
    titles = [c.composed() for c in candidates(abstract("title_count_of_contributions.txt")) if c.kind != "subject"]
    assert "Layout Encoders for Scanned Invoices" in titles, titles
    assert not any(t.startswith("Two ") for t in titles), titles


def test_a_phrase_ends_before_an_adjective_that_takes_to() -> None:
    # "submodular functions subject to a knapsack budget", "schedules robust to late jobs": the
    # adjective opens what is said of the noun; no phrase ends on it
    titles = _candidate_titles("title_adjective_with_to.txt")
    assert "Greedy Algorithm for Schedules" in titles, titles
    assert not any(t.endswith(("Subject", "Robust")) or " Subject " in t for t in titles), titles


def test_a_word_broken_at_a_line_end_is_whole_again() -> None:
    # "a modular lan- guage for hyperpa- rameter search over tree- structured spaces", as copying
    # from a PDF leaves it: the words are "language" and "hyperparameter", and "tree-structured"
    # is a compound broken at its hyphen; "first- and second-order" leaves its noun to the second
    from generator.derive.title.candidates import rejoined

    titles = _candidate_titles("title_word_broken_at_line_end.txt")
    assert "Modular Language for Hyperparameter Search over Tree-Structured Spaces" in titles, titles
    assert not any("- " in t for t in titles), titles
    assert rejoined("over tree- structured spaces") == "over tree-structured spaces"
    assert rejoined("first- and second-order methods") == "first- and second-order methods"


# -- a joined title leads with the paper's work, not with what it mentions in passing (issue 25) --

@pytest.mark.parametrize("sentence, phrase, expected", [
    # an example of a list
    ("Our method generalizes similar approaches to this problem such as spike triggered average, "
     "spike triggered covariance, or maximally informative dimensions.", "spike triggered covariance", True),
    ("We analyze five popular models: absorbing random walks, hitting times, and eigenvectors of the Laplacian.",
     "absorbing random walks", True),
    # another's work, or what the paper improves on
    ("We note directly applying existing deep neural networks does not produce reasonable results.",
     "applying existing deep neural networks", True),
    ("Our algorithm scales further than a dynamic programming algorithm for the problem.",
     "dynamic programming algorithm", True),
    # the paper's own work, after a contrast or a list that has ended
    ("Unlike existing methods, we propose a hierarchical span memory for reading.", "hierarchical span memory", False),
    ("We focus on systems with observations such as images, and propose an approach that combines "
     "representation learning and planning", "representation learning and planning", False),
    ("The decomposition is a product of more than two sparse matrices",
     "sparse matrices", False),
    # a marker word that is the phrase's own head noun: the paper's baseline, not another's
    ("To mitigate this issue, we derive a bias-free action-dependent baseline for variance reduction.",
     "action-dependent baseline", False),
])
def test_a_phrase_mentioned_in_passing(sentence: str, phrase: str, expected: bool) -> None:
    from generator.derive.title.candidates import passing

    words = next(tokens(sentence)[i:i + len(phrase.split())] for i in range(len(tokens(sentence)))
                 if [t.lower() for t in tokens(sentence)[i:i + len(phrase.split())]] == phrase.split())
    assert passing(sentence, words) is expected


def test_a_joined_title_does_not_lead_with_an_example() -> None:
    text = ("We present a novel non-parametric method for finding a subspace of stimulus features that contains "
            "all information about the response of a system. Our method generalizes similar approaches to this "
            "problem such as spike triggered average, spike triggered covariance, or maximally informative "
            "dimensions. We use integral probability metrics in kernel Hilbert spaces to minimize the "
            "information between uninformative features and responses.")
    offered = [c.composed() for c in candidates(text) if c.kind == "combined"]
    assert offered, "the abstract still offers joined titles"
    assert not any(t.lower().startswith(("spike triggered", "maximally informative")) for t in offered)


def test_a_purpose_does_not_open_on_an_infinitive() -> None:
    from generator.derive.title.candidates import _purpose

    assert _purpose(["to", "Incorporate", "Knowledge"]) == []
    assert _purpose(["Reading", "Comprehension"]) == ["Reading", "Comprehension"]


def test_a_verb_coordinated_with_another_is_no_word_of_a_phrase() -> None:
    # "... loss and connect it to ...": "connect" takes "it"; it is the verb of "we study", not a noun
    found = noun_phrases(tokens("We study the curvature of the local matching loss and connect it to the speed of training"))
    assert ["local", "matching", "loss"] in found, found
    assert not any("connect" in p for p in found), found


def test_a_participle_before_its_object_or_agent_ends_the_phrase() -> None:
    found = noun_phrases(tokens("we introduce a hybrid training objective considering a generative cost function"))
    assert ["hybrid", "training", "objective"] in found, found
    found = noun_phrases(tokens("a procedure for statistical inference on biclusters found by score-based algorithms"))
    assert ["procedure", "for", "statistical", "inference", "on", "biclusters"] in found, found


def test_a_noun_an_article_follows_stays_a_noun() -> None:
    # an opening phrase without its comma ends on a noun, not a verb: "In online learning the ..."
    found = noun_phrases(tokens("In online learning the learner sees one example at a time"))
    assert ["online", "learning"] in found, found
    found = noun_phrases(tokens("We prune all the layers of deep convolutional networks"))
    assert ["layers", "of", "deep", "convolutional", "networks"] in found, found


def test_a_subject_ends_before_its_verb_in_s() -> None:
    text = ("Semantic scene completion predicts volumetric occupancy and object category of a 3D scene. "
            "In this work, we propose a disentangled framework that carries out 2D segmentation, reprojection "
            "and 3D scene completion in turn.")
    assert not derive_title(text).endswith("Predicts"), derive_title(text)
    # a plural whose verb follows stays whole: "partition models | divide a space"
    from generator.derive.title.phrases import _phrase
    assert _phrase(tokens("Stochastic partition models divide a multi-dimensional space"), 0, subject=True) \
        == ["Stochastic", "partition", "models"]
    assert _phrase(tokens("Semantic scene completion predicts volumetric occupancy"), 0, subject=True) \
        == ["Semantic", "scene", "completion"]


def test_the_verb_after_a_modal_and_its_subject_is_no_word_of_a_phrase() -> None:
    # "that can | solve X": "can" is not the verb, the word after it is
    found = noun_phrases(tokens("We present a recurrent network that can solve constraint satisfaction problems"))
    assert ["constraint", "satisfaction", "problems"] in found, found
    found = noun_phrases(tokens("How can we efficiently propagate uncertainty in a latent state representation"))
    assert not any("propagate" in p for p in found), found
    found = noun_phrases(tokens("and its effective use helps improve analysis sensitivity"))
    assert not any("improve" in p for p in found), found


def test_a_plain_verb_ends_the_subject_before_its_object() -> None:
    from generator.derive.title.phrases import _phrase
    words = _phrase(tokens("Solvers of distributed sparse regression assume the data is partitioned"), 0, subject=True)
    assert words == ["Solvers", "of", "distributed", "sparse", "regression"], words
    found = noun_phrases(tokens("Convolutional Neural Networks define an exceptionally powerful class of model"))
    assert ["Convolutional", "Neural", "Networks"] in found, found


def test_and_before_a_preposition_ends_the_phrase() -> None:
    # "and" joins two prepositional phrases here, not two nouns: no title "... Spaces and for Learning"
    found = noun_phrases(tokens("We study online linear optimization over Hilbert spaces and for learning with kernels"))
    assert ["online", "linear", "optimization", "over", "Hilbert", "spaces"] in found, found
    assert not any(p[-1] == "and" or ("and" in p and "for" in p) for p in found), found


def test_no_title_ends_on_a_clause_comma(monkeypatch: pytest.MonkeyPatch) -> None:
    # A phrase cut where its clause ends kept the clause's comma: "The Proximal Map Is the Key Step
    # in Gradient-Type Algorithms," (3 of the 5,180 titled abstracts). Whatever the candidates
    # give, the title the build uses ends on a word.
    from generator.derive.title import choose

    for cut, title in (("Sparse Coding of Natural Images,", "Sparse Coding of Natural Images"),
                       ("Sparse Coding of Natural Images ;", "Sparse Coding of Natural Images"),
                       ("Sparse Coding:", "Sparse Coding")):
        monkeypatch.setattr(choose, "_chosen_untidied", lambda text, weights, cut=cut: (cut, [], 0.6))
        assert choose.derived("Any abstract.") == (title, 0.6)
        assert choose.best("Any abstract.") == title


def test_a_participle_after_to_stays_a_participle() -> None:
    # "an approach to automated model design": "to" is a preposition there, and "automated" no
    # verb to turn into "Automateding" (a title seen on a real abstract)
    from generator.derive.title.phrases import _gerund

    assert [_gerund(v) for v in ("automated", "learned", "learn", "need", "embed", "optimize", "stop")] == \
        ["automated", "learned", "learning", "needing", "embedding", "optimizing", "stopping"]
    text = ("Neural architecture search is costly. We propose Quick Architecture Search, a faster and less "
            "expensive approach to automated model design than previous methods.")
    titles = [c.composed() for c in candidates(text)] + [derive_title(text)]
    assert not any("Automateding" in t for t in titles), titles


def test_a_word_in_s_before_the_verb_is_the_subjects_head_not_a_verb() -> None:
    # "Synthesizing realistic profile faces is promising": "faces" is no verb here (one follows
    # it), so the subject is not cut to "Synthesizing Realistic Profile" (a title seen on a real
    # abstract); a real verb still ends it
    from generator.derive.title.phrases import _phrase

    said = tokens("Synthesizing realistic profile faces is promising for training deep models.")
    assert _phrase(said, 0, limit=9, subject=True)[-1] == "faces"
    said = tokens("The multi-armed bandit problem constitutes an archetypal setting for learning.")
    assert _phrase(said, 1, limit=9, subject=True) == ["multi-armed", "bandit", "problem"]
    said = tokens("Deep generative model faces challenges when data are scarce.")
    assert "challenges" not in _phrase(said, 0, limit=9, subject=True)


@pytest.mark.parametrize("latex", [r'the \"kernel trick\" works', r"we don\'t know"])
def test_an_escaped_quote_is_no_accent(latex: str) -> None:
    assert plain(latex) == latex
