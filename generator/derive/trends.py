"""Trends: how the topics' shares of each venue-year's papers move.

Pure: a :class:`~generator.core.model.Digest` in, :class:`Trends` out (the numbers the trends
page draws, :mod:`generator.pages.trends`, and trends.json holds).

A topic's *share* of a venue-year is the number of that venue-year's papers tagged with the
topic, or with a topic inside it (as the topic pages count), divided by the venue-year's
papers. A paper has one or more topics, so a venue-year's shares add up to more than 100%.

So that three papers make no trend, two rules (stated on the page):

- a venue-year of fewer than :data:`MIN_VENUE_PAPERS` papers is a *small sample*: drawn and
  counted, marked as such, and left out of the rising and falling topics and of the profiles;
- a change between two years of a venue counts only when the topic has at least
  :data:`MIN_TOPIC_PAPERS` papers in one of them (and likewise a venue's lean on a topic).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from generator.core.model import Digest, Topic

MIN_VENUE_PAPERS = 30
MIN_TOPIC_PAPERS = 5
CHANGES_SHOWN = 12  # rising topics, and falling ones, on the page (trends.json has every change)
LEANS_SHOWN = 10  # topics of each venue's profile on the page (trends.json has every topic)


@dataclass(frozen=True)
class VenueYear:
    venue: str
    year: int
    papers: int

    @property
    def name(self) -> str:
        return f"{self.venue} {self.year}"

    @property
    def small(self) -> bool:
        return self.papers < MIN_VENUE_PAPERS


@dataclass(frozen=True)
class TopicSeries:
    """A topic's papers in each venue-year (in the order of :attr:`Trends.venue_years`);
    ``depth`` is its place in the taxonomy's tree (0 for a broadest topic), ``within`` the
    topic and every topic inside it, whose papers it counts."""

    topic: Topic
    depth: int
    within: tuple[Topic, ...]
    counts: tuple[int, ...]
    papers: int  # in the whole digest (a paper counts once even in several venue-years: it has one)


@dataclass(frozen=True)
class Change:
    """A topic's share between a venue's year and its next year in the digest."""

    series: TopicSeries
    before: VenueYear
    after: VenueYear
    count_before: int
    count_after: int

    @property
    def share_before(self) -> float:
        return self.count_before / self.before.papers

    @property
    def share_after(self) -> float:
        return self.count_after / self.after.papers

    @property
    def points(self) -> float:
        """The change of share in percentage points."""
        return 100 * (self.share_after - self.share_before)

    @property
    def exact(self) -> Fraction:
        """The change of share as a fraction: equal changes (5 of 100, 1 of 20) sort as equal."""
        return Fraction(self.count_after, self.after.papers) - Fraction(self.count_before, self.before.papers)


@dataclass(frozen=True)
class Lean:
    """A topic's share of one venue's papers (all its years) against its share of the digest's."""

    series: TopicSeries
    count: int
    papers: int
    overall_count: int
    overall_papers: int

    @property
    def share(self) -> float:
        return self.count / self.papers

    @property
    def overall_share(self) -> float:
        return self.overall_count / self.overall_papers

    @property
    def points(self) -> float:
        return 100 * (self.share - self.overall_share)

    @property
    def exact(self) -> Fraction:
        return Fraction(self.count, self.papers) - Fraction(self.overall_count, self.overall_papers)


@dataclass(frozen=True)
class Profile:
    venue: str
    venue_years: tuple[VenueYear, ...]  # the venue's years that count (no small samples)
    leans: tuple[Lean, ...]  # every topic that meets the rule, the largest difference first

    @property
    def papers(self) -> int:
        return sum(v.papers for v in self.venue_years)


@dataclass(frozen=True)
class Trends:
    papers: int
    venue_years: tuple[VenueYear, ...]  # by venue (case-folded), then year
    series: tuple[TopicSeries, ...]  # topics with papers, in the tree's order
    changes: tuple[Change, ...]  # every change that meets the rules, in venue-year order
    profiles: tuple[Profile, ...]  # venues with papers outside small samples; empty with one venue

    def rising(self, n: int = CHANGES_SHOWN) -> list[Change]:
        return sorted((c for c in self.changes if c.exact > 0), key=lambda c: -c.exact)[:n]  # ties: venue-year, tree order

    def falling(self, n: int = CHANGES_SHOWN) -> list[Change]:
        return sorted((c for c in self.changes if c.exact < 0), key=lambda c: c.exact)[:n]


