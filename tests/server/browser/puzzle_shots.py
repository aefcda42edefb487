"""Screenshots of the puzzles and the analysis board for docs/screenshots (part of ``make
screenshots``): a puzzle failed with its refutation on the board, and the analysis board
opened from a finished game's replay, its moves judged; each on a desktop, the puzzle also
on a phone. ``python -m tests.server.browser.puzzle_shots`` takes only these."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from quarkade.server.learn.puzzles import POOL
from tests.server.browser.learning_shots import DESKTOP, MOBILE, OUT, serve_and_take, shoot
from tests.server.browser.test_puzzle_pages import finished_game

PUZZLES = "document.getElementById('puzzles')"
BOARD = "document.getElementById('analysis')"


def take_screenshots(browser: Browser, url: str, db: str, out: Path = OUT) -> None:
    entry = json.loads(POOL.read_text())[0]
    wrong = next(iter(entry["steps"][0]["refutations"]))
    for name, options in (("puzzle", DESKTOP), ("puzzle-phone", MOBILE)):
        context = browser.new_context(**options)
        page = context.new_page()
        page.goto(f"{url}puzzles#1")
        page.wait_for_function(f"() => {PUZZLES}.dataset.number === '1'")
        if name == "puzzle":
            page.locator(f"#puzzle-moves button[data-move='{wrong}']").click()
            page.wait_for_function(f"() => {PUZZLES}.dataset.result === 'failed'")
            shoot(page, out / "puzzle-failed.png", "#puzzle-title")
        else:
            shoot(page, out / f"{name}.png", "#puzzle-title")
        context.close()
    game_id, _ = finished_game(db)
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(f"{url}analysis/card-commons?game={game_id}&step=8")
    page.wait_for_function(f"() => {BOARD}.dataset.judged === 'yes'", timeout=120_000)
    page.screenshot(path=out / "analysis.png", full_page=True)
    context.close()


def main() -> None:
    serve_and_take(take_screenshots)


if __name__ == "__main__":
    main()
