"""The compiled endgame for the search bots (``mcts`` asks it at its root, as ``hard``),
and the exact values hints and reviews show (``action_values``, the game's ``exact`` part).

A winning action when the position is small enough to settle within a node budget and the
seat to move wins; else None, and the bot searches as usual. Classic positions with at most
``CLASSIC_CELLS`` empty cells go to the Classic solver, Tutorial positions with at most
``TUTORIAL_CELLS`` to the Tutorial solver. One solver per rule set and field serves the
process, behind a lock (the web app plays bots on several threads).
"""

from __future__ import annotations

import random
import threading

from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve import classic, tutorial

CLASSIC_CELLS = classic.ENDGAME_CELLS
TUTORIAL_CELLS = 11  # a position this empty takes well under a second (docs/ANALYSIS.md)
NODES = 1_500_000  # the budget of one search: about half a second
VALUE_NODES = 3_000_000  # the budget of all of one position's action values: about a second
TABLE_BITS = 20  # 32 MiB per solver

_lock = threading.Lock()
_classic: dict[bool, classic.ClassicSolver] = {}
_tutorial: dict[bool, tutorial.TutorialSolver] = {}


def winning_action(state: CardCommonsState, nodes: int = NODES) -> int | None:
    """A winning action for the seat to move, if a search within ``nodes`` finds it wins."""
    if state.phase() not in ("turn", "repel", "polarize"):
        return None
    empty = sum(1 for cell in range(16) if not state.stack(cell))
    torus = bool(state.game.options["torus"])
    module = tutorial if state.variant == "tutorial" else classic
    if empty > (TUTORIAL_CELLS if module is tutorial else CLASSIC_CELLS):
        return None
    with _lock:
        solver = _solver(state.variant, torus)
        value, move = solver.best_move(module.position_of(state), nodes)
    return module.action_of(*move) if value == module.WIN and move else None


def action_values(state: CardCommonsState, nodes: int = VALUE_NODES
                  ) -> dict[int, float] | None:
    """The seat to move's exact win chance after each legal action (1: it wins with best
    play, 0: it loses), when the position is within the endgame's reach and the searches
    of all the actions settle within ``nodes`` together; else None."""
    if state.phase() not in ("turn", "repel", "polarize"):
        return None
    empty = sum(1 for cell in range(16) if not state.stack(cell))
    torus = bool(state.game.options["torus"])
    seat = state.current_player()
    module = tutorial if state.variant == "tutorial" else classic
    if empty > (TUTORIAL_CELLS if module is tutorial else CLASSIC_CELLS):
        return None
    values: dict[int, float] = {}
    left = nodes
    with _lock:
        solver = _solver(state.variant, torus)
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                values[action] = 1.0 if child.returns()[seat] > 0 else 0.0
                continue
            result = solver.value(module.position_of(child), budget=left)
            left -= result.nodes
            if result.value not in (module.WIN, module.LOSS) or left <= 0:
                return None
            mover_wins = result.value == module.WIN
            values[action] = 1.0 if mover_wins == (child.current_player() == seat) else 0.0
    return values


def _solver(variant: str, torus: bool) -> classic.ClassicSolver | tutorial.TutorialSolver:
    """The process's solver for these rules and field (the caller holds the lock)."""
    if variant == "tutorial":
        if torus not in _tutorial:
            _tutorial[torus] = tutorial.TutorialSolver(torus=torus, table_bits=TABLE_BITS)
        return _tutorial[torus]
    if torus not in _classic:
        _classic[torus] = classic.ClassicSolver(torus=torus, table_bits=TABLE_BITS)
    return _classic[torus]


def endgame(state: CardCommonsState, rng: random.Random) -> int | None:
    """The ``endgame`` hook of ``bots``: the rng is not needed (the answer is exact)."""
    return winning_action(state)


__all__ = ["CLASSIC_CELLS", "NODES", "TUTORIAL_CELLS", "VALUE_NODES", "action_values",
           "endgame", "winning_action"]
