"""Review: which derived titles a maintainer should look at first.

A derived title is a guess; :func:`.faithful.confidence` says how well the abstract backs it.
The pull-request summary asks for the real title of a new paper whose title is uncertain, and
``python -m generator titles --least N`` lists the digest's least confident titles with their
abstracts, to be corrected in ``seeds/curation.yml`` in one sitting.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from generator.core.model import Paper
from generator.derive.title.candidates import title_sentences
from generator.derive.title.faithful import confidence

# Below this a derived title is asked for in a pull request and marked uncertain. (Not
# faithful.CONFIDENT, below which the choice looks for a better backed title: a title of two
# phrases of the abstract, "X for Y", scores 0.6 and stays when nothing better is backed; on the
# fitted venues half the titles are such, and asking for half the titles asks for nothing.)
UNCERTAIN = 0.6


class Scored(NamedTuple):
    """A paper with its title's confidence."""

    paper: Paper
    confidence: float


def title_confidence(paper: Paper) -> float:
    """How well the abstract backs the paper's title: 1 when a maintainer set it."""
    if "title" in paper.curated:
        return 1.0
    return _confidence(paper.text, paper.title)


@lru_cache(maxsize=4096)
def _confidence(text: str, title: str) -> float:
    # a summary asks twice of each new paper (its row, the closing note)
    return confidence(title_sentences(text), title)


def uncertain(paper: Paper) -> bool:
    """Is the paper's title derived, with a confidence below :data:`UNCERTAIN`?"""
    return title_confidence(paper) < UNCERTAIN


def least_confident(papers: Iterable[Paper], n: int) -> list[Scored]:
    """The ``n`` derived titles the abstracts back least, least first (ties by id)."""
    scored = [Scored(p, title_confidence(p)) for p in papers if "title" not in p.curated]
    return sorted(scored, key=lambda u: (u.confidence, u.paper.id))[:max(0, n)]


def report_least(rows: Iterable[Scored]) -> str:
    """The list for maintainers: id, confidence, source, title, abstract; and how to correct one."""
    out = []
    for u in rows:
        p = u.paper
        where = f"  {p.sources[0].file}:{p.sources[0].line}" if p.sources else ""
        out += [f"{p.id}  {u.confidence:.2f}{where}", f"  title:    {p.title}", f"  abstract: {p.text}", ""]
    out.append('Correct a title in seeds/curation.yml, under the paper\'s id:  title: "The Real Title"')
    return "\n".join(out) + "\n"
