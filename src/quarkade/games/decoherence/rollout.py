"""``rollout``, Decoherence's hard level: lookahead's choice of moves, judged by playing each
to the end of the game in many worlds the seat cannot tell from its own.

At a play decision of its own turn it draws ``worlds`` full states from its view (the
other seat's hand, deck, decklist and face-down nouns, as ``knowledge`` allows), scores
every legal move by the best line it starts with ``lookahead``'s weights (``TUNED``),
summed over the worlds, and keeps the best ``top``. Each of those is then played in every
world to the end of the game: itself on the line search with ``TUNED``, the other seat as
``greedy`` plays (its line search with ``GREEDY``), the same draws after the move whatever
the move (common random numbers). The move with the best total return is played; on a
tie, the better ranked. It is ``lookahead`` with the horizon moved from the end of the next
turn to the end of the game, which is where Decoherence is decided (the seat that moves
first runs out of cards first, docs/AGENTS.md).

Other decisions (a target chosen during the other seat's turn, discards) take the best
line with ``TUNED`` on one world, as ``lookahead`` does.

``compiled=1`` (the default) plays on the compiled engine (``compiled.rollout_totals``:
its worlds drawn as ``knowledge`` draws them, its own random streams); ``compiled=0`` in
Python, the reference (slow: for tests and small budgets).
"""

from __future__ import annotations

import importlib.util
import random
import time as _time
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.core.errors import AgentSpecError
from quarkade.core.options import Option
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.lines import TUNED, LinePlayer, playout_move
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.games.decoherence.sentences import PLAY


class RolloutAgent(Agent):
    """Plays its best few moves to the end of the game in sampled worlds."""

    spec = "rollout"
    parameters = (
        Option("worlds", 64, "worlds drawn from its view at each of its plays", int,
               minimum=1, server_maximum=128),
        Option("top", 4, "its best-ranked moves played to the end of the game in every world",
               int, minimum=1, server_maximum=16),
        Option("compiled", 1, "1: play the worlds on the compiled engine (with numba); 0: in "
               "Python", int, minimum=0, maximum=1),
    )

    def __init__(self, worlds: int = 64, top: int = 4, compiled: int = 1) -> None:
        if worlds < 1 or top < 1:
            raise AgentSpecError(f"worlds and top must be at least 1 (got worlds={worlds}, "
                                 f"top={top})")
        if compiled not in (0, 1):
            raise AgentSpecError("compiled is 1 (playouts on the compiled engine, if numba is "
                                 "installed) or 0 (in Python)")
        self.worlds = int(worlds)
        self.top = int(top)
        self.compiled = bool(compiled)
        self.mine = LinePlayer(TUNED)
        self.last_totals: dict[int, float] = {}
        self.last_seconds = 0.0

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        me = turn.player
        first = cast(DecoherenceState, turn.sample_state(rng))
        if first._phase != PLAY or first._active != me:
            return self.mine.choose(first, me, legal)
        started = _time.perf_counter()
        seed = rng.getrandbits(48)
        if self.compiled and importlib.util.find_spec("numba") is not None:
            totals = self._compiled(first, me, legal, seed)
        else:
            totals = self._python(turn, me, legal, seed)
        self.last_totals = totals
        self.last_seconds = _time.perf_counter() - started
        ranked = list(totals)  # best ranked first
        return max(ranked, key=lambda a: (totals[a], -ranked.index(a)))

    def _compiled(self, world: DecoherenceState, me: int, legal: list[int], seed: int
                  ) -> dict[int, float]:
        import numpy as np

        from quarkade.games.decoherence import compiled

        root = compiled.with_odds(compiled.to_compiled(world), world, me)
        moves = np.array(legal, np.int64)
        candidates = np.zeros(len(legal), np.int64)
        totals = np.zeros(len(legal), np.float64)
        kept = compiled.rollout_totals(root, me, moves, len(legal), self.worlds, self.top,
                                       seed, candidates, totals)
        return {int(candidates[k]): float(totals[k]) for k in range(kept)}

    def _python(self, turn: Turn, me: int, legal: list[int], seed: int) -> dict[int, float]:
        """The same evaluation on the reference engine (worlds from ``Turn.sample_state``,
        each with its own seeded ``random.Random``)."""
        worlds = [cast(DecoherenceState, turn.sample_state(random.Random(seed + w)))
                  for w in range(self.worlds)]
        sums = {a: sum(self.mine.line(world, me, a) for world in worlds) for a in legal}
        ranked = sorted(legal, key=lambda a: (-sums[a], a))[:self.top]
        totals = dict.fromkeys(ranked, 0.0)
        for w, world in enumerate(worlds):
            for action in ranked:
                state = world.clone()
                state.apply_action(action)
                chance = random.Random(seed * 31 + w)
                while not state.is_terminal():
                    state.apply_action(sample_chance(state, chance) if state.is_chance_node()
                                       else playout_move(state, me))
                totals[action] += state.returns()[me]
        return totals


__all__ = ["RolloutAgent"]
