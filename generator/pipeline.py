"""The pipeline, in the order handbook/architecture.md describes it.

read seeds -> parse (and identify) -> extract links -> deduplicate -> curate ->
title -> tag -> render -> write. Everything is gathered and rendered in memory
before anything is written, so a failed build leaves ``docs/`` as it was.

On several cores, tagging and titling (which need an abstract's text alone) start
in worker processes from the seed bytes while this process parses, validates and
deduplicates; paper pages are rendered in workers while this process renders the
listing pages. The output is byte for byte the serial one (a test checks it).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TypeVar

from generator.core.errors import GeneratorError, SeedError
from generator.core.memory import give_back
from generator.core.memo import next_build
from generator.core.model import Digest, Paper, Topic, changed
from generator.core.parallel import Background, Pending, map_chunks, split, workers
from generator.core.warm import Warm
from generator.derive import curate
from generator.derive.cache import Entry, fingerprint, read_cache, reusable, text_key, write_cache
from generator.derive.dedupe import anchored_ids, deduplicate, duplicate_pairs
from generator.derive.map_layout import PLACE_SHARE, LayoutInfo, layout, place, placing
from generator.derive.published import PublishedPaper, anchors, edits_in_place, read_previous_papers
from generator.derive.related import Rows, add_related_rows, row_key
from generator.derive.related_cache import read_rows, related_path, write_rows
from generator.derive.sketches import Sketches, read_sketches, sketches_path, write_sketches
from generator.derive.tag import load_taxonomy, tag_texts
from generator.derive.title import first_titles, title_all
from generator.derive.trends import compute as compute_trends
from generator.manifest import (
    Manifest,
    docs_state,
    forget,
    input_key,
    manifest_path,
    pages_path,
    placed_path,
    read_pages,
    read_placed,
    unchanged_pages,
    write_manifest,
    write_pages,
    write_placed,
)
from generator.pages import explore
from generator.pages.feeds import feed_keys, plan_feeds, render_feeds
from generator.pages.kept import Kept, forget_kept, kept_path, read_kept, write_kept
from generator.pages.render import (
    listing_files,
    listing_keys,
    listing_page_keys,
    listings_of,
    paper_page_keys,
    render_site,
)
from generator.pages.search_cache import read_search_cache, search_cache_path, search_files_cached, write_search_cache
from generator.pages.search_index import Known, search_files, search_files_kept
from generator.pages.sitemap import hand_written_pages, page_paths, render_sitemaps
from generator.pages.trends import render_trends
from generator.pages.write import write_tree
from generator.seeds.parse import abstract_texts, parse_all
from generator.seeds.parsed import Checked, parsed_path, read_parsed, write_parsed
from generator.seeds.read import describe_dates, display_path, read_seeds, seed_dates, seed_paths
from generator.seeds.venues import check_venues
from generator.site.config import site_repository, site_url

log = logging.getLogger(__name__)
R = TypeVar("R")


def derive(
    papers: Sequence[Paper],
    topics: Sequence[Topic],
    curation: curate.Curation | None = None,
    early: Pending | None = None,
    known: Mapping[str, Entry] | None = None,
    published: Sequence[PublishedPaper] = (),
) -> Digest:
    """From parsed abstracts to the finished digest: dedupe, curate, title, tag."""
    return derive_all(papers, topics, curation, early, known, published=published)[0]


def derive_all(
    papers: Sequence[Paper],
    topics: Sequence[Topic],
    curation: curate.Curation | None = None,
    early: Pending | None = None,
    known: Mapping[str, Entry] | None = None,
    duplicates: Background | _Duplicates | None = None,
    published: Sequence[PublishedPaper] = (),
    published_texts: Mapping[str, Sequence[str]] | None = None,
    reused: Mapping[str, Entry] | None = None,
) -> tuple[Digest, dict[str, Derived]]:
    """:func:`derive`, and what was derived from each text (for the cache).

    Tags and each abstract's preferred title depend on its text alone, so workers
    compute them while this process deduplicates; ``early`` is such work already
    started from the seed bytes (:func:`start_early`). ``known`` holds what an earlier
    build derived, by :func:`generator.derive.cache.text_key`: those texts are not derived
    again. Making titles unique needs all of them, and is done after, in order.
    ``duplicates`` is the near duplicates found from the seed bytes (:func:`start_early`).
    ``published`` is what was published before (:mod:`generator.derive.published`): those papers
    keep their ids, and ``published_texts`` adds, by id, texts each was submitted as.
    ``reused`` is, by text, the entries of ``known`` already checked (:func:`reused_entries`).
    """
    check_venues(papers)
    known = known or {}
    pending = early or Pending(partial(_tag_and_title, topics=topics), _unknown([p.text for p in papers], known))
    merged = deduplicate(papers, duplicates.result() if duplicates is not None else None,
                         anchors(published, curation, published_texts), edits_in_place(published, papers))
    if curation is not None:
        merged = curate.apply_curation(merged, curation, topics)
    derived = {d.text: d for d in pending.result()}
    for p in papers:
        if p.text not in derived and (entry := (reused.get(p.text) if reused is not None
                                                else reusable(known, p.text))) is not None:
            derived[p.text] = Derived(p.text, *entry)
    missing = [p.text for p in papers if p.text not in derived]
    if missing:  # not expected: the workers read the same texts; but never guess
        derived.update((d.text, d) for d in _tag_and_title(missing, topics))
    tagged = [
        p if "tags" in p.curated else changed(p, tags=derived[p.text].tags, tag_evidence=derived[p.text].evidence)
        for p in merged
    ]
    first = {text: d.title for text, d in derived.items()}
    others = {text: d.others for text, d in derived.items() if d.others is not None}
    titled, others = title_all(tagged, mapper=map_chunks, first=first, others=others)
    for text, alternatives in others.items():
        if text in derived:
            derived[text] = replace(derived[text], others=tuple(alternatives))
    return Digest(titled, topics), derived


@dataclass(frozen=True)
class Derived:
    """What a worker derives from one abstract's text alone: only this travels back."""

    text: str
    tags: tuple[str, ...]
    evidence: tuple
    title: str  # the preferred title, before titles are made unique
    others: tuple[str, ...] | None = None  # every title, best first, once another paper held the preferred one

    def entry(self) -> Entry:
        return self.tags, self.evidence, self.title, self.others


