"""Card Commons bots that read only their own turn: ``greedy``, ``solver`` and ``perfect``.

``endgame`` is also exported here: the generic ``mcts`` bot calls it at its root to play
solved endgames perfectly. With numba (the ``solve`` extra) it is the compiled solver
(``solve.endgame``: Classic from 8 empty cells, the Tutorial from 11); without, the Python
one (``solver``: 6 empty cells).

``greedy`` looks one whole turn ahead for itself and one for its opponent: for each way to
finish its turn (a placement with its Repel or Polarize choice, or a pass) it assumes the
reply that is worst for it, and plays the move whose worst reply is best (ties broken by
the rng). It scores positions and cuts the inversions to consider as ``policy.py`` says.
The bot gets a full state from ``turn.sample_state``: nothing is hidden in this game.
"""

from __future__ import annotations

import random
from typing import cast

from quarkade.core.agent import Agent, Turn, turn_for
from quarkade.core.options import Option
from quarkade.core.parts import LevelSpec
from quarkade.games.card_commons.policy import candidate_actions, evaluate
from quarkade.games.card_commons.rules import CardCommonsState as State
from quarkade.games.card_commons.solver import (
    ENDGAME_CELLS,
    ENDGAME_NODES,
    BudgetExceeded,
    Solver,
    empty_cells,
)
from quarkade.games.card_commons.solver import endgame as python_endgame


def endgame(state: State, rng: random.Random) -> int | None:
    """A winning action in a small enough won position, else None (see the docstring)."""
    from quarkade.games.card_commons.solve import jit

    if jit.MISSING is not None:
        return python_endgame(state, rng)
    from quarkade.games.card_commons.solve.endgame import endgame as compiled_endgame

    return compiled_endgame(state, rng)


def exact(state: State) -> dict[int, float] | None:
    """The seat to move's exact win chance after each legal action, where the compiled
    solver settles them (``solve.endgame.action_values``); None without numba."""
    from quarkade.games.card_commons.solve import jit

    if jit.MISSING is not None:
        return None
    from quarkade.games.card_commons.solve.endgame import action_values

    return action_values(state)


class GreedyAgent(Agent):
    """Best move against the opponent's best immediate reply (``reply=0``: no reply look)."""

    spec = "greedy"
    title = "Greedy bot"
    about = ("Takes the move that leaves it best off after the other player's best reply.")
    parameters = (Option("reply", 1, "1: assume the opponent's best reply; 0: look at "
                         "its own turn only", int, minimum=0, maximum=1),)

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


class SolverAgent(Agent):
    """Perfect once the position is small enough to solve (see ``solver``); greedy before.

    ``cells`` is the most empty cells it tries to solve at, ``nodes`` its search budget.
    When the position is solved lost, every move loses against best play, and it falls
    back to greedy, which is the likeliest to trip an imperfect opponent.
    """

    spec = "solver"
    title = "Endgame bot"
    about = "Plays like the greedy bot until few cells are left, then perfectly."
    parameters = (
        Option("cells", ENDGAME_CELLS, "the most empty cells at which it tries to solve",
               int, minimum=0, maximum=16, server_maximum=9),
        Option("nodes", ENDGAME_NODES, "the most positions one solve may visit", int,
               minimum=1, server_maximum=200_000),
    )

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
    title = "Perfect tutorial bot"
    about = ("Plays the Tutorial variant perfectly, from a book of openings and then a full "
             "solver.")
    parameters = (Option("nodes", 50_000_000, "the most positions one search may visit "
                         "(past it: greedy's move)", int, minimum=1, server_maximum=200_000),)

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


_ROLLOUT = GreedyAgent()


def rollout(state: State, rng: random.Random) -> int:
    """A search playout's move for the seat to move (``mcts:rollout=greedy``): greedy's."""
    return _ROLLOUT.act(turn_for(state), rng)


# Difficulty levels (see docs/AGENTS.md): hard searches 20,000 playouts (capped at 1.8 s;
# about 0.2 s on the compiled engine) over greedy's candidate moves (one discard per
# inversion) with a low exploration constant, and plays solved endgames perfectly
# (the compiled endgame solver: Classic from 8 empty cells, the Tutorial from 11).
LEVELS: dict[str, LevelSpec] = {"easy": "random", "medium": "greedy",
          "hard": "mcts:iterations=20000,time=1.8,c=0.5,candidates=1"}


BOTS: dict[str, type[Agent]] = {"greedy": GreedyAgent, "perfect": PerfectAgent,
                                "solver": SolverAgent}

__all__ = ["BOTS", "LEVELS", "GreedyAgent", "PerfectAgent", "SolverAgent", "endgame", "evaluate",
           "rollout"]
