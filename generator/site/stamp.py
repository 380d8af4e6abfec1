"""The site step: ``mkdocs build`` for the pages that differ, one frame for the many that don't.

Every paper page is the same Material page around four strings of its front matter (the
title and description Material prints in the head, its structured data ``jsonld``, and
``body``, all the page shows) and its own address; every
listing page (topics, venues, all papers: their templates print nothing else) the same
around its title and body, and a topic's feed; every alias page the same redirect around a
location. Rendering them through Material's templates was nine tenths of ``mkdocs build``
at 3,300 papers (about 4 ms a page). So ``python -m generator site``

1. runs ``mkdocs build --strict`` with the project's own mkdocs.yml (read through
   ``INHERIT``), changed in one option: ``exclude_docs`` leaves out the pages of
   :data:`STAMPED` and the files of :data:`PLACED`, and takes in the *frame* pages of :data:`FRAMES`
   (:func:`generator.pages.render.render_frames`), whose printed strings are markers;
2. splits each rendered frame at its markers and fills them in, for every page the frame
   stands for (same template, same depth, the same strings printed), with that page's own
   strings, and writes the page compacted (:mod:`generator.site.compact`);
3. links the search index's files (:data:`PLACED`, one a paper) into the site, which MkDocs
   would copy one by one;
4. compacts the pages MkDocs wrote.

All or nothing: the site is built beside ``site/``, in ``.site.building-<pid>``, and
renamed into its place once it is whole (:func:`build_site`, :func:`_swap`): a failed or
interrupted step leaves the last site as it was, and the next removes what it left, while
MkDocs runs (:func:`_clear_leftovers`).

A plain ``mkdocs build`` (and ``mkdocs serve``) still renders every page itself, and the
frames are excluded there: ``tests/test_stamp.py`` builds the same sites both ways and finds
every file the same.

    python -m generator site [--config mkdocs.yml]
"""
from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import yaml

from generator.core import outputs
from generator.core.errors import GeneratorError
from generator.core.parallel import map_chunks
from generator.site.compact import compact_html, compact_site, inert, splits_cleanly
from generator.site.config import mkdocs_config

log = logging.getLogger("generator")

# The folders whose pages are stamped: every page in them but their own index.md, and
# the frames (whose names, and only theirs, start with "_").
STAMPED = outputs.STAMPED
# The frame pages, by path in docs/: the template and the front-matter strings it prints.
# A frame stands for the pages of its template in its folder at its depth (the relative
# links of Material's navigation depend on both: paper pages are papers/<id>/, a topic's
# later pages topics/<slug>/title-2/) that have those strings: a topic's listing has a
# feed, a venue's does not.
_LISTING = ("title", "body")
_FEED = ("title", "body", "feed", "feed_title")
FRAMES = {
    "papers/_frame.md": ("paper.html", ("title", "description", "jsonld", "body")),
    "papers/_alias.md": ("redirect.html", ("location",)),
    "topics/_frame.md": ("listing.html", _FEED),
    "topics/_deep/_frame.md": ("listing.html", _FEED),
    "venues/_frame.md": ("listing.html", _LISTING),
    "venues/_deep/_frame.md": ("listing.html", _LISTING),
    "list/_frame.md": ("listing.html", _LISTING),
}
# Every string each template may print: a page with one its frames do not hold has no frame.
PRINTED = {template: set() for template, _ in FRAMES.values()}
for _template, _slots in FRAMES.values():
    PRINTED[_template].update(_slots)
PRINTED["listing.html"].update(("description", "map"))
PRINTED["paper.html"].update(("feed", "feed_title", "map"))
# Generated static files MkDocs need not copy one by one (one a paper: at 3,300 papers, copying
# the search index was most of the frame build): the site step links them into the site.
PLACED = ("search",)
_URL = "url"  # the slot that is the page's own URL (in its canonical link and og:url)


def slot(name: str) -> str:
    """The marker a frame page holds in place of the string ``name``: letters, digits and
    signs that neither Jinja's ``e`` nor Material changes, and no seed text can reach (a
    frame's strings are markers only; the pages' own strings are put in after the split)."""
    return f"@@digest-slot-{name}@@"