def tree_order(digest: Digest) -> list[tuple[Topic, int]]:
    """Every topic with its depth: each broadest topic in taxonomy order, followed by the
    topics inside it (depth first), as the topics index lists them."""
    slugs = {t.slug for t in digest.topics}
    out: list[tuple[Topic, int]] = []
    seen: set[str] = set()

    def add(t: Topic, depth: int) -> None:
        if t.slug in seen:  # the loader refuses cycles; a Digest made by hand might not
            return
        seen.add(t.slug)
        out.append((t, depth))
        for child in digest.children(t):
            add(child, depth + 1)

    for t in digest.topics:
        if t.parent not in slugs:
            add(t, 0)
    return out


def _within(digest: Digest, topic: Topic) -> tuple[Topic, ...]:
    """``topic`` and every topic inside it, in tree order."""
    out = [topic]
    for t in out:  # grows while it is walked: breadth first
        out.extend(c for c in digest.children(t) if c not in out)
    return tuple(out)


def compute(digest: Digest) -> Trends:
    """The trends of the digest's visible papers."""
    papers = digest.visible()
    vys = sorted({(p.venue, p.year) for p in papers}, key=lambda v: (v[0].casefold(), v[0], v[1]))
    column = {v: i for i, v in enumerate(vys)}
    sizes = [0] * len(vys)
    ancestors = {t.name: digest.with_parents([t.name]) for t in digest.topics}
    counts: dict[str, list[int]] = {t.name: [0] * len(vys) for t in digest.topics}
    totals = dict.fromkeys(counts, 0)
    for p in papers:
        i = column[(p.venue, p.year)]
        sizes[i] += 1
        for name in {a for tag in p.tags for a in ancestors.get(tag, ())}:
            counts[name][i] += 1
            totals[name] += 1
    venue_years = tuple(VenueYear(v, y, n) for (v, y), n in zip(vys, sizes))
    series = tuple(TopicSeries(t, depth, _within(digest, t), tuple(counts[t.name]), totals[t.name])
                   for t, depth in tree_order(digest) if totals[t.name])
    return Trends(len(papers), venue_years, series, _changes(venue_years, series), _profiles(venue_years, series, len(papers)))


def _changes(venue_years: Sequence[VenueYear], series: Sequence[TopicSeries]) -> tuple[Change, ...]:
    pairs = [(i, i + 1) for i in range(len(venue_years) - 1)
             if venue_years[i].venue == venue_years[i + 1].venue
             and not venue_years[i].small and not venue_years[i + 1].small]
    return tuple(Change(s, venue_years[a], venue_years[b], s.counts[a], s.counts[b])
                 for a, b in pairs for s in series if max(s.counts[a], s.counts[b]) >= MIN_TOPIC_PAPERS)


def _profiles(venue_years: Sequence[VenueYear], series: Sequence[TopicSeries], total: int) -> tuple[Profile, ...]:
    venues = sorted({v.venue for v in venue_years}, key=lambda v: (v.casefold(), v))
    if len(venues) < 2 or not total:
        return ()  # one venue's profile is the digest's
    out = []
    for venue in venues:
        kept = [i for i, v in enumerate(venue_years) if v.venue == venue and not v.small]
        n = sum(venue_years[i].papers for i in kept)
        if not kept:
            continue
        leans = [Lean(s, sum(s.counts[i] for i in kept), n, s.papers, total) for s in series]
        leans = [l for l in leans if max(l.count, round(l.overall_share * n)) >= MIN_TOPIC_PAPERS]
        leans.sort(key=lambda l: -abs(l.exact))
        out.append(Profile(venue, tuple(venue_years[i] for i in kept), tuple(leans)))
    return tuple(out)
