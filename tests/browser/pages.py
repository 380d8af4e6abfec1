"""Helpers the browser tests share: opening a page of the built site and waiting until it is ready."""
from __future__ import annotations

SERIOUS = ("serious", "critical")
PHONE = {"width": 390, "height": 844}


def wait_ready(page) -> None:
    """Material has started (its components are mounted) and KaTeX has run."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => typeof document$ !== 'undefined'")
    page.wait_for_function("() => document.querySelectorAll('.arithmatex:not([data-rendered])').length === 0")


def visit(page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    wait_ready(page)
