"""Shared test settings: hypothesis is derandomized in CI so a run is repeatable; one
headless Chromium per test session for every test that asks for ``browser``."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # One worker runs every test that uses the browser, so a session holds one Chromium
    # (make test runs pytest with --dist loadgroup); Playwright's sync API allows one
    # instance per thread.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (Playwright never downloads a browser here)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        found = shutil.which("chromium")
        pytest.fail(f"no Chromium at {CHROMIUM} ({found or 'none on PATH'}); `make test` "
                    "installs it (apt-get install -y chromium, as root)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def rogue_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plug-in bots of tests/rogues.py installed as entry points, for this test only;
    yields the folder to put on a subprocess's PYTHONPATH."""
    from quarkade.agents import plugins
    from tests.rogues import ROGUES, declare

    folder = declare(tmp_path / "site", ROGUES)
    monkeypatch.syspath_prepend(str(folder))
    plugins.refresh()
    yield folder
    plugins.refresh()  # found again, without them, once sys.path is restored
