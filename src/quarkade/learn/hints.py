"""Hints: what the ``hard`` bot would play, and a win chance for each of the seat's moves.

A hint is computed from a ``Turn`` only (the seat's view, legal moves and seat model), so it
holds nothing the seat may not know; the bot is handed the same turn, and a bot that
remembers earlier turns (one with ``observe``, such as Dead Cat's sleuth) first plays the
seat's own earlier turns, as if it had sat there all game. A game in which a seat asked
for a hint is flagged (the terminal's record and the web app's game keep the flag), so that
it is never rated.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from quarkade.agents.estimate import estimate_moves
from quarkade.agents.registry import make_agent
from quarkade.core.agent import Turn
from quarkade.core.protocol import JSON

# A hint's search time, on top of the bot's own (the hard levels answer within 2 s).
HINT_SECONDS = 1.0


@dataclass(frozen=True)
class MoveHint:
    action: int
    text: str
    chance: float


@dataclass(frozen=True)
class Hint:
    """The bot's move and every legal move's win chance, best first."""

    seat: int
    bot: str
    bot_move: int
    bot_text: str
    moves: tuple[MoveHint, ...]
    iterations: int

    def as_json(self) -> JSON:
        return {"seat": self.seat, "bot": self.bot,
                "bot_move": {"id": self.bot_move, "text": self.bot_text},
                "moves": [{"id": m.action, "text": m.text, "chance": round(m.chance, 4)}
                          for m in self.moves],
                "iterations": self.iterations}


def hint_for(turn: Turn, rng: random.Random, bot: str = "hard",
             past_turns: Iterable[Turn] = (), seconds: float = HINT_SECONDS,
             iterations: int = 0, clock: Callable[[], float] = time.perf_counter) -> Hint:
    """The hint for ``turn``: ``bot``'s move and each legal move's estimated win chance
    (``seconds`` and/or ``iterations`` of search; ``past_turns`` are the seat's earlier
    turns of this game, for a bot that remembers)."""
    agent: Any = make_agent(bot, turn.game.name)
    if hasattr(agent, "observe"):
        for past in past_turns:
            agent.act(past, random.Random(0))
    chosen = agent.act(turn, random.Random(rng.getrandbits(64)))
    found = estimate_moves(turn, rng, iterations=iterations, seconds=seconds, clock=clock)
    moves = sorted((MoveHint(m.action, turn.action_text(m.action), m.chance)
                    for m in found.moves), key=lambda m: (-m.chance, m.action))
    return Hint(turn.player, bot, chosen, turn.action_text(chosen), tuple(moves),
                found.iterations)
