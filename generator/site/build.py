"""``python -m generator site``: docs/ into site/, writing only what changed, all or nothing.

:func:`build_site`, in order:

1. **Read docs/**: every file's name and signature (:func:`generator.site.tree.walk`), sorted
   into the stamped pages (:func:`generator.site.stamp.is_stamped`), the placed files
   (:data:`generator.site.stamp.PLACED`), the pages MkDocs renders and the static files.
2. **MkDocs' part** (:mod:`generator.site.rendered`): the kept output if MkDocs' inputs are
   unchanged, else ``mkdocs build --strict`` of the frame config.
3. **Plan** every file of the next site and where it comes from: MkDocs' kept output, a static
   or placed file of docs/ (both linked, not copied), or a stamped page. A stamped page is
   the last site's file, linked, when its page in docs/ and the frames are what they were
   when it was written (``.cache/site/site.json`` records both, and the file's signature,
   checked against site/); else it is stamped again.
4. **Nothing changed**: if every file of site/ is already what the plan says, stop here.
5. **Stage** the next site beside ``site/`` (:mod:`generator.site.tree`), in the site the last
   build replaced: a hard link for every file whose bytes are unchanged (only the names that
   differ change), a new file for each page stamped anew whose bytes differ from the last site's.
6. **Swap** it into place in one step and record it; the replaced site is kept, for the next
   build to stage in.

A build stopped at any point leaves the last site whole; the next one removes what it left.
"""
from __future__ import annotations

import json
import logging
import os
import posixpath
import re
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import unquote

from generator.core.errors import GeneratorError
from generator.core.parallel import map_chunks
from generator.core.warm import Warm
from generator.site import tree
from generator.site.config import mkdocs_config
from generator.site.rendered import generator_version, rendered
from generator.site.stamp import (FRAMES, PLACED, SELF_FRAMED, frame_config, frames_key, is_stamped, output_of, read_frames,
                                  self_frame, stamp_chunk, url_of)

log = logging.getLogger("generator")

CACHE = Path(".cache") / "site"  # beside mkdocs.yml
RECORD = "site.json"


@dataclass
class SiteResult:
    """What a site step did."""

    files: int = 0  # files of the site
    stamped: int = 0  # pages stamped (filled into their frame) this time
    written: list[str] = field(default_factory=list)  # files of the site whose bytes are new
    removed: int = 0  # files the last site had and this one has not
    mkdocs: bool = False  # whether MkDocs ran (else its kept output was used)
    unchanged: bool = False  # the site was already this build: nothing was staged
    seconds: dict[str, float] = field(default_factory=dict)  # by step

    @property
    def html_written(self) -> int:
        return sum(rel.endswith(".html") for rel in self.written)


@dataclass(frozen=True)
class _Docs:
    """docs/, sorted by what the site step does with each file."""

    stamped: dict[str, os.DirEntry]  # pages filled into frames
    placed: dict[str, os.DirEntry]  # generated files linked into the site as they are
    pages: dict[str, Path]  # pages MkDocs renders
    static: dict[str, os.DirEntry]  # every other file: MkDocs copies those it does not exclude
    names: list[str]  # every file MkDocs reads or copies: the pages it renders and the static files


def _read_docs(docs: Path) -> _Docs:
    found = tree.walk(docs, follow=True)
    stamped, placed, pages, static = {}, {}, {}, {}
    for rel, entry in found.items():
        if rel.split("/", 1)[0] in PLACED:
            placed[rel] = entry
        elif is_stamped(rel):
            stamped[rel] = entry
        elif rel.endswith(".md"):
            pages[rel] = Path(entry.path)
        else:
            static[rel] = entry
    return _Docs(stamped, placed, pages, static, sorted([*pages, *static]))


def _self_frames(folder: Path, pages: dict[str, Path]) -> dict[str, Path]:
    """The pages of :data:`SELF_FRAMED` that are their own frames, each with its frame's file in
    ``folder`` (rewritten only when it changes: a new paper changes the page, not its frame)."""
    out = {}
    for rel in SELF_FRAMED:
        if rel not in pages:
            continue
        frame = self_frame(pages[rel].read_text(encoding="utf-8"), rel)
        if frame is None:
            continue
        path = folder / rel
        data = frame.encode("utf-8")
        try:
            same = path.read_bytes() == data
        except OSError:
            same = False
        if not same:
            path.parent.mkdir(parents=True, exist_ok=True)
            _put(path, data)
        out[rel] = path
    return out