def reused_entries(texts: Sequence[str], known: Mapping[str, Entry]) -> dict[str, Entry]:
    """By text, the entries of ``known`` that may be used for ``texts`` (each checked once:
    :func:`generator.derive.cache.reusable`)."""
    return {t: entry for t in dict.fromkeys(texts) if (entry := reusable(known, t)) is not None} if known else {}


def _unknown(texts: Sequence[str], known: Mapping[str, Entry]) -> list[str]:
    reused = reused_entries(texts, known)
    return [t for t in texts if t not in reused]


def _tag_and_title(texts: Sequence[str], topics: Sequence[Topic]) -> list[Derived]:
    """The tags, their evidence and the preferred title of each abstract."""
    return [Derived(t, tags, evidence, title) for t, (tags, evidence), title in zip(texts, tag_texts(texts, topics), first_titles(texts))]


# Below this much seed text, starting workers before parsing costs more than it saves
# (about 400 abstracts).
EARLY_BYTES = 400_000


def _tag_and_title_shares(shares: Sequence[int], seeds: Sequence[tuple[str, bytes]], total: int,
                          topics: Sequence[Topic], known: Mapping[str, Entry]) -> list[Derived]:
    """:func:`_tag_and_title` for some of ``total`` equal runs of the seeds' abstracts not in ``known``."""
    texts = _unknown([t for path, data in seeds for t in abstract_texts(data, path)], known)
    parts = split(texts, total)
    return [r for share in shares for r in _tag_and_title(parts[share], topics)]


