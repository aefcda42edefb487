"""Screenshots of the learning features for docs/screenshots (part of ``make screenshots``):
a lesson answering a wrong move with its rule, the hint panel, and a review, each on a
desktop and on a phone. ``python -m tests.server.browser.learning_shots`` takes only these.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.learn.review import Budget
from quarkade.server.limits import Limits
from quarkade.server.run import ServerThread
from quarkade.sim.match import play_game
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import MY_TURN_OR_OVER, store_actions

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
MOBILE = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# A review's search in the screenshots: enough for a readable graph, quick to take.
BUDGET = Budget(total=8.0, least=0.1, most=0.6, iterations=1500)
# How long the shots wait for a hint: the server's own deadline for one (Limits.hint_seconds)
# and a margin. A worker's first hint loads the compiled search from disk, which on a busy
# machine takes longer than Playwright's 30 s default; a hint the server gave up on shows
# its error in the coach box, and the shots stop with that error rather than a timeout.
HINT_WAIT_MS = int((Limits().hint_seconds + 15) * 1000)


def shoot(page: Page, path: Path, start: str | None = None) -> None:
    """The viewport, scrolled to ``start`` (a selector) or the top."""
    if start is None:
        page.evaluate("window.scrollTo(0, 0)")
    else:
        page.locator(start).evaluate("(node) => node.scrollIntoView()")
    page.screenshot(path=path)


def show_hint(page: Page) -> None:
    """Ask for a hint on ``page`` (the held seat to move) and wait for its panel."""
    page.click("#hint")
    page.wait_for_selector("#hint-panel, #coach .error", timeout=HINT_WAIT_MS)
    error = page.locator("#coach .error")
    if error.count():
        raise RuntimeError(f"the hint panel showed an error: {error.inner_text()}")


def take_screenshots(browser: Browser, url: str, db: str, out: Path = OUT) -> None:
    # A lesson: the Fundamental Law, after a move the Law forbids.
    for name, options in (("learn-lesson", DESKTOP), ("learn-lesson-phone", MOBILE)):
        context = browser.new_context(**options)
        page = context.new_page()
        page.goto(f"{url}learn/card-commons#law")
        page.wait_for_function("() => document.getElementById('learn').dataset.lesson === 'law'")
        page.click("button[data-key='hand-3H']")
        page.locator("#lesson-moves button", has_text="3♥ on c4").click()
        page.wait_for_function(
            "() => document.getElementById('learn').dataset.feedback === 'wrong'")
        # The task, the table and the answer (just below the table): on a phone the
        # answer ends the viewport, on a desktop all three fit from the task down.
        if name.endswith("phone"):
            page.locator("#feedback").evaluate("(node) => node.scrollIntoView({block: 'end'})")
            page.screenshot(path=out / f"{name}.png")
        else:
            shoot(page, out / f"{name}.png", "#task")
        context.close()
    # The hint panel, in a Card Commons game against the hard bot.
    desktop = browser.new_context(**DESKTOP)
    page = desktop.new_page()
    page.goto(f"{url}new/card-commons")
    page.select_option("#seat1", "bot:hard")
    page.click("button:has-text('Start the game')")
    page.wait_for_function(MY_TURN_OR_OVER)
    show_hint(page)
    shoot(page, out / "hint-panel.png")
    phone = browser.new_context(**MOBILE, storage_state=desktop.storage_state())
    small = phone.new_page()
    small.goto(page.url)
    small.wait_for_function(MY_TURN_OR_OVER)
    show_hint(small)
    shoot(small, out / "hint-phone.png", "#coach")
    desktop.close()
    phone.close()
    # A review: a finished Card Commons game between greedy and random, every seat judged.
    game = load_game("card-commons")
    final = play_game(game, [make_agent("greedy", game.name), make_agent("random", game.name)],
                      seed=4)
    replay = game.new_initial_state()
    played = []
    for action in final.history():
        played.append((replay.current_player(), action))
        replay.apply_action(action)
    # Public: a review of a game the viewer did not play is for a finished public game.
    game_id, _, _ = store_actions(db, game.name, dict(game.options), played, final,
                                  bots={0: "greedy", 1: "random"}, visibility="public")
    for name, options in (("review", DESKTOP), ("review-phone", MOBILE)):
        context = browser.new_context(**options)
        page = context.new_page()
        page.goto(f"{url}games/{game_id}/review")
        page.wait_for_function(
            "() => document.getElementById('review').dataset.state === 'done'", timeout=120_000)
        shoot(page, out / f"{name}.png")
        context.close()


def serve_and_take(take: Callable[[Browser, str, str], None], **settings: Any) -> None:
    """Serve the app over a throw-away database (``settings``: ``create_app``'s) and run
    ``take(browser, url, db)``: one part of the screenshots on its own."""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, \
            ServerThread(f"sqlite:///{scratch}/shots.db", **settings) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        take(browser, server.url, server.db)
        browser.close()


def main() -> None:
    serve_and_take(take_screenshots, review_budget=BUDGET, warm_workers=True)


if __name__ == "__main__":
    main()
