"""What the generator writes into the docs folder: the one declared list.

The pages stage writes these and nothing else (``generator.pages.write`` removes what a
build no longer makes only among them), the site step fills the pages of :data:`STAMPED`
into frames, ``make clean`` removes them (``python -m generator.core.outputs``), and a test
checks that ``.gitignore`` lists exactly these. Everything else in docs/ is hand-written.
"""
from __future__ import annotations

import sys

# folders the generator owns whole: every file in them is generated
DIRS = ("papers", "topics", "venues", "search", "list", "sitemaps")
MAP_JSON = "map.json"  # the map's positions; a deploy restores it so that the map keeps its shape
MAP_PAGE = "map.md"
READING_LIST_PAGE = "reading-list.md"
TRENDS_PAGE = "trends.md"
TRENDS_JSON = "trends.json"  # the trends page's numbers, for tools
FEED = "feed.xml"  # the digest's Atom feed; each topic's is in its folder
SITEMAP_FOLDER = "sitemaps"  # the sitemap files an index lists, at most 50,000 URLs each
SITEMAP_INDEX = "sitemap.xml"
ROBOTS = "robots.txt"
FILES = ("index.md", "list.md", "papers.json", "papers.json.gz", FEED, MAP_JSON, MAP_PAGE, READING_LIST_PAGE,
         TRENDS_PAGE, TRENDS_JSON,
         SITEMAP_INDEX, SITEMAP_INDEX + ".gz", ROBOTS)
# written only when the site's address is known (SITE_URL): a sitemap needs absolute URLs
OPTIONAL = (SITEMAP_INDEX, SITEMAP_INDEX + ".gz")
# folders whose pages MkDocs renders through one frame each, filled in by the site step
STAMPED = ("papers", "topics", "venues", "list")


def paths(docs: str = "docs") -> list[str]:
    """Every generated folder and file, as paths under ``docs``."""
    return [f"{docs}/{name}" for name in (*DIRS, *FILES)]


if __name__ == "__main__":  # `make clean`: the paths to remove, one per line
    print("\n".join(paths(*sys.argv[1:2])))
