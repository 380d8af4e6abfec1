"""The site step: ``mkdocs build`` for the pages that differ, one frame for the many that don't.

Every paper page is the same Material page around three strings of its front matter (the
title and description Material prints in the head, and ``body``, all the page shows), and
every alias page the same redirect around a title and a location: their templates read
nothing else (``overrides/paper.html``, Material's ``redirect.html``). Rendering 3,300 of
them through Material's templates was four fifths of ``mkdocs build`` (about 4 ms a page).
So ``python -m generator site``

1. runs ``mkdocs build --strict`` with the project's own mkdocs.yml (read through
   ``INHERIT``), changed in one option: ``exclude_docs`` leaves out the paper and alias
   pages and takes in, instead, one *frame* page per template
   (:func:`generator.render.render_frames`), whose printed strings are markers;
2. splits each rendered frame at its markers and fills them in, for every page the frame
   stands for, with that page's own strings, and writes the page compacted
   (:mod:`generator.compact`); the frames' entries in sitemap.xml become the pages';
3. compacts the pages MkDocs wrote.

A plain ``mkdocs build`` (and ``mkdocs serve``) still renders every page itself, and the
frames are excluded there: ``tests/test_stamp.py`` builds the same site both ways and finds
every file the same.

    python -m generator site [--config mkdocs.yml]
"""
from __future__ import annotations

import gzip
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import yaml

from .compact import compact_html, compact_site
from .errors import GeneratorError
from .parallel import map_chunks

log = logging.getLogger("generator")

# The frame page of each stamped template, by its path in docs/.
FRAME_PAGES = {"paper.html": "papers/_paper.md", "redirect.html": "papers/_alias.md"}
STAMPED = "papers"  # the folder whose pages the frames stand for (every page in it)
_URL = "url"  # the slot that is the page's own URL (in canonical links and the sitemap)


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

    def fill(self, values: dict[str, str]) -> str:
        return "".join(p if i % 2 == 0 else values[p] for i, p in enumerate(self.pieces))


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


def front_matter(path: Path) -> dict:
    """The YAML front matter of a generated page (libyaml)."""
    return _yaml(_head(path), path)


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
    """The value of one top-level entry. The generator writes strings as JSON strings on
    one line, which read the same as JSON (in C) as they do as YAML double-quoted scalars;
    anything else is read as YAML. Reading whole front matters with libyaml was most of
    the stamping's time (0.3 ms a page, mostly building the topics and sources no template reads)."""
    value = entry.split(":", 1)[1].lstrip(" ")
    if value.startswith('"') and "\n" not in value:
        try:
            return json.loads(value)
        except ValueError:
            pass
    return next(iter(_yaml(entry, path).values()), None)


def _url(stem: str) -> str:
    return f"{STAMPED}/{stem}/"


def cut_frame(template: str, head: str, html: str, stem: str) -> Frame:
    """Split ``html`` (MkDocs' page for the frame ``stem``, whose front matter is ``head``)
    at the markers its front matter holds."""
    raw = entries(head)
    meta = _yaml(head, Path(FRAME_PAGES[template]))
    names = [k for k, v in meta.items() if v == slot(k)]
    marks = {slot(k): k for k in names} | {_url(stem): _URL}
    pieces = re.split("(" + "|".join(map(re.escape, marks)) + ")", html)
    pieces = [p if i % 2 == 0 else marks[p] for i, p in enumerate(pieces)]
    missing = set(names) - set(pieces[1::2])
    if missing:
        raise GeneratorError(f"the {template} template no longer prints {', '.join(sorted(missing))}: "
                             "generator.render.FRAME_SLOTS must say what it prints", FRAME_PAGES[template])
    return Frame(template, {k: raw[k] for k in meta if k not in names}, tuple(pieces))


def read_frames(docs: Path, site: Path) -> dict[str, Frame]:
    frames = {}
    for template, rel in FRAME_PAGES.items():
        stem = Path(rel).stem
        built = site / STAMPED / stem / "index.html"
        if not built.is_file():
            raise GeneratorError(f"MkDocs wrote no frame page {built}: run `python -m generator build` first", rel)
        frames[template] = cut_frame(template, _head(docs / rel), built.read_text(encoding="utf-8"), stem)
    return frames


def _pages(docs: Path) -> Iterator[Path]:
    frames = {Path(rel).name for rel in FRAME_PAGES.values()}
    return (p for p in sorted((docs / STAMPED).glob("*.md")) if p.name not in frames)


def stamp_page(frames: dict[str, Frame], path: Path) -> str:
    """The built HTML of the generated page ``path``, from its template's frame."""
    raw = entries(_head(path))
    template = entry_value(raw["template"], path) if "template" in raw else None
    frame = frames.get(template)
    if frame is None:
        raise GeneratorError(f"template {template!r} has no frame page: only "
                             f"{', '.join(FRAME_PAGES)} pages can be in {STAMPED}/", str(path))
    for key, text in frame.constant.items():
        # the same text is the same value; other text may still be (written by hand)
        if raw.get(key) != text and (key not in raw or entry_value(raw[key], path) != entry_value(text, path)):
            raise GeneratorError(f"its {key!r} differs from the {frame.template} frame's, so the frame cannot stand for it", str(path))
    values = {_URL: _url(path.stem)}
    for name in frame.pieces[1::2]:
        if name != _URL:
            value = entry_value(raw[name], path) if name in raw else None
            if not isinstance(value, str):
                raise GeneratorError(f"its {name!r} is not a string", str(path))
            values[name] = value
    return compact_html(frame.fill(values))


