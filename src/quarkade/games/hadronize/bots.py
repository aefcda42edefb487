"""Hadronize bots that read only their own view: ``greedy`` and ``exact``.

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

from quarkade.core.agent import Agent, Turn
from quarkade.games.hadronize.exact import MAX_EXACT_GOAL, solution
from quarkade.games.hadronize.notation import OBSERVE_BASE

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


class GreedyAgent(Agent):
    """Picks the observer with the best expected immediate outcome."""

    spec = "greedy"

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        scored = [(observer_value(view, a - OBSERVE_BASE), a) for a in turn.legal_actions]
        best = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score >= best - 1e-12])


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
        me = view["player"]
        flavours = tuple(view["flavours"].index(name) for name in view["superposition"])
        stay, send = solution(view["goal"]).observer_values(
            view["chambers"][me], view["chambers"][1 - me], view["hadronized"][me],
            view["hadronized"][1 - me], flavours)
        self.last_value = max(stay, send)
        if abs(stay - send) < 1e-12:
            return OBSERVE_BASE + rng.choice((me, 1 - me))
        return OBSERVE_BASE + (me if stay > send else 1 - me)

# Difficulty levels (see docs/AGENTS.md). Hadronize is mostly luck: even the exact bot,
# where it is exact, beats greedy only narrowly. With two seats hard is a short search
# whose playouts follow greedy; with more, no search we measured beat greedy itself.
LEVELS = {"easy": "random", "medium": "greedy",
          "hard": {2: "mcts:iterations=300,rollout=greedy,time=1.8", "more": "greedy"}}

BOTS = {"greedy": GreedyAgent, "exact": ExactAgent}