# A Markdown link's target (inline "](target" or a reference "[x]: target"), as MkDocs reads
# links to other files of docs/ to check and rewrite them.
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)", re.M)


def _linked(pages: dict[str, Path], src: _Docs) -> dict[str, os.DirEntry]:
    """The files left out of MkDocs' folder (stamped pages, placed files) that a page it renders
    links to by name ("[a paper](../papers/abc.md)"): MkDocs needs them there to check the link
    and rewrite it to the page's address, as it does in docs/."""
    out: dict[str, os.DirEntry] = {}
    for rel, path in pages.items():
        text = path.read_text(encoding="utf-8", errors="replace")
        if "](" not in text and "]:" not in text:
            continue
        for m in _LINK.finditer(text):
            target = (m.group(1) or m.group(2)).split("#", 1)[0].split("?", 1)[0]
            if not target or "://" in target or target.startswith(("/", "mailto:")):
                continue
            name = posixpath.normpath(posixpath.join(posixpath.dirname(rel), unquote(target)))
            entry = src.stamped.get(name) or src.placed.get(name)
            if entry is not None:
                out[name] = entry
    return out


def _shadow(folder: Path, pages: dict[str, Path], src: _Docs, linked: dict[str, os.DirEntry]) -> Path:
    """``folder`` holding, as hard links, only the files of docs/ MkDocs renders or copies, and
    those ``linked`` by name: MkDocs reads its pages from there. Given docs/ itself, it made an
    object of each of the 20,000 paper pages and 22,000 search files it then leaves out (about
    1 s a build at 20,000 papers), and a new paper's page, which it does not render, changed
    its inputs."""
    wanted = {rel: (str(path), path.stat().st_ino) for rel, path in pages.items()}
    wanted |= {rel: (entry.path, _inode(entry)) for rel, entry in {**src.static, **linked}.items()}
    folder.mkdir(parents=True, exist_ok=True)
    tree.sync(folder, wanted)
    return folder


def _inode(entry: os.DirEntry) -> int:
    return entry.stat().st_ino if entry.is_symlink() else entry.inode()


def _source_sig(entry: os.DirEntry) -> list[int]:
    """A stamped page's signature in docs/: the generator writes a changed page as a new file."""
    st = entry.stat()
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _read_record(path: Path, version: str, frames: str) -> dict[str, list[int]]:
    """The stamped pages of the last site, by page: [its signature in docs/ then (4), the
    site file's signature], if the record is this generator's and the frames are the same."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("version") == version and record.get("frames") == frames and isinstance(record["pages"], dict):
            return record["pages"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return {}


def _write_record(path: Path, version: str, frames: str, pages: dict[str, list[int]]) -> None:
    _put(path, json.dumps({"version": version, "frames": frames, "pages": pages}, separators=(",", ":")).encode("utf-8"))


def _put(path: Path, data: bytes) -> None:
    """``path`` holding ``data``, whole or not at all: written beside it (a hidden name of this
    process) and renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


class _Laps:
    def __init__(self, into: dict[str, float]) -> None:
        self.last = time.perf_counter()
        self.into = into

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        log.debug("  %-8s %6.2fs", name, now - self.last)  # the format benchmarks/site.py reads
        self.into[name] = now - self.last
        self.last = now


