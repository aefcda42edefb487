"""`quarkade serve --workers 2 --db postgresql+psycopg://... --broker redis://...` plays a
whole game in two browsers whose pages talk to different server processes; and so do two
processes behind nginx over https and wss, as docs/DEPLOY.md deploys them (issue 26)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.server.browser.helpers import STEP_CHANGED, moved, take_seat
from tests.server.browser.words import scan, watch
from tests.server.processes import Server
from tests.server.proxy import site

__all__ = ["site"]

SAME_STEP = "(step) => document.getElementById('game').dataset.step === step"


@pytest.fixture
def workers(postgres, redis_server, tmp_path):
    server = Server(postgres.new_database(), redis_server.url(), "--workers", "2",
                    cwd=str(tmp_path))
    yield server
    server.stop()


def test_a_whole_game_in_two_browsers_on_two_processes(browser: Browser, workers) -> None:
    play_in_two_browsers(browser, workers.url + "/")


def test_a_whole_game_in_two_browsers_through_nginx_over_https(browser: Browser,
                                                                site) -> None:
    proxy, _ = site
    play_in_two_browsers(browser, proxy.url + "/", ignore_https_errors=True)


def play_in_two_browsers(browser: Browser, url: str, **options: object) -> None:
    """A whole game at ``url`` in two browsers, each page served by another process."""
    words: list[str] = []  # words meant for developers on any page (conftest's scan)
    host_context = browser.new_context(**options)
    guest_context = browser.new_context(**options)
    for context in (host_context, guest_context):
        context.set_default_timeout(30_000)
        watch(context, lambda url, text: words.append(f"{url}: {text!r}"))
    try:
        host = host_context.new_page()
        host.goto(url + "new/hadronize")
        host.select_option("#seat1", "friend")
        host.click("button:has-text('Start the game')")
        expect(host.locator("#game")).to_have_attribute("data-server", re.compile(r"\w+"),
                                                           timeout=30_000)
        invite = host.locator(".invite input").input_value()
        guest = guest_context.new_page()
        # Each page's socket lands on one of the two processes; open the guest's page
        # until it is served by the other process than the host's (a new connection each
        # time; the kernel spreads them over the processes sharing the port, and nginx
        # takes its two upstreams in turn, request by request: a page load makes the same
        # number of requests each time, so every other time one more request is made,
        # or an even number would bring every socket back to the same process).
        take_seat(guest, invite)
        mine = host.locator("#game").get_attribute("data-server")
        for attempt in range(40):
            expect(guest.locator("#game")).to_have_attribute("data-server", re.compile(r"\w+"),
                                                           timeout=30_000)
            if guest.locator("#game").get_attribute("data-server") != mine:
                break
            if attempt % 2:
                assert guest.evaluate("fetch('/api/me/turns').then((r) => r.status)") == 200
            guest.reload()
        else:
            raise AssertionError("every connection went to the same process")
        expect(host.locator("#seats")).to_contain_text("joined", timeout=30_000)
        pages = {0: host, 1: guest}
        guest.wait_for_function(SAME_STEP, arg=host.locator("#game").get_attribute("data-step"))
        for _ in range(400):
            if host.locator("#game").get_attribute("data-over") == "yes":
                break
            steps = {s: p.locator("#game").get_attribute("data-step") for s, p in pages.items()}
            movers = [s for s, p in pages.items()
                      if p.locator("#game").get_attribute("data-turn") == "mine"]
            assert len(movers) == 1 and steps[0] == steps[1], (movers, steps)
            pages[movers[0]].locator("#moves button").first.click()
            moved(pages[movers[0]], steps[movers[0]])
            for seat, page in pages.items():  # each process shows the move to its page
                page.wait_for_function(STEP_CHANGED, arg=steps[seat])
            guest.wait_for_function(SAME_STEP,
                                    arg=host.locator("#game").get_attribute("data-step"))
        else:
            raise AssertionError("the game did not end")
        expect(guest.locator("#game")).to_have_attribute("data-over", "yes")
        expect(guest.locator("#result")).to_contain_text("Game over:")
        assert host.locator("#game").get_attribute("data-server") != \
            guest.locator("#game").get_attribute("data-server")
        words += [f"{p.url}: {text!r}" for p in (host, guest) for text in scan(p)]
        assert not words, words
    finally:
        host_context.close()
        guest_context.close()
