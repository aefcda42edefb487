"""Take the screenshots in docs/screenshots/ with the browser tests' headless Chromium.

Run with ``make screenshots`` (or ``python -m tests.server.browser.screenshots``). It serves
the app on a free port over a throw-away database, plays a three-seat Hadronize game
against two greedy bots by clicking, and photographs the home page, the game page on a
desktop and on a phone, the finished game, and the replay page.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from quarkade.server.run import ServerThread
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.server.browser import decoherence
from tests.server.browser.conftest import PHONE

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


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, \
            ServerThread(f"sqlite:///{scratch}/shots.db") as server, \
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
        decoherence.take_screenshots(browser, server.url, server.db, OUT, PHONE)
        browser.close()
    for shot in sorted(OUT.glob("*.png")):
        print(shot.relative_to(OUT.parents[1]))


if __name__ == "__main__":
    main()
