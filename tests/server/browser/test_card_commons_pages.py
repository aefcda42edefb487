"""Card Commons in a real browser: a whole game against a bot played by clicking (and by
keyboard), the lit cells of a chosen card against the engine's ``lit_cells`` in several
positions (the opening, the rulebook's example with an inversion and a 2's diagonal, a
torus, a stack), an inversion with its discard chosen on the page, and the Repel and
Polarize decided on the field."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from quarkade import load_game
from quarkade.games.card_commons.notation import cell_id
from tests.games.card_commons.helpers import EXAMPLE_MOVES
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import (
    MY_TURN_OR_OVER,
    moved,
    my_name,
    store_actions,
    store_position,
    stored_state,
    take_seat,
)


def start_game(page: Page, url: str, seat1: str, **options: str) -> None:
    page.goto(url)
    page.click("a[href='/new/card-commons']")
    for name, value in options.items():
        field = page.locator(f"#option\\.{name}")
        if field.get_attribute("type") == "checkbox":  # a yes/no option
            field.set_checked(value == "true")
        else:
            field.select_option(value)
    page.select_option("#seat1", seat1)
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))


def step_of(page: Page) -> str:
    return page.locator("#game").get_attribute("data-step") or ""


def play_my_turn(page: Page, turn: int) -> None:
    """One decision on the table: a Repel or Polarize target (or declining it), else a card
    and one of its lit cells (and a discard for an inversion), else Pass. Every third turn
    is played by keyboard."""
    step = step_of(page)
    keyboard = turn % 3 == 0
    targets = page.locator("button.cc-cell.target")
    cards = page.locator("button.cc-hand-card:not([disabled])")
    if targets.count():
        if turn % 2:
            targets.nth(turn % targets.count()).click()
        else:
            page.click(".cc-prompt [data-key=decline]")
    elif cards.count():
        card = cards.nth(turn % cards.count())
        if keyboard:
            card.focus()
            page.keyboard.press("Enter")
            expect(page.locator("button.cc-cell.lit").first).to_be_focused()
            page.keyboard.press("Enter")
        else:
            card.click()
            lit = page.locator("button.cc-cell.lit")
            lit.nth(turn % lit.count()).click()
        discards = page.locator("button.cc-discard")
        if discards.count():  # an inversion: which card to throw away
            if keyboard:
                expect(discards.first).to_be_focused()
                page.keyboard.press("Enter")
            else:
                discards.nth(turn % discards.count()).click()
    else:
        page.click(".cc-prompt [data-key=pass]")
    moved(page, step)


@pytest.mark.parametrize("options", [{}, {"variant": "tutorial", "torus": "true"}],
                         ids=["classic", "tutorial-torus"])
def test_a_whole_game_against_a_bot_played_by_clicking(page: Page, server, options) -> None:
    start_game(page, server.url, "bot:greedy", **options)
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".cc-cell")).to_have_count(16)
    for turn in range(100):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        expect(page.locator("#status")).to_have_text(f"Your turn, {my_name(page)} (you).")
        if turn == 1:
            audit(page, "Card Commons in play")
            # Classic scoring is shown only where it decides the game.
            if options.get("variant") == "tutorial":
                expect(page.locator(".cc-seat-side")).to_have_count(0)
                expect(page.locator(".cc-notes")).to_have_text(
                    "Whoever has no card to place at the start of their turn loses.")
            else:
                expect(page.locator(".cc-seat-side")).to_have_count(2)
                expect(page.locator(".cc-seat-side").first).to_contain_text("keep it open")
                expect(page.locator(".cc-notes")).to_contain_text("wins a full tie")
        # Every legal action is also a text button beside the table.
        legal = stored_state(server.db, game_id).legal_actions()
        expect(page.locator("#moves button")).to_have_count(len(legal))
        play_my_turn(page, turn)
    else:
        raise AssertionError("the game did not end")
    final = stored_state(server.db, game_id)
    assert final.is_terminal()
    winner = final.winner()
    # The table's foot says who won and how, to "you" where this device's player won.
    said = {0: "You win", 1: "Greedy bot wins"}
    expect(page.locator(".cc-result")).to_contain_text(said[winner])
    expect(page.locator(".cc-result")).not_to_contain_text("(you)")
    if winner == 0 and not options:
        expect(page.locator(".cc-result")).to_contain_text("on your side")
    expect(page.locator("#result")).to_contain_text("Game over:")
    expect(page.locator(".cc-seat .tag.win")).to_have_count(1)
    # Every card is where the engine says, drawn on the field or in a hand or thrown away.
    on_page = page.locator(".cc .cc-card").count()
    assert on_page == 24
    # The replay page draws the same table, with nothing to click.
    page.goto(f"{server.url}games/{game_id}/replay")
    steps = len(final.history())
    expect(page.locator("#where")).to_have_text(f"step 0 of {steps}")
    page.click("#last")
    expect(page.locator("#where")).to_have_text(f"step {steps} of {steps}")
    expect(page.locator(".cc-result")).to_contain_text(said[winner])
    expect(page.locator("button.cc-cell, button.cc-hand-card")).to_have_count(0)
    page.click("#first")
    expect(page.locator(".cc-head")).to_contain_text("A coin decides who opens.")
    page.click("#forward")
    who = {0: my_name(page), 1: "Greedy bot"}
    expect(page.locator(".cc-head")).to_contain_text(
        re.compile(re.escape(who[final.opener()]), re.I))


def open_seat(device, server, game_id: str, token: str, **context: object) -> Page:
    page = device(**context)
    take_seat(page, f"{server.url}games/{game_id}/join/{token}")
    page.wait_for_function(MY_TURN_OR_OVER)
    return page


def lit_on_page(page: Page) -> list[str]:
    cells = page.locator("button.cc-cell.lit").evaluate_all(
        "buttons => buttons.map(b => b.dataset.cell)")
    return sorted(cells, key=cell_id)


def check_every_card(page: Page, state) -> dict[str, list[str]]:
    """Choose each card of the hand in turn: the lit cells on the page are the engine's
    ``lit_cells`` for it, and a card with none cannot be chosen. Returns them by card."""
    seat = state.current_player()
    found = {}
    for card in state.view(seat)["hands"][seat]:
        button = page.locator(f"button[data-key='hand-{card}']")
        expected = state.lit_cells(card)
        if not expected:
            expect(button).to_be_disabled()
            continue
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        assert lit_on_page(page) == expected, card
        expect(page.locator(".cc-prompt")).to_contain_text(" ".join(expected))
        found[card] = expected
    return found


def random_position(seed: int, plies: int, **options: object):
    """A position reached by ``plies`` random moves (placements preferred to passes), then
    played on to an ordinary turn; returns the moves as (player, action) and the state."""
    rng = random.Random(seed)
    game = load_game("card-commons", **options)
    state = game.new_initial_state()
    played = []
    while len(played) < plies or state.phase() != "turn":
        legal = state.legal_actions()
        placements = [a for a in legal if state.action_to_string(a) != "pass"]
        action = rng.choice(placements or legal)
        played.append((state.current_player(), action))
        state.apply_action(action)
        assert not state.is_terminal()
    return game, played, state


def test_lit_cells_on_the_page_match_the_engine(device, server) -> None:
    # The opening: any 2-5 on the four centre cells, an Ace or a 6 nowhere.
    game_id, tokens, state = store_position(server.db, "card-commons", ["opener 0"])
    page = open_seat(device, server, game_id, tokens[0])
    found = check_every_card(page, state)
    assert found["3H"] == ["b2", "c2", "b3", "c3"] and "AH" not in found

    # The rulebook's example: the 3 of hearts lights 5 cells; the 4 of spades also lights
    # the 4 of diamonds it would invert; the 2 of spades lights diagonal (Tunnel) cells.
    game_id, tokens, state = store_position(server.db, "card-commons", EXAMPLE_MOVES)
    page = open_seat(device, server, game_id, tokens[0], viewport=PHONE)
    found = check_every_card(page, state)
    assert found["3H"] == ["b1", "c1", "a2", "d2", "d4"]
    assert "c3" in found["4S"] and state.view(0)["field"]["c3"]  # an inversion
    page.click("button[data-key='hand-4S']")
    expect(page.locator("button[data-cell='c3'] .cc-tag")).to_have_text("invert")
    page.click("button[data-key='hand-2S']")
    tunnels = ["a1", "d1", "a3", "b4"]  # diagonal to a card, orthogonal to none
    assert set(tunnels) <= set(found["2S"])
    for cell in tunnels:
        expect(page.locator(f"button[data-cell='{cell}'] .cc-tag")).to_have_text("tunnel")
    # Escape puts the card back; the keyboard brings it again, focus on its first lit cell.
    page.keyboard.press("Escape")
    expect(page.locator("button.cc-cell.lit")).to_have_count(0)
    expect(page.locator("button[data-key='hand-2S']")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("button[data-cell='b4']")).to_be_focused()  # row 4 is drawn on top
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # A stack on the field, seat 1 to move; and a torus in the middle of a game.
    game_id, tokens, state = store_position(server.db, "card-commons",
                                            [*EXAMPLE_MOVES, "inv 4S c3 /AH"])
    page = open_seat(device, server, game_id, tokens[1])
    expect(page.locator("[aria-label^='c3: a stack']")).to_have_count(1)
    check_every_card(page, state)
    game, played, state = random_position(11, 9, torus=True)
    game_id, tokens, _ = store_actions(server.db, "card-commons", game.options, played, state)
    page = open_seat(device, server, game_id, tokens[state.current_player()])
    assert len(check_every_card(page, state)) >= 3


def test_an_inversion_asks_which_card_to_throw_away(device, server) -> None:
    game_id, tokens, state = store_position(server.db, "card-commons", EXAMPLE_MOVES)
    page = open_seat(device, server, game_id, tokens[0])
    page.click("button[data-key='hand-4S']")
    page.click("button[data-cell='c3']")
    discards = page.locator("button.cc-discard")
    offered = discards.evaluate_all("buttons => buttons.map(b => b.dataset.key.slice(8))")
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert sorted(offered) == sorted(t.split("/")[1] for t in legal
                                     if t.startswith("inv 4S c3 "))
    expect(discards.first).to_be_focused()
    step = step_of(page)
    page.click("button[data-key='discard-AH']")
    moved(page, step)
    assert stored_state(server.db, game_id).history()[-1] == state.string_to_action(
        "inv 4S c3 /AH")
    expect(page.locator("[aria-label='c3: a stack, 4♠ on top of 4♦']")).to_have_count(1)
    expect(page.locator(".cc-seat.seat-0 .cc-out")).to_contain_text("Thrown away")


@pytest.mark.parametrize(("move", "choice"), [("3H d2", "repel d3>d4"),
                                               ("5S c4", "polarize c3")])
def test_repel_and_polarize_are_chosen_on_the_field(device, server, move, choice) -> None:
    game_id, tokens, state = store_position(server.db, "card-commons", [*EXAMPLE_MOVES, move])
    page = open_seat(device, server, game_id, tokens[0])
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    targets = page.locator("button.cc-cell.target").evaluate_all(
        "buttons => buttons.map(b => b.dataset.cell)")
    assert sorted(targets) == sorted(t.split()[1][:2] for t in legal if not t.startswith("no "))
    expect(page.locator(".cc-prompt [data-key=decline]")).to_have_text(
        "Don't repel" if choice.startswith("repel") else "Don't polarize")
    step = step_of(page)
    page.click(f"button[data-cell='{choice.split()[1][:2]}']")
    moved(page, step)
    assert stored_state(server.db, game_id).history()[-1] == state.string_to_action(choice)
