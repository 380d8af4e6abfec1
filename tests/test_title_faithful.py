"""How well the abstract backs a title (its confidence), the plain title, the own name, the review
list and ``python -m generator titles --least`` (issue 25)."""
from __future__ import annotations

from pathlib import Path

from support import run_generator

from generator.core.model import Paper, Source
from generator.derive.title.candidates import title_sentences
from generator.derive.title.choose import derived
from generator.derive.title.faithful import (
    CONFIDENT,
    broken,
    confidence,
    name_is_ours,
    plain_title,
    said_where_named,
    spells,
    statement_phrases,
    symbol,
)
from generator.derive.title.review import least_confident, report_least, uncertain
from generator.seeds.identify import paper_id

HANABI = ("Hanabi is a cooperative card game. Unlike Poker and Dota, it requires reasoning about the beliefs "
          "of others. We propose the Simplified Action Decoder (SAD), which lets agents learn conventions. "
          "SAD sets a new state of the art on Hanabi.")


def paper(pid: str, text: str, title: str, curated: tuple[str, ...] = ()) -> Paper:
    return Paper(id=pid, text=text, venue="ICML", year=2026, sources=(Source("seeds/x.txt", 3),), title=title,
                 curated=curated)


def test_own_name_with_its_long_form_is_confident_and_chosen() -> None:
    s = title_sentences(HANABI)
    assert spells("SAD", "Simplified Action Decoder".split())
    assert not spells("SAD", "Poker and Dota".split())
    assert confidence(s, "SAD: Simplified Action Decoder") == 1.0
    title, conf = derived(HANABI)
    assert title.startswith("SAD: Simplified Action Decoder") and conf >= CONFIDENT, (title, conf)


def test_phrases_of_different_sentences_are_not_backed() -> None:
    s = title_sentences(HANABI)
    assert confidence(s, "SAD: Simplified Action Decoder for Poker and Dota") < CONFIDENT
    assert confidence(s, "Cooperative Card Game for Learning Conventions") < CONFIDENT


def test_an_established_method_is_no_name_of_the_paper_unless_it_gives_it() -> None:
    text = "We study the central limit theorem (CLT) for stochastic gradient descent with constant step size."
    s = title_sentences(text)
    assert not name_is_ours("CLT", s)
    assert confidence(s, "CLT: Stochastic Gradient Descent with Constant Step Size") < CONFIDENT
    given = title_sentences("In this work we introduce a new fast incremental gradient method called SAGA. SAGA is fast.")
    assert name_is_ours("SAGA", given)


def test_a_name_only_a_link_holds_is_not_the_papers() -> None:
    text = "We propose a method for sparse coding of audio. Code: https://github.com/someone/Sparsey"
    assert not name_is_ours("Sparsey", title_sentences(text))


def test_broken_titles_are_not_confident() -> None:
    text = "We propose a deep learning architecture for recovering sparse signals from few measurements."
    s = title_sentences(text)
    assert confidence(s, "Deep Learning Architecture for Recovering Sparse") < CONFIDENT  # cut before its noun
    assert confidence(s, "Deep Learning Architecturesk for Recovering Sparse Signals") < CONFIDENT  # mangled
    assert confidence(s, "Deep Learning Architecture for Recovering Sparse Signals") == 1.0
    text = "We propose a convolutional network for capturing the structure of images."
    assert confidence(title_sentences(text), "Convolutional Network for Capturing") < CONFIDENT  # verb without object


def test_only_cut_mangled_or_borrowed_name_titles_are_broken() -> None:
    text = "We propose a deep learning architecture for recovering sparse signals from few measurements."
    s = title_sentences(text)
    assert broken("Deep Learning Architecture for Recovering Sparse", s)
    assert broken("Deep Learning Architecturesk for Recovering Sparse Signals", s)
    assert not broken("Deep Learning Architecture for Recovering Sparse Signals", s)
    # an -ing form of a word the abstract writes otherwise is no broken word
    video = title_sentences("We present a method that decomposes an input video into layered 2D atlases.")
    assert not broken("Method for Decomposing an Input Video into Layered 2D Atlases", video)
    clt = title_sentences("We study the central limit theorem (CLT) for stochastic gradient descent with constant step size.")
    assert broken("CLT: Stochastic Gradient Descent with Constant Step Size", clt)
    # a title joining phrases of two sentences is uncertain, not broken: it is kept
    s = title_sentences(HANABI)
    title = "Cooperative Card Game for Learning Conventions"
    assert confidence(s, title) < CONFIDENT and not broken(title, s)


