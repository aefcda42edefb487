"""Hadronize in a real browser: a whole game against a bot by clicking (and by keyboard),
two devices at one table by invite link, the generic page that every game gets before
its renderer, and the replay page stepping through a finished game."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.server.keys import digest, new_secret
from quarkade.server.play.seats import new_game_id
from quarkade.server.storage import Store, StoredSeat
from quarkade.sim import play_match
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import moved, my_name, take_seat

MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return !!g && (g.dataset.turn === 'mine' || g.dataset.over === 'yes'); }"""
STEP_CHANGED = "(step) => document.getElementById('game').dataset.step !== step"


def start_game(page: Page, url: str, seat1: str, players: int = 2) -> None:
    page.goto(url)
    page.click("a[href='/new/hadronize']")
    page.select_option("#option\\.players", str(players))
    page.select_option("#seat1", seat1)
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))


def play_my_turn(page: Page, how: int) -> None:
    """One move, made one of three ways: a click on a chamber, Enter on a focused chamber,
    or the digit key of a listed move."""
    step = page.locator("#game").get_attribute("data-step")
    chambers = page.locator("button.hz-chamber")
    if how == 0:
        chambers.nth(1).click()
    elif how == 1:
        chambers.nth(0).focus()
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("1")
    moved(page, step)


def test_a_whole_game_against_a_bot_played_by_clicking(page: Page, server) -> None:
    page.goto(server.url)
    start_game(page, server.url, "bot:greedy")
    first_game = page.url.rsplit("/", 1)[1]
    expect(page.locator(".hz-chamber")).to_have_count(2)
    for turn in range(500):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        expect(page.locator("#status")).to_have_text(f"Your turn, {my_name(page)} (you).")
        if turn == 1:
            audit(page, "Hadronize in play")
        # Every legal move is a chamber button and a text button, and they agree.
        expect(page.locator("button.hz-chamber")).to_have_count(2)
        expect(page.locator("#moves button")).to_have_count(2)
        play_my_turn(page, turn % 3)
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#result")).to_contain_text("Game over:")
    # Either side may win (the deal is the server's): the status names the winner.
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^Game over: (you win|(?!seat|null)\S.* wins)\.$"))
    expect(page.locator(".hz-chamber.winner")).to_have_count(1)
    expect(page.locator("#rematch")).to_be_visible()
    assert page.locator("#log li").count() > 3
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/games/(?!" + re.escape(first_game) + r")\w+$"))
    expect(page.locator("#status")).not_to_have_text("Connecting...")
    expect(page.locator(".hz-chamber")).to_have_count(2)


def test_two_devices_play_one_table_by_invite_link(device, server) -> None:
    host = device()
    start_game(host, server.url, "friend")
    invite = host.locator(".invite input").input_value()
    assert "/join/" in invite
    guest = device(viewport=PHONE, is_mobile=True, has_touch=True)
    take_seat(guest, invite)
    expect(guest.locator("#seats")).to_contain_text(f"{my_name(guest)} (you)")
    expect(host.locator("#seats")).not_to_contain_text("invited")  # the host saw them join
    pages = {0: host, 1: guest}
    for _ in range(6):
        step = host.locator("#game").get_attribute("data-step")
        expect(guest.locator("#game")).to_have_attribute("data-step", step)
        turns = {seat: page.locator("#game").get_attribute("data-turn")
                 for seat, page in pages.items()}
        assert sorted(turns.values()) == ["mine", "wait"], turns
        mover = next(seat for seat, turn in turns.items() if turn == "mine")
        expect(pages[1 - mover].locator("button.hz-chamber")).to_have_count(0)
        chamber = pages[mover].locator("button.hz-chamber").first
        chamber.tap() if mover == 1 else chamber.click()  # the guest is on a touch screen
        moved(pages[mover], step)
        for page in pages.values():  # the move shows on both pages
            page.wait_for_function(STEP_CHANGED, arg=step)
    # A phone-sized page needs no sideways scrolling.
    assert guest.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_hot_seat_play_passes_one_device_from_seat_to_seat(page: Page, server) -> None:
    start_game(page, server.url, "hotseat")
    names = {0: my_name(page), 1: "Player 2"}  # "me" at seat 0, another person at seat 1
    for _ in range(4):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        shown = page.locator(".hz-chamber.to-move .hz-name span").first.inner_text()
        mover = 0 if shown.startswith(names[0]) else 1
        # Hadronize hides nothing, so the page turns to the seat to move by itself.
        expect(page.locator("#status")).to_have_text(f"Your turn, {names[mover]} (you).")
        assert "seat=" not in page.url or page.url.endswith(f"?seat={mover}")
        play_my_turn(page, 0)
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") != "yes":
            expect(page.locator("#status")).to_have_text(
                f"Your turn, {names[1 - mover]} (you).")


