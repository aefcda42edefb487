"""Card Commons bots that read only their own turn: ``greedy``, ``solver`` and ``perfect``.

``endgame`` is also exported here: the generic ``mcts`` bot calls it at its root to play
solved endgames perfectly. With numba (the ``solve`` extra) it is the compiled solver
(``solve.endgame``: Classic from 8 empty cells, the Tutorial from 11); without, the Python
one (``solver``: 6 empty cells).


``greedy`` looks one whole turn ahead for itself and one for its opponent: for each way to
finish its turn (a placement with its Repel or Polarize choice, or a pass) it assumes the
reply that is worst for it, and plays the move whose worst reply is best (ties broken by
the rng). A position is scored for the bot as

* Classic: a finished game is worth +-WIN; otherwise open cells on its own side minus the
  opponent's (the first scoring step) weigh most, then the opponent's particles on their
  side minus its own (the second step), then a little for each card kept in hand;
* Tutorial: a finished game is worth +-WIN; otherwise the number of places the seat to
  move can put a card (being left with none loses): good for the bot when it is the one
  to move, bad when it is the opponent.

Inversions that differ only in the discarded card are searched once, with the discard the
bot needs least: the card with the fewest cells to go to, extremes (Aces, 6s) first.
The bot gets a full state from ``turn.sample_state``: nothing is hidden in this game.
"""

from __future__ import annotations

import random
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.games.card_commons.notation import (
    HAND_SIZE,
    INVERT_BASE,
    NUM_CELLS,
    REPEL_BASE,
    decode_invert,
    decode_place,
)
from quarkade.games.card_commons.rules import CardCommonsState as State
from quarkade.games.card_commons.solver import (
    ENDGAME_CELLS,
    ENDGAME_NODES,
    BudgetExceeded,
    Solver,
    empty_cells,
)
from quarkade.games.card_commons.solver import endgame as python_endgame

WIN = 100_000.0
OPEN_CELL = 100.0
PARTICLE = 10.0
CARD_IN_HAND = 2.0


def evaluate(state: State, me: int) -> float:
    """The position's worth to seat ``me`` (see the module docstring)."""
    if state.is_terminal():
        return state.returns()[me] * WIN
    other = 1 - me
    if state.variant == "tutorial":
        mobility = float(len(_distinct_placements(state.legal_actions())))
        return mobility if state.current_player() == me else -mobility
    open_cells = state.open_cells(me) - state.open_cells(other)
    particles = state.particles(other) - state.particles(me)
    cards = len(state.hand(me)) - len(state.hand(other))
    return OPEN_CELL * open_cells + PARTICLE * particles + CARD_IN_HAND * cards


def candidate_actions(legal: list[int]) -> list[int]:
    """``legal`` with each group of inversions that differ only in the discard cut to one,
    whose discard is the card the mover can best spare."""
    placements_per_card = [0] * HAND_SIZE
    for action in legal:
        if action < INVERT_BASE:
            placements_per_card[decode_place(action)[0]] += 1
    chosen: dict[int, int] = {}
    kept = []
    for action in legal:
        if not INVERT_BASE <= action < REPEL_BASE:
            kept.append(action)
            continue
        local, cell, discard = decode_invert(action)
        key = local * NUM_CELLS + cell
        best = chosen.get(key)
        if best is None or _spare(discard, placements_per_card) < \
                _spare(decode_invert(best)[2], placements_per_card):
            chosen[key] = action
    return sorted(kept + list(chosen.values()))


def endgame(state: State, rng: random.Random) -> int | None:
    """A winning action in a small enough won position, else None (see the docstring)."""
    from quarkade.games.card_commons.solve import jit

    if jit.MISSING is not None:
        return python_endgame(state, rng)
    from quarkade.games.card_commons.solve.endgame import endgame as compiled_endgame

    return compiled_endgame(state, rng)


class GreedyAgent(Agent):
    """Best move against the opponent's best immediate reply (``reply=0``: no reply look)."""

    spec = "greedy"

    def __init__(self, reply: int = 1) -> None:
        if reply not in (0, 1):
            raise ValueError("reply is 0 (no look at the reply) or 1")
        self.reply = reply

    def act(self, turn: Turn, rng: random.Random) -> int:
        state = cast(State, turn.sample_state(rng))
        me = turn.player
        actions = candidate_actions(turn.legal_actions)
        if len(actions) == 1:
            return actions[0]
        scored = []
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            scored.append((self._value(child, me), action))
        best = max(value for value, _ in scored)
        return rng.choice([action for value, action in scored if value >= best - 1e-9])

    def _value(self, state: State, me: int) -> float:
        """Worth of ``state`` to ``me``, with the rest of ``me``'s turn played best and, if
        ``reply``, the opponent's whole next turn played worst for ``me``."""
        if state.is_terminal():
            return evaluate(state, me)
        if state.current_player() == me:  # a Repel or Polarize choice of this same turn
            return max(self._value(_after(state, a), me) for a in state.legal_actions())
        if not self.reply:
            return evaluate(state, me)
        return min(self._reply_value(_after(state, a), me)
                   for a in candidate_actions(state.legal_actions()))

    def _reply_value(self, state: State, me: int) -> float:
        if not state.is_terminal() and state.current_player() != me:
            return min(self._reply_value(_after(state, a), me) for a in state.legal_actions())
        return evaluate(state, me)


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def _spare(local: int, placements_per_card: list[int]) -> tuple[int, float]:
    """Lower is easier to give up: fewer places to go, then levels far from the middle."""
    return placements_per_card[local], -abs(local % 6 + 1 - 3.5)


