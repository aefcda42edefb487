"""Decoherence bots that read only their own view: ``greedy``, ``lookahead`` and ``rollout``.

``greedy`` draws one full state consistent with its view (``Turn.sample_state``) and plays
the best short line on it (``lines.LinePlayer``: every card it may play, finished into a
sentence, scored as its turn would end).

``lookahead`` (``lookahead.py``) plays those lines further on several sampled worlds: its
own turn, the other seat's whole turn as ``greedy`` would play it, then its own best line
on its next turn. ``rollout`` (``rollout.py``, the hard level) plays lookahead's best moves
to the end of the game in many worlds, on the compiled engine.
"""

from __future__ import annotations

import math
import random
from typing import cast

from quarkade.core.agent import Agent, Turn, turn_for
from quarkade.core.parts import LevelSpec
from quarkade.games.decoherence.lines import GREEDY, LinePlayer, score
from quarkade.games.decoherence.lookahead import LookaheadAgent
from quarkade.games.decoherence.rollout import RolloutAgent
from quarkade.games.decoherence.rules import DecoherenceState

ESTIMATE_SCALE = 6.0  # score points for a return of about +-0.76 (tanh 1)


def estimate(state: DecoherenceState) -> list[float]:
    """Each seat's expected return from a full state, for search playouts cut short."""
    if state.is_terminal():
        return state.returns()
    lead = math.tanh((score(state, 0) - score(state, 1)) / (2 * ESTIMATE_SCALE))
    return [lead, -lead]


class GreedyAgent(Agent):
    """Scores short lines of play on one sampled state and takes the best first step."""

    spec = "greedy"
    title = "Greedy bot"
    about = ("Tries short lines of play on one guess of the hidden cards and takes the best first "
             "step.")

    def __init__(self) -> None:
        self.player = LinePlayer(GREEDY)

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = cast(DecoherenceState, turn.sample_state(rng))
        return self.player.choose(state, turn.player, legal)


_ROLLOUT = GreedyAgent()


def rollout(state: DecoherenceState, rng: random.Random) -> int:
    """A search playout's move for the seat to move (``ismcts:rollout=greedy``): greedy's,
    on a world drawn from that seat's view of the playout's state."""
    return _ROLLOUT.act(turn_for(state), rng)


# Difficulty levels (see docs/AGENTS.md): hard plays lookahead's best 4 moves to the end of
# the game in 128 worlds drawn from what it knows (``rollout``, on the compiled engine).
# Against greedy, lookahead scored 0.750 [0.714, 0.783] over 600 games, the compiled ismcts
# with greedy or line playouts 0.63-0.70 over 40, rollout 0.787 [0.686, 0.863] over 80.
LEVELS: dict[str, LevelSpec] = {"easy": "random", "medium": "greedy", "hard": "rollout"}

BOTS: dict[str, type[Agent]] = {"greedy": GreedyAgent, "lookahead": LookaheadAgent,
                                "rollout": RolloutAgent}
