"""Dead Cat in a real browser: a whole game against a bot played by clicking (Peek, the die
widget, Announce), the time deck drawn as the seat knows it at every turn, and two seats of
one table each seeing only their own peeks."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from quarkade.core.protocol import State
from tests.games.dead_cat.playing import random_game
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import (
    MY_TURN_OR_OVER,
    STEP_CHANGED,
    moved,
    my_name,
    store_actions,
    store_position,
    stored_state,
    take_seat,
)


def start_game(page: Page, url: str, players: int, seats: dict[int, str]) -> str:
    page.goto(url)
    page.click("a[href='/new/dead-cat']")
    page.select_option("#option\\.players", str(players))
    for seat, kind in seats.items():
        page.select_option(f"#seat{seat}", kind)
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))
    return page.url.rsplit("/", 1)[1]


def time_deck_on_page(page: Page) -> list[str]:
    return page.locator(".dc-slot").evaluate_all("slots => slots.map(s => s.ariaLabel)")


def time_deck_known(state: State, seat: int, names: dict[int, str]) -> list[str]:
    """The time deck as the seat's view tells it, in the words the page uses."""
    return [f"Position {entry['position']}: "
            + (f"{entry['card']} cat" if entry["card"] else "unknown") + ", "
            + ("you peeked" if entry["peeker"] == seat else f"peeked by {names[entry['peeker']]}")
            for entry in state.view(seat)["time_deck"]]


def test_a_whole_game_against_a_bot_played_by_clicking(page: Page, server) -> None:
    game_id = start_game(page, server.url, 3, {1: "bot:greedy", 2: "bot:random"})
    names = {0: f"{my_name(page)} (you)", 1: "Greedy bot", 2: "Random bot"}
    expect(page.locator(".dc-seat")).to_have_count(3)
    bets = peeks = announced = 0
    for turn in range(400):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        if turn == 1:
            audit(page, "Dead Cat in play")
        step = page.locator("#game").get_attribute("data-step")
        state = stored_state(server.db, game_id)
        assert time_deck_on_page(page) == time_deck_known(state, 0, names)
        expect(page.locator(".dc-box")).to_contain_text(f"Box: {state.box_left()} card")
        faces = page.locator("button.dc-die-choice:not([disabled])")
        if faces.count():
            # Just peeked: the card is on top of the time deck, seen by this seat alone.
            top = page.locator(".dc-slot").first
            expect(top).to_contain_text("you peeked")
            expect(top.locator(".dc-card")).to_have_text(state.time_deck()[0])
            shown = state.dice()[0]
            expect(faces).to_have_count(5)
            expect(page.locator(f"button[data-bet='{shown}']")).to_be_disabled()
            choice = faces.nth(turn % 5)
            if turn % 2:
                choice.focus()
                page.keyboard.press("Enter")
            else:
                choice.click()
            bets += 1
        elif ((announced == 0 and peeks) or turn % 5 == 4) and page.locator(
                "[data-key=announce]").count():
            # The first chance after a peek announces, so every game announces at least
            # once however soon the bots end it (chance is drawn by the server).
            page.click("[data-key=announce]")
            announced += 1
        else:
            page.click("[data-key=peek]")
            peeks += 1
        moved(page, step)
    else:
        raise AssertionError("the game did not end")
    final = stored_state(server.db, game_id)
    assert final.is_terminal() and bets == peeks and announced
    winners = final.game_winners()
    expect(page.locator(".dc-seat.winner")).to_have_count(len(winners))
    expect(page.locator("#result")).to_contain_text("Game over:")
    expect(page.locator(".dc-head")).to_contain_text("Game over")
    expect(page.locator(".dc-last")).to_contain_text(
        f"Round {final.last_round()['round']}.")
    for seat in winners:
        expect(page.locator(".dc-seat").nth(seat)).to_contain_text(f"cubes: {final.cubes()[seat]}")
    # The replay page draws the same table at any step, with nothing to click.
    page.goto(f"{server.url}games/{game_id}/replay")
    steps = len(final.history())
    expect(page.locator("#where")).to_have_text(f"step 0 of {steps}")
    expect(page.locator(".dc-head")).to_contain_text("A die roll picks who begins.")
    page.click("#last")
    expect(page.locator("#where")).to_have_text(f"step {steps} of {steps}")
    expect(page.locator(".dc-seat.winner")).to_have_count(len(winners))
    expect(page.locator("#table button")).to_have_count(0)