def test_the_papers_own_name_stays_in_its_title() -> None:
    text = ("Sparse signals are everywhere. We propose SparseNet, a deep learning architecture for recovering "
            "sparse signals from few measurements. SparseNet is fast.")
    title, _ = derived(text)
    assert title.startswith("SparseNet"), title


def test_plain_title_is_the_contribution_cut_where_its_phrase_ends() -> None:
    text = ("Catastrophic forgetting is a problem of neural networks. We propose incremental moment matching, "
            "which matches the moments of posteriors, to overcome it.")
    assert plain_title(title_sentences(text)) == "Incremental Moment Matching"
    text = "We propose a simple method to learn sparse representations of graphs and show that it works."
    assert plain_title(title_sentences(text)) == "Method for Learning Sparse Representations of Graphs"


def test_plain_title_says_nothing_rather_than_point_elsewhere_or_say_little() -> None:
    assert plain_title(title_sentences("We propose a multiprobe version of this algorithm.")) == ""
    assert plain_title(title_sentences("We propose a new method. It is fast.")) == ""


def test_review_lists_the_least_confident_derived_titles_first() -> None:
    good = paper("a" * 12, HANABI, "SAD: Simplified Action Decoder")
    bad = paper("b" * 12, HANABI, "Poker and Dota for Hanabi Agents")
    curated = paper("c" * 12, HANABI, "Anything", curated=("title",))
    assert uncertain(bad) and not uncertain(good) and not uncertain(curated)
    rows = least_confident([good, bad, curated], 5)
    assert [u.paper.id for u in rows] == ["b" * 12, "a" * 12]
    text = report_least(rows[:1])
    assert text.startswith(f"{'b' * 12}  0.") and "  seeds/x.txt:3\n  title:    Poker and Dota for Hanabi Agents\n" in text
    assert f"  abstract: {HANABI}\n" in text
    assert text.endswith('Correct a title in seeds/curation.yml, under the paper\'s id:  title: "The Real Title"\n')


