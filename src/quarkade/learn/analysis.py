"""The analysis board's answer: every legal move of a Card Commons position, judged.

Where the exact solver settles a move within its share of a node budget
(``solve.puzzles.Exact``: the Tutorial and Classic endgames after the opening), the move
is marked as winning or losing for the seat to move, proven. Every other move gets the
search's estimate, a win chance from one search of ``seconds`` (the hint's search:
``agents.estimate``). Winning moves come first, then the estimated ones by chance, then
the losing ones.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass

from quarkade.core.agent import turn_for
from quarkade.core.protocol import JSON
from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve.puzzles import SOLVED_PHASES, Exact, Unsettled
from quarkade.learn.hints import hint_for

BUDGET = 2_000_000  # solver nodes for all the moves, shared evenly, before a move counts as
# out of the solver's reach (about a second of one core in all)
SECONDS = 1.5  # the estimate's search, when any move is out of reach


@dataclass(frozen=True)
class MoveValue:
    action: int
    text: str
    exact: str | None  # "wins" or "loses" (for the seat to move), when the solver settles it
    chance: float | None  # the estimate's win chance, when it does not

    def as_json(self) -> JSON:
        return {
            "id": self.action,
            "text": self.text,
            "exact": self.exact,
            "chance": None if self.chance is None else round(self.chance, 3),
        }


def analyse(
    state: CardCommonsState, rng: random.Random, budget: int = BUDGET, seconds: float = SECONDS
) -> list[MoveValue]:
    """Every legal move of the seat to move, judged (see the module), best first."""
    if state.is_terminal() or state.current_player() < 0:
        return []
    mover = state.current_player()
    exact = Exact(table_bits=18, budget=max(1, budget // len(state.legal_actions())))
    settled: dict[int, str | None] = {}
    for action in state.legal_actions():
        settled[action] = None
        if state.phase() not in SOLVED_PHASES:
            continue  # the opening: out of the endgame solver's reach
        child = state.clone()
        child.apply_action(action)
        with contextlib.suppress(Unsettled):  # out of reach: estimated below
            settled[action] = "wins" if exact.wins(child, mover) else "loses"
    chances: dict[int, float] = {}
    if any(value is None for value in settled.values()):
        found = hint_for(turn_for(state), rng, seconds=seconds)
        chances = {move.action: move.chance for move in found.moves}
    moves = [
        MoveValue(
            action,
            state.action_to_string(action),
            value,
            None if value is not None else chances.get(action, 0.0),
        )
        for action, value in settled.items()
    ]
    order = {"wins": 0, None: 1, "loses": 2}
    return sorted(moves, key=lambda move: (order[move.exact], -(move.chance or 0.0), move.action))


__all__ = ["BUDGET", "MoveValue", "analyse"]
