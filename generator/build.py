"""The pipeline, in the order the README describes it.

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
import os
import stat
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from pathlib import Path

import yaml

from . import curate, explore
from .cache import Entry, fingerprint, read_cache, reusable, text_key, write_cache
from .clean import extract_links
from .dedupe import deduplicate, duplicate_pairs
from .errors import CurationError, GeneratorError, SeedError, raise_all
from .feeds import render_feeds
from .layout import layout
from .model import Digest, Paper, Topic
from .parallel import Background, Pending, map_chunks, split, workers
from .parse import abstract_texts, parse_seed
from .related import add_related
from .render import Repository, render_site
from .search import search_files
from .tag import load_taxonomy, tag_texts
from .title import first_titles, title_all
from .venues import check_venues
from .write import write_tree

log = logging.getLogger(__name__)

CURATION_FILE = "curation.yml"


def display_path(path: Path) -> str:
    """How a file is named in messages and sources: relative to the working directory."""
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def seed_paths(locations: Iterable[Path]) -> list[Path]:
    """Every ``*.txt`` seed under the given folders (recursively) or the given files, sorted.

    Seeds come by pull request, so each must be a regular file inside its folder (the
    folder given, or a given file's own folder): a symbolic link out of it would
    publish (and quote in messages) a file of the machine that builds the site, and
    reading a named pipe never ends. Every such file is an error naming it.
    """
    out: set[Path] = set()
    errors: list[GeneratorError] = []
    for loc in locations:
        if loc.is_dir():
            found = [(p, loc) for p in loc.rglob("*.txt") if not p.is_dir()]
        elif loc.exists() or loc.is_symlink():
            found = [(loc, loc.parent)]
        else:
            errors.append(SeedError("no such file or folder", display_path(loc)))
            continue
        for path, folder in found:
            shown = display_path(path)
            problem = _unprintable_name(shown) or unsafe_input(path, folder)
            if problem:
                errors.append(SeedError(problem, _escaped(shown)))
            else:
                out.add(path)
    raise_all(errors)
    return sorted(out, key=lambda p: display_path(p))


def _unprintable_name(shown: str) -> str | None:
    """Why a seed's name cannot be shown as written, or None if it can.

    The name is quoted on pages, in the pull-request summary and in messages: a name that
    is not UTF-8 (git takes any bytes; Python reads them as surrogates) cannot be written
    into a page at all, a line break would start a line of the CI log of its own (a
    "::error::" workflow command), and a bidi control would show it reversed.
    """
    if shown.isprintable():
        return None
    return "the file's name is not printable text (a line break, control or bidi character, or not UTF-8): rename it"


def _escaped(shown: str) -> str:
    """A path for a message: every character that is not printable as its Python escape."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in shown)


_KINDS = {stat.S_IFIFO: "a named pipe", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
          stat.S_IFDIR: "a folder"}


def unsafe_input(path: Path, folder: Path) -> str | None:
    """Why ``path`` must not be read as input from ``folder``, or None if it may."""
    try:
        target = path.resolve(strict=True)
        inside = target.is_relative_to(folder.resolve(strict=True))
        mode = target.stat().st_mode
    except (OSError, RuntimeError):  # a link to nothing, or a loop of links
        return "cannot read the file: it is a symbolic link to nothing"
    if not inside:
        return (f"this is a symbolic link to a file outside {display_path(folder)}: "
                "put the file itself in the folder")
    if not stat.S_ISREG(mode):
        return _not_regular(mode)
    return None


def _not_regular(mode: int) -> str:
    return f"this is not a regular file but {_KINDS.get(stat.S_IFMT(mode), 'a special file')}: only plain files are read"


def read_seeds(paths: Iterable[Path]) -> list[tuple[str, bytes]]:
    """The input edge: (display path, bytes) of each seed file.

    Opened without blocking and checked on the open file, so a path that became a
    named pipe since :func:`seed_paths` listed it is refused rather than waited on.
    """
    out = []
    for p in paths:
        shown = display_path(p)
        try:
            with os.fdopen(os.open(p, os.O_RDONLY | os.O_NONBLOCK), "rb") as f:
                mode = os.fstat(f.fileno()).st_mode
                if not stat.S_ISREG(mode):
                    raise SeedError(_not_regular(mode), shown)
                out.append((shown, f.read()))
        except OSError as e:
            raise SeedError(f"cannot read the file: {e.strerror}", shown) from None
    return out


def parse_all(seeds: Sequence[tuple[str, bytes]]) -> list[Paper]:
    """Parse every seed (links extracted), collecting the problems of all files before raising.

    Serial on purpose: parsing fills the caches (normalized text, segments) that
    dedupe and render reuse, and a worker's caches would be lost with it.
    """
    papers: list[Paper] = []
    errors: list[GeneratorError] = []
    for path, data in seeds:
        try:
            papers += [replace(p, links=extract_links(p.text)) for p in parse_seed(data, path)]
        except GeneratorError as e:
            errors += getattr(e, "errors", [e])
    raise_all(errors)
    return papers


def derive(
    papers: Sequence[Paper],
    topics: Sequence[Topic],
    curation: curate.Curation | None = None,
    early: Pending | None = None,
    known: Mapping[str, Entry] | None = None,
) -> Digest:
    """From parsed abstracts to the finished digest: dedupe, curate, title, tag."""
    return derive_all(papers, topics, curation, early, known)[0]


def derive_all(
    papers: Sequence[Paper],
    topics: Sequence[Topic],
    curation: curate.Curation | None = None,
    early: Pending | None = None,
    known: Mapping[str, Entry] | None = None,
    duplicates: Background | None = None,
) -> tuple[Digest, dict[str, Derived]]:
    """:func:`derive`, and what was derived from each text (for the cache).

    Tags and each abstract's preferred title depend on its text alone, so workers
    compute them while this process deduplicates; ``early`` is such work already
    started from the seed bytes (:func:`start_early`). ``known`` holds what an earlier
    build derived, by :func:`generator.cache.text_key`: those texts are not derived
    again. Making titles unique needs all of them, and is done after, in order.
    ``duplicates`` is the near duplicates found from the seed bytes (:func:`start_early`).
    """
    check_venues(papers)
    known = known or {}
    pending = early or Pending(partial(_tag_and_title, topics=topics), _unknown([p.text for p in papers], known))
    merged = deduplicate(papers, duplicates.result() if duplicates is not None else None)
    if curation is not None:
        merged = curate.apply_curation(merged, curation, topics)
    derived = {d.text: d for d in pending.result()}
    for p in papers:
        if p.text not in derived and (entry := reusable(known, p.text)) is not None:
            derived[p.text] = Derived(p.text, *entry)
    missing = [p.text for p in papers if p.text not in derived]
    if missing:  # not expected: the workers read the same texts; but never guess
        derived.update((d.text, d) for d in _tag_and_title(missing, topics))
    tagged = [
        p if "tags" in p.curated else replace(p, tags=derived[p.text].tags, tag_evidence=derived[p.text].evidence)
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


def _unknown(texts: Sequence[str], known: Mapping[str, Entry]) -> list[str]:
    return [t for t in texts if reusable(known, t) is None] if known else list(texts)


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
                known: Mapping[str, Entry] | None = None) -> tuple[Pending, Background | None]:
    """Tag and title in worker processes straight from the seed bytes, while this process
    parses and validates them: on two cores the parse no longer runs alone. Texts in
    ``known`` are skipped. With them, a worker of its own finds the near duplicates
    (:func:`generator.dedupe.duplicate_pairs`), which need the texts alone: in a warm
    build, where little is left to tag and title, that is most of deduplication done on
    the core the parse leaves idle. If the seeds turn out to be invalid, the caller
    cancels both."""
    shares = list(range(workers()))
    big = sum(len(data) for _, data in seeds) >= EARLY_BYTES
    tagging = Pending(partial(_tag_and_title_shares, seeds=seeds, total=len(shares), topics=topics, known=known or {}),
                      shares, worth_it=big)
    duplicates = Background(partial(_duplicates_in, seeds), worth_it=True) if big and workers() > 1 else None
    return tagging, duplicates


def _duplicates_in(seeds: Sequence[tuple[str, bytes]]) -> list[tuple[str, str]]:
    return duplicate_pairs(t for path, data in seeds for t in abstract_texts(data, path))


def _git(cwd: Path, *args: str) -> str | None:
    """The output of a git command, or None when git is missing or the command fails.

    Bytes that are not UTF-8 (a file name git took, even one removed since) are read as
    U+FFFD: such a name matches no seed, where a strict read stopped every later build."""
    try:
        run = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, encoding="utf-8",
                             errors="replace")
    except OSError:
        return None
    return run.stdout if run.returncode == 0 else None


