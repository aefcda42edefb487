"""Card Commons: the cost of building the legal actions afresh (``make bench`` times the
protocol call, which returns a copy of the list each state caches).

Run with ``python bench/card_commons_generator.py``: microseconds per fresh generation on
states sampled from random games that rarely pass (so the field fills up), per variant.
"""

from __future__ import annotations

import random
import timeit

import quarkade
from quarkade.core.rng import sample_chance
from quarkade.games.card_commons.notation import PASS


def sample_states(variant: str, count: int = 300, seed: int = 5) -> list:
    """Turn states from random games; passes only when nothing else is legal."""
    game = quarkade.load_game("card-commons", variant=variant)
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.phase() == "turn" and rng.random() < 0.3:
                states.append(state.clone())
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            state.apply_action(rng.choice([a for a in legal if a != PASS] or legal))
    return states


def main() -> None:
    for variant in ("classic", "tutorial"):
        states = sample_states(variant)
        sizes = sum(len(s.legal_actions()) for s in states) / len(states)

        def generate(states: list = states) -> None:
            for state in states:
                state._generate()

        best = min(timeit.repeat(generate, number=20, repeat=5)) / (20 * len(states)) * 1e6
        print(f"{variant}: {best:.2f} us per fresh legal_actions, {sizes:.0f} actions on average")


if __name__ == "__main__":
    main()
