"""The compiled endgame for the search bots (``mcts`` asks it at its root, as ``hard``).

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
    with _lock:
        if state.variant == "tutorial":
            if empty > TUTORIAL_CELLS:
                return None
            if torus not in _tutorial:
                _tutorial[torus] = tutorial.TutorialSolver(torus=torus, table_bits=TABLE_BITS)
            value, move = _tutorial[torus].best_move(tutorial.position_of(state), nodes)
            return tutorial.action_of(*move) if value == tutorial.WIN and move else None
        if empty > CLASSIC_CELLS:
            return None
        if torus not in _classic:
            _classic[torus] = classic.ClassicSolver(torus=torus, table_bits=TABLE_BITS)
        value, move = _classic[torus].best_move(classic.position_of(state), nodes)
        return classic.action_of(*move) if value == classic.WIN and move else None


def endgame(state: CardCommonsState, rng: random.Random) -> int | None:
    """The ``endgame`` hook of ``bots``: the rng is not needed (the answer is exact)."""
    return winning_action(state)


__all__ = ["CLASSIC_CELLS", "NODES", "TUTORIAL_CELLS", "endgame", "winning_action"]
