"""Hadronize bots that read only their own view: ``greedy``, ``ev``, ``rollout`` and
``exact``.

``greedy`` plays the policy of ``policy.py``: the observer with the best expected result
over the three equally likely collapses. ``rollout`` improves on it by one step of paired
greedy playouts, ``ev`` is issue 18's baseline, and ``exact`` plays the solved two-seat
game (``exact.py``).
"""

from __future__ import annotations

import random
import time as _time
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.core.options import Option
from quarkade.core.parts import LevelSpec
from quarkade.core.registry import has_numba
from quarkade.core.rng import sample_chance
from quarkade.games.hadronize.exact import MAX_EXACT_GOAL, solution
from quarkade.games.hadronize.notation import OBSERVE_BASE
from quarkade.games.hadronize.policy import greedy_action
from quarkade.games.hadronize.rules import HadronizeState


class GreedyAgent(Agent):
    """Picks the observer with the best expected immediate outcome."""

    spec = "greedy"
    title = "Greedy bot"
    about = "Chooses the observer with the best immediate result."

    def act(self, turn: Turn, rng: random.Random) -> int:
        return greedy_action(turn.view, turn.legal_actions, rng)


class RolloutAgent(Agent):
    """Greedy improved by one step of look-ahead: every choice played out by greedy in
    the same sampled futures.

    Each observer is tried in the same ``playouts`` sampled futures (common random numbers:
    the same collapses and superpositions whatever the choice, the collapse of this very
    turn spread evenly over its three flavours), every seat playing ``greedy`` from there to
    the end; the choice with the best total return in them is played (ties: greedy's
    choice). Against ``greedy`` this is a policy-improvement step, so it should never do
    worse than the greedy it rolls out, given enough playouts.

    ``margin``: overrule greedy's choice only when the best one beats it by more than
    ``margin`` standard errors of the paired difference (0: by anything). ``time`` caps the
    seconds a move may take (0: no cap). ``compiled=1`` plays the playouts on the compiled
    engine (``compiled.rollout_returns``, where numba is installed; its own random
    streams), ``compiled=0`` here in Python, the reference (``_python_returns``).
    """

    spec = "rollout"
    title = "Rollout bot"
    about = ("Plays every choice out, as the greedy bot would, in the same possible futures, and "
             "takes the best.")
    parameters = (
        Option("playouts", 60, "paired greedy playouts for each choice", int, minimum=1,
               server_maximum=5000),
        Option("time", 0.0, "seconds a move may take (0: no limit)", float, minimum=0,
               server_maximum=5),
        Option("margin", 0.0, "standard errors by which a choice must beat greedy's to be "
               "played instead (0: any gain)", float, minimum=0),
        Option("compiled", 1, "1: play the playouts on the compiled engine (with numba); "
               "0: in Python", int, minimum=0, maximum=1),
    )
    clock = staticmethod(_time.perf_counter)
    BATCH = 256  # compiled playouts between two readings of the clock

    def __init__(self, playouts: int = 60, time: float = 0.0, margin: float = 0.0,
                 compiled: int = 1) -> None:
        if playouts < 1 or time < 0 or margin < 0:
            raise ValueError("playouts is 1 or more, time and margin are not negative")
        if compiled not in (0, 1):
            raise ValueError("compiled is 1 (playouts on the compiled engine, if numba is "
                             "installed) or 0 (in Python)")
        self.playouts = int(playouts)
        self.time = float(time)
        self.margin = float(margin)
        self.compiled = bool(compiled)
        self.last_playouts = 0
        self.last_totals: dict[int, float] = {}

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        fallback = greedy_action(turn.view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        deadline = self.clock() + self.time if self.time else 0.0
        root = cast(HadronizeState, turn.sample_state(rng))  # nothing is hidden
        if self.compiled and has_numba():
            totals, squares, done = self._compiled_returns(root, legal, fallback, rng, deadline)
        else:
            totals, squares, done = self._python_returns(root, legal, fallback, rng, deadline)
        self.last_playouts = done
        self.last_totals = totals
        return decide(totals, squares, done, fallback, self.margin)

    def _python_returns(self, root: HadronizeState, legal: list[int], fallback: int,
                        rng: random.Random, deadline: float
                        ) -> tuple[dict[int, float], dict[int, float], int]:
        """Each choice's total return over the playouts, the sums of its squared paired
        differences from ``fallback``'s, and the playouts played (see ``decide``)."""
        me = root.current_player()
        totals = dict.fromkeys(legal, 0.0)
        squares = dict.fromkeys(legal, 0.0)
        done = 0
        for world in range(self.playouts):
            if deadline and done and self.clock() > deadline:
                break
            seed = rng.getrandbits(64)
            returns = {}
            for action in legal:
                state = root.clone()
                state.apply_action(action)
                collapses = state.legal_actions()  # the three flavours, in a fixed order
                state.apply_action(collapses[world % len(collapses)])
                returns[action] = _greedy_playout(state, random.Random(seed),
                                                  random.Random(seed + 1)).returns()[me]
            for action in legal:
                totals[action] += returns[action]
                squares[action] += (returns[action] - returns[fallback]) ** 2
            done += 1
        return totals, squares, done

    def _compiled_returns(self, root: HadronizeState, legal: list[int], fallback: int,
                          rng: random.Random, deadline: float
                          ) -> tuple[dict[int, float], dict[int, float], int]:
        """``_python_returns`` on the compiled engine, ``BATCH`` playouts a call."""
        import numpy as np

        from quarkade.games.hadronize import compiled

        array = compiled.to_compiled(root)
        actions = np.array(legal, np.int64)
        seed = rng.getrandbits(62)
        sums = np.zeros(len(legal))
        squares = np.zeros(len(legal))
        mine = legal.index(fallback)
        done = 0
        while done < self.playouts and not (deadline and done and self.clock() > deadline):
            out = np.empty((min(self.BATCH, self.playouts - done), len(legal)))
            compiled.rollout_returns(array, actions, done, seed, out)
            sums += out.sum(axis=0)
            squares += ((out - out[:, mine:mine + 1]) ** 2).sum(axis=0)
            done += len(out)
        return ({a: float(sums[i]) for i, a in enumerate(legal)},
                {a: float(squares[i]) for i, a in enumerate(legal)}, done)


def decide(totals: dict[int, float], squares: dict[int, float], playouts: int, fallback: int,
           margin: float) -> int:
    """``RolloutAgent``'s choice from each choice's total return over ``playouts`` paired
    playouts and the sum of its squared differences from ``fallback``'s: the best total
    (equals: greedy's choice ``fallback``, else the lowest action), but ``fallback`` unless
    the best beats it by more than ``margin`` standard errors of the mean paired
    difference."""
    best = max(totals.values())
    if totals[fallback] >= best:
        return fallback
    choice = min(a for a in totals if totals[a] >= best)
    mean = (totals[choice] - totals[fallback]) / playouts
    if margin and playouts > 1:
        variance = max(squares[choice] / playouts - mean * mean, 0.0) * playouts / (playouts - 1)
        if mean <= margin * (variance / playouts) ** 0.5:
            return fallback
    return choice


def _greedy_playout(state: HadronizeState, chance: random.Random, ties: random.Random
                    ) -> HadronizeState:
    """Every seat plays ``greedy`` to the end. Chance draws from its own stream, two draws
    a turn whatever the seats chose, so paired playouts see the same quarks turn by turn."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(greedy_action(state.view(state.current_player()),
                                             state.legal_actions(), ties))
    return state


def expected_hadronized(view: dict, observer: int) -> float:
    """The quarks the seat to move hadronizes on this turn, on average over the collapse,
    if ``observer`` observes (0 unless it observes itself: only the mover hadronizes)."""
    me = view["player"]
    if observer != me:
        return 0.0
    chamber = view["chambers"][me]
    held = [chamber[view["flavours"].index(name)] for name in view["superposition"]]
    return sum(h + 1 for h in held if h) / len(held)


class ExpectedValueAgent(Agent):
    """Observes where the quarks it hadronizes this turn are the most, on average (issue
    18's baseline for two seats at goal 10); when no choice hadronizes anything it
    observes itself, so the quark stays in its own chamber."""

    spec = "ev"
    title = "Average bot"
    about = ("Observes where the quarks it would hadronize this turn are most, on average.")

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        me = view["player"]
        # max keeps the first of equals: the bot's own seat is tried first
        order = [me] + [a - OBSERVE_BASE for a in turn.legal_actions if a - OBSERVE_BASE != me]
        return OBSERVE_BASE + max(order, key=lambda seat: expected_hadronized(view, seat))


class ExactAgent(Agent):
    """Best play for two seats with a goal up to 3, where the game is solved; greedy beyond.

    The bound is ``exact.MAX_EXACT_GOAL``.

    After each move ``last_value`` is the solved probability of winning from the position
    it was handed (None when it played greedy), and ``exact`` says which it did.
    """

    spec = "exact"
    title = "Exact bot"
    about = ("Plays perfectly with two players and a goal up to 3, where the game is solved; like "
             "the greedy bot beyond.")

    def __init__(self) -> None:
        self.last_value: float | None = None
        self.exact = False
        self._greedy = GreedyAgent()

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        self.exact = view["players"] == 2 and view["goal"] <= MAX_EXACT_GOAL
        if not self.exact:
            self.last_value = None
            return self._greedy.act(turn, rng)
        stay, send = _observer_values(view)
        self.last_value = max(stay, send)
        return exact_action(view, rng, (stay, send))


def _observer_values(view: dict) -> tuple[float, float]:
    """The solved chances of winning if the mover observes, and if the other seat does."""
    me = view["player"]
    flavours = tuple(view["flavours"].index(name) for name in view["superposition"])
    return solution(view["goal"]).observer_values(
        view["chambers"][me], view["chambers"][1 - me], view["hadronized"][me],
        view["hadronized"][1 - me], flavours)


def exact_action(view: dict, rng: random.Random,
                 values: tuple[float, float] | None = None) -> int:
    """Best play in a solved two-seat position (equal choices: drawn by ``rng``)."""
    me = view["player"]
    stay, send = values or _observer_values(view)
    if abs(stay - send) < 1e-12:
        return OBSERVE_BASE + rng.choice((me, 1 - me))
    return OBSERVE_BASE + (me if stay > send else 1 - me)

def endgame(state: HadronizeState, rng: random.Random) -> int | None:
    """``mcts``'s hook: best play where the game is solved (two seats, a goal up to
    ``MAX_EXACT_GOAL``, no turn cap), else None. There the hard level is perfect play."""
    game = state.game
    if game.num_players != 2 or game.options["max_turns"] or game.options["goal"] > \
            MAX_EXACT_GOAL or state.current_player() < 0:
        return None
    return exact_action(state.view(state.current_player()), rng)


def rollout(state: HadronizeState, rng: random.Random) -> int:
    """A search playout's move for the seat to move (``mcts:rollout=greedy``): greedy's."""
    return greedy_action(state.view(state.current_player()), state.legal_actions(), rng)


# Difficulty levels (see docs/AGENTS.md). Hadronize is mostly luck: even the exact bot,
# where it is exact, beats greedy only narrowly. With two seats hard is a short search
# whose playouts follow greedy (perfect play where the game is solved, through
# ``endgame``); with more, greedy improved by one step of paired greedy playouts (UCT
# searches did no better than greedy itself there).
LEVELS: dict[str, LevelSpec] = {"easy": "random", "medium": "greedy",
          "hard": {2: "mcts:iterations=300,rollout=greedy,time=1.8",
                   "more": "rollout:playouts=3000,margin=1,time=0.3"}}

BOTS: dict[str, type[Agent]] = {"greedy": GreedyAgent, "ev": ExpectedValueAgent,
                                "exact": ExactAgent, "rollout": RolloutAgent}
