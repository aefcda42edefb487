"""Take the screenshots in docs/screenshots/ with the browser tests' headless Chromium.

Run with ``make screenshots`` (or ``python -m tests.server.browser.screenshots``). It serves
the app on a free port over a throw-away database, plays a three-seat Hadronize game
against two greedy bots by clicking, and photographs the home page, the game page on a
desktop and on a phone, the finished game, and the replay page. Card Commons and Dead Cat
are photographed at a stored position (a card chosen with its cells lit; a die being turned
after a peek), on a desktop and on a phone; then a lesson, the hint panel and a review
(``learning_shots``). The Decoherence deck builder is photographed with a deck built and
tested (a short test: 50 games against each preset), and a Decoherence game between two
devices with a few chat messages, each on a desktop and on a phone. The players' pages
(the lobby, a player, a leaderboard, a game with clocks) come from ``players_shots``; a
failed puzzle and the analysis board from ``puzzle_shots``.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from quarkade.server.limits import Limits
from quarkade.server.run import ServerThread
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.games.card_commons.helpers import EXAMPLE_MOVES
from tests.server.browser import decoherence, learning_shots, players_shots, puzzle_shots
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import store_position, take_seat

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return !!g && (g.dataset.turn === 'mine' || g.dataset.over === 'yes'); }"""


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
    held = None  # the invite is spent by the first device; the phone is the same player's
    for shot, options in (("game", {"viewport": {"width": 1280, "height": 860}}),
                          ("phone", {"viewport": PHONE, "device_scale_factor": 2,
                                     "is_mobile": True, "has_touch": True})):
        context = browser.new_context(**options, storage_state=held)
        page = context.new_page()
        if held is None:
            take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
        else:
            page.goto(f"{server.url}games/{game_id}?seat=0")
        held = context.storage_state()
        page.wait_for_function(MY_TURN_OR_OVER)
        if click:
            page.click(click)
        page.evaluate("window.scrollTo(0, 0)")
        bottom = page.locator("#table").bounding_box()
        height = max(page.viewport_size["height"], bottom["y"] + bottom["height"] + 16)
        page.screenshot(path=OUT / f"{name}-{shot}.png", full_page=True,
                        clip={"x": 0, "y": 0, "width": page.viewport_size["width"],
                              "height": height if shot == "phone" else 860})
        held = context.storage_state()
        context.close()


def shoot_deck_builder(browser: Browser, server: ServerThread) -> None:
    """``deck-builder.png`` and ``deck-builder-phone.png``: a deck built from a preset by
    clicking, saved, and tested."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(f"{server.url}decks/decoherence")
    page.click("button.preset[data-name=observer]")
    for click in ("less[data-word=verved]", "more[data-word=twigged]",
                  "less[data-word=through]", "more[data-word=down]"):
        page.click(f"button.{click}")
    page.fill("#deck-name", "observer, linked")
    page.click("#save")
    page.wait_for_selector("#saved li[data-id]")
    page.click("#test")
    page.wait_for_function("() => document.getElementById('builder').dataset.test === 'done'",
                           timeout=600_000)
    page.screenshot(path=OUT / "deck-builder.png", full_page=True)
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                has_touch=True, storage_state=context.storage_state())
    small = phone.new_page()
    small.goto(f"{server.url}decks/decoherence")
    small.click("button.more[data-word=kiki]")  # refused: the reason is shown
    small.screenshot(path=OUT / "deck-builder-phone.png", full_page=True)
    phone.close()
    context.close()


def shoot_chat(browser: Browser, server: ServerThread) -> None:
    """``chat-game.png`` (the host, on a desktop) and ``chat-phone.png`` (the friend, on a
    phone): a Decoherence game between two named players by invite link, on a 10 min + 5 s
    clock, the friend with their own saved deck, and a few chat messages."""
    host_context = browser.new_context(viewport={"width": 1280, "height": 860})
    host = host_context.new_page()
    _rename(host, server.url, "Noether")
    host.goto(f"{server.url}new/decoherence")
    host.select_option("#seat1", "friend")
    host.select_option("#time_control", "10+5")
    host.click("button:has-text('Start the game')")
    invite = host.locator(".invite input").input_value()
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    guest = phone.new_page()
    _rename(guest, server.url, "Curie")
    guest.goto(f"{server.url}decks/decoherence")
    guest.click("button.preset[data-name=weaver]")
    guest.fill("#deck-name", "my weaver")
    guest.click("#save")
    guest.wait_for_selector("#saved li[data-id]")
    guest.goto(invite)
    guest.select_option("#option\\.deck1-saved", label="my weaver")
    guest.click("button:has-text('Take the seat')")
    guest.wait_for_selector(".dc-bottom .dc-name")
    for page, text in ((host, "Good luck! My deck is all links this time."),
                       (guest, "Thanks, you too. Watch out for my boo'd."),
                       (host, "We'll see who decoheres first :)")):
        page.fill("#chat-text", text)
        page.press("#chat-text", "Enter")
        host.wait_for_function("(n) => document.querySelectorAll('#chat li').length >= n",
                               arg=1 + [host, guest].index(page))
    host.wait_for_function("() => document.querySelectorAll('#chat li').length === 3")
    guest.wait_for_function("() => document.querySelectorAll('#chat li').length === 3")
    host.wait_for_selector("#clocks .clock.running")
    host.screenshot(path=OUT / "chat-game.png")
    guest.locator("#chat-box").scroll_into_view_if_needed()
    guest.screenshot(path=OUT / "chat-phone.png")
    phone.close()
    host_context.close()


def _rename(page: Page, url: str, name: str) -> None:
    page.goto(f"{url}me")
    page.fill("#name", name)
    page.click("#rename button")
    page.wait_for_selector(f"#me[data-name='{name}']", state="attached")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, \
            ServerThread(f"sqlite:///{scratch}/shots.db",
                         review_budget=learning_shots.BUDGET,
                         limits=Limits(deck_test_games=50), warm_workers=True) as server, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        desktop = browser.new_context(viewport={"width": 1280, "height": 860})
        page = desktop.new_page()
        page.goto(server.url)
        page.screenshot(path=OUT / "home.png")
        page.goto(server.url + "new/hadronize")
        page.select_option("#option\\.players", "3")
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
        puzzle_shots.take_screenshots(browser, server.url, server.db, OUT)
        shoot_chat(browser, server)
        shoot_deck_builder(browser, server)
        players_shots.take(browser, server, OUT, PHONE)
        browser.close()
    for shot in sorted(OUT.glob("*.png")):
        print(shot.relative_to(OUT.parents[1]))


if __name__ == "__main__":
    main()
