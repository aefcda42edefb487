"""Random Dead Cat games for the invariant and leak tests.

Uniformly random seats announce half the time and so end most rounds at once; ``announce``
lowers that chance so that rounds run long, time decks grow and the box sometimes runs out.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from quarkade import load_game
from quarkade.core.rng import sample_chance
from quarkade.games.dead_cat.notation import ANNOUNCE
from quarkade.games.dead_cat.rules import DeadCatState


def random_game(seed: int, players: int, announce: float = 0.5, peek_first: bool = False,
                on_step: Callable[[DeadCatState], None] | None = None) -> DeadCatState:
    """Play one game to the end; ``on_step`` sees every state before its action."""
    rng = random.Random(seed)
    state = load_game("dead-cat", players=players, peek_first=peek_first).new_initial_state()
    steps = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state)
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            if ANNOUNCE in legal and rng.random() >= announce:
                legal = [a for a in legal if a != ANNOUNCE]
            action = rng.choice(legal)
        state.apply_action(action)
        steps += 1
        assert steps < 20_000, "a game did not end"
    if on_step is not None:
        on_step(state)
    return state


def replay(state: DeadCatState, history: list[int]) -> DeadCatState:
    fresh = state.game.new_initial_state()
    for action in history:
        fresh.apply_action(action)
    return fresh