def _distinct_placements(legal: list[int]) -> set[int]:
    """(card, cell) pairs among the legal actions: each inversion counted once."""
    pairs = set()
    for action in legal:
        if action < INVERT_BASE:
            pairs.add(action)
        elif action < REPEL_BASE:
            local, cell, _ = decode_invert(action)
            pairs.add(local * NUM_CELLS + cell)
    return pairs


class SolverAgent(Agent):
    """Perfect once the position is small enough to solve (see ``solver``); greedy before.

    ``cells`` is the most empty cells it tries to solve at, ``nodes`` its search budget.
    When the position is solved lost, every move loses against best play, and it falls
    back to greedy, which is the likeliest to trip an imperfect opponent.
    """

    spec = "solver"

    def __init__(self, cells: int = ENDGAME_CELLS, nodes: int = ENDGAME_NODES) -> None:
        self.cells = cells
        self.nodes = nodes
        self._greedy = GreedyAgent()
        self.solved = False

    def act(self, turn: Turn, rng: random.Random) -> int:
        state = cast(State, turn.sample_state(rng))
        self.solved = False
        if state.phase() != "opening" and empty_cells(state) <= self.cells:
            try:
                winners = Solver(self.nodes).winning_actions(state)
            except BudgetExceeded:
                winners = []
            if winners:
                self.solved = True
                return rng.choice(winners)
        return self._greedy.act(turn, rng)

class PerfectAgent(Agent):
    """The Tutorial game played perfectly: the opening book, then the compiled solver.

    It opens with an opening its seat wins if there is one (else one the book has not
    settled, never one known to lose), plays a winning move whenever
    the position is won (from the book while play stays in it, else by searching), and in
    a lost position plays greedy's move, the likeliest to trip an imperfect opponent.
    ``nodes`` caps one search (0: none); past it (only possible early on, off the book)
    it also plays greedy's move. In Classic, which is not solved, it is the ``solver`` bot.
    Needs the ``solve`` extra (numba); the solver and its table are shared per process.
    """

    spec = "perfect"

    def __init__(self, nodes: int = 50_000_000) -> None:
        if nodes < 0:
            raise ValueError("nodes is 0 (no cap) or more")
        from quarkade.games.card_commons.solve import perfect

        perfect.require()
        self.nodes = int(nodes)
        self._greedy = GreedyAgent()
        self._classic = SolverAgent()
        self.solved = False  # whether the last move came from the book or the solver

    def act(self, turn: Turn, rng: random.Random) -> int:
        from quarkade.games.card_commons.solve import perfect

        state = cast(State, turn.sample_state(rng))
        if state.variant != "tutorial":
            self.solved = False
            return self._classic.act(turn, rng)
        action = perfect.winning_action(state, rng, self.nodes)
        self.solved = action is not None
        if action is not None:
            return action
        fallback = self._greedy.act(turn, rng)
        if state.phase() == "opening":
            # No opening known to win: keep off those known to lose (docs/ANALYSIS.md).
            unsettled = perfect.unsettled_openings(state)
            if unsettled and fallback not in unsettled:
                return rng.choice(unsettled)
        return fallback


# Difficulty levels (see docs/AGENTS.md): hard searches 20,000 playouts (capped at 1.8 s;
# about 0.2 s on the compiled engine) over greedy's candidate moves (one discard per
# inversion) with a low exploration constant, and plays solved endgames perfectly
# (the compiled endgame solver: Classic from 8 empty cells, the Tutorial from 11).
LEVELS = {"easy": "random", "medium": "greedy",
          "hard": "mcts:iterations=20000,time=1.8,c=0.5,candidates=1"}


BOTS = {"greedy": GreedyAgent, "perfect": PerfectAgent, "solver": SolverAgent}

__all__ = ["BOTS", "GreedyAgent", "PerfectAgent", "SolverAgent", "endgame", "evaluate"]
