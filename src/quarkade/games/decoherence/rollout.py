"""``rollout``, Decoherence's hard level: lookahead's choice of moves, judged by playing each
to the end of the game in many worlds the seat cannot tell from its own.

At a play decision of its own turn it draws ``worlds`` full states from its view (the
other seat's hand, deck, decklist and face-down nouns, as ``knowledge`` allows), scores
every legal move by the best line it starts with ``lookahead``'s weights (``TUNED``),
summed over the worlds, and keeps the best ``top``. Each of those is then played in every
world to the end of the game, the same draws after the move whatever the move (common
random numbers), and the move with the best total return (+1 a win, -1 a loss: the win
share) is played; on a tie, the better ranked. It is ``lookahead`` with the horizon moved
from the end of the next turn to the end of the game, which is where Decoherence is
decided (the seat that moves first runs out of cards first, docs/AGENTS.md).

In the playouts itself plays its best line with ``TUNED`` and the other seat its best
line with ``GREEDY``, both on the world as it is (``opponent=lines``, ``guess=0``, the
defaults). With ``opponent=greedy`` the other seat plays exactly as ``greedy`` does, on its
own guess of this seat's face-down nouns (the only hidden cards a line reads), drawn
afresh at each of its decisions from what it knows (the proofs are kept as the playout
goes); with ``guess=1`` this seat guesses the other's the same way. Both are how the game
is played, yet they made the same choices at every position measured, at 1.5 times
the CPU (a line's choice seldom turns on which noun lies face-down; docs/AGENTS.md).

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

from quarkade.core.agent import Agent, Turn, turn_for
from quarkade.core.errors import AgentSpecError
from quarkade.core.options import Option
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.lines import GREEDY, TUNED, LinePlayer, playout_move
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.games.decoherence.sentences import PLAY


class RolloutAgent(Agent):
    """Plays its best few moves to the end of the game in sampled worlds."""

    spec = "rollout"
    parameters = (
        Option("worlds", 128, "worlds drawn from its view at each of its plays", int,
               minimum=1, server_maximum=128),
        Option("top", 4, "its best-ranked moves played to the end of the game in every world",
               int, minimum=1, server_maximum=16),
        Option("opponent", "lines", "how the other seat plays in the playouts: greedy (as "
               "greedy plays, guessing this seat's face-down nouns) or lines (greedy's weights, "
               "seeing them)", str, choices=("greedy", "lines")),
        Option("guess", 0, "1: in the playouts it plays on its own guess of the other "
               "seat's face-down nouns, as it must in the game; 0: it sees them", int,
               minimum=0, maximum=1),
        Option("compiled", 1, "1: play the worlds on the compiled engine (with numba); 0: in "
               "Python", int, minimum=0, maximum=1),
    )

    def __init__(self, worlds: int = 128, top: int = 4, opponent: str = "lines",
                 guess: int = 0, compiled: int = 1) -> None:
        if worlds < 1 or top < 1:
            raise AgentSpecError(f"worlds and top must be at least 1 (got worlds={worlds}, "
                                 f"top={top})")
        if compiled not in (0, 1):
            raise AgentSpecError("compiled is 1 (playouts on the compiled engine, if numba is "
                                 "installed) or 0 (in Python)")
        if guess not in (0, 1):
            raise AgentSpecError("guess is 1 (it plays on its own guess in the playouts) or "
                                 "0 (it sees the world)")
        self.guess = bool(guess)
        if opponent not in ("greedy", "lines"):
            raise AgentSpecError(f"opponent is greedy or lines (got {opponent!r})")
        self.opponent = opponent
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
        opponent = compiled.GREEDY if self.opponent == "greedy" else compiled.GREEDY_LINES
        own = compiled.TUNED_GUESS if self.guess else compiled.TUNED_LINES
        kept = compiled.rollout_totals(root, me, moves, len(legal), self.worlds, self.top,
                                       seed, own, opponent, candidates, totals)
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
                    if state.is_chance_node():
                        move = sample_chance(state, chance)
                    elif state.current_player() != me:
                        move = (_guess_move(state, _GREEDY, chance) if self.opponent == "greedy"
                                else playout_move(state, me))
                    else:
                        move = (_guess_move(state, self.mine, chance) if self.guess
                                else playout_move(state, me))
                    state.apply_action(move)
                totals[action] += state.returns()[me]
        return totals


_GREEDY = LinePlayer(GREEDY)


def _guess_move(state: DecoherenceState, player: LinePlayer, rng: random.Random) -> int:
    """The move of the seat to move as ``player`` plays on a state drawn from that seat's
    view (with ``GREEDY``, ``bots.GreedyAgent``'s move)."""
    turn = turn_for(state)
    legal = turn.legal_actions
    if len(legal) == 1:
        return legal[0]
    return player.choose(cast(DecoherenceState, turn.sample_state(rng)), turn.player, legal)


__all__ = ["RolloutAgent"]
