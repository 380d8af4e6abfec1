"""What was published before: the papers a build must keep at their addresses.

A paper's id names its page (``papers/<id>/``); readers' stars, the feeds and links
from outside rely on it. An id made from the text alone would change whenever the
abstract is edited, and the smallest id of merged variants whenever a variant sorts
lower; so the previous build's ``papers.json`` (restored by the deploy beside the map)
says which ids are taken and by which texts, and every paper keeps the id it was
published under (:class:`generator.derive.dedupe.Anchor`):

- an abstract whose id is a published paper's id or alias is that paper;
- an abstract edited in place (a paragraph of a seed file that is no longer what the
  previous publication had there, at the same place among its neighbours, and still
  shares much of its text) is the paper that was there (:func:`edits_in_place`);
- a near duplicate of a published text joins that paper (:mod:`generator.derive.dedupe`).

The record is read as untrusted input: it comes from a cache, and any entry that is
not the shape the build writes is left out with a message, never a crash.
"""
from __future__ import annotations

import json
import logging
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

from generator.core.model import Paper, Source
from generator.derive.curate import Curation
from generator.derive.dedupe import Anchor, shingles, similarity
from generator.seeds.read import display_path

log = logging.getLogger(__name__)

_ID = re.compile(r"[0-9a-f]{12}")
# An edited abstract shares at least this part of the word 3-grams of the shorter of
# it and the text published at its place; less, and the paragraph is another paper.
MIN_EDIT_CONTAINMENT = 0.5
# Within one changed run of paragraphs, texts are compared pairwise only up to this
# many pairs; beyond it, the n-th old paragraph is compared with the n-th new one.
MAX_PAIRED = 256


@dataclass(frozen=True)
class PublishedPaper:
    """A paper as the previous build published it: its id, every alias, the text shown,
    and where its abstract was submitted."""

    id: str
    text: str
    sources: tuple[Source, ...]
    aliases: tuple[str, ...] = ()

    @property
    def ids(self) -> frozenset[str]:
        return frozenset((self.id, *self.aliases))

    @classmethod
    def of(cls, paper: Paper) -> PublishedPaper:
        return cls(paper.id, paper.text, paper.sources, paper.aliases)