def test_titles_least_lists_derived_titles_with_their_abstracts(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    other = ("Exploration is hard in large action spaces. We introduce count-based exploration with hashed "
             "states, which scales to deep reinforcement learning.")
    (seeds / "icml.txt").write_text(f"ICML 2026 Papers\n\n{HANABI}\n\n{other}\n", encoding="utf-8")
    curated = paper_id(other)
    (seeds / "curation.yml").write_text(f'{curated}:\n  title: "Count-Based Exploration"\n', encoding="utf-8")
    result = run_generator("titles", "--least", "5", "--seeds", str(seeds), cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    out = result.stdout
    assert out.startswith(f"{paper_id(HANABI)}  ") and "seeds/icml.txt:3" in out.splitlines()[0]
    assert f"  abstract: {HANABI}\n" in out
    assert curated not in out  # a maintainer's title is no guess
    assert out.endswith('title: "The Real Title"\n')


def test_statement_phrase_is_the_object_of_what_the_paper_says_it_does() -> None:
    # the gerund's object goes on after its article; "the task of" names no thing of its own
    text = ("We present a new algorithmic approach for the task of finding a chordal Markov network structure that "
            "maximizes a given scoring function. Chordal Markov network structures are hard to learn.")
    assert statement_phrases(title_sentences(text)) == [
        ["algorithmic", "approach", "for", "finding", "a", "chordal", "Markov", "network", "structure"]]


def test_statement_phrase_is_not_a_result_a_passing_phrase_or_a_made_up_verb() -> None:
    results = "Sparse coding is popular. We present experimental results on sparse coding of audio. Audio is hard."
    assert statement_phrases(title_sentences(results)) == []
    passing = "Kernel methods scale poorly. We propose two distinct strategies. Both are cheap."
    assert statement_phrases(title_sentences(passing)) == []  # said once, of nothing the abstract comes back to
    # "approaches to large scale ...": "large" is no verb to make "for Larging" of
    adjective = "Kernel methods scale poorly. We study subsampling approaches to large scale kernel methods. Subsampling is cheap."
    assert [" ".join(w) for w in statement_phrases(title_sentences(adjective))] == ["subsampling approaches"]


def test_joined_title_yields_to_the_statement_phrase() -> None:
    text = ("Semantic segmentation of ambiguous images is hard. Many tasks, such as the Cityscapes segmentation "
            "task, have inherent ambiguities. We propose a generative segmentation model based on a combination of "
            "a U-Net with a conditional variational autoencoder. The generative segmentation model produces many "
            "plausible hypotheses for each image.")
    s = title_sentences(text)
    # what the chooser scores best joins a phrase of the third sentence to one of the first
    assert confidence(s, "Conditional Variational Autoencoder for Semantic Segmentation of Ambiguous Images") < CONFIDENT
    assert derived(text) == ("Generative Segmentation Model Based on a Combination of a U-Net", 1.0)


def test_a_symbol_is_no_name_of_the_paper() -> None:
    assert symbol("N-2ss+1") and symbol("KK") and symbol("x")
    assert not symbol("BOA+") and not symbol("S4") and not symbol("Q-learning") and not symbol("SAD")
    text = ("We study the sample complexity of semi-supervised learning when the number of components KK of a "
            "mixture model is unknown. We show that the mixture model can be learned from few labels.")
    s = title_sentences(text)
    assert broken("KK: Sample Complexity of Semi-Supervised Learning", s)
    assert confidence(s, "KK: Sample Complexity of Semi-Supervised Learning") < CONFIDENT
    # with its long form it is a name: "MM: Majorization-Minimization"
    mm = title_sentences("We propose a majorization-minimization (MM) method for robust matrix factorization.")
    assert not broken("MM: Majorization-Minimization", mm)


def test_a_clause_cut_short_is_not_confident() -> None:
    text = "We study a model where the rate of an inhomogeneous Poisson process jumps between unknown values."
    s = title_sentences(text)
    assert confidence(s, "Model Where the Rate of an Inhomogeneous Poisson Process") < CONFIDENT
    assert confidence(title_sentences("We study using causal models in bandits."), "Using Causal Models") < CONFIDENT
    assert confidence(s, "Inhomogeneous Poisson Process") >= CONFIDENT


def test_statement_phrase_is_not_a_relation_with_one_side_or_a_cut_ordinal() -> None:
    one_side = ("Stability matters. We study the relationship between algorithmic stability. Stability and "
                "generalization are related.")
    assert statement_phrases(title_sentences(one_side)) == []
    both = ("Stability matters. We study the relationship between algorithmic stability and generalization. "
            "Stability and generalization are related.")
    assert [" ".join(w) for w in statement_phrases(title_sentences(both))] == [
        "relationship between algorithmic stability and generalization"]


def test_a_named_title_saying_what_the_naming_sentence_says_keeps_its_words() -> None:
    text = ("Locate-then-edit methods modify model parameters. Their updates let attackers recover the edited "
            "data. We propose a two-stage reverse-engineering attack named KSTER that leverages low-rank updates. "
            "Second, we introduce an entropy-based prompt recovery attack that reconstructs the edit context. "
            "Our attacks recover edited data with high success rates.")
    s = title_sentences(text)
    assert said_where_named("KSTER: Two-Stage Reverse-Engineering Attack for Recovering Edited Data", s)
    assert not said_where_named("KSTER: Entropy-Based Prompt Recovery Attack", s)


IHMM = ("Brain states change over time. An infinite hidden Markov model (iHMM) is proposed to model the evolution "
        "of brain states from field potentials of multiple brain regions. The iHMM is fit by Gibbs sampling.")
QUADRATIC = ("Quadratic functions are everywhere in machine learning. In this paper, a sampling-based optimization "
             "method for quadratic functions is introduced. Quadratic functions of huge dimension are minimized "
             "by the sampling-based method in constant time.")


def test_a_passive_statement_of_the_work_is_read_as_the_papers_own() -> None:
    # "An X is proposed", "In this paper, a new X is introduced": the work is the subject, not "we"
    assert plain_title(title_sentences(IHMM)) == "Infinite Hidden Markov Model"
    s = title_sentences(QUADRATIC)
    assert [" ".join(w) for w in statement_phrases(s)] == ["sampling-based optimization method for quadratic functions"]
    assert confidence(s, "Sampling-Based Optimization Method for Quadratic Functions") == 1.0


def test_a_passive_sentence_of_others_work_or_of_results_states_no_work() -> None:
    for text in ("Kernel methods scale poorly. Many kernel approximations are proposed in the literature. "
                 "Kernel approximations are cheap.",
                 "Kernel methods scale poorly. A kernel approximation is commonly proposed for kernel methods.",
                 "Kernel methods scale poorly. Numerical experiments on kernel methods are presented.",
                 "Kernel methods scale poorly. The kernel approximation is introduced by random features."):
        s = title_sentences(text)
        assert (plain_title(s), statement_phrases(s)) == ("", []), text


def test_a_passive_statement_is_not_read_beside_one_of_we() -> None:
    # what "we propose" says is the paper's word on its work: a passive sentence beside it adds nothing
    text = ("Kernel methods scale poorly. We propose random binning features for kernel methods. "
            "A sparse variant of random binning features is also introduced for large kernel methods.")
    s = title_sentences(text)
    assert [" ".join(w) for w in statement_phrases(s)] == ["random binning features for kernel methods"]
    assert plain_title(s) == "Random Binning Features for Kernel Methods"
