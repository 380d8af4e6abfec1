"""The frames: one rendered page per kind, and every page of its kind filled into it.

Every paper page is the same Material page around four strings of its front matter (the
title and description Material prints in the head, its structured data ``jsonld``, and
``body``, all the page shows) and its own address; every listing page (topics, venues, all
papers: their templates print nothing else) the same around its title and body, and a
topic's feed; every alias page the same redirect around a location. Rendering them through
Material's templates was nine tenths of ``mkdocs build`` at 3,300 papers (about 4 ms a
page). So the site step (:mod:`generator.site.build`)

1. has ``mkdocs build --strict`` render the project with one option changed
   (:func:`frame_config`): ``exclude_docs`` leaves out the pages of :data:`STAMPED` and the
   files of :data:`PLACED`, and takes in the *frame* pages of :data:`FRAMES`
   (:func:`generator.pages.render.render_frames`), whose printed strings are markers;
2. cuts each rendered frame at its markers (:func:`cut_frame`) and fills them in, for every
   page the frame stands for (same template, same depth, the same strings printed), with
   that page's own strings, compacted (:mod:`generator.site.compact`): :func:`stamp_page`.

A plain ``mkdocs build`` (and ``mkdocs serve``) still renders every page itself, and the
frames are excluded there: ``tests/test_stamp.py`` builds the same sites both ways and finds
every file the same.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.core import outputs
from generator.core.errors import GeneratorError
from generator.site import tree
from generator.site.compact import compact_html, inert, splits_cleanly
from generator.site.config import mkdocs_config
from generator.site.tree import Sig

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
# The pages of the navigation whose body changes with the papers (counts, the newest papers, the
# map's legend), by path in docs/, with the strings that change: each is its own frame. MkDocs
# renders the page with markers for those strings (:func:`self_frame`), at its own address, so
# that the navigation marks it as the page shown, and the site step fills it in like any other:
# a new paper no longer has MkDocs run. Their other front matter (title, template) is the frame's.
SELF_FRAMED = {
    "index.md": ("body",),
    "topics/index.md": ("body",),
    "venues/index.md": ("body",),
    "list.md": ("body",),
    "map.md": ("body",),
    "trends.md": ("body",),
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


def self_frame(text: str, rel: str) -> str | None:
    """The page ``rel`` of :data:`SELF_FRAMED` (its text ``text``) as its own frame: the same
    front matter with a marker for each string that changes, or None if it holds none of them
    (a page written by hand: MkDocs renders it as it is)."""
    if not text.startswith("---\n") or (end := text.find("\n---\n", 3)) < 0:
        return None
    raw = entries(text[4:end])
    names = [name for name in SELF_FRAMED[rel] if name in raw]
    template = entry_value(raw.get("template", "template: null"), Path(rel))
    if not names or template not in PRINTED or not all(name in PRINTED[template] for name in names):
        return None  # (a template that does not print the string: MkDocs renders the page as it is)
    for name in names:
        raw[name] = f"{name}: {json.dumps(slot(name))}"
    return "---\n" + "\n".join(raw.values()) + text[end:]


def cut_frame(rel: str, head: str, html: str) -> tuple[FrameKey, Frame]:
    """Split ``html`` (MkDocs' page for the frame at ``rel``, whose front matter is ``head``)
    at the markers its front matter holds, and its own URL (a page of :data:`SELF_FRAMED`: the
    markers only; its URL is its own)."""
    own = url_of(rel)
    raw = entries(head)
    meta = _yaml(head, Path(rel))
    names = [k for k, v in meta.items() if v == slot(k)]
    if rel in SELF_FRAMED:
        template, slots = meta.get("template"), SELF_FRAMED[rel]
        marks = {slot(k): k for k in names}
    else:
        template, slots = FRAMES[rel]
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
    return _frame_key(rel, template, _depth(own), slots), frame


def _frame_key(rel: str, template: str, depth: int, slots) -> FrameKey:
    # a page of SELF_FRAMED is its own frame's only page: its path is its folder
    return FrameKey(template, rel if rel in SELF_FRAMED else rel.split("/")[0], depth, frozenset(slots))


def _frame_sources(docs: Path, selves: dict[str, Path]) -> list[tuple[str, Path]]:
    return [(rel, docs / rel) for rel in FRAMES] + sorted(selves.items())


def read_frames(docs: Path, rendered: Path, selves: dict[str, Path] | None = None) -> dict[FrameKey, Frame]:
    """The frames MkDocs rendered into ``rendered``, cut; ``selves``: the pages of
    :data:`SELF_FRAMED` that are their own frames, by path in docs/, with their frame's file."""
    frames = {}
    for rel, source in _frame_sources(docs, selves or {}):
        built = rendered / output_of(rel)
        if not built.is_file():
            raise GeneratorError(f"MkDocs wrote no frame page {built}: run `python -m generator build` first", rel)
        key, frame = cut_frame(rel, _head(source), built.read_text(encoding="utf-8"))
        frames[key] = frame
    return frames


def frames_key(docs: Path, rendered: Path, selves: dict[str, Path] | None = None) -> str:
    """A hash of the frames as rendered and their pages' front matter: a stamped page is the
    same as last time if its own page and this are."""
    h = hashlib.blake2b(digest_size=16)
    for rel, source in _frame_sources(docs, selves or {}):
        built = rendered / output_of(rel)
        try:
            h.update(rel.encode() + b"\0" + source.read_bytes() + b"\0" + built.read_bytes() + b"\0")
        except FileNotFoundError:
            raise GeneratorError(f"MkDocs wrote no frame page {built}: run `python -m generator build` first", rel) from None
    return h.hexdigest()


def is_stamped(rel: str) -> bool:
    """Whether the file ``rel`` of docs/ is a page of :data:`STAMPED` (not a folder's own
    index.md, not a frame)."""
    folder, _, rest = rel.partition("/")
    return (folder in STAMPED and rest != "index.md" and rel.endswith(".md")
            and not any(part.startswith("_") for part in rel.split("/")))


def stamp_page(frames: dict[FrameKey, Frame], docs: Path, rel: str) -> str:
    """The built HTML of the generated page ``rel``, from its frame."""
    path = docs / rel
    raw = entries(_head(path))
    template = entry_value(raw["template"], path) if "template" in raw else None
    if template not in PRINTED:
        raise GeneratorError(f"template {template!r} has no frame page: only {', '.join(sorted(PRINTED))} "
                             f"pages can be in {', '.join(f'{d}/' for d in STAMPED)}", str(path))
    url = url_of(rel)
    slots = SELF_FRAMED[rel] if rel in SELF_FRAMED else PRINTED[template]
    key = _frame_key(rel, template, _depth(url), (k for k in slots if k in raw))
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


def output_of(rel: str) -> str:
    """The site file of the stamped page ``rel`` of docs/."""
    return url_of(rel) + "index.html"


def stamp_chunk(rels: Sequence[str], frames: dict[FrameKey, Frame], docs: Path, staging: Path,
                last: Path) -> list[tuple[str, Sig, bool]]:
    """Stamp the pages ``rels`` into the staging folder: a page whose bytes are those of the
    ``last`` site's is linked to that file, any other written as a new file. Returns, for each,
    (rel, signature of the file in the staging folder, written)."""
    out = []
    for rel in rels:
        html = stamp_page(frames, docs, rel).encode("utf-8")
        target = os.path.join(staging, output_of(rel))
        old = os.path.join(last, output_of(rel))
        try:
            with open(old, "rb") as f:
                same = f.read() == html
        except OSError:
            same = False
        if same:
            tree.link(old, target)
        else:
            tree.write_new(target, html)
        out.append((rel, tree.sig(os.stat(target)), not same))
    return out


def frame_config(config: Path, docs_dir: Path | None = None) -> str:
    """The MkDocs config for the frame build: the project's own, with the stamped pages
    excluded and the frames taken in (later gitignore lines win); ``docs_dir``: read the
    pages from there instead (the site step's folder of only what MkDocs renders or copies)."""
    excluded = mkdocs_config(config).get("exclude_docs") or ""
    lines = [excluded.rstrip("\n")]
    for folder in STAMPED:
        lines += [f"/{folder}/**/*.md", f"!/{folder}/index.md"]  # the .md only: topics keep their feed.xml
    lines.append("!_*.md")  # the frames
    lines += [f"/{folder}/" for folder in PLACED]
    out = {"INHERIT": config.name, "exclude_docs": "\n".join(x for x in lines if x) + "\n"}
    if docs_dir is not None:
        out["docs_dir"] = os.fspath(docs_dir)
    return yaml.safe_dump(out)
