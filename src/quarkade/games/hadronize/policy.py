"""Hadronize's greedy policy: the weights and the choice that ``greedy`` plays, that the
``rollout`` bot and the search bots' playouts follow, and that the compiled engine
(``compiled.py``) plays again in numba from the same weights.

Each choice of observer is scored by its expected result over the three equally likely
collapses, and the best is taken (ties broken by the rng):

* hadronizing counts most, and reaching the goal outright beats everything;
* quarks tunnelled into the mover's chamber are worth something (fuel for later);
* a quark that lands unreacted in the mover's own chamber is worth a little;
* a quark handed unreacted to another seat costs a little, more the closer that seat is
  to the goal.
"""

from __future__ import annotations

import random

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


def greedy_action(view: dict, legal: list[int], rng: random.Random) -> int:
    """``greedy``'s choice: the best ``observer_value``, ties broken by ``rng``."""
    scored = [(observer_value(view, a - OBSERVE_BASE), a) for a in legal]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score >= best - 1e-12])
