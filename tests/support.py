"""Shared test helpers: the repository, the shared corpora, and real site builds.

Imported as ``support`` (tests/ is on the path); fixtures live in conftest.py.

A site is built the way `make site` builds it: the generator writes Markdown into
a docs folder (a copy of the hand-written docs/), then `python -m generator site` has
`mkdocs build --strict` render it, fills the paper pages into their frame and takes the
indentation out. Builds happen in temporary folders, never in the working tree.
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPORA = SHARED / "corpora"
HAND_WRITTEN = ("contribute.md", "assets")

# A title and an abstract that try to end every context the page's head puts seed text in:
# the JSON-LD script (</script>, <!--, U+2028), an attribute (quotes), CDATA (]]>).
HOSTILE_TITLE = 'Breaking </script><script>alert(1)</script> "Quotes" \'too\' ]]> <!-- & \u2028 out'
HOSTILE_ABSTRACT = ('We show that </script><!-- a "quoted" \'word\' ]]> & <b>bold</b>\u2028 and\u2029 more '
                    "can end nothing in this page, and we evaluate the method on five benchmarks with code "
                    "at https://github.com/example/hostile-code for everyone to read.")
SITE_URL = "https://example.github.io/digest/"


@dataclass
class BuiltSite:
    root: Path  # the project copy: mkdocs.yml, overrides/, docs/, seeds/
    docs: Path
    site: Path
    generate_output: str


def corpus_files() -> list[Path]:
    """Every seed file of shared/corpora, or a skip when shared/ is not beside the repo."""
    if not CORPORA.is_dir():
        pytest.skip(f"the shared corpora are not at {CORPORA} (they live beside the repository, not in it)")
    return sorted(CORPORA.rglob("*.txt"))


def published_papers(site: Path) -> list[dict]:
    """The papers as the site publishes them: ``papers.json.gz`` (docs/papers.json, gzipped)."""
    return json.loads(gzip.decompress((site / "papers.json.gz").read_bytes()).decode("utf-8"))["papers"]


def run_generator(*args: str, cwd: Path = REPO, timeout: float | None = None,
                  site_url: str | None = None) -> subprocess.CompletedProcess:
    """`python -m generator ARGS` in a subprocess, as a user runs it (``timeout``: fail rather than
    hang), with SITE_URL (which mkdocs.yml reads) set to ``site_url``, or unset."""
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"} | {"PYTHONPATH": str(REPO)}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def build_site(dest: Path, seed_dirs: list[Path], site_url: str | None = None) -> BuiltSite:
    """Generate and build a whole site from ``seed_dirs`` under ``dest``, failing on any MkDocs
    warning; with SITE_URL set to ``site_url`` (mkdocs.yml reads it), as the deploy sets it."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", dest / "mkdocs.yml")
    shutil.copytree(REPO / "overrides", dest / "overrides")
    docs = dest / "docs"
    docs.mkdir()
    for name in HAND_WRITTEN:
        src = REPO / "docs" / name
        if src.is_dir():
            shutil.copytree(src, docs / name)
        elif src.exists():
            shutil.copy(src, docs / name)
    if not (docs / "assets" / "katex" / "katex.min.js").exists():
        pytest.fail("docs/assets/katex is missing: run the tests with `make test`, which installs KaTeX")
    args = ["build", "--docs", str(docs)]
    for d in seed_dirs:
        args += ["--seeds", str(d)]
    gen = run_generator(*args, cwd=dest, site_url=site_url)
    assert gen.returncode == 0, gen.stderr
    site = run_generator("site", "--config", str(dest / "mkdocs.yml"), cwd=dest, site_url=site_url)
    assert site.returncode == 0, site.stderr
    return BuiltSite(dest, docs, dest / "site", gen.stderr)


def mkdocs_build(root: Path, site_url: str | None = None) -> subprocess.CompletedProcess:
    """A plain `mkdocs build --strict` of the project at ``root``: every page rendered by MkDocs
    (`make site` has it render one frame for the paper pages instead).

    Never with ``--quiet``: it raises the log level above WARNING, so the warnings
    strict mode counts are dropped before they are counted and a broken link exits 0.
    """
    cmd = [str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "-f", str(root / "mkdocs.yml")]
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"} | {"NO_MKDOCS_2_WARNING": "1"}
    if site_url is not None:
        env["SITE_URL"] = site_url
    return subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)


def github_markdown(text: str) -> str:
    """``text`` rendered as GitHub renders a job summary: CommonMark with GFM tables,
    strikethrough and autolinks (markdown-it-py's "gfm-like" preset), as HTML."""
    from markdown_it import MarkdownIt

    return MarkdownIt("gfm-like").render(text)


def summary_references(text: str) -> str:
    """How the pull-request summary writes text (its rule, restated for exact assertions):
    every ASCII character other than a letter, digit or space as a numeric reference."""
    return "".join(f"&#{ord(c)};" if c.isascii() and not (c.isalnum() or c == " ") else c for c in text)


CHROMIUM_ARGS = [
    "--no-sandbox",
    # No host name resolves, so no request leaves 127.0.0.1, where the tests serve the sites:
    # the site must work offline. Done here rather than by routing requests in Playwright,
    # which turns the browser's cache off: every page of a test then loaded and compiled
    # every stylesheet and script anew, a third of the time of a test that opens many pages.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium() -> str | None:
    """The system Chromium: $DIGEST_CHROMIUM, Debian's path, then Chromium or Chrome on PATH.

    (GitHub's Ubuntu runners ship Google Chrome rather than Debian's chromium.)
    """
    explicit = os.environ.get("DIGEST_CHROMIUM")
    if explicit:
        return explicit
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    for name in ("chromium", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = find_chromium()


def zensical_build(root: Path) -> subprocess.CompletedProcess:
    """`zensical build` of the project at ``root`` (its docs/ already generated): what the
    site becomes on the day Material is retired (handbook/zensical.md)."""
    exe = Path(sys.executable).with_name("zensical")
    return subprocess.run([str(exe), "build", "-f", str(root / "mkdocs.yml")], cwd=root, capture_output=True, text=True)


# The digest's search (docs/assets/search.js), as a reader uses it: open the box, type the
# query (the box answers on each input event), wait until the answer is complete (search.js
# counts complete answers, the worker's summary included, in the dialog's
# data-digest-answers), then read the results as shown.
SEARCH_JS = """async (q) => {
  const dialog = document.querySelector('.digest-search__dialog');
  if (!dialog.open) document.querySelector('.digest-search__open').click();
  const input = dialog.querySelector('.digest-search__input');
  const answers = () => Number(dialog.dataset.digestAnswers || 0);
  const before = answers();
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer for ' + q)), 10000);
    new MutationObserver((_, obs) => { if (answers() > before) { obs.disconnect(); clearTimeout(timer); resolve(); } })
      .observe(dialog, {attributes: true, attributeFilter: ['data-digest-answers']});
    input.value = q;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
  const options = [...dialog.querySelectorAll('#digest-search-results > [role=option]')];
  return {
    meta: dialog.querySelector('.digest-search__status').textContent,
    count: options.length,
    results: options.map(li => ({
      href: li.dataset.href,
      title: li.querySelector('.digest-search__title').textContent,
      text: li.querySelector('.digest-search__text').textContent,
      marks: [...li.querySelectorAll('mark')].map(m => m.textContent),
      elements: [...li.querySelectorAll('*')].map(e => e.tagName.toLowerCase()),
    })),
  };
}"""