def start_early(seeds: Sequence[tuple[str, bytes]], topics: Sequence[Topic],
                known: Mapping[str, Entry] | None = None,
                anchored: frozenset[str] = frozenset()) -> tuple[Pending, _Duplicates | None]:
    """Tag and title in worker processes straight from the seed bytes, while this process
    parses and validates them: on two cores the parse no longer runs alone. Texts in
    ``known`` are skipped. With them, a worker of its own finds the near duplicates
    (:func:`generator.derive.dedupe.duplicate_pairs`), which need the texts alone: in a warm
    build, where little is left to tag and title, that is most of deduplication done on
    the core the parse leaves idle (``anchored``: the ids of the papers known before,
    :func:`generator.derive.dedupe.anchored_ids`). If the seeds turn out to be invalid, the
    caller cancels both."""
    shares = list(range(workers()))
    big = sum(len(data) for _, data in seeds) >= EARLY_BYTES
    tagging = Pending(partial(_tag_and_title_shares, seeds=seeds, total=len(shares), topics=topics, known=known or {}),
                      shares, worth_it=big)
    duplicates = (_Duplicates(Background(partial(_duplicates_in, seeds, anchored), worth_it=True))
                  if big and workers() > 1 else None)
    return tagging, duplicates


def _duplicates_in(seeds: Sequence[tuple[str, bytes]], anchored: frozenset[str]) -> tuple[list, dict[str, list[int]]]:
    return _duplicates_of([t for path, data in seeds for t in abstract_texts(data, path)], anchored, {})


def _duplicates_of(texts: Sequence[str], anchored: frozenset[str],
                   known: Mapping[str, Sequence[int]], ids: Sequence[str] | None = None) -> tuple[list, dict[str, list[int]]]:
    sketches: dict[str, list[int]] = {}
    return duplicate_pairs(texts, anchored, known, keep=sketches, text_ids=ids), sketches


class _Duplicates:
    """The near duplicates found in a worker (:func:`_duplicates_in`) or here, and the sketches
    made on the way, kept for the next build (:mod:`generator.derive.sketches`)."""

    def __init__(self, work: Background) -> None:
        self.work = work
        self.sketches: dict[str, list[int]] = {}

    def result(self) -> list[tuple[str, str]]:
        pairs, self.sketches = self.work.result()
        return pairs

    def cancel(self) -> None:
        self.work.cancel()


@dataclass
class BuildResult:
    digest: Digest
    seed_files: int
    written: int
    removed: int
    seconds: float


class _Stopwatch:
    """Seconds per stage, logged with --debug: where a slow build spends its time."""

    def __init__(self) -> None:
        self.start = self.last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        log.debug("  %-8s %6.2fs", stage, now - self.last)
        self.last = now

    @property
    def total(self) -> float:
        return time.perf_counter() - self.start


def _read_taxonomy(path: Path | None) -> bytes:
    """The taxonomy's bytes, for the cache's fingerprint (the shipped one is in the generator's own)."""
    return path.read_bytes() if path is not None else b""


def _index_kept(papers: Sequence[Paper], topics: Sequence[Topic], path: Path, stamp: str) -> dict[str, bytes | str]:
    """The search index of a one-shot build, in its worker: what the last build kept of each
    paper is read there, and what the next build is to find written there (its entries are
    keyed by what they are made of, so they are true whether or not this build completes; sent
    back to this process, the shards a new seed file rewrites raised its peak memory by 80 MB)."""
    files, shards = search_files_cached(papers, topics, read_search_cache(path, stamp), stamp)
    if shards:
        write_search_cache(path, shards)
    return files


def _read_now(fn: Callable[..., R], *args: object) -> R:
    return fn(*args)


