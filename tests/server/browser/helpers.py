"""Helpers for the browser tests: what the game page tells a script (whose turn, which step),
and games stored at a chosen position: the moves (in notation, chance included) are played
on the engine and stored as the server stores games, so a page opens exactly there."""

from __future__ import annotations

import time
from typing import Any

from quarkade import load_game
from quarkade.core.protocol import State
from quarkade.server.seats import new_game_id, new_token
from quarkade.server.storage import Store, StoredSeat

# The game page's #game element carries data-turn ("mine" or "wait"), data-over and data-step.
MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return g.dataset.turn === 'mine' || g.dataset.over === 'yes'; }"""
STEP_CHANGED = "(step) => document.getElementById('game').dataset.step !== step"


def store_position(db: str, game: str, moves: tuple[str, ...] | list[str],
                   bots: dict[int, str] | None = None,
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
    return store_actions(db, game, loaded.options, played, state, bots)


def store_actions(db: str, game: str, options: dict[str, Any], played: list[tuple[int, int]],
                  state: State, bots: dict[int, str] | None = None,
                  ) -> tuple[str, dict[int, str], State]:
    """Store ``(player, action)`` pairs already played to reach ``state``; each friend
    seat's invite code is returned as its token."""
    game_id = new_game_id()
    bots = bots or {}
    tokens = {seat: new_token() for seat in range(state.game.num_players) if seat not in bots}
    seats = [StoredSeat(seat, "friend", None, f"seat {seat}", new_token(), False, invite,
                        time.time() + 24 * 3600) for seat, invite in tokens.items()]
    seats += [StoredSeat(seat, "bot", agent, f"seat {seat} ({agent})", None, True)
              for seat, agent in bots.items()]
    store = Store(db)
    store.create_game(game_id, game, dict(options), new_token(),
                      sorted(seats, key=lambda s: s.seat))
    if played:
        store.add_actions(game_id, 0, played, state.returns() if state.is_terminal() else None)
    store.close()
    return game_id, tokens, state


def stored_state(db: str, game_id: str) -> State:
    """The current state of a stored game, replayed from its actions."""
    store = Store(db)
    stored = store.load_game(game_id)
    store.close()
    assert stored is not None
    state = load_game(stored.game, **stored.options).new_initial_state()
    for action in stored.actions:
        state.apply_action(action)
    return state
