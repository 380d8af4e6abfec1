"""Sitemaps and robots.txt: where a search engine finds every page of the digest.

Pure: :func:`render_sitemaps` returns ``{relative path: content}`` for the docs folder,
which MkDocs copies into the site as it is. One sitemap file may list at most 50,000
URLs and 50 MB (sitemaps.org), and a digest of 50,000 papers has about 105,000 pages, so
the pages are split into ``sitemaps/1.xml``, ``sitemaps/2.xml``... of at most ``limit``
URLs each, and ``sitemap.xml`` is the sitemap index that lists them; each file has a
gzipped copy beside it. MkDocs' own sitemap.xml (every page in one file) is turned off
by ``overrides/sitemap.xml``, which renders nothing: MkDocs skips a theme template whose
output is empty.

A sitemap holds absolute URLs only, so without a ``site_url`` there are no sitemaps, and
``robots.txt`` names none. (A crawler reads robots.txt at the root of a host only: under a
project's GitHub Pages address, /<repository>/, it is read where the site has its own
domain; the sitemap index is also reachable at its usual address, ``sitemap.xml``.)
"""
from __future__ import annotations

import gzip
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from generator.core import outputs
from generator.site.stamp import url_of  # the site step's own rule for a page's URL

NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
INDEX, FOLDER, ROBOTS = outputs.SITEMAP_INDEX, outputs.SITEMAP_FOLDER, outputs.ROBOTS
MAX_URLS = 50_000  # sitemaps.org: per file, and per index
MAX_BYTES = 50 * 1024 * 1024  # sitemaps.org: 50 MB (52,428,800 bytes) per file, uncompressed
FILES = (INDEX, INDEX + ".gz", ROBOTS)  # at the top of docs/, beside FOLDER's files

_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NAMESPACE}">\n'
_TAIL = "</urlset>\n"


def _url_entry(url: str) -> str:
    return f"<url><loc>{escape(url)}</loc></url>\n"


def split(urls: Iterable[str], limit: int = MAX_URLS, max_bytes: int = MAX_BYTES) -> list[list[str]]:
    """``urls`` as sitemap files' entries, in order: each file at most ``limit`` URLs and
    ``max_bytes`` bytes with its head and tail."""
    if limit < 1:
        raise ValueError("a sitemap file holds at least one URL")
    files: list[list[str]] = [[]]
    size = len(_HEAD) + len(_TAIL)
    room = max_bytes - size
    used = 0
    for url in urls:
        entry = _url_entry(url)
        n = len(entry.encode("utf-8"))
        if n > room:
            raise ValueError(f"a sitemap entry of {n} bytes cannot fit in a file of {max_bytes}")
        if len(files[-1]) >= limit or used + n > room:
            files.append([])
            used = 0
        files[-1].append(entry)
        used += n
    return [f for f in files if f]


def robots_txt(site_url: str) -> str:
    """Every page may be crawled; the sitemap index, where the site's address is known."""
    lines = ["User-agent: *", "Disallow:"]
    if site_url:
        lines += ["", f"Sitemap: {site_url}{INDEX}"]
    return "\n".join(lines) + "\n"


def render_sitemaps(pages: Sequence[str], site_url: str, limit: int = MAX_URLS,
                    max_bytes: int = MAX_BYTES) -> dict[str, str | bytes]:
    """The sitemap index, its sitemap files (each with a ``.gz`` copy) and robots.txt, by
    path in docs/. ``pages`` are the site paths of the pages to list (``papers/<id>/``,
    "" for the home page); ``site_url`` ends in "/", or is "" (then robots.txt alone)."""
    files: dict[str, str | bytes] = {ROBOTS: robots_txt(site_url)}
    if not site_url:
        return files
    parts = split((site_url + p for p in pages), limit, max_bytes)
    if len(parts) > MAX_URLS:
        raise ValueError(f"{len(parts)} sitemap files are more than one index may list ({MAX_URLS})")
    names = [f"{FOLDER}/{k}.xml" for k in range(1, len(parts) + 1)]
    for name, entries in zip(names, parts):
        files[name] = _HEAD + "".join(entries) + _TAIL
    files[INDEX] = (f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NAMESPACE}">\n'
                    + "".join(f"<sitemap><loc>{escape(site_url + name)}</loc></sitemap>\n" for name in names)
                    + "</sitemapindex>\n")
    for name in [*names, INDEX]:
        # no timestamp in the header: the same pages give the same bytes
        files[name + ".gz"] = gzip.compress(files[name].encode("utf-8"), compresslevel=9, mtime=0)
    return files


def page_paths(docs_files: Iterable[str], skip: Iterable[str] = ()) -> list[str]:
    """The site paths of the pages built from ``docs_files`` (paths in docs/), sorted: every
    Markdown page but the frames (``_*.md``, which the site step removes) and ``skip`` (the
    alias pages, which only redirect). Directory URLs, as mkdocs.yml has them."""
    skipped = set(skip)
    return sorted({url_of(rel) for rel in docs_files
                   if rel.endswith(".md") and rel not in skipped and not any(part.startswith("_") for part in rel.split("/"))})


def hand_written_pages(docs: Path) -> list[str]:
    """The Markdown pages of ``docs`` the generator does not write (contribute.md...), as paths in it."""
    if not docs.is_dir():
        return []
    rels = []
    # the generator's own folders (papers/, search/...: 40,000 files at 20,000 papers) are not walked
    for top in docs.iterdir():
        if top.is_dir() and top.name not in outputs.DIRS:
            rels += (p.relative_to(docs).as_posix() for p in top.rglob("*.md"))
        elif top.name.endswith(".md") and top.is_file():
            rels.append(top.name)
    return sorted(rel for rel in rels if rel not in outputs.FILES and rel.split("/")[0] not in outputs.DIRS)
