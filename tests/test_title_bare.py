"""A bare title of the paper's background yields to what the paper says it proposes or studies
(issue 25: generic titles, ``choose._widened``)."""
from __future__ import annotations

from generator.derive.title.candidates import title_sentences
from generator.derive.title.choose import _widened
from generator.derive.title.faithful import widened_phrases

PATCHES = title_sentences(
    "Adversarial patch attacks fool face recognition models with a small printed sticker. "
    "Recent work has shown the devastating consequences of such attacks. "
    "We argue that adversarial patch attacks are tied to what the models attend to. "
    "Therefore, we propose a novel adversarial patch detection technique for face recognition models, based on attention. "
    "It flags most patched faces and keeps clean accuracy.")


def test_a_bare_background_title_yields_to_the_statement_of_the_same_subject() -> None:
    assert _widened("Adversarial Patch Attacks", PATCHES) == "Adversarial Patch Detection Technique for Face Recognition Models"


def test_a_named_title_or_one_of_another_subject_is_not_replaced() -> None:
    assert _widened("PatchGuard: Adversarial Patch Attacks", PATCHES) == ""
    assert _widened("Small Printed Sticker", PATCHES) == ""  # no word of the statement's own subject


def test_a_bare_title_the_paper_states_it_studies_stays() -> None:
    studied = title_sentences(
        "Subspace clustering groups points that lie near a union of low-dimensional subspaces. "
        "We study subspace clustering when a few entries of each point are missing. "
        "We show that a greedy method recovers the subspaces with high probability.")
    assert _widened("Subspace Clustering", studied) == ""


def test_a_statement_sharing_the_title_only_in_its_tail_is_about_something_else() -> None:
    benchmark = title_sentences(
        "Graph neural networks spread information along the edges of a graph. "
        "Graph neural networks are hard to train on very deep stacks. "
        "We propose a new benchmark of molecule property tasks for evaluating graph neural networks. "
        "Our benchmark shows that adaptive optimizers overfit small molecules.")
    assert _widened("Graph Neural Networks", benchmark) == ""


OUTLIERS = ("Outlier detection flags the points of a data set that do not fit the rest. "
            "Most detectors output a score whose scale means nothing. ")
PROPER_LOSSES = "We show that a class of proper losses gives calibrated outlier scores and test it on ten benchmarks."


def test_a_bare_title_is_widened_by_what_a_sentence_of_the_paper_does_to_it() -> None:
    concerns = title_sentences(OUTLIERS + "This paper concerns calibrated outlier detection, where the detector must "
                               "also say how sure it is. " + PROPER_LOSSES)
    assert _widened("Outlier Detection", concerns) == "Calibrated Outlier Detection"


def test_what_the_verb_is_for_does_not_widen_its_object() -> None:
    # "we extend outlier detection to represent streams": outlier detection is not "for representing streams"
    extends = title_sentences(OUTLIERS + "We extend outlier detection to represent streams of points. " + PROPER_LOSSES)
    assert _widened("Outlier Detection", extends) == ""


def test_what_the_paper_sets_out_to_do_to_it_widens_a_bare_title() -> None:
    sets_out = title_sentences(OUTLIERS + "We borrow a trick from survival analysis to rescale the outlier scores of "
                               "any detector into probabilities. " + PROPER_LOSSES)
    assert _widened("Outlier Scores", sets_out) == "Rescaling the Outlier Scores of Any Detector into Probabilities"


def test_a_second_verb_after_and_is_no_part_of_the_widened_phrase() -> None:
    second = title_sentences(OUTLIERS + "We learn the local statistics of outlier scores and rigorously compare the learned statistics "
                             "with fixed thresholds. " + PROPER_LOSSES)
    # (not "... Outlier Scores and Rigorously Compare")
    assert widened_phrases("Outlier Scores", second) == [["local", "statistics", "of", "outlier", "scores"]]