def test_each_seat_sees_only_its_own_peeks(device, server) -> None:
    # Seat 0 peeks an alive cat and bets 3; seat 1 peeks a dead cat and bets 2.
    moves = ["first 0", "peek", "draw alive", "bet 3", "peek", "draw dead", "bet 2"]
    game_id, tokens, state = store_position(server.db, "dead-cat", moves)
    pages = {}
    for seat in (0, 1):
        pages[seat] = device(viewport=PHONE if seat else None)
        take_seat(pages[seat], f"{server.url}games/{game_id}/join/{tokens[seat]}")
        expect(pages[seat].locator(".dc-slot")).to_have_count(2)
    names = {seat: my_name(page) for seat, page in pages.items()}
    for seat, page in pages.items():
        assert time_deck_on_page(page) == time_deck_known(state, seat, names)
    mine, theirs = pages[0].locator(".dc-slot").nth(1), pages[0].locator(".dc-slot").nth(0)
    expect(mine.locator(".dc-card")).to_have_text("alive")
    expect(theirs.locator(".dc-card")).to_have_text("?")
    expect(theirs).to_contain_text(f"peeked by {names[1]}")
    expect(pages[0].locator(".dc-card.dead")).to_have_count(0)
    expect(pages[1].locator(".dc-slot").nth(0).locator(".dc-card")).to_have_text("dead")
    expect(pages[1].locator(".dc-slot").nth(1).locator(".dc-card")).to_have_text("?")
    # Seat 0 is to move: Peek and Announce are buttons; the other seat has none.
    expect(pages[0].locator("[data-key=announce]")).to_be_visible()
    expect(pages[1].locator("[data-key=announce], [data-key=peek]")).to_have_count(0)
    step = pages[0].locator("#game").get_attribute("data-step")
    pages[0].click("[data-key=announce]")
    moved(pages[0], step)
    for page in pages.values():
        page.wait_for_function(STEP_CHANGED, arg=step)
        # The reveal stops at once on seat 1's dead cat: a count of 1, and seat 1's 2 is
        # closer to it than seat 0's 3.
        expect(page.locator(".dc-last")).to_contain_text("first dead cat was card 1")
        expect(page.locator(".dc-last")).to_contain_text(
            re.compile(re.escape(names[1]) + r"( \(you\))? takes a cube"))
        expect(page.locator(".dc-revealed .dc-card")).to_have_text(["dead"])
    assert pages[1].evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_four_four_ending_reads_as_a_shared_win(page: Page, server) -> None:
    """Both seats reach four cubes in the same round: the page says they share the win, as
    the terminal, the records and the simulator do (State.outcome(), DC-13)."""
    final = random_game(seed=307, players=2, announce=0.05)
    assert final.cubes() == [4, 4]
    replay = final.game.new_initial_state()
    played = []
    for action in final.history():
        played.append((replay.current_player(), action))
        replay.apply_action(action)
    game_id, tokens, _ = store_actions(server.db, "dead-cat", dict(final.game.options),
                                       played, final)
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    expect(page.locator("#result")).to_have_text(
        "Game over: you and Ben share the win.")
    expect(page.locator(".dc-head")).to_contain_text("you and Ben share the win with 4 cubes.")
    expect(page.locator(".dc-seat.winner")).to_have_count(2)
    expect(page.locator("body")).not_to_contain_text("a draw")
