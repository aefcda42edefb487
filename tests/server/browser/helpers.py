"""Helpers for the browser tests: what the game page tells a script (whose turn, which step),
and games stored at a chosen position: the moves (in notation, chance included) are played
on the engine and stored as the server stores games, so a page opens exactly there."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page

from quarkade import load_game
from quarkade.core.protocol import State
from quarkade.server.keys import digest, new_secret
from quarkade.server.play.seats import new_game_id
from quarkade.server.storage import Store, StoredSeat
from tests.server.browser.accessibility import audit

# The game page's #game element carries data-turn ("mine" or "wait"), data-over and data-step.
# Null-safe: it may first run on the page a click is leaving (a form before its redirect).
MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return !!g && (g.dataset.turn === 'mine' || g.dataset.over === 'yes'); }"""
PEOPLE = ("Ada", "Ben", "Cy", "Di", "Ed", "Flo")  # the names of stored games' friend seats
STEP_CHANGED = "(step) => document.getElementById('game').dataset.step !== step"
STEP_CHANGED_OR_ASKED = """(step) => document.getElementById('game').dataset.step !== step
  || document.getElementById('confirm').open"""


def take_seat(page: Page, link: str) -> None:
    """Open an invite (or device) link and click its "Take the seat" button (opening it
    alone spends nothing); returns on the game page."""
    page.goto(link)
    page.click("#take-seat button[type=submit]")
    page.wait_for_url("**/games/*?seat=*")


def moved(page: Page, step: str | None) -> bool:
    """Wait for the move just made to show (the page's step passes ``step``). A move that
    ends the game without its mover winning asks first: the dialog is checked with axe-core
    and confirmed. Returns whether it asked."""
    page.wait_for_function(STEP_CHANGED_OR_ASKED, arg=step)
    if not page.locator("#confirm").evaluate("dialog => dialog.open"):
        return False
    audit(page, "the dialog asking before a move that ends the game")
    page.click("#confirm-yes")
    page.wait_for_function(STEP_CHANGED, arg=step)
    return True


def my_name(page: Any) -> str:
    """The name this device plays as (the page header names it)."""
    name = page.locator("#me").get_attribute("data-name")
    assert name, "the page names no player"
    return str(name)


def store_position(db: str, game: str, moves: tuple[str, ...] | list[str],
                   bots: dict[int, str] | None = None, reveal: bool = False,
                   **options: Any) -> tuple[str, dict[int, str], State]:
    """A game of ``game`` after ``moves``, every seat a friend not yet joined unless
    ``bots`` makes it a bot (``{1: "greedy"}``); returns its id, each friend seat's token
    (its invite link is ``/games/<id>/join/<token>``) and the state."""
    loaded = load_game(game, **options)
    state = loaded.new_initial_state()
    played = []
    for move in moves:
        player = state.current_player()
        action = state.string_to_action(move)
        state.apply_action(action)
        played.append((player, action))
    return store_actions(db, game, loaded.options, played, state, bots, reveal)


def store_actions(db: str, game: str, options: dict[str, Any], played: list[tuple[int, int]],
                  state: State, bots: dict[int, str] | None = None, reveal: bool = False,
                  visibility: str = "unlisted") -> tuple[str, dict[int, str], State]:
    """Store ``(player, action)`` pairs already played to reach ``state`` (``reveal``: show
    every hidden card once it is over; ``visibility``: ``public`` lets anyone watch and
    review it); each friend seat's invite code is returned as its token. A friend seat is
    named as a person would be (``PEOPLE``: seat 1 is "Ben") until a player joins it."""
    game_id = new_game_id()
    bots = bots or {}
    tokens = {seat: new_secret() for seat in range(state.game.num_players) if seat not in bots}
    seats = [StoredSeat(seat, "friend", None, PEOPLE[seat], None, False, digest(invite),
                        time.time() + 24 * 3600) for seat, invite in tokens.items()]
    seats += [StoredSeat(seat, "bot", agent, f"seat {seat} ({agent})", None, True)
              for seat, agent in bots.items()]
    store = Store(db)
    store.games.create(game_id, game, dict(options), digest(new_secret()),
                       sorted(seats, key=lambda s: s.seat), visibility=visibility,
                       reveal=reveal)
    if played:
        store.games.add_actions(game_id, 0, played,
                                state.returns() if state.is_terminal() else None)
    store.close()
    return game_id, tokens, state


def stored_state(db: str, game_id: str) -> State:
    """The current state of a stored game, replayed from its actions."""
    store = Store(db)
    stored = store.games.load(game_id)
    store.close()
    assert stored is not None
    state = load_game(stored.game, **stored.options).new_initial_state()
    for action in stored.actions:
        state.apply_action(action)
    return state
