"""Helpers the browser tests share: opening a page of the built site and waiting until it is ready."""
from __future__ import annotations

SERIOUS = ("serious", "critical")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def wait_ready(page) -> None:
    """The page's scripts have run (the digest's search box is shown: assets/search.js) and
    KaTeX has drawn the math. Nothing of the theme's is waited for: the same wait holds
    under Material and Zensical."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => document.querySelector('.digest-search__open:not([hidden])')")
    page.wait_for_function("() => document.querySelectorAll('.arithmatex:not([data-rendered])').length === 0")


def visit(page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    wait_ready(page)


AXE_VIOLATIONS = """async (context) => (await axe.run(context ? document.querySelector(context) : document,
                                                  {resultTypes: ['violations']})).violations
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))"""


def serious_violations(page, axe_source: str, context: str | None = None) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (in the element
    ``context`` selects, if given)."""
    page.add_script_tag(content=axe_source)
    return [v for v in page.evaluate(AXE_VIOLATIONS, context) if v["impact"] in SERIOUS]


def describe(violations: list[dict]) -> str:
    """One line per violation, then the nodes it was found on."""
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in violations)