def test_the_generic_page_plays_any_game_from_its_text_moves(page: Page, server) -> None:
    start_game(page, server.url, "bot:random")
    page.goto(page.url + "?renderer=generic")
    expect(page.locator("#table .generic > dl")).to_be_visible()
    expect(page.locator(".hz-chamber")).to_have_count(0)
    for _ in range(3):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        step = page.locator("#game").get_attribute("data-step")
        first = page.locator("#moves button").first
        expect(first).to_contain_text(f"Observe {my_name(page)} - ")  # the generic table
        first.focus()
        page.keyboard.press("Enter")
        moved(page, step)
    expect(page.locator("#table .generic")).to_contain_text("chambers")


def finished_game(db: str) -> tuple[str, int]:
    """A finished game between two bots, stored as the server stores games."""
    game = load_game("hadronize")
    final, record = play_match(game, [make_agent("greedy", "hadronize"),
                                      make_agent("random", "hadronize")], seed=8)
    game_id = new_game_id()
    store = Store(db)
    store.games.create(game_id, "hadronize", game.options, digest(new_secret()), [
        StoredSeat(0, "bot", "greedy", "seat 0 (greedy)", None, True),
        StoredSeat(1, "bot", "random", "seat 1 (random)", None, True)])
    store.games.add_actions(game_id, 0, [(a.player, a.id) for a in record.actions], final.returns())
    store.close()
    return game_id, len(record.actions)


def test_the_replay_page_steps_through_a_finished_game(page: Page, server) -> None:
    game_id, steps = finished_game(server.db)
    page.goto(f"{server.url}games/{game_id}/replay")
    where = page.locator("#where")
    quarks = page.locator(".hz-quarks .quark")
    expect(where).to_have_text(f"step 0 of {steps}")
    expect(quarks).to_have_count(0)
    expect(page.locator("#back")).to_be_disabled()
    page.click("#forward")
    expect(where).to_have_text(f"step 1 of {steps}")
    expect(quarks).to_have_count(1)
    page.click("#last")
    expect(where).to_have_text(f"step {steps} of {steps}")
    expect(page.locator(".hz-chamber.winner")).to_have_count(1)
    expect(page.locator("#forward")).to_be_disabled()
    page.click("#back")
    expect(where).to_have_text(f"step {steps - 1} of {steps}")
    page.click("#first")
    expect(where).to_have_text(f"step 0 of {steps}")
    page.keyboard.press("End")
    expect(where).to_have_text(f"step {steps} of {steps}")
    page.locator("#log li button").nth(9).click()
    expect(where).to_have_text(f"step 10 of {steps}")
    expect(page.locator("#log li.current")).to_have_count(1)
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert len(record["actions"]) == steps and record["viewer"] == "spectator"


def test_the_replay_stepper_stays_off_until_the_game_has_loaded(page: Page, server) -> None:
    """If the game's data never arrives, the page says so and its stepper stays disabled;
    a key or a slider event then does nothing (the fixture fails on any script error)."""
    game_id, _ = finished_game(server.db)
    page.route(f"**/api/games/{game_id}", lambda route: route.abort())
    page.goto(f"{server.url}games/{game_id}/replay")
    expect(page.locator("#problem")).to_be_visible()
    for control in ("#first", "#back", "#forward", "#last", "#slider"):
        expect(page.locator(control)).to_be_disabled()
    page.keyboard.press("End")
    page.locator("#slider").dispatch_event("input")
    expect(page.locator("#where")).to_have_text("loading")
    page.unroute(f"**/api/games/{game_id}")
    page.reload()
    expect(page.locator("#where")).to_have_text(re.compile(r"^step 0 of \d+$"))
    expect(page.locator("#forward")).to_be_enabled()
    expect(page.locator("#slider")).to_be_enabled()
