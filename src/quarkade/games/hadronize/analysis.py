"""What the simulator records about a finished Hadronize game (the hook described in
``quarkade.sim.hooks`` and docs/ARCHITECTURE.md).

- key events: turns played, how the game ended, each seat's hadronized quarks, how many
  reactions hadronized or tunnelled, and the largest single hadronization;
- game tags: the player count (the designer's question "does the first seat gain more at
  a bigger table?") and, with a turn cap, whether the goal or the cap ended the game;
- seat tags: each seat's place in the turn order (1 for the seat chance picked to begin);
- running score: hadronized quarks, so the summary can count lead changes.
"""

from __future__ import annotations

from typing import Any

from quarkade.games.hadronize.notation import FIRST_BASE
from quarkade.games.hadronize.rules import (
    STARTING_QUARKS,
    HadronizeState,
)

NOTES = {
    "turn order": "1 is the seat chance picked to begin (H-1); play goes round from there.",
}


def key_events(state: HadronizeState) -> dict[str, Any]:
    n = state.game.num_players
    replay: HadronizeState = state.game.new_initial_state()  # type: ignore[assignment]
    hadronizations = tunnels = largest = 0
    for action in state.history():
        collapsing = replay.is_chance_node() and replay.superposition() is not None
        if not collapsing:
            replay.apply_action(action)
            continue
        mover = replay.active_seat()
        score, held = replay.hadronized(mover), sum(replay.chamber(mover))
        replay.apply_action(action)
        gained = replay.hadronized(mover) - score
        if gained:
            hadronizations += 1
            largest = max(largest, gained)
        elif sum(replay.chamber(mover)) - held >= 2:  # quarks tunnelled into the mover's
            tunnels += 1
    return {
        "turns": state.turns_played(),
        "ended": _ending(state),
        "hadronized": [state.hadronized(seat) for seat in range(n)],
        "hadronizations": hadronizations,
        "tunnels": tunnels,
        "largest_hadronization": largest,
    }


def game_tags(state: HadronizeState) -> dict[str, Any]:
    tags: dict[str, Any] = {"players": state.game.num_players}
    if state.game.options["max_turns"]:
        tags["ended by"] = _ending(state)
    return tags


def seat_tags(state: HadronizeState) -> list[dict[str, Any]]:
    n = state.game.num_players
    first = _first_seat(state)
    return [{"turn order": (seat - first) % n + 1} for seat in range(n)]


def running_score(state: HadronizeState) -> list[float]:
    return [float(state.hadronized(seat)) for seat in range(state.game.num_players)]


def _first_seat(state: HadronizeState) -> int:
    """The seat chance picked to begin: the ``first`` action right after the deal."""
    return state.history()[STARTING_QUARKS * state.game.num_players] - FIRST_BASE


def _ending(state: HadronizeState) -> str:
    goal = state.game.options["goal"]
    return "goal" if any(state.hadronized(s) >= goal for s in range(state.game.num_players)) \
        else "turn cap"
