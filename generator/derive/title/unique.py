"""Uniqueness: every title once in a digest, told apart by the paper's own words first."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from generator.core.model import Paper, changed
from generator.core.parallel import serial
from generator.derive.title.choose import first_titles, ranked


def _all_titles(texts: Sequence[str]) -> list[list[str]]:
    return [ranked(t) for t in texts]


def title_papers(papers: Iterable[Paper], mapper: Callable = serial, first: dict[str, str] | None = None) -> list[Paper]:
    """Set ``title`` on every paper without a curated one; titles are unique within the digest
    (:func:`title_all`)."""
    return title_all(papers, mapper, first)[0]


def title_all(papers: Iterable[Paper], mapper: Callable = serial, first: Mapping[str, str] | None = None,
              others: Mapping[str, Sequence[str]] | None = None) -> tuple[list[Paper], dict[str, list[str]]]:
    """Set ``title`` on every paper without a curated one; titles are unique within the digest.

    Papers are handled in id order, so the same seeds always give the same titles. A title
    already taken gets a qualifier from the paper's own abstract, else its venue and year,
    and only as a last resort a number. Each abstract's titles depend on it alone, so
    ``mapper(fn, texts)`` may compute them in chunks on several cores
    (:func:`generator.core.parallel.map_chunks`); only the clash resolution is sequential.
    ``first`` may hold :func:`first_titles` already computed, by abstract text, and
    ``others`` each abstract's titles best first (:func:`ranked`). Returns the papers, and
    the ranked titles of every abstract whose preferred title was taken (for the cache).
    """
    ordered = sorted(papers, key=lambda p: p.id)
    taken = {p.title.lower() for p in ordered if "title" in p.curated and p.title}
    todo = [p for p in ordered if "title" not in p.curated]
    if first is None:
        first = dict(zip((p.text for p in todo), mapper(first_titles, [p.text for p in todo])))
    # Only a clash needs the alternatives, and they cost a second, full analysis:
    # find the papers whose first title an earlier paper (or a curated title) holds.
    seen = set(taken)
    clashing: list[str] = []
    for p in todo:
        key = first[p.text].lower()
        if key in seen and p.text not in clashing:
            clashing.append(p.text)
        seen.add(key)
    alternatives = {t: list(others[t]) for t in clashing if others and t in others}
    todo_ranked = [t for t in clashing if t not in alternatives]
    alternatives.update(zip(todo_ranked, mapper(_all_titles, todo_ranked)))
    out: list[Paper] = []
    # the next number to try after each title: every smaller one is taken (taken only grows),
    # so numbering the k-th paper of one title is one try, not k
    numbered: dict[str, int] = {}
    for paper in ordered:
        if "title" in paper.curated:
            out.append(paper)
            continue
        options = [first[paper.text]]
        if (preferred := options[0].lower()) not in taken:  # most papers: their preferred title is free
            taken.add(preferred)
            out.append(changed(paper, title=options[0]))
            continue
        if paper.text not in alternatives:  # taken by another paper's alternative
            alternatives[paper.text] = ranked(paper.text)
        # an abstract with nothing to make a title of has no alternatives ("Untitled")
        options = list(alternatives[paper.text]) or options
        venue = " ".join(str(x) for x in (paper.venue, paper.year or "") if x)
        if venue:
            options.append(f"{options[0]} ({venue})")
        title = next((t for t in options if t.lower() not in taken), "")
        n = numbered.get(options[0].lower(), 2)
        while not title:
            candidate = f"{options[0]} ({n})"
            title = candidate if candidate.lower() not in taken else ""
            n += 1
        numbered[options[0].lower()] = n
        taken.add(title.lower())
        out.append(changed(paper, title=title))
    return out, alternatives
