"""Browser tests: a real headless Chromium (Debian's, driven by Playwright) against the app
served from a thread on a free port. One server for the whole session, and the one
browser of tests/conftest.py;
every test gets fresh browser contexts (devices). On failure each open page is saved as a
screenshot in test-artifacts/. A page error (an exception in the page's scripts) or a
request to anywhere but this server fails the test, and so does a serious or critical
axe-core violation on any page as the test leaves it (``accessibility.audit``), or words
meant for developers ("null", "undefined", "NaN", "None", "seat 1") in the visible text of
any page the test visits (``words.watch``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from quarkade.learn.review import Budget
from quarkade.server.limits import Limits
from quarkade.server.run import ServerThread
from tests.server.browser.accessibility import audit
from tests.server.browser.words import scan, watch

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    folder = tmp_path_factory.mktemp("web")
    # The ladder pages read the ladders tests write into ladder/ (test_ladder_pages.py);
    # reviews get a short search by iterations only (the same review under any load), so a
    # review page fills in a few seconds. "Test this deck" plays the real thing, 2,000
    # games a preset, on the compiled engine (test_deck_builder_pages.py times it).
    with ServerThread(f"sqlite:///{folder / 'browser.db'}", ladder_dir=folder / "ladder",
                      review_budget=Budget(total=0, iterations=300),
                      limits=Limits(deck_test_games=2000), warm_workers=True) as running:
        yield running


@pytest.fixture
def device(browser: Browser, server: ServerThread,
           request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """``device(viewport=...)`` opens a page in a fresh browser context (its own cookies)."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []
    words: dict[str, str] = {}  # each text with words meant for developers: where it was

    def found(url: str, text: str) -> None:
        words.setdefault(text, url)

    local = re.compile(r"^(?:" + re.escape(server.url.rstrip("/")) + r"|data:|about:)")

    def open_page(viewport: dict[str, int] | None = None, **options: object) -> Page:
        context = browser.new_context(viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)

        def refuse(route):  # nothing may come from anywhere but the app
            problems.append(f"request to {route.request.url}")
            route.abort()

        context.route(lambda url: not local.match(url), refuse)
        watch(context, lambda url, text: found(url, text))
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        return page

    yield open_page
    failed = request.node.stash.get(FAILED, False)
    if failed:
        ARTIFACTS.mkdir(exist_ok=True)
        for number, context in enumerate(contexts):
            for index, page in enumerate(context.pages):
                page.screenshot(path=ARTIFACTS / f"{request.node.name}-{number}-{index}.png",
                                full_page=True)
    for context in contexts:
        for shown in context.pages:
            for text in scan(shown):
                found(shown.url, text)
    problems += [f"developers' words on {url.removeprefix(server.url)}: {text!r}"
                 for text, url in words.items()]
    try:
        if not failed:  # every page as the test left it passes axe-core too
            for context in contexts:
                for page in context.pages:
                    if page.url.startswith(server.url):
                        audit(page, f"{page.url} at the end of the test")
    finally:
        for context in contexts:
            context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def page(device: Callable[..., Page]) -> Page:
    return device()
