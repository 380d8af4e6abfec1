"""The nouns of the pipeline: where a paper came from, its links, the paper, the digest.

One :class:`Paper` record carries an abstract through every stage; stages return
new records with :func:`dataclasses.replace`, never mutate.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

# How many abstracts a per-abstract cache (normalized text, segments, summaries) holds: a
# whole digest of 50,000 papers and room to grow. Stages run over every abstract in turn,
# so a cache smaller than the digest misses every time (each entry is evicted before it
# is asked for again): at 32,768 segments, 50,000 papers were segmented three times each.
ABSTRACTS_CACHED = 1 << 17


@dataclass(frozen=True, order=True)
class Source:
    """One place an abstract was submitted: a seed file (relative path) and the line its paragraph starts on."""

    file: str
    line: int
    venue: str = field(compare=False, default="")
    year: int = field(compare=False, default=0)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Link:
    """A URL found in an abstract; ``kind`` is ``code``, ``data``, ``project`` or ``paper``."""

    url: str
    kind: str


@dataclass(frozen=True)
class Paper:
    """One paper of the digest.

    ``text`` is the abstract exactly as submitted (the lines of its paragraph joined
    by single spaces); everything else is derived from it or from curation.
    """

    id: str
    text: str
    venue: str
    year: int
    sources: tuple[Source, ...]
    links: tuple[Link, ...] = ()
    title: str = ""
    tags: tuple[str, ...] = ()
    # topic name -> the phrases that matched, in the order the topic was ranked
    tag_evidence: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # ids of the other submitted variants merged into this paper
    aliases: tuple[str, ...] = ()
    featured: bool = False
    hidden: str = ""
    note: str = ""
    curated: tuple[str, ...] = ()  # which fields a maintainer set: "title", "tags"
    # ids of the most similar other papers, best first (generator/derive/related.py)
    related: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = self.sources[0] if self.sources else "?"
        return f"{where} [{self.id}]"

    def __hash__(self) -> int:
        # Equal records have equal ids and texts: hashing those alone (a text's hash is kept by
        # the string) makes a paper a cheap key of the per-paper caches a long-lived builder
        # holds; the dataclass's hash of every field, sources and links through Python, was not.
        return hash((self.id, self.text))

    @property
    def source(self) -> Source:
        """Where the paper was first submitted (the smallest file and line)."""
        return self.sources[0]

    @property
    def merged(self) -> int:
        """How many duplicate submissions were merged into this paper."""
        return len(self.sources) - 1


_PAPER_FIELDS = frozenset(Paper.__dataclass_fields__)


def changed(paper: Paper, **fields) -> Paper:
    """``dataclasses.replace(paper, **fields)`` for the loops over every paper of a build (a
    copy of the record's fields, then the new ones: a tenth of replace's time, which calls
    ``__init__``; Paper checks nothing there). Names that are no field of Paper are refused."""
    if not fields.keys() <= _PAPER_FIELDS:
        raise TypeError(f"no field of Paper: {sorted(fields.keys() - _PAPER_FIELDS)}")
    out = object.__new__(Paper)
    out.__dict__.update(paper.__dict__)
    out.__dict__.update(fields)
    return out


@dataclass(frozen=True)
class Topic:
    """A topic of the taxonomy; ``parent`` is the slug of the broader topic it sits in, if any."""

    name: str
    slug: str
    description: str
    phrases: tuple[str, ...]
    catch_all: bool = False
    parent: str = ""


def parent_names(topics: Iterable[Topic]) -> dict[str, str]:
    """Topic name -> the name of the topic it sits in (``Topic.parent``), for the topics that have one."""
    topics = list(topics)
    by_slug = {t.slug: t for t in topics}
    return {t.name: by_slug[t.parent].name for t in topics if t.parent in by_slug}


def with_parents(tags: Iterable[str], parents: dict[str, str]) -> list[str]:
    """The topic names ``tags`` and, after them, the topics they sit in (``parents``, from
    :func:`parent_names`), each once: every topic whose page, feed and filters hold the paper."""
    tags = list(tags)
    out: list[str] = []
    for t in tags:
        while t not in out:
            out.append(t)
            if t not in parents:
                break
            t = parents[t]
    return sorted(out, key=lambda t: t not in tags)  # stable: the tags first, in their order


class Digest:
    """The deduplicated papers, sorted by id, with the queries pages need."""

    def __init__(self, papers: Iterable[Paper], topics: Iterable[Topic] = ()):
        self._papers = sorted(papers, key=lambda p: p.id)
        self._by_id = {p.id: p for p in self._papers}
        for p in self._papers:
            for alias in p.aliases:
                self._by_id.setdefault(alias, p)
        self.topics = list(topics)

    def __iter__(self) -> Iterator[Paper]:
        return iter(self._papers)

    def __len__(self) -> int:
        return len(self._papers)

    def get(self, paper_id: str) -> Paper | None:
        """The paper with this id, or the paper an alias id was merged into."""
        return self._by_id.get(paper_id)

    def visible(self) -> list[Paper]:
        """Papers shown on the site (not hidden by curation)."""
        return [p for p in self._papers if not p.hidden]

    def by_topic(self) -> dict[str, list[Paper]]:
        """Topic name -> visible papers tagged with it or with a topic inside it (a child, a
        grandchild: ``Topic.parent``), for every topic (possibly empty)."""
        out: dict[str, list[Paper]] = {t.name: [] for t in self.topics}
        parents = parent_names(self.topics)
        held: dict[tuple[str, ...], list[str]] = {}  # by tags: a few hundred combinations for 20,000 papers
        for p in self.visible():
            if (names := held.get(p.tags)) is None:
                names = held[p.tags] = with_parents(p.tags, parents)
            for t in names:
                out.setdefault(t, []).append(p)
        return out

    def with_parents(self, tags: Iterable[str]) -> list[str]:
        """The topic names ``tags`` and, after them, the topics they sit in, each once."""
        return with_parents(tags, parent_names(self.topics))

    def children(self, topic: Topic) -> list[Topic]:
        """The topics whose parent is ``topic``, in taxonomy order."""
        return [t for t in self.topics if t.parent == topic.slug]

    def by_venue(self) -> dict[tuple[str, int], list[Paper]]:
        """(venue, year) -> visible papers, sorted by venue then year."""
        out: dict[tuple[str, int], list[Paper]] = {}
        for p in self.visible():
            out.setdefault((p.venue, p.year), []).append(p)
        return dict(sorted(out.items()))