def read_published(data: str, shown: str) -> list[PublishedPaper]:
    """The papers of a previous build's ``papers.json`` (its text ``data``; messages name it
    ``shown``). What is not the shape the build writes is left out, each with a message;
    a file that is not JSON at all gives no papers. An id that two papers claim stays
    with the first."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as e:
        log.warning("%s: not the papers of a previous build (%s): every paper gets the id of its text",
                    shown, str(e)[:200])
        return []
    entries = doc.get("papers") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        log.warning("%s: no list of papers: every paper gets the id of its text", shown)
        return []
    out: list[PublishedPaper] = []
    taken: set[str] = set()
    for n, entry in enumerate(entries, 1):
        paper, problem = _published(entry)
        if paper is not None and paper.ids & taken:
            paper, problem = None, f"an id of it belongs to an earlier paper ({', '.join(sorted(paper.ids & taken))})"
        if paper is None:
            log.warning("%s: paper %d: %s: left out", shown, n, problem)
            continue
        taken |= paper.ids
        out.append(paper)
    return out


def _published(entry: object) -> tuple[PublishedPaper | None, str]:
    """One entry of papers.json as a :class:`PublishedPaper`, or why it cannot be one."""
    if not isinstance(entry, dict):
        return None, "not an object"
    pid, text, sources, aliases = entry.get("id"), entry.get("abstract"), entry.get("sources"), entry.get("aliases", [])
    if not isinstance(pid, str) or not _ID.fullmatch(pid):
        return None, "its id is not 12 hexadecimal digits"
    if not isinstance(text, str) or not text.strip():
        return None, "no abstract"
    if not isinstance(aliases, list) or not all(isinstance(a, str) and _ID.fullmatch(a) for a in aliases):
        return None, "its aliases are not ids"
    if not isinstance(sources, list) or not sources:
        return None, "no sources"
    where = []
    for s in sources:
        file, line = (s.get("file"), s.get("line")) if isinstance(s, dict) else (None, None)
        if not isinstance(file, str) or not file or type(line) is not int or line < 1:
            return None, "a source is not a file and a line"
        where.append(Source(file, line))
    return PublishedPaper(pid, text, tuple(sorted(set(where))), tuple(sorted(set(aliases) - {pid}))), ""


def anchors(published: Iterable[PublishedPaper], curation: Curation | None = None,
            texts: Mapping[str, Sequence[str]] | None = None) -> list[Anchor]:
    """The papers known before this build, as :class:`generator.derive.dedupe.Anchor`: the published
    ones, and the curated ones they do not hold (a hidden paper is not published, but its
    entry names it: its variants must stay hidden with it). ``texts`` adds texts a published paper is compared with (by its id;
    each paper's shown text is one already)."""
    out = []
    known: set[str] = set()
    for p in published:
        extra = tuple(t for t in texts.get(p.id, ()) if t != p.text) if texts else ()
        ids = p.ids  # a new set each time it is asked for
        out.append(Anchor(p.id, ids, (p.text, *extra)))
        known |= ids
    for entry in curation or ():
        if entry.id not in known:
            out.append(Anchor(entry.id, frozenset((entry.id,)), keeps_id=False))
            known.add(entry.id)
    return out


def edits_in_place(published: Sequence[PublishedPaper], papers: Sequence[Paper]) -> dict[str, str]:
    """The abstracts edited in place: the id of each edited text -> the id of the paper it was.

    Per seed file, the published papers' places (in line order) are lined up with the
    file's paragraphs now, those whose text is a published paper's standing for it; a
    run of paragraphs that changed, where the publication had a run of papers, pairs
    each old paper with a new paragraph that still shares much of its text
    (:data:`MIN_EDIT_CONTAINMENT`). ``papers`` are the parsed abstracts, one source each.
    """
    owner = {i: p.id for p in published for i in p.ids}
    by_id = {p.id: p for p in published}
    before: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for p in published:
        for s in p.sources:
            before[s.file].append((s.line, p.id))
    now: dict[str, list[Paper]] = defaultdict(list)
    for p in papers:
        now[p.source.file].append(p)
    claims: dict[str, str] = {}
    for file in sorted(set(before) & set(now)):
        old = [pid for _, pid in sorted(before[file])]
        new = sorted(now[file], key=lambda p: p.source.line)
        tokens = [owner.get(p.id, ("?", n)) for n, p in enumerate(new)]
        if all(isinstance(t, str) for t in tokens):
            continue
        blocks = SequenceMatcher(None, old, tokens, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in blocks:
            if tag != "replace":
                continue
            gone = [by_id[pid] for pid in old[i1:i2]]
            edited = [p for p, t in zip(new[j1:j2], tokens[j1:j2]) if not isinstance(t, str)]
            for was, now_text in _pair(gone, edited):
                claims.setdefault(now_text.id, was.id)
    return claims


def _pair(gone: Sequence[PublishedPaper], edited: Sequence[Paper]) -> list[tuple[PublishedPaper, Paper]]:
    """Which old paper each edited paragraph of a changed run was (each at most once)."""
    def close(a: PublishedPaper, b: Paper) -> float:
        containment, _ = similarity(shingles(a.text), shingles(b.text))
        return containment if containment >= MIN_EDIT_CONTAINMENT else -1.0

    if len(gone) * len(edited) > MAX_PAIRED:
        return [(a, b) for a, b in zip(gone, edited) if close(a, b) >= 0]
    scored = sorted(((-close(a, b), i, j) for i, a in enumerate(gone) for j, b in enumerate(edited)))
    used_a, used_b, out = set(), set(), []
    for score, i, j in scored:
        if score > 0 or i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((gone[i], edited[j]))
    return out


def read_previous_papers(docs: Path) -> list[PublishedPaper]:
    """The input edge of identity: the papers the previous build wrote to ``docs``' papers.json
    (restored by the deploy beside the map), whose ids this build keeps."""
    path = docs / "papers.json"
    try:
        data = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as e:
        log.warning("cannot read the previous papers %s (%s): every paper gets the id of its text", display_path(path), e)
        return []
    return read_published(data, display_path(path))
