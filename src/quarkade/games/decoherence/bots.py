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

from quarkade.core.agent import Agent, Turn
from quarkade.games.decoherence.lines import GREEDY, LinePlayer, score
from quarkade.games.decoherence.lookahead import TUNED, LookaheadAgent
from quarkade.games.decoherence.rollout import RolloutAgent
from quarkade.games.decoherence.rules import DecoherenceState

ESTIMATE_SCALE = 6.0  # score points for a return of about +-0.76 (tanh 1)


def estimate(state: DecoherenceState) -> list[float]:
    """Each seat's expected return from a full state, for search playouts cut short."""
    if state.is_terminal():
        return state.returns()
    lead = math.tanh((score(state, 0) - score(state, 1)) / (2 * ESTIMATE_SCALE))
    return [lead, -lead]


_OWN, _OTHER = LinePlayer(TUNED), LinePlayer(GREEDY)


def playout_move(state: DecoherenceState, me: int) -> int:
    """A search's ``lines`` playout move in a world (a full state): seat ``me`` (the
    seat searching) plays the line search with ``lookahead``'s weights, the other seat
    ``greedy``'s; nothing more is drawn (``compiled.lines.lines_action`` is the same)."""
    seat = state.current_player()
    return (_OWN if seat == me else _OTHER).choose(state, seat, state.legal_actions())


class GreedyAgent(Agent):
    """Scores short lines of play on one sampled state and takes the best first step."""

    spec = "greedy"

    def __init__(self) -> None:
        self.player = LinePlayer(GREEDY)

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = cast(DecoherenceState, turn.sample_state(rng))
        return self.player.choose(state, turn.player, legal)


# Difficulty levels (see docs/AGENTS.md): hard plays lookahead's best moves to the end of
# the game in 128 worlds drawn from what it knows (``rollout``, on the compiled engine).
# Against greedy, lookahead scored 0.750 [0.714, 0.783] over 600 games, ismcts with greedy
# or line playouts 0.63-0.70 over 40, rollout with 64 worlds 0.787 [0.686, 0.863] over 80.
LEVELS = {"easy": "random", "medium": "greedy", "hard": "rollout:worlds=128"}

BOTS = {"greedy": GreedyAgent, "lookahead": LookaheadAgent, "rollout": RolloutAgent}

# Hints and reviews estimate each move's win chance with a search whose playouts are the
# line search's (agents/estimate.py): random play loses a Decoherence game within a few
# turns, so random playouts say little about a move.
ESTIMATE_ROLLOUT = "lines"
