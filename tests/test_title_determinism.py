"""A derived title depends on the abstract alone: not on the order a set happens to iterate in
(Python's hash seed, new in every process), nor on the order of the words being summed.

Two candidates of the same words ("Kernel Machines for Neural Networks" and "Neural Networks for
Kernel Machines") must score exactly the same, so that the tie breaks by the rules' order every
time; before, the last bit of a float sum decided, and it moved with the hash seed, so a cold
build and a warm one (or two machines) could publish different titles for the same paper.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.derive.title.candidates import COMBINED, PHRASE, Candidate
from generator.derive.title.choose import Scorer, context, fitted_weights
from support import REPO

SHARED = REPO.parent / "shared"

TEXT = ("Random features approximate kernel machines, and neural networks learn their basis functions. "
        "We compare random and adaptive basis functions for kernel machines and neural networks, and find "
        "that adaptive basis functions close the gap between kernel machines and deep neural networks on "
        "twelve regression benchmarks.")

PHRASES = ["Kernel Machines", "Neural Networks", "Basis Functions", "Random Features", "Adaptive Basis",
           "Regression Benchmarks", "Deep Neural Networks", "Gap"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PHRASES), min_size=2, max_size=4, unique=True), st.randoms(use_true_random=False),
       st.sampled_from([COMBINED, PHRASE]))
def test_the_same_words_in_another_order_score_exactly_the_same(parts, rnd, kind):
    score = Scorer(context(TEXT), fitted_weights())
    shuffled = parts[:]
    rnd.shuffle(shuffled)
    one = Candidate(" for ".join(parts), kind, 2)
    other = Candidate(" for ".join(shuffled), kind, 2)
    assert score(one) == score(other), (one.title, other.title)


TITLE_SCRIPT = """
import json, sys
from generator.derive.title import derive_title
print(json.dumps([derive_title(t) for t in json.load(sys.stdin)]))
"""


def titles_with_hash_seed(texts: list[str], seed: int) -> list[str]:
    env = os.environ | {"PYTHONHASHSEED": str(seed), "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-c", TITLE_SCRIPT], input=json.dumps(texts), capture_output=True,
                         text=True, env=env, cwd=REPO, check=True)
    return json.loads(run.stdout)


def paragraph(path: Path, line: int) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()[line - 1:]
    return " ".join(lines[:next((k for k, s in enumerate(lines) if not s.strip()), len(lines))])


def test_titles_do_not_depend_on_the_hash_seed():
    # two real abstracts whose two best candidates are the same words in two orders (their titles
    # flipped between hash seeds 0 and 17), and the mission seeds' first abstracts
    texts = [TEXT]
    if SHARED.is_dir():
        texts += [paragraph(SHARED / "titled" / "neurips2017" / "seeds" / "neurips2017-02.txt", 127),
                  paragraph(SHARED / "titled" / "iclr2018" / "seeds" / "iclr2018-02.txt", 121)]
    for seed_file in sorted((REPO / "seeds").glob("*.txt")):
        paragraphs = seed_file.read_text(encoding="utf-8").split("\n\n")[1:6]
        texts += [" ".join(p.split()) for p in paragraphs if p.strip()]
    runs = [titles_with_hash_seed(texts, seed) for seed in (0, 17, 4242)]
    assert runs[0] == runs[1] == runs[2]
    if not SHARED.is_dir():
        pytest.skip("../shared is absent: only the mission seeds and the hand-written abstract were compared")
