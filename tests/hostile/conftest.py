"""Hostile input: fixtures shared by the scanner, property and determinism tests.

The hostile seed (``seeds/hostile/hostile.txt``) holds one abstract per attack, each
wrapped in ordinary prose so that it parses as an abstract; ``seeds/harmless/``
holds a few abstracts that use every legitimate feature (math, links, emphasis,
code), so a site built from it shows which elements and attributes the digest
itself produces. Anything the hostile site adds on top of that came from a seed.
"""
from __future__ import annotations

import shutil

import pytest
from attack import attack_seed
from hostile_html import HARMLESS_SEEDS, HOSTILE_SEEDS, SEEDS
from support import build_site


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory):
    """The site built (generator + ``mkdocs build --strict``) from the hostile seed."""
    return build_site(tmp_path_factory.mktemp("hostile"), [HOSTILE_SEEDS])


@pytest.fixture(scope="session")
def harmless_site(tmp_path_factory):
    """The site built from the harmless seed: the baseline of what the digest itself emits."""
    return build_site(tmp_path_factory.mktemp("harmless"), [HARMLESS_SEEDS])


@pytest.fixture(scope="session")
def theme_site(tmp_path_factory):
    """The site built from ``seeds/theme/`` (a venue header and a derived title that spell
    markup): hovered in Chromium by test_theme.py, its frames read by test_properties.py."""
    root = tmp_path_factory.mktemp("theme")
    shutil.copytree(SEEDS / "theme", root / "seeds")
    return build_site(root / "site", [root / "seeds"])


@pytest.fixture(scope="session")
def attack_site(tmp_path_factory):
    """The site built from the reproductions of the script-injection issue (verbatim), the
    formulas made to crash KaTeX, and a seeded sample of composed attacks (tests/hostile/attack.py)."""
    root = tmp_path_factory.mktemp("attack")
    seeds = root / "seeds"
    seeds.mkdir()
    shutil.copy(SEEDS / "xss" / "issue10_repro.txt", seeds / "issue10_repro.txt")
    (seeds / "attack.txt").write_text(attack_seed(), encoding="utf-8")
    return build_site(root / "site", [seeds])
