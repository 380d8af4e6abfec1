"""Fixtures shared by every test module; the helpers behind them are in support.py.

(Test modules import helpers from ``support``, never from ``conftest``: the
hostile and browser folders have conftest modules of their own.)
"""
from __future__ import annotations

import shutil

import pytest

from support import REPO, BuiltSite, build_site


@pytest.fixture(scope="session")
def mission_site(tmp_path_factory) -> BuiltSite:
    """The site built from the repository's own seeds/, once per test session."""
    dest = tmp_path_factory.mktemp("mission")
    shutil.copytree(REPO / "seeds", dest / "seeds")
    return build_site(dest, [dest / "seeds"])
