"""Fixtures shared by every test module; the helpers behind them are in support.py.

(Test modules import helpers from ``support``, never from ``conftest``: the
hostile and browser folders have conftest modules of their own.)
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from support import (CHROMIUM, CHROMIUM_ARGS, HOSTILE_ABSTRACT, HOSTILE_TITLE, REPO, SITE_URL, BuiltSite, build_site,
                     mkdocs_build, zensical_build)


@pytest.fixture(scope="session")
def mission_site(tmp_path_factory) -> BuiltSite:
    """The site built from the repository's own seeds/, once per test session."""
    dest = tmp_path_factory.mktemp("mission")
    shutil.copytree(REPO / "seeds", dest / "seeds")
    return build_site(dest, [dest / "seeds"])


@pytest.fixture(scope="session")
def mission_rendered(mission_site, tmp_path_factory):
    """The mission project (its built site/ left out) rendered the plain way: `mkdocs build
    --strict` of every page, not compacted; the oracle of test_compact.py and test_stamp.py,
    which read it and never write into it. Returns the project folder (its site/ holds it)."""
    root = tmp_path_factory.mktemp("rendered") / "p"
    shutil.copytree(mission_site.root, root, ignore=shutil.ignore_patterns("site"))
    run = mkdocs_build(root)
    assert run.returncode == 0, run.stderr
    return root


@pytest.fixture(scope="session")
def zensical_site(mission_site, tmp_path_factory) -> BuiltSite:
    """The mission site's generated project built by Zensical instead of MkDocs: read by
    test_site.py, and served to every browser test of tests/browser/ a second time."""
    root = tmp_path_factory.mktemp("zensical")
    shutil.copytree(mission_site.root, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("site"))
    run = zensical_build(root)
    if run.returncode != 0 and "No such file" in run.stderr + run.stdout and not Path(sys.executable).with_name("zensical").exists():
        pytest.skip("zensical is not installed in this environment (requirements-test.txt pins it)")
    assert run.returncode == 0, run.stdout + run.stderr
    return BuiltSite(root, root / "docs", root / "site", mission_site.generate_output)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test of the session.

    Playwright's sync API allows one instance per thread, so the browser tests
    and the hostile-input browser checks must share it.
    """
    if CHROMIUM is None:
        pytest.skip("no Chromium found (neither /usr/bin/chromium nor `chromium` on PATH); install it to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def addressed_site(tmp_path_factory) -> BuiltSite:
    """The repository's seeds, one hostile paper (its abstract above, its title set by the
    curation file) and a paper submitted again with a sentence more (so an alias page), built
    with SITE_URL set, as the deploy builds it."""
    from generator.seeds.parse import parse_seed

    dest = tmp_path_factory.mktemp("addressed")
    seeds = dest / "seeds"
    shutil.copytree(REPO / "seeds", seeds)
    seed = f"NeurIPS 2025 Papers\n\n{HOSTILE_ABSTRACT}\n".encode("utf-8")
    (seeds / "hostile.txt").write_bytes(seed)
    # a later submission of a paper with a sentence more: an alias page, which no sitemap lists
    text = (REPO / "seeds" / "000_ca08d30626a6d4f8.txt").read_text(encoding="utf-8").split("\n\n")[1].strip()
    (seeds / "again.txt").write_text(f"ICML 2026 Papers\n\n{text} We thank the reviewers for their comments.\n", encoding="utf-8")
    (hostile,) = parse_seed(seed, "seeds/hostile.txt")
    curation = (seeds / "curation.yml").read_text(encoding="utf-8")
    title = HOSTILE_TITLE.replace("\\", "\\\\").replace('"', '\\"').replace("\u2028", "\\L")
    (seeds / "curation.yml").write_text(curation + f'\n{hostile.id}:\n  title: "{title}"\n', encoding="utf-8")
    built = build_site(dest / "out", [seeds], site_url=SITE_URL)
    built.hostile_id = hostile.id  # type: ignore[attr-defined]
    return built
