"""Fixtures shared by every test module; the helpers behind them are in support.py.

(Test modules import helpers from ``support``, never from ``conftest``: the
hostile and browser folders have conftest modules of their own.)
"""
from __future__ import annotations

import shutil

import pytest
from support import CHROMIUM, CHROMIUM_ARGS, REPO, BuiltSite, build_site


@pytest.fixture(scope="session")
def mission_site(tmp_path_factory) -> BuiltSite:
    """The site built from the repository's own seeds/, once per test session."""
    dest = tmp_path_factory.mktemp("mission")
    shutil.copytree(REPO / "seeds", dest / "seeds")
    return build_site(dest, [dest / "seeds"])


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
