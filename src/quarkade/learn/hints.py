"""Hints: a win chance for each of the seat's moves, and the best of them, from one search.

A hint is computed from a ``Turn`` only (the seat's view, legal moves and seat model), so it
holds nothing the seat may not know. The starred move is the best by the very numbers the
hint shows (one search, ``estimate_moves``): a second search, such as a bot's own, could
star a move the numbers rank lower (issue 25). A game in which a seat asked for a hint is
flagged (the terminal's record and the web app's game keep the flag), so that it is never
rated.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from quarkade.agents.estimate import estimate_moves
from quarkade.core.agent import Turn
from quarkade.core.protocol import JSON

# A hint's search time (the first web hint answers within 3 s: docs/PERFORMANCE.md).
HINT_SECONDS = 1.5


@dataclass(frozen=True)
class MoveHint:
    action: int
    text: str
    chance: float


@dataclass(frozen=True)
class Hint:
    """Every legal move's win chance, best first; ``best`` is the first."""

    seat: int
    moves: tuple[MoveHint, ...]
    iterations: int
    exact: bool = False  # the chances are solved values (1 or 0), not estimates

    @property
    def best(self) -> MoveHint:
        return self.moves[0]

    def as_json(self) -> JSON:
        return {"seat": self.seat,
                "best": {"id": self.best.action, "text": self.best.text},
                "moves": [{"id": m.action, "text": m.text, "chance": round(m.chance, 4)}
                          for m in self.moves],
                "iterations": self.iterations, "exact": self.exact}


def hint_for(turn: Turn, rng: random.Random, seconds: float = HINT_SECONDS,
             iterations: int = 0, clock: Callable[[], float] = time.perf_counter) -> Hint:
    """The hint for ``turn``: each legal move's estimated win chance (``seconds`` and/or
    ``iterations`` of one search), best first (ties: the lower action id)."""
    found = estimate_moves(turn, rng, iterations=iterations, seconds=seconds, clock=clock)
    moves = sorted((MoveHint(m.action, turn.action_text(m.action), m.chance)
                    for m in found.moves), key=lambda m: (-m.chance, m.action))
    return Hint(turn.player, tuple(moves), found.iterations, found.exact)
