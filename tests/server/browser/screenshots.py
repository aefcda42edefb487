"""Take the screenshots in docs/screenshots/ with the browser tests' headless Chromium.

Run with ``make screenshots`` (or ``python -m tests.server.browser.screenshots``). It serves
the app on a free port over a throw-away database, plays a three-seat Hadronize game
against two greedy bots by clicking, and photographs the home page, the game page on a
desktop and on a phone, the finished game, and the replay page. Card Commons and Dead Cat
are photographed at a stored position (a card chosen with its cells lit; a die being turned
after a peek), on a desktop and on a phone; then a lesson, the hint panel and a review
(``learning_shots``).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from quarkade.server.run import ServerThread
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.games.card_commons.helpers import EXAMPLE_MOVES
from tests.server.browser import decoherence, learning_shots
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import store_position

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return g.dataset.turn === 'mine' || g.dataset.over === 'yes'; }"""


def play_turns(page: Page, turns: int) -> None:
    """Play up to ``turns`` of our turns: observe ourselves when it can hadronize, else make
    the next seat observe."""
    for _ in range(turns):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            return
        step = page.locator("#game").get_attribute("data-step")
        chambers = page.locator("button.hz-chamber")
        mine = chambers.nth(0)
        (mine if "hadronize" in (mine.text_content() or "") else chambers.nth(1)).click()
        page.wait_for_function(
            "(s) => document.getElementById('game').dataset.step !== s", arg=step)
    page.wait_for_function(MY_TURN_OR_OVER)


def shoot_position(browser: Browser, server: ServerThread, name: str, game: str,
                   moves: list[str], bots: dict[int, str], click: str | None,
                   **options: object) -> None:
    """``docs/screenshots/<name>-game.png`` and ``<name>-phone.png``: seat 0 of a game stored
    after ``moves`` (seat 0 to move), after clicking ``click`` on its table if given."""
    game_id, tokens, _ = store_position(server.db, game, moves, bots, **options)
    for shot, options in (("game", {"viewport": {"width": 1280, "height": 860}}),
                          ("phone", {"viewport": PHONE, "device_scale_factor": 2,
                                     "is_mobile": True, "has_touch": True})):
        context = browser.new_context(**options)
        page = context.new_page()
        page.goto(f"{server.url}games/{game_id}/join/{tokens[0]}")
        page.wait_for_function(MY_TURN_OR_OVER)
        if click:
            page.click(click)
        page.evaluate("window.scrollTo(0, 0)")
        bottom = page.locator("#table").bounding_box()
        height = max(page.viewport_size["height"], bottom["y"] + bottom["height"] + 16)
        page.screenshot(path=OUT / f"{name}-{shot}.png", full_page=True,
                        clip={"x": 0, "y": 0, "width": page.viewport_size["width"],
                              "height": height if shot == "phone" else 860})
        context.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, \
            ServerThread(f"sqlite:///{scratch}/shots.db",
                         review_budget=learning_shots.BUDGET) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        desktop = browser.new_context(viewport={"width": 1280, "height": 860})
        page = desktop.new_page()
        page.goto(server.url)
        page.screenshot(path=OUT / "home.png")
        page.goto(server.url + "new/hadronize")
        page.fill("#option\\.players", "3")
        page.select_option("#seat1", "bot:greedy")
        page.select_option("#seat2", "bot:greedy")
        page.click("button:has-text('Start the game')")
        play_turns(page, 2)
        page.screenshot(path=OUT / "hadronize-game.png")
        phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                    has_touch=True, storage_state=desktop.storage_state())
        small = phone.new_page()
        small.goto(page.url)
        small.wait_for_function(MY_TURN_OR_OVER)
        small.screenshot(path=OUT / "hadronize-phone.png", full_page=True)
        phone.close()
        play_turns(page, 400)
        page.screenshot(path=OUT / "hadronize-over.png")
        game_id = re.sub(r"\?.*", "", page.url).rsplit("/", 1)[1]
        page.goto(f"{server.url}games/{game_id}/replay")
        page.locator("#log li button").nth(40).click()
        page.wait_for_function("() => document.getElementById('replay').dataset.step === '41'")
        page.screenshot(path=OUT / "hadronize-replay.png")
        shoot_position(browser, server, "card-commons", "card-commons", [
            *EXAMPLE_MOVES, "inv 4S c3 /AH", "5D d2", "polarize d3"], {1: "greedy"},
            "button[data-key='hand-3H']")
        shoot_position(browser, server, "dead-cat", "dead-cat", [
            "first 0", "peek", "draw alive", "bet 3", "peek", "draw dead", "bet 2", "peek",
            "draw alive", "bet 4", "announce", "peek", "draw alive", "bet 2", "peek",
            "draw dead", "bet 3", "peek", "draw alive", "bet 5", "peek", "draw alive", "bet 4",
            "peek", "draw alive"], {1: "bayes", 2: "greedy"}, None, players=3)
        decoherence.take_screenshots(browser, server.url, server.db, OUT, PHONE)
        learning_shots.take_screenshots(browser, server.url, server.db, OUT)
        browser.close()
    for shot in sorted(OUT.glob("*.png")):
        print(shot.relative_to(OUT.parents[1]))


if __name__ == "__main__":
    main()
