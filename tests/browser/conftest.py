"""Browser fixtures: the mission site served on 127.0.0.1 and Chromium pages that record trouble.

Every test of this folder runs twice, against the site as each builder makes it from the
same generated docs/: `python -m generator site` (MkDocs + Material, what `make site` does)
and `zensical build` (what the site becomes when Material is retired: handbook/zensical.md).
Both builds are made once per session; the mission corpus is small, so the second build
costs seconds.

Every test of this folder is skipped (with the reason) when no Chromium is installed;
Playwright's own browser download is not used: the tests drive the system Chromium.
A page records console errors and warnings, uncaught exceptions, failed requests and
every request to a host other than 127.0.0.1 (those fail: the browser resolves no host
name, CHROMIUM_ARGS in support.py; the site must work offline). When a test fails, each
of its pages is saved as a screenshot under tests/artifacts/, named after the test.
"""
from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
HOST = "127.0.0.1"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PAGES_KEY = pytest.StashKey[list]()


from support import CHROMIUM, BuiltSite, published_papers  # noqa: E402  (the `browser` and `zensical_site` fixtures are in tests/conftest.py)

BUILDERS = ("mkdocs", "zensical")


@pytest.fixture(scope="session", autouse=True)
def _needs_chromium() -> None:
    if CHROMIUM is None:
        pytest.skip("no Chromium found (neither /usr/bin/chromium nor `chromium` on PATH); install it to run the browser tests")


# -- the site ---------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``directory`` on a free port of 127.0.0.1 from a daemon thread; returns (server, base URL)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer((HOST, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True, name=f"serve {directory}").start()
    return server, f"http://{HOST}:{server.server_address[1]}/"


def pytest_collection_modifyitems(config, items) -> None:
    """Tests marked ``one_builder`` check a script's own logic (the worker's ranking, the map's
    arithmetic) at some cost: once, against the MkDocs build, keeps the suite's time."""
    drop = [item for item in items if item.get_closest_marker("one_builder")
            and getattr(item, "callspec", None) and item.callspec.params.get("builder") == "zensical"]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = [item for item in items if item not in drop]


@pytest.fixture(scope="session", params=BUILDERS)
def builder(request) -> str:
    """Which builder made the site under test (the test's id names it)."""
    return request.param


@pytest.fixture(scope="session")
def built(builder, request) -> BuiltSite:
    """The mission site as ``builder`` made it."""
    return request.getfixturevalue("mission_site" if builder == "mkdocs" else "zensical_site")


@pytest.fixture(scope="session")
def site_url(built) -> Iterator[str]:
    """Base URL (ending in /) of the built mission site."""
    server, url = serve(built.site)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def papers(built) -> list[dict]:
    """The papers of the built site, as papers.json lists them."""
    return published_papers(built.site)


# -- the browser ------------------------------------------------------------


@dataclass
class PageLog:
    """What went wrong while a test's pages were open."""

    console_errors: list[str] = field(default_factory=list)
    console_warnings: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"failed request: {r}" for r in self.failed_requests]
            + [f"request to another host: {r}" for r in self.external_requests]
        )


def is_external(url: str) -> bool:
    """A network request to a host other than the local server (data:, blob: are not requests)."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != HOST


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def open_page(browser, page_log: PageLog, request) -> Iterator[Callable[..., object]]:
    """A factory of recorded pages: ``open_page(viewport=PHONE, color_scheme="dark")``."""
    contexts = []
    pages = request.node.stash.setdefault(PAGES_KEY, [])

    def _open(viewport: dict = DESKTOP, color_scheme: str = "light"):
        context = browser.new_context(viewport=viewport, color_scheme=color_scheme, service_workers="block")
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()

        def on_console(msg) -> None:
            text = f"{msg.text} ({msg.location.get('url', '')}:{msg.location.get('lineNumber', '')}) on {page.url}"
            if msg.type == "error":
                page_log.console_errors.append(text)
            elif msg.type == "warning":
                page_log.console_warnings.append(text)

        def on_request(req) -> None:
            if is_external(req.url):
                page_log.external_requests.append(f"{req.url} (from {page.url})")

        def on_failed(req) -> None:
            # External requests fail on purpose (and are recorded); ERR_ABORTED is a
            # request cut short by leaving the page, which a reader does all the time.
            if not is_external(req.url) and "ERR_ABORTED" not in (req.failure or ""):
                page_log.failed_requests.append(f"{req.method} {req.url}: {req.failure}")

        def on_response(resp) -> None:
            if resp.status >= 400:
                page_log.failed_requests.append(f"{resp.request.method} {resp.url}: HTTP {resp.status}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: page_log.console_errors.append(f"uncaught {exc} on {page.url}"))
        page.on("request", on_request)
        page.on("requestfailed", on_failed)
        page.on("response", on_response)
        pages.append(page)
        return page

    yield _open
    for context in contexts:
        context.close()


@pytest.fixture
def page(open_page):
    """A desktop-sized page in light mode."""
    return open_page()


@pytest.fixture
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip(f"axe-core is not installed at {AXE.relative_to(REPO)}: run `npm ci`")
    return AXE.read_text(encoding="utf-8")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    pages = item.stash.get(PAGES_KEY, [])
    if not pages:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", item.nodeid.split("::", 1)[-1]).strip("_")
    for i, page in enumerate(pages):
        path = ARTIFACTS / (f"{name}.png" if i == 0 else f"{name}-{i}.png")
        try:
            page.screenshot(path=str(path), full_page=True)
        except Exception as e:  # a closed or crashed page must not hide the test's own failure
            report.sections.append(("screenshot", f"could not save {path}: {e}"))
        else:
            report.sections.append(("screenshot", f"saved {path}"))