_SITEMAP_ENTRY = re.compile(r"\s*<url>\s*<loc>[^<]*</loc>.*?</url>", re.S)


def stamp_sitemap(site: Path, frame_urls: list[str], urls: list[str]) -> None:
    """Put the stamped pages in sitemap.xml (and .gz) where MkDocs listed their frames: a
    sitemap lists pages only when mkdocs.yml has a site_url. The frames sort together in
    MkDocs' order (files of a folder by name), and so do the pages that replace them."""
    path = site / "sitemap.xml"
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    spans = [m for m in _SITEMAP_ENTRY.finditer(text) if any(f"/{u}</loc>" in m.group(0) for u in frame_urls)]
    if not spans:
        return
    model = spans[0].group(0)
    own = next(u for u in frame_urls if f"/{u}</loc>" in model)
    entries = "".join(model.replace(f"/{own}</loc>", f"/{u}</loc>") for u in urls)
    text = text[: spans[0].start()] + entries + text[spans[-1].end():]
    path.write_text(text, encoding="utf-8")
    gz = site / "sitemap.xml.gz"
    if gz.is_file():
        mtime = int.from_bytes(gz.read_bytes()[4:8], "little")  # MkDocs' build date, kept
        with open(gz, "wb") as f, gzip.GzipFile(fileobj=f, filename=str(gz), mode="wb", mtime=mtime) as z:
            z.write(text.encode("utf-8"))


def _stamp_chunk(paths: Sequence[Path], frames: dict[str, Frame], site: Path) -> list[str]:
    for path in paths:
        html = stamp_page(frames, path)
        out = site / STAMPED / path.stem
        os.makedirs(out, exist_ok=True)  # os rather than pathlib: a tenth of the time here
        with open(out / "index.html", "w", encoding="utf-8") as f:
            f.write(html)
    return [path.name for path in paths]


def stamp_site(docs: Path, site: Path) -> int:
    """Write every paper and alias page of ``docs`` into ``site`` from the frames MkDocs
    rendered, on both cores (:func:`generator.parallel.map_chunks`), then remove the
    frames. Returns the number of pages written."""
    frames = read_frames(docs, site)
    names = map_chunks(partial(_stamp_chunk, frames=frames, site=site), list(_pages(docs)))
    frame_names = sorted(Path(rel).name for rel in FRAME_PAGES.values())
    stamp_sitemap(site, [_url(Path(n).stem) for n in frame_names], [_url(Path(n).stem) for n in sorted(names)])
    for rel in FRAME_PAGES.values():
        shutil.rmtree(site / STAMPED / Path(rel).stem)
    return len(names)


def _plain_yaml(config: Path) -> dict:
    class Loader(yaml.SafeLoader):
        """mkdocs.yml may hold tags such as !ENV: read as null."""

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=Loader)  # noqa: S506 - a SafeLoader
    except (OSError, yaml.YAMLError) as e:
        raise GeneratorError(f"cannot read the MkDocs config: {e}", str(config)) from None
    return data if isinstance(data, dict) else {}


def frame_config(config: Path) -> str:
    """The MkDocs config for the frame build: the project's own, with the stamped pages
    excluded and the frames taken in (later gitignore lines win)."""
    excluded = _plain_yaml(config).get("exclude_docs") or ""
    lines = [excluded.rstrip("\n"), f"/{STAMPED}/*.md", *(f"!/{rel}" for rel in FRAME_PAGES.values())]
    return yaml.safe_dump({"INHERIT": config.name, "exclude_docs": "\n".join(x for x in lines if x) + "\n"})


def build_site(config: Path = Path("mkdocs.yml")) -> tuple[int, int]:
    """``mkdocs build --strict`` of everything but the stamped pages, then the stamped pages,
    then compaction: (pages stamped, pages compacted)."""
    data = _plain_yaml(config)
    root = config.resolve().parent
    docs = root / (data.get("docs_dir") or "docs")
    site = root / (data.get("site_dir") or "site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "-"],
                         input=frame_config(config), text=True, cwd=root, env=env)
    if run.returncode:
        raise GeneratorError("mkdocs build failed: its messages are above", str(config))
    laps = [time.perf_counter()]
    stamped = stamp_site(docs, site)
    laps.append(time.perf_counter())
    compacted, _, _ = compact_site(site, skip=site / STAMPED)
    laps.append(time.perf_counter())
    for name, a, b in zip(("mkdocs", "stamp", "compact"), [start, *laps], laps):
        log.debug("  %-8s %6.2fs", name, b - a)  # the format benchmarks/site.py reads
    return stamped, compacted
