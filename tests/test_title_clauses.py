"""No title keeps the words of its sentence's clause (issue 25): a small word glued to the word
after it, an opening conjunction or wh-word, the sentence's verb or the words of an opening
"While ..." clause. The abstracts are small ones written for these cases."""
from __future__ import annotations

from generator.derive.title import derive_title
from generator.derive.title.candidates import parted_small_words, title_sentences
from generator.derive.title.faithful import broken, holds_a_verb, in_an_opening_clause, mended, opens_a_clause

ROUTER = ("Robots that sort parcels need to route them quickly. In this work we introduce a new learnable "
          "module, theFlexible Router, which plans parcel routes inside the conveyor network.")
SAMPLER = ("Sorting parcels is a routing problem. In this paper, we attempt to further our understanding of the "
           "subject by developing a simple, but remarkably fast sampler for graph colourings. Our results show "
           "that the sampler mixes in linear time on sparse graphs.")
DRONES = ("Drones deliver parcels in cities. We investigate both the problem of routing parcels with drones, as "
          "well as the cost of charging them. We show that a greedy schedule is within a constant factor of the optimum.")
PRUNING = ("Translation models are slow on phones. We investigate whether pruning the attention heads of a "
           "translation model by ranking their gradients improves its latency on phones. Pruning half the heads "
           "halves the latency at a small cost in quality.")
FLOW = ("Training wide networks is well understood. We prove that noisy gradient flow converges to a global minimum "
        "for wide two-layer networks. Our analysis tracks the neural tangent kernel during training.")


def test_a_small_word_glued_to_a_capitalised_one_is_parted() -> None:
    assert parted_small_words("a new module, theFlexible Router, which") == "a new module, the Flexible Router, which"
    assert parted_small_words("trained fromWikipedia and onEnglish text") == "trained from Wikipedia and on English text"
    # names of their own: a letter, or a word that is no small word, before the capital
    for name in ("aPascal", "iPhone", "fastText", "miniKanren", "inGAN", "theDeepMind"):
        assert parted_small_words(name) == name
    assert any("the Flexible Router" in s for s in title_sentences(ROUTER))
    assert "theFlexible" not in derive_title(ROUTER)


def test_no_title_opens_on_a_conjunction() -> None:
    assert opens_a_clause("But Remarkably Fast Sampler".split())
    assert opens_a_clause("Both the Problem of Routing Parcels".split())
    assert opens_a_clause("Whilst Deep Neural Networks".split())
    assert not opens_a_clause("When Does Routing Elicit Knowledge?".split())  # a question the abstract asks
    assert derive_title(SAMPLER) == "Remarkably Fast Sampler for Graph Colourings"
    assert not derive_title(DRONES).startswith("Both")


def test_a_wh_clause_cut_before_its_verb_is_no_title() -> None:
    assert opens_a_clause("How Inferred Colour Mappings for Colormap Visualizations".split())
    assert opens_a_clause("Whether Pruning the Attention Heads of a Translation Model".split())
    assert not opens_a_clause("How Width Affects the Expressiveness of Neural Networks".split())
    assert not opens_a_clause("How to Reduce the Cost of Communication".split())
    assert not opens_a_clause("How Learning Algorithms Can Transfer Knowledge".split())
    title = derive_title(PRUNING)
    assert not title.startswith("Whether") and "Pruning the Attention Heads" in title, title


def test_a_title_holding_its_sentences_verb_keeps_the_phrase_before_it() -> None:
    search = ["Maximum inner product search (MIPS) is a core step of recommendation",
              "We propose a graph index to solve the maximum inner product search problem on billions of items"]
    assert holds_a_verb("Maximum Inner Product Search to Solve".split(), ". ".join(search))
    assert not holds_a_verb("Credit Assignment for Learning to Rank".split(), "we study learning to rank the items")
    assert mended("MIPS: Maximum Inner Product Search to Solve", search) == "MIPS: Maximum Inner Product Search"
    assert mended("Both Upper and Lower Bounds on Sorting Networks", search) == "Upper and Lower Bounds on Sorting Networks"
    assert mended("Stochastic Case for Robustness with Respect", search) == "Stochastic Case for Robustness"
    # "patterns in response to different stimuli", cut before its "to" (a title seen on a real abstract)
    assert mended("Similarity Matrix of Neural Activity Patterns in Response", search) == \
        "Similarity Matrix of Neural Activity Patterns"
    assert mended("Many Parcel Routing Methods Exist", search) == "Parcel Routing Methods"
    # a clause the title holds whole may end on its verb
    feats = ["We study how to estimate dense codes when several feature types exist within a dataset"]
    assert not broken("How to Estimate Dense Codes When Several Feature Types Exist", feats)
    assert derive_title(FLOW) == "Gradient Flow for Training Wide Networks"


def test_a_title_of_an_opening_while_clause_is_broken() -> None:
    sentences = ["Correlation measures are everywhere",
                 "While existing correlation measures are suitable for detecting average dependence, they miss hidden dependence",
                 "We propose an estimator of the hypercontractivity coefficient from samples"]
    assert in_an_opening_clause("Suitable for Detecting Average Dependence".split(), sentences)
    assert broken("Suitable for Detecting Average Dependence", sentences)
    # the main clause's words, or a phrase another sentence says in its own clause, are the paper's
    assert not in_an_opening_clause("Hidden Dependence".split(), sentences)
    assert not in_an_opening_clause("Hypercontractivity Coefficient".split(), sentences)
