"""Decoherence bots that read only their own view: ``greedy`` and ``lookahead``.

``greedy`` draws one full state consistent with its view (``Turn.sample_state``) and plays
the best short line on it (``lines.LinePlayer``: every card it may play, finished into a
sentence, scored as its turn would end).

``lookahead`` (``lookahead.py``, the hard level) plays those lines further on several
sampled worlds: its own turn, the other seat's whole turn as ``greedy`` would play it, then
its own best line on its next turn.
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


# Difficulty levels (see docs/AGENTS.md): hard looks a turn of each seat ahead on sampled
# worlds. Against greedy, information-set search (``ismcts``) scored 0.56 over 200 games,
# lookahead 0.750 [0.714, 0.783] over 600.
LEVELS = {"easy": "random", "medium": "greedy", "hard": "lookahead"}

BOTS = {"greedy": GreedyAgent, "lookahead": LookaheadAgent, "rollout": RolloutAgent}

# Hints and reviews estimate each move's win chance with a search whose playouts are the
# line search's (agents/estimate.py): random play loses a Decoherence game within a few
# turns, so random playouts say little about a move.
ESTIMATE_ROLLOUT = "lines"