def seed_dates(paths: Sequence[Path]) -> tuple[dict[str, datetime], str]:
    """When each seed file entered the repository (committer date of the commit that added
    it, followed through renames), by display path; and what the dates came from.

    One ``git log`` over the history of the files' folders (a file's own path would
    hide the commit that added it under its old name). Without usable history (no git,
    not a checkout, a shallow clone whose first commit would look like it added every
    file) the mapping is empty, and the feeds date papers by their header's year.
    """
    if not paths:
        return {}, "no seed files"
    where = paths[0].resolve().parent
    top = _git(where, "rev-parse", "--show-toplevel")
    if top is None:
        return {}, "not a git checkout"
    if (_git(where, "rev-parse", "--is-shallow-repository") or "").strip() == "true":
        return {}, "a shallow clone (fetch the history, e.g. fetch-depth: 0)"
    root = Path(top.strip())
    shown = {}
    for p in paths:
        try:
            shown[p.resolve().relative_to(root).as_posix()] = display_path(p)
        except ValueError:  # a seed outside the checkout
            continue
    out = _git(root, "-c", "core.quotePath=false", "log", "--reverse", "--format=@%cI", "--name-status",
               "--diff-filter=AR", "--", *sorted({rel.rpartition("/")[0] or "." for rel in shown}))
    if out is None:
        return {}, "git log failed"
    added: dict[str, datetime] = {}
    when = None
    for line in out.splitlines():
        if line.startswith("@"):
            when = datetime.fromisoformat(line[1:])
        elif line and when is not None:
            status, *names = line.split("\t")
            if status.startswith("R") and len(names) == 2:
                added.setdefault(names[1], added.get(names[0], when))
            elif status == "A" and names:
                added.setdefault(names[0], when)
    dates = {shown[rel]: d for rel, d in added.items() if rel in shown}
    return dates, "git history"