def build(seed_dirs: Sequence[Path], docs: Path, taxonomy: Path | None = None,
          cache: Path | None = None, warm: Warm | None = None) -> BuildResult:
    """Generate the digest's pages from the seed folders into ``docs``; with ``cache``, reuse
    and then keep there the titles and tags derived from each text (:mod:`generator.derive.cache`).
    ``warm`` (a long-lived builder's, :mod:`generator.core.warm`) answers the reads of the kept
    state and of the previous build's outputs from memory while their files are unchanged."""
    watch = _Stopwatch()
    # each paper's JSON and keys as the last build made them, where the paper is the same (kept by
    # a long-lived builder only)
    next_build(store=warm is not None)
    read = warm.read if warm is not None else _read_now
    # The inputs' hash before they are read: an input edited during the build then makes
    # the next build's differ, never the reverse.
    key = ""
    if cache is not None:
        try:
            key = input_key(list(seed_dirs), taxonomy)
        except (GeneratorError, OSError, ValueError):
            pass  # the stages below say what is wrong with the inputs; no manifest vouches for them
    topics = read(load_taxonomy, taxonomy)
    curation = curate.find_curation(seed_dirs)
    paths = seed_paths(seed_dirs)
    seeds = read_seeds(paths)
    if not seeds:
        raise SeedError("no seed files (*.txt) found", ", ".join(display_path(d) for d in seed_dirs))
    stamp = fingerprint(_read_taxonomy(taxonomy)) if cache is not None else ""
    known = read(read_cache, cache, stamp, topics) if cache is not None else {}
    checked = read_parsed(parsed_path(cache), stamp, seeds) if cache is not None else Checked()
    published = read(read_previous_papers, docs)
    watch.lap("read")
    cached: dict[str, Entry] | None = None  # the derive cache's entries, each checked once
    sketched: Sketches = Sketches()
    if sum(len(data) for path, data in seeds if (path, data) not in checked) < EARLY_BYTES:
        # A rebuild: the few files that changed are parsed before anything else, and only
        # their new abstracts are derived (no worker is worth starting for them).
        papers = parse_all(seeds, checked, checked.ids)
        watch.lap("parse")
        cached = reused_entries([p.text for p in papers], known)
        new_texts = list(dict.fromkeys(p.text for p in papers if p.text not in cached))
        early = Pending(partial(_tag_and_title, topics=topics), new_texts)
        # the sketches of the texts seen before are kept: only the new ones are read
        sketched = read(read_sketches, sketches_path(cache), stamp) if cache is not None else Sketches()
        duplicates = _Duplicates(Background(partial(_duplicates_of, [p.text for p in papers],
                                                    anchored_ids(anchors(published, curation)), sketched,
                                                    [p.id for p in papers]),
                                            worth_it=False))
    else:
        early, duplicates = start_early(seeds, topics, known, anchored_ids(anchors(published, curation)))
        papers = None
    try:
        if papers is None:
            papers = parse_all(seeds, checked, checked.ids)
            watch.lap("parse")
        # derive refuses venues written two ways and unknown curation ids: then the
        # workers' tags and titles are not needed either.
        digest, derived = derive_all(papers, topics, curation, early, known, duplicates, published, reused=cached)
    except GeneratorError:
        early.cancel()
        if duplicates is not None:
            duplicates.cancel()
        raise
    from_cache = sum(text_key(t) in known for t in derived)
    log.debug("derived: %d of %d texts from the cache", from_cache, len(derived))
    if known and (refused := from_cache - (len(cached) if cached is not None else sum(
            reusable(known, t) is not None for t in derived if text_key(t) in known))):
        log.info("%s: %d cached title(s) or evidence not made of their abstract: derived again",
                 display_path(cache), refused)
    watch.lap("derive")
    # the previous build's papers (their texts: 40 MB at 20,000 papers) are not needed past here;
    # held to the end, they made the peak of a build that has the last docs/ but no cache
    del published
    give_back()  # before the search index's and the map's workers fork
    # The search index and the map need the titled papers alone, not their related papers:
    # each is made in a worker from here on, beside related papers and the pages. The map's
    # layout from scratch takes longest of all (see handbook/performance.md, "The map's layout").
    visible = digest.visible()
    big = len(visible) >= 400
    # a long-lived builder keeps each paper's words and result for the next build
    indexed, known_words = visible, warm.made.get("search", Known()) if warm is not None else None
    # a one-shot build keeps them on disk (:mod:`generator.pages.search_cache`)
    indexing = Background(partial(search_files_kept, visible, digest.topics, known_words) if known_words is not None
                          else partial(_index_kept, visible, digest.topics, search_cache_path(cache), stamp)
                          if cache is not None else partial(search_files, visible, digest.topics), worth_it=big)
    previous, span = read(explore.read_previous_map, docs)
    placed = read(read_placed, placed_path(cache), docs / explore.MAP_JSON) if cache is not None and previous else None
    new = sum(p.id not in previous for p in visible)
    # A few new papers are placed beside their related papers on the map as it is, once
    # those are known; more, and the map is laid out again in a worker from here on.
    laying = None if placing(new, placed, len(previous)) else Background(partial(layout, visible, previous, span),
                                                                         worth_it=big)
    # A paper's row of terms depends on its text and tags alone: only new or changed
    # abstracts are tokenised (:mod:`generator.derive.related_cache`).
    rows = read(read_rows, related_path(cache), stamp) if cache is not None else Rows([], {})
    reused = Rows(rows.terms, {k: rows.rows[k] for k in map(row_key, visible) if k in rows.rows}, rows.lists)
    try:
        digest, made = add_related_rows(digest, reused, mapper=map_chunks)
    except BaseException:
        indexing.cancel()
        if laying is not None:
            laying.cancel()
        raise
    log.debug("related papers: %d of %d rows from the cache", len(reused.rows), len(made.rows))
    watch.lap("related")
    give_back()  # before the page workers fork: they would start with it
    visible = digest.visible()
    dates, how = seed_dates(paths)
    log.info("%s", describe_dates(dates, how, len(paths)))
    address = site_url()
    if not address:
        log.info("no site_url (mkdocs.yml reads it from SITE_URL): no sitemaps, canonical links, og:url or og:image, "
                 "and the feeds link relatively")
    repo = site_repository()
    # A paper page whose inputs are what they were when the page on disk was written is not
    # rendered again: one new abstract renders its own page and the few that list it.
    page_keys = paper_page_keys(digest, repo, address) if cache is not None else {}
    unchanged = unchanged_pages(docs, page_keys, read(read_pages, pages_path(cache), stamp)) if cache is not None else set()
    kept = {f"papers/{pid}.md" for pid in unchanged}
    log.debug("paper pages: %d of %d as they were", len(unchanged), len(page_keys))
    # Listings whose papers are what they were are not rendered, gzip members of papers.json.gz
    # whose papers are the same are not compressed, and files whose bytes are the same are not
    # read to find so (:mod:`generator.pages.kept`).
    left = read(read_kept, kept_path(cache), stamp) if cache is not None else Kept()
    listings = listings_of(digest, dates, keyed=cache is not None)  # each paper's date and part of the keys, made once
    lists = listing_keys(digest, listings=listings) if cache is not None else {}
    # the feeds alike: one new paper changes its topics' feeds and the digest's
    planned = plan_feeds(visible, digest.topics, dates)
    lists.update((f"feed:{path}", key) for path, key in (feed_keys(planned, digest.topics, address).items()
                                                          if cache is not None else ()))
    same_listings = left.unchanged_listings(docs, lists)
    # A listing whose papers changed is looked at page by page: one new paper changes the page
    # it lands on and its orders' first pages (:func:`generator.pages.render.paged`). The pages
    # of a listing that is the same are kept as the last build recorded them.
    pages = listing_page_keys(digest, [name for name in lists if name not in same_listings and not name.startswith("feed:")],
                              listings=listings) if cache is not None else {}
    same_pages = left.unchanged_listings(docs, pages)
    log.debug("pages of the listings that changed: %d of %d as they were", len(same_pages), len(pages))
    carried = left.pages_of(same_listings)
    for same in (same_listings, same_pages):
        kept.update(rel for rels in same.values() for rel in rels)
    members = left.previous_members(docs)
    # each paper's JSON in papers.json alike, by its page key (a long-lived builder keeps them in memory)
    as_json = left.previous_entries(docs, page_keys) if cache is not None and warm is None else {}
    log.debug("papers.json: %d of %d papers as they were", len(as_json), len(page_keys))
    log.debug("listings and feeds: %d of %d as they were; papers.json.gz: %d member(s) to reuse",
              len(same_listings), len(lists), len(members))
    try:
        # The pages come back in pieces of about 600 at 20,000 papers: a worker's half whole was
        # 73 MB pickled and as much again unpickled at once, the main process's peak (issue 31).
        files = render_site(digest, seed_files=len(seeds), start=partial(Pending, pieces=16), added=dates, repo=repo,
                            site_url=address, unchanged=unchanged, same_listings=set(same_listings) | set(same_pages),
                            members=members, entries=as_json, listings=listings)
    except GeneratorError:
        if laying is not None:
            laying.cancel()
        indexing.cancel()
        raise
    files.update(render_feeds(visible, digest.topics, dates, address,
                              same={name.removeprefix("feed:") for name in same_listings if name.startswith("feed:")},
                              planned=planned))
    files.update(render_trends(compute_trends(digest)))
    if warm is None:  # a one-shot build: each paper's JSON and keys are asked for once, not kept
        next_build(keep=False)
    watch.lap("render")
    give_back()
    if known_words is not None:
        index_files, learned = indexing.result()
        warm.made["search"] = known_words.after(indexed, digest.topics, learned)  # type: ignore[union-attr]
        files.update(index_files)
    else:
        files.update(indexing.result())
    watch.lap("index")
    if laying is None:
        shown = digest.visible()
        coordinates = {p.id: previous[p.id] for p in shown if p.id in previous}
        coordinates.update(place({p.id: p.related for p in shown if p.id not in previous}, previous))
        info = LayoutInfo(len(shown), len(shown) - new, "placed on the previous map", span)
        placed += new
        log.info("map: %d new paper(s) placed beside their related papers; %d placed since the last full layout "
                 "(it is laid out again past %d)", new, placed, int(PLACE_SHARE * len(previous)))
    else:
        coordinates, info = laying.result()
        if info.method != "previous map":
            placed = 0
            if previous:
                log.info("map: laid out again in full (%s), %d new paper(s)", info.method, new)
    files.update(explore.render_explore(digest, coordinates, info.span))
    log.debug("map: %d papers, by %s; %d started from their previous place", info.papers, info.method, info.continued)
    watch.lap("layout")
    aliases = {f"papers/{alias}.md" for p in visible for alias in p.aliases}
    files.update(render_sitemaps(page_paths([*files, *kept, *hand_written_pages(docs)], aliases), address))
    if cache is not None:
        forget(manifest_path(cache))
        forget(pages_path(cache))  # until it says what this write left
        forget_kept(kept_path(cache))
    states = dict(left.files) if cache is not None else None  # the write updates it: not what was read
    written, removed = write_tree(docs, files, kept, states)
    if cache is not None:
        entries = {text_key(t): d.entry() for t, d in derived.items()}
        if entries != known:  # a rebuild of the same texts leaves the cache as it is (1 s at 50,000)
            write_cache(cache, stamp, entries, known)
        if duplicates is not None and duplicates.sketches and duplicates.sketches != sketched:
            write_sketches(sketches_path(cache), stamp, duplicates.sketches, sketched)
        if len(checked) != len(seeds) or checked.held != len(seeds):  # a file parsed in full, or one gone
            write_parsed(parsed_path(cache), stamp, seeds, papers)
        write_placed(placed_path(cache), files[explore.MAP_JSON], placed)
        if (len(reused.rows) != len(made.rows) or len(rows.rows) != len(made.rows)
                or made.lists != rows.lists):  # all rows and lists as they were: left as they are
            write_rows(related_path(cache), stamp, made, rows)
        write_pages(pages_path(cache), stamp, docs, page_keys)
        kept_pages: dict[str, list[str]] = {}  # a listing -> its pages kept as they were
        for name, rels in same_pages.items():
            kept_pages.setdefault(name.partition("#")[0], []).extend(rels)
        write_kept(kept_path(cache), stamp, Kept(
            states, {**{name: (key, same_listings[name] if name in same_listings
                               else sorted(listing_files(files, name) + kept_pages.get(name, [])))
                        for name, key in lists.items()},
                     **{name: (key, same_pages[name] if name in same_pages else listing_files(files, name))
                        for name, key in pages.items()},
                     **carried},
            [(h, at, n) for h, (at, n) in members.items()],
            {pid: (page_keys[pid], at, n) for pid, (at, n) in as_json.items() if pid in page_keys}))
        if key:
            write_manifest(manifest_path(cache), Manifest(key, docs_state(docs), len(digest),
                                                          sum(p.merged for p in digest), len(seeds)))
    watch.lap("write")
    return BuildResult(digest, len(seeds), written, removed, watch.total)
