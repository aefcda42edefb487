"""Exact endgames for Card Commons: alpha-beta over win/loss with a transposition table.

Card Commons has no chance after the opener's coin and no draws (C-12), so every position
is a win or a loss for the seat to move under best play. The search is minimax on {-1, +1}
from seat 0's point of view with the full window, which makes every value it returns
exact: a max node stops at its first winning child, a min node at its first losing one,
and both values go into the table keyed by ``CardCommonsState.position_key``.

The tree is small only near the end: ``solve`` gives up (returns None) past a node budget.
``endgame`` is the hook the generic ``mcts`` bot calls at its root (see
``quarkade.agents.search``): with at most ``ENDGAME_CELLS`` empty cells it tries to solve
the position and, if the seat to move wins, plays a winning move.
"""

from __future__ import annotations

import random

from quarkade.core.protocol import State
from quarkade.games.card_commons.notation import NUM_CELLS
from quarkade.games.card_commons.rules import CardCommonsState

ENDGAME_CELLS = 6
ENDGAME_NODES = 40_000


class BudgetExceeded(Exception):
    """The search visited more positions than it was allowed."""


class Solver:
    """Win/loss values of Card Commons positions, remembered across calls."""

    def __init__(self, max_nodes: int = ENDGAME_NODES) -> None:
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[object, ...], int] = {}

    def value(self, state: CardCommonsState) -> int:
        """+1 if seat 0 wins from ``state`` under best play, -1 if seat 1 does."""
        if state.is_terminal():
            return 1 if state.returns()[0] > 0 else -1
        key = state.position_key()
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BudgetExceeded
        maximizing = state.current_player() == 0
        wanted = 1 if maximizing else -1
        result = -wanted
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if self.value(child) == wanted:
                result = wanted
                break
        self.table[key] = result
        return result

    def winning_actions(self, state: CardCommonsState) -> list[int]:
        """Every legal action after which the seat to move wins with best play."""
        me = state.current_player()
        wanted = 1 if me == 0 else -1
        winners = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if self.value(child) == wanted:
                winners.append(action)
        return winners


def solve(state: CardCommonsState, max_nodes: int = ENDGAME_NODES) -> int | None:
    """The exact value for seat 0, or None if the budget runs out first."""
    try:
        return Solver(max_nodes).value(state)
    except BudgetExceeded:
        return None


def empty_cells(state: CardCommonsState) -> int:
    return sum(1 for cell in range(NUM_CELLS) if not state.stack(cell))


def endgame(state: State, rng: random.Random) -> int | None:
    """A winning action when the position is small enough to solve and is won; else None."""
    if not isinstance(state, CardCommonsState) or state.is_chance_node() or \
            state.phase() == "opening" or empty_cells(state) > ENDGAME_CELLS:
        return None
    solver = Solver(ENDGAME_NODES)
    try:
        winners = solver.winning_actions(state)
    except BudgetExceeded:
        return None
    return rng.choice(winners) if winners else None

