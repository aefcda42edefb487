"""Browser tests: a real headless Chromium (Debian's, driven by Playwright) against the app
served from a thread on a free port. One browser and one server for the whole session;
every test gets fresh browser contexts (devices). On failure each open page is saved as a
screenshot in test-artifacts/. A page error (an exception in the page's scripts) or a
request to anywhere but this server fails the test."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from quarkade.server.run import ServerThread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # One worker runs every browser test, so the session holds one browser (make test
    # runs pytest with --dist loadgroup).
    for item in items:
        if "browser" in item.nodeid:
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("web") / "browser.db"
    with ServerThread(f"sqlite:///{db}") as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        found = shutil.which("chromium")
        pytest.fail(f"no Chromium at {CHROMIUM} ({found or 'none on PATH'}); `make test` "
                    "installs it (apt-get install -y chromium, as root)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def device(browser: Browser, server: ServerThread,
           request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """``device(viewport=...)`` opens a page in a fresh browser context (its own cookies)."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []
    local = re.compile(r"^(?:" + re.escape(server.url.rstrip("/")) + r"|data:|about:)")

    def open_page(viewport: dict[str, int] | None = None, **options: object) -> Page:
        context = browser.new_context(viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)

        def refuse(route):  # nothing may come from anywhere but the app
            problems.append(f"request to {route.request.url}")
            route.abort()

        context.route(lambda url: not local.match(url), refuse)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        return page

    yield open_page
    if request.node.stash.get(FAILED, False):
        ARTIFACTS.mkdir(exist_ok=True)
        for number, context in enumerate(contexts):
            for index, page in enumerate(context.pages):
                page.screenshot(path=ARTIFACTS / f"{request.node.name}-{number}-{index}.png",
                                full_page=True)
    for context in contexts:
        context.close()
    assert not problems, problems


@pytest.fixture
def page(device: Callable[..., Page]) -> Page:
    return device()
