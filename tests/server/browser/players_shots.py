"""Screenshots of the players' pages (issue 15), taken by ``make screenshots``: the lobby,
a player's page, a leaderboard and a game with clocks, on a desktop and on a phone."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page

from quarkade.server.run import ServerThread

DESKTOP = {"viewport": {"width": 1280, "height": 860}}


def _person(browser: Browser, url: str, name: str, options: dict) -> tuple[BrowserContext,
                                                                              Page]:
    context = browser.new_context(**options)
    page = context.new_page()
    page.goto(f"{url}me")
    page.fill("#name", name)
    page.click("#rename button")
    page.fill("#password", f"{name}-password")
    page.fill("#password_again", f"{name}-password")
    page.click("#claim button")
    page.wait_for_selector("#me:not(:has-text('guest'))")
    return context, page


def _game(host: Page, guest: Page, url: str, control: str, game: str = "hadronize") -> str:
    host.goto(f"{url}new/{game}")
    host.select_option("#seat1", "open")
    host.select_option("#time_control", control)
    host.select_option("#visibility", "public")
    host.click("button:has-text('Start the game')")
    host.wait_for_url(re.compile(r"/games/\w+$"))
    game_id = host.url.rsplit("/", 1)[1]
    guest.goto(f"{url}lobby")
    guest.click(f".lobby-game[data-id='{game_id}'] button.join")
    guest.wait_for_url(re.compile(rf"/games/{game_id}"))
    return game_id


def take(browser: Browser, server: ServerThread, out: Path, phone: dict) -> None:
    url = server.url
    mobile = {"viewport": phone, "device_scale_factor": 2, "is_mobile": True,
              "has_touch": True}
    ada_context, ada = _person(browser, url, "Ada", DESKTOP)
    ben_context, ben = _person(browser, url, "Ben", DESKTOP)
    cy_context, cy = _person(browser, url, "Cyd", DESKTOP)
    # Three rated games for some standing, each ended by a resignation.
    for loser, (host, guest) in ((ben, (ada, ben)), (cy, (ada, cy)), (cy, (ben, cy))):
        _game(host, guest, url, "none")
        loser.click("#resign")
        loser.click("#confirm-yes")
        loser.wait_for_selector("#result-table .rating-change:not(:empty)")
    # A game with clocks, under way.
    _game(ada, ben, url, "5+5")
    ada.wait_for_selector("#clocks .clock.running")
    ada.screenshot(path=out / "clocks-game.png")
    phone_context = browser.new_context(**mobile, storage_state=ben_context.storage_state())
    small = phone_context.new_page()
    small.goto(ben.url)
    small.wait_for_selector("#clocks .clock.running")
    small.screenshot(path=out / "clocks-phone.png")
    # Open games waiting in the lobby.
    cy.goto(f"{url}new/dead-cat")
    cy.select_option("#option\\.players", "3")
    for seat, kind in ((1, "open"), (2, "bot:medium")):
        cy.select_option(f"#seat{seat}", kind)
    cy.select_option("#time_control", "corr:3")
    cy.select_option("#visibility", "public")
    cy.click("button:has-text('Start the game')")
    cy.wait_for_url(re.compile(r"/games/\w+$"))
    ben.goto(f"{url}new/card-commons")
    ben.select_option("#seat1", "open")
    ben.select_option("#time_control", "3+2")
    ben.select_option("#visibility", "public")
    ben.click("button:has-text('Start the game')")
    ben.wait_for_url(re.compile(r"/games/\w+$"))
    for page, name in ((ada, "lobby"), (small, "lobby-phone")):
        page.goto(f"{url}lobby")
        page.wait_for_selector(".lobby-game button.join")
        page.screenshot(path=out / f"{name}.png", full_page=name.endswith("phone"))
    for page, name in ((ada, "player"), (small, "player-phone")):
        page.goto(f"{url}players/Ada")
        page.screenshot(path=out / f"{name}.png", full_page=True)
    for page, name in ((ada, "leaderboard"), (small, "leaderboard-phone")):
        page.goto(f"{url}leaderboard/hadronize")
        page.screenshot(path=out / f"{name}.png", full_page=name.endswith("phone"))
    for context in (ada_context, ben_context, cy_context, phone_context):
        context.close()
