"""Hadronize bots that read only their own view: ``greedy``, ``ev`` and ``exact``.

``greedy`` scores each choice of observer by its expected result over the three equally
likely collapses and takes the best (ties broken by the rng):

* hadronizing counts most, and reaching the goal outright beats everything;
* quarks tunnelled into the bot's chamber are worth something (fuel for later);
* a quark that lands unreacted in the bot's own chamber is worth a little;
* a quark handed unreacted to another seat costs a little, more the closer that seat is
  to the goal.
"""

from __future__ import annotations

import random
import time as _time
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.core.rng import sample_chance
from quarkade.games.hadronize.exact import MAX_EXACT_GOAL, solution
from quarkade.games.hadronize.notation import OBSERVE_BASE
from quarkade.games.hadronize.rules import HadronizeState

WIN = 1000.0
HADRONIZE = 1.0
TUNNEL_IN = 0.35
OWN_QUARK = 0.15
GIFT = 0.25


def observer_value(view: dict, observer: int) -> float:
    """Expected value, for the seat to move, of making ``observer`` observe the quark."""
    me = view["player"]
    goal = view["goal"]
    flavours = [view["flavours"].index(name) for name in view["superposition"]]
    chambers = view["chambers"]
    hadronized = view["hadronized"]
    total = 0.0
    for flavour in flavours:
        held = chambers[observer][flavour]
        if observer == me:
            if held:
                gained = held + 1
                total += WIN if hadronized[me] + gained >= goal else HADRONIZE * gained
            else:
                total += OWN_QUARK
        elif held:
            total += TUNNEL_IN * (held + 1)
        else:
            closeness = hadronized[observer] / goal
            total -= GIFT * (1 + closeness)
    return total / len(flavours)


def greedy_action(view: dict, legal: list[int], rng: random.Random) -> int:
    """``greedy``'s choice: the best ``observer_value``, ties broken by ``rng``."""
    scored = [(observer_value(view, a - OBSERVE_BASE), a) for a in legal]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score >= best - 1e-12])


class GreedyAgent(Agent):
    """Picks the observer with the best expected immediate outcome."""

    spec = "greedy"

    def act(self, turn: Turn, rng: random.Random) -> int:
        return greedy_action(turn.view, turn.legal_actions, rng)


class RolloutAgent(Agent):
    """``greedy`` improved by one step of look-ahead: each observer is tried in the same
    ``playouts`` sampled futures (common random numbers: the same collapses and
    superpositions whatever the choice, the collapse of this very turn spread evenly over
    its three flavours), every seat playing ``greedy`` from there to the end; the choice
    that wins the most of them is played (ties: greedy's choice). Against ``greedy`` this
    is a policy-improvement step, so it should never do worse than the greedy it rolls
    out, given enough playouts; ``time`` caps the seconds a move may take (0: no cap).
    """

    spec = "rollout"
    clock = staticmethod(_time.perf_counter)

    def __init__(self, playouts: int = 60, time: float = 0.0) -> None:
        if playouts < 1 or time < 0:
            raise ValueError("playouts is 1 or more and time is not negative")
        self.playouts = int(playouts)
        self.time = float(time)
        self.last_playouts = 0

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        fallback = greedy_action(turn.view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        deadline = self.clock() + self.time if self.time else 0.0
        root = turn.sample_state(rng)  # nothing is hidden: the position itself
        me = turn.player
        wins = dict.fromkeys(legal, 0.0)
        done = 0
        for world in range(self.playouts):
            if deadline and done and self.clock() > deadline:
                break
            seed = rng.getrandbits(64)
            for action in legal:
                state = cast(HadronizeState, root.clone())
                state.apply_action(action)
                collapses = state.legal_actions()  # the three flavours, in a fixed order
                state.apply_action(collapses[world % len(collapses)])
                wins[action] += _greedy_playout(state, random.Random(seed),
                                                random.Random(seed + 1)).returns()[me]
            done += 1
        self.last_playouts = done
        best = max(wins.values())
        if wins[fallback] >= best:
            return fallback
        return min(a for a in legal if wins[a] >= best)


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

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        me = view["player"]
        # max keeps the first of equals: the bot's own seat is tried first
        order = [me] + [a - OBSERVE_BASE for a in turn.legal_actions if a - OBSERVE_BASE != me]
        return OBSERVE_BASE + max(order, key=lambda seat: expected_hadronized(view, seat))


class ExactAgent(Agent):
    """Best play for two seats with a goal up to ``exact.MAX_EXACT_GOAL``; greedy beyond.

    After each move ``last_value`` is the solved probability of winning from the position
    it was handed (None when it played greedy), and ``exact`` says which it did.
    """

    spec = "exact"

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


# Difficulty levels (see docs/AGENTS.md). Hadronize is mostly luck: even the exact bot,
# where it is exact, beats greedy only narrowly. With two seats hard is a short search
# whose playouts follow greedy (perfect play where the game is solved, through
# ``endgame``); with more, greedy improved by one step of paired greedy playouts (UCT
# searches did no better than greedy itself there).
LEVELS = {"easy": "random", "medium": "greedy",
          "hard": {2: "mcts:iterations=300,rollout=greedy,time=1.8",
                   "more": "rollout:playouts=100,time=1.8"}}

BOTS = {"greedy": GreedyAgent, "ev": ExpectedValueAgent, "exact": ExactAgent,
        "rollout": RolloutAgent}