@dataclass(frozen=True)
class Frame:
    """A rendered frame page cut at its markers: literal text and slot names, alternating."""

    template: str
    constant: dict[str, str]  # the front matter every page of the template shares (template, search), as text
    pieces: tuple[str, ...]  # literal, slot, literal, slot, ..., literal
    compacted: tuple[str, ...] | None = None  # the same, cut from the compacted frame, when that is exact

    def fill(self, values: dict[str, str]) -> str:
        return "".join(p if i % 2 == 0 else values[p] for i, p in enumerate(self.pieces))

    def page(self, values: dict[str, str]) -> str:
        """The compacted page: the compacted frame with the values put in, when each is inert
        (:func:`generator.site.compact.inert`: then that is the same), or else the filled frame compacted."""
        if self.compacted is not None and all(inert(v) for v in values.values()):
            return "".join(p if i % 2 == 0 else values[p] for i, p in enumerate(self.compacted))
        return compact_html(self.fill(values))


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _head(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n") or (end := text.find("\n---\n", 3)) < 0:
        raise GeneratorError("has no front matter: it is not a page the generator wrote", str(path))
    return text[4:end]


def _yaml(text: str, path: Path) -> dict:
    try:
        data = yaml.load(text, Loader=_LOADER)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as e:
        raise GeneratorError(f"front matter is not YAML: {e}", str(path)) from None
    if not isinstance(data, dict):
        raise GeneratorError("front matter is not a mapping", str(path))
    return data


def entries(head: str) -> dict[str, str]:
    """A front matter's top-level entries as text, by key: each from its key's line to the
    next line that starts a key (the continuation lines of a block are indented)."""
    out: dict[str, str] = {}
    key = None
    for line in head.split("\n"):
        if line[:1].isalpha() or line[:1] == "_":
            key = line.split(":", 1)[0]
            out[key] = line
        elif key is not None:
            out[key] += "\n" + line
    return out


def entry_value(entry: str, path: Path):
    """The value of one top-level entry. The generator writes each value as JSON on one
    line, which reads the same as JSON (in C) as it does as YAML (double-quoted scalars,
    flow collections); anything else is read as YAML. Reading whole front matters with
    libyaml was most of the stamping's time (0.3 ms a page, mostly building the topics and
    sources no template reads)."""
    value = entry.split(":", 1)[1].lstrip(" ")
    if value[:1] in ('"', "[", "{") and "\n" not in value:
        try:
            return json.loads(value)
        except ValueError:
            pass
    return next(iter(_yaml(entry, path).values()), None)


def url_of(rel: str) -> str:
    """The directory URL of the page at ``rel`` in docs/ (``topics/rl.md``: ``topics/rl/``)."""
    stem = rel[: -len(".md")]
    return "" if stem == "index" else stem[: -len("/index")] + "/" if stem.endswith("/index") else stem + "/"


def _depth(url: str) -> int:
    return url.count("/")


@dataclass(frozen=True)
class FrameKey:
    """What a frame stands for: pages of one template, folder and depth, printing these strings."""

    template: str
    folder: str
    depth: int
    slots: frozenset[str]


def cut_frame(rel: str, head: str, html: str) -> tuple[FrameKey, Frame]:
    """Split ``html`` (MkDocs' page for the frame at ``rel``, whose front matter is ``head``)
    at the markers its front matter holds, and its own URL."""
    template, slots = FRAMES[rel]
    raw = entries(head)
    meta = _yaml(head, Path(rel))
    names = [k for k, v in meta.items() if v == slot(k)]
    own = url_of(rel)
    marks = {slot(k): k for k in names} | {own: _URL}
    cut = re.compile("(" + "|".join(map(re.escape, marks)) + ")")
    pieces = [p if i % 2 == 0 else marks[p] for i, p in enumerate(cut.split(html))]
    # Compacting every page is most of the stamping's time; where the markers sit in plain
    # laid-out text, compacting the frame once is the same (generator.site.compact.splits_cleanly).
    compacted = None
    if splits_cleanly(html, [m.span() for m in cut.finditer(html)]):
        compacted = [p if i % 2 == 0 else marks[p] for i, p in enumerate(cut.split(compact_html(html)))]
        compacted = tuple(compacted) if compacted[1::2] == pieces[1::2] else None
    missing = set(names) - set(pieces[1::2])
    if missing:
        raise GeneratorError(f"the {template} template no longer prints {', '.join(sorted(missing))}: "
                             "generator.site.stamp.FRAMES must say what it prints", rel)
    frame = Frame(template, {k: raw[k] for k in meta if k not in names}, tuple(pieces), compacted)
    return FrameKey(template, rel.split("/")[0], _depth(own), frozenset(slots)), frame


def read_frames(docs: Path, site: Path) -> dict[FrameKey, Frame]:
    frames = {}
    for rel in FRAMES:
        built = site / url_of(rel) / "index.html"
        if not built.is_file():
            raise GeneratorError(f"MkDocs wrote no frame page {built}: run `python -m generator build` first", rel)
        key, frame = cut_frame(rel, _head(docs / rel), built.read_text(encoding="utf-8"))
        frames[key] = frame
    return frames


def stamped_pages(docs: Path) -> list[str]:
    """The pages of :data:`STAMPED` in docs/, as paths relative to it."""
    out = []
    for folder in STAMPED:
        for path in (docs / folder).rglob("*.md"):
            rel = path.relative_to(docs).as_posix()
            if rel != f"{folder}/index.md" and not any(part.startswith("_") for part in rel.split("/")):
                out.append(rel)
    return sorted(out)


def stamp_page(frames: dict[FrameKey, Frame], docs: Path, rel: str) -> str:
    """The built HTML of the generated page ``rel``, from its frame."""
    path = docs / rel
    raw = entries(_head(path))
    template = entry_value(raw["template"], path) if "template" in raw else None
    if template not in PRINTED:
        raise GeneratorError(f"template {template!r} has no frame page: only {', '.join(sorted(PRINTED))} "
                             f"pages can be in {', '.join(f'{d}/' for d in STAMPED)}", str(path))
    url = url_of(rel)
    key = FrameKey(template, rel.split("/")[0], _depth(url), frozenset(k for k in PRINTED[template] if k in raw))
    frame = frames.get(key)
    if frame is None:
        raise GeneratorError(f"no frame page stands for a {template} page at {url} with {', '.join(sorted(key.slots))}: "
                             "generator.site.stamp.FRAMES needs one", str(path))
    for name, text in frame.constant.items():
        # the same text is the same value; other text may still be (written by hand)
        if raw.get(name) != text and (name not in raw or entry_value(raw[name], path) != entry_value(text, path)):
            raise GeneratorError(f"its {name!r} differs from the {frame.template} frame's, so the frame cannot stand for it", str(path))
    values = {_URL: url}
    for name in key.slots:
        value = entry_value(raw[name], path)
        if not isinstance(value, str):
            raise GeneratorError(f"its {name!r} is not a string", str(path))
        values[name] = value
    return frame.page(values)


def _stamp_chunk(rels: Sequence[str], frames: dict[FrameKey, Frame], docs: Path, site: Path) -> list[str]:
    written = []
    for rel in rels:
        html = stamp_page(frames, docs, rel).encode("utf-8")
        out = os.path.join(site, url_of(rel), "index.html")
        os.makedirs(os.path.dirname(out), exist_ok=True)  # os rather than pathlib: a tenth of the time here
        with open(out, "wb") as f:
            f.write(html)
        written.append(out)
    return written


def stamp_site(docs: Path, site: Path) -> list[str]:
    """Write every page of :data:`STAMPED` in ``docs`` into ``site`` from the frames MkDocs
    rendered, on both cores (:func:`generator.core.parallel.map_chunks`), then remove the
    frames. Returns the files written. (The sitemaps are the generator's, in docs/:
    :mod:`generator.pages.sitemap`.)"""
    frames = read_frames(docs, site)
    rels = stamped_pages(docs)
    written = map_chunks(partial(_stamp_chunk, frames=frames, docs=docs, site=site), rels)
    for rel in FRAMES:
        shutil.rmtree(site / url_of(rel))
    for folder in STAMPED:  # the folders of the deeper frames, now empty
        for path in (site / folder).glob("_*"):
            path.rmdir()
    return written


def _place_chunk(rels: Sequence[str], docs: Path, site: Path) -> list[str]:
    for rel in rels:
        target = site / rel
        os.makedirs(target.parent, exist_ok=True)
        try:
            os.link(docs / rel, target)  # the same bytes, no copy; the site step never writes into them
        except OSError:
            shutil.copyfile(docs / rel, target)  # another file system, or one without links
    return list(rels)


def place_files(docs: Path, site: Path) -> int:
    """Put the files of :data:`PLACED` into the site as MkDocs would copy them: the same
    path, the same bytes. Returns how many."""
    rels = sorted(p.relative_to(docs).as_posix() for folder in PLACED for p in (docs / folder).rglob("*") if p.is_file())
    return len(map_chunks(partial(_place_chunk, docs=docs, site=site), rels))


def mkdocs_pages(site: Path) -> list[Path]:
    """The pages MkDocs wrote, once the stamped ones are in: every page outside the stamped
    folders, and their own index pages (all else in them is stamped, or not a page). The
    stamped and placed folders are not walked: at 20,000 papers they are 42,000 files."""
    stamped = {site / folder for folder in (*STAMPED, *PLACED)}
    pages = [site / folder / "index.html" for folder in STAMPED if (site / folder / "index.html").is_file()]
    for here, dirs, files in os.walk(site):
        dirs[:] = [d for d in dirs if Path(here, d) not in stamped]
        pages += [Path(here, name) for name in files if name.endswith(".html")]
    return pages


def frame_config(config: Path) -> str:
    """The MkDocs config for the frame build: the project's own, with the stamped pages
    excluded and the frames taken in (later gitignore lines win)."""
    excluded = mkdocs_config(config).get("exclude_docs") or ""
    lines = [excluded.rstrip("\n")]
    for folder in STAMPED:
        lines += [f"/{folder}/**/*.md", f"!/{folder}/index.md"]  # the .md only: topics keep their feed.xml
    lines.append("!_*.md")  # the frames
    lines += [f"/{folder}/" for folder in PLACED]
    return yaml.safe_dump({"INHERIT": config.name, "exclude_docs": "\n".join(x for x in lines if x) + "\n"})


def _clear_leftovers(site: Path) -> subprocess.Popen | None:
    """Remove, in another process while MkDocs runs, what earlier site steps left beside
    ``site``: the build of one that was stopped (``.site.building-*``), and a replaced site
    whose removal was stopped (``.site.removing-*``). Returns the remover."""
    old = sorted(p for kind in ("building", "removing") for p in site.parent.glob(f".{site.name}.{kind}-*"))
    if not old:
        return None
    code = "import shutil, sys\nfor p in sys.argv[1:]: shutil.rmtree(p, ignore_errors=True)"
    return subprocess.Popen([sys.executable, "-c", code, *map(str, old)])


def _swap(new: Path, site: Path) -> None:
    """Put the finished build ``new`` in the place of ``site``, and remove the site it replaces.

    Two renames with Ctrl-C held back between them (a kill there leaves the old site beside
    a missing site/, which the next build removes); the old site is set aside whole first,
    so until the second rename ``site`` is the last build, file for file.
    """
    old = site.with_name(f".{site.name}.removing-{os.getpid()}")
    held = hasattr(signal, "pthread_sigmask")
    if held:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        had = site.exists() or site.is_symlink()
        if had:
            site.rename(old)
        try:
            new.rename(site)
        except OSError:
            if had:
                old.rename(site)
            raise
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if old.is_symlink():
        old.unlink()
    elif had:
        shutil.rmtree(old, ignore_errors=True)


def build_site(config: Path = Path("mkdocs.yml")) -> tuple[int, int]:
    """``mkdocs build --strict`` of everything but the stamped pages, then the stamped pages,
    then compaction: (pages stamped, pages compacted).

    All or nothing: the site is built beside ``site_dir`` (``.site.building-<pid>``) and
    renamed into its place only when it is whole, so a failed or interrupted step leaves
    the last site as it was (:func:`_swap`); the next one removes what this one left
    (:func:`_clear_leftovers`)."""
    data = mkdocs_config(config)
    root = config.resolve().parent
    docs = root / (data.get("docs_dir") or "docs")
    site = root / (data.get("site_dir") or "site")
    building = site.with_name(f".{site.name}.building-{os.getpid()}")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    remover = _clear_leftovers(site)
    try:
        try:
            run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "-", "-d", str(building)],
                                 input=frame_config(config), text=True, cwd=root, env=env)
        finally:
            if remover is not None:
                remover.wait()
        if run.returncode:
            raise GeneratorError("mkdocs build failed: its messages are above", str(config))
        laps = [time.perf_counter()]
        written = stamp_site(docs, building)
        place_files(docs, building)
        laps.append(time.perf_counter())
        compacted, _, _ = compact_site(building, mkdocs_pages(building))  # the stamped pages were written compact
        laps.append(time.perf_counter())
        try:
            _swap(building, site)
        except OSError as e:
            raise GeneratorError(f"cannot put the built site in place: {e.strerror} ({e.filename})", str(site)) from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    laps.append(time.perf_counter())
    for name, a, b in zip(("mkdocs", "stamp", "compact", "swap"), [start, *laps], laps):
        log.debug("  %-8s %6.2fs", name, b - a)  # the format benchmarks/site.py reads
    return len(written), compacted