def describe_dates(dates: dict[str, datetime], how: str, files: int) -> str:
    """The log line saying what the feeds' dates came from."""
    if not dates:
        return f"feed dates: January 1 of each seed file's header year ({how})"
    if len(dates) == files:
        return f"feed dates: git history, for all {files} seed file(s)"
    return (f"feed dates: git history for {len(dates)} of {files} seed file(s); "
            "the others (not committed yet) by January 1 of their header's year")


class _IgnoreTags(yaml.SafeLoader):
    """mkdocs.yml may hold tags such as !ENV or !!python/name: read as null, not an error."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)


def mkdocs_config(config: Path) -> dict:
    """The MkDocs config as plain data ({} when it cannot be read: MkDocs reports that itself)."""
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_IgnoreTags)  # noqa: S506 - a SafeLoader
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def site_url(config: Path = Path("mkdocs.yml")) -> str:
    """``site_url`` from the MkDocs config, or "" when there is none."""
    value = mkdocs_config(config).get("site_url")
    return value if isinstance(value, str) else ""


def site_repository(config: Path = Path("mkdocs.yml")) -> Repository:
    """Where the seed files live: ``extra.repository`` and ``extra.branch`` of the MkDocs config."""
    extra = mkdocs_config(config).get("extra")
    extra = extra if isinstance(extra, dict) else {}
    url, branch = extra.get("repository"), extra.get("branch")
    return Repository(url if isinstance(url, str) else "", branch if isinstance(branch, str) else "main")


@dataclass
class BuildResult:
    digest: Digest
    seed_files: int
    written: int
    removed: int
    seconds: float


def load_curation(seed_dirs: Sequence[Path]) -> curate.Curation | None:
    """The curation file of the first seed folder that has one."""
    for d in seed_dirs:
        path = d / CURATION_FILE
        if d.is_dir() and (path.exists() or path.is_symlink()):
            problem = unsafe_input(path, d)
            if problem:
                raise CurationError(problem, display_path(path))
            return curate.load_curation(path, display_path(path))
    return None


def read_previous_map(docs: Path) -> tuple[dict[str, tuple[float, float]], float]:
    """The input edge of the map: the coordinates (and span) of the previous build's map.json in ``docs``,
    where the layout starts from so that papers already on the map stay about where they were."""
    path = docs / explore.MAP_JSON
    try:
        return explore.read_previous(path.read_text(encoding="utf-8"), display_path(path))
    except FileNotFoundError:
        return {}, 0.0
    except (OSError, UnicodeDecodeError) as e:
        log.info("cannot read the previous map %s (%s): laying it out from scratch", display_path(path), e)
        return {}, 0.0


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


def build(seed_dirs: Sequence[Path], docs: Path, taxonomy: Path | None = None,
          cache: Path | None = None) -> BuildResult:
    """Generate the digest's pages from the seed folders into ``docs``; with ``cache``, reuse
    and then keep there the titles and tags derived from each text (:mod:`generator.cache`)."""
    watch = _Stopwatch()
    topics = load_taxonomy(taxonomy)
    curation = load_curation(seed_dirs)
    paths = seed_paths(seed_dirs)
    seeds = read_seeds(paths)
    if not seeds:
        raise SeedError("no seed files (*.txt) found", ", ".join(display_path(d) for d in seed_dirs))
    stamp = fingerprint(_read_taxonomy(taxonomy)) if cache is not None else ""
    known = read_cache(cache, stamp, topics) if cache is not None else {}
    watch.lap("read")
    early, duplicates = start_early(seeds, topics, known)
    try:
        papers = parse_all(seeds)
        watch.lap("parse")
        # derive refuses venues written two ways and unknown curation ids: then the
        # workers' tags and titles are not needed either.
        digest, derived = derive_all(papers, topics, curation, early, known, duplicates)
    except GeneratorError:
        early.cancel()
        if duplicates is not None:
            duplicates.cancel()
        raise
    log.debug("derived: %d of %d texts from the cache", sum(text_key(t) in known for t in derived), len(derived))
    if refused := sum(text_key(t) in known and reusable(known, t) is None for t in derived):
        log.info("%s: %d cached title(s) are not ones the title stage makes of their abstract: derived again",
                 display_path(cache), refused)
    watch.lap("derive")
    # The search index and the map need the titled papers alone, not their related papers:
    # each is made in a worker from here on, beside related papers and the pages. The map's
    # layout from scratch takes longest of all (t-SNE: 51 s at 50,000 papers, 5 s at 3,300).
    visible = digest.visible()
    big = len(visible) >= 400
    indexing = Background(partial(search_files, visible, digest.topics), worth_it=big)
    laying = Background(partial(layout, visible, *read_previous_map(docs)), worth_it=big)
    try:
        digest = add_related(digest, mapper=map_chunks)
    except BaseException:
        indexing.cancel()
        laying.cancel()
        raise
    watch.lap("related")
    visible = digest.visible()
    dates, how = seed_dates(paths)
    log.info("%s", describe_dates(dates, how, len(paths)))
    try:
        files = render_site(digest, seed_files=len(seeds), start=Pending, added=dates, repo=site_repository())
    except GeneratorError:
        laying.cancel()
        indexing.cancel()
        raise
    files.update(render_feeds(visible, digest.topics, dates, site_url()))
    watch.lap("render")
    files.update(indexing.result())
    watch.lap("index")
    coordinates, info = laying.result()
    files.update(explore.render_explore(digest, coordinates, info.span))
    log.debug("map: %d papers, by %s; %d started from their previous place", info.papers, info.method, info.continued)
    watch.lap("layout")
    written, removed = write_tree(docs, files)
    if cache is not None:
        entries = {text_key(t): d.entry() for t, d in derived.items()}
        if entries != known:  # a rebuild of the same texts leaves the cache as it is (1 s at 50,000)
            write_cache(cache, stamp, entries)
    watch.lap("write")
    return BuildResult(digest, len(seeds), written, removed, watch.total)