def build_site(config: Path = Path("mkdocs.yml"), warm: Warm | None = None) -> SiteResult:
    """Build ``site_dir`` from ``docs_dir`` (see the module's docstring). ``warm`` (a long-lived
    builder's, :mod:`generator.core.warm`) answers the reads of the generator's version and of
    the last site's record from memory while their files are unchanged."""
    result = SiteResult()
    lap = _Laps(result.seconds)
    data = mkdocs_config(config)
    root = config.resolve().parent
    docs = root / (data.get("docs_dir") or "docs")
    site = root / (data.get("site_dir") or "site")
    cache = root / CACHE
    adopted, remover = tree.adopt(site)
    staging = tree.staging(site)
    try:
        version = warm.read(generator_version) if warm is not None else generator_version()
        src = _read_docs(docs)
        frames_out = {url_of(rel) for rel in FRAMES}
        lap("read")
        selves = _self_frames(cache / "frames", src.pages)
        pages = {**src.pages, **selves}  # MkDocs renders those pages' frames
        linked = _linked(src.pages, src)
        shadow = _shadow(cache / "docs", pages, src, linked)
        # (a static .html file is rendered output too, compacted: its bytes are an input, as a page's)
        read = {**pages, **{rel: Path(e.path) for rel, e in src.static.items() if rel.endswith(".html")}}
        made = rendered(config, frame_config(config, shadow), cache, shadow, sorted([*src.names, *linked]), read,
                        sorted(src.static), frames_out | {output_of(rel) for rel in selves}, version)
        lap("mkdocs")
        # a page of SELF_FRAMED that the config leaves out (exclude_docs, draft_docs) has no
        # frame: it is left out of the site, as a plain build leaves it out
        selves = {rel: path for rel, path in selves.items() if output_of(rel) in made.files}
        filled = {**src.stamped, **{rel: src.pages[rel] for rel in selves}}  # the pages filled into frames
        fkey = frames_key(docs, made.root, selves)
        last = (warm.read(_read_record, cache / RECORD, version, fkey) if warm is not None
                else _read_record(cache / RECORD, version, fkey))
        old = tree.walk(site, hidden=True) if site.is_dir() else {}

        # Every file of the next site: (where to link it from, its inode) or a page to stamp.
        links: dict[str, tuple[str, int]] = {}
        for rel, s in made.files.items():
            if not any(rel.startswith(f) for f in frames_out):
                links[rel] = (os.path.join(made.root, rel), s[0])
        for rel in made.copied:
            if rel in src.static:
                links[rel] = (src.static[rel].path, _inode(src.static[rel]))
        for rel, entry in src.placed.items():
            links[rel] = (entry.path, _inode(entry))
        keep: dict[str, list[int]] = {}  # stamped pages whose last file stands
        todo: list[str] = []
        for rel, entry in filled.items():
            out = output_of(rel)
            links.pop(out, None)
            was = last.get(rel)
            now = _source_sig(entry)
            if was is not None and was[:4] == now and out in old and list(tree.sig(old[out])) == was[4:]:
                keep[rel] = was
            else:
                todo.append(rel)
        outputs = {*links, *(output_of(rel) for rel in filled)}
        result.files, result.mkdocs = len(outputs), made.ran
        result.removed = len(old.keys() - outputs)
        changed_links = [rel for rel, (_, ino) in links.items() if rel not in old or old[rel].inode() != ino]
        lap("plan")
        if not todo and not changed_links and not result.removed and site.is_dir():
            result.unchanged = True
            if adopted is not None:  # not needed this time: kept under its own name
                tree.keep(adopted, site)
            return result

        # The replaced site (kept by the last build) becomes the staging folder: only the names
        # that differ change. Each stamped page's name is emptied for the workers to write.
        wanted: dict[str, tuple[str, int] | None] = dict(links)
        for rel, was in keep.items():
            wanted[output_of(rel)] = (old[output_of(rel)].path, was[4])
        for rel in todo:
            wanted[output_of(rel)] = None
        if adopted is None:
            staging.mkdir()
        tree.sync(staging, wanted)
        lap("link")
        frames = read_frames(docs, made.root, selves)
        stamped = map_chunks(partial(stamp_chunk, frames=frames, docs=docs, staging=staging, last=site), sorted(todo))
        result.stamped = len(stamped)
        record = dict(keep)
        for rel, s, written in stamped:
            record[rel] = [*_source_sig(filled[rel]), *s]
            if written:
                result.written.append(output_of(rel))
        result.written += changed_links
        result.written.sort()
        lap("stamp")
        try:
            tree.swap(staging, site)
        except OSError as e:
            raise GeneratorError(f"cannot put the built site in place: {e.strerror} ({e.filename})", str(site)) from None
        _write_record(cache / RECORD, version, fkey, record)
        lap("swap")
    finally:
        # A failed build's staging folder stays: the next build adopts it (tree.adopt).
        if remover is not None:
            remover.wait()
    return result
