"""Seeded randomness: chance nodes are played with an explicit ``random.Random``."""

from __future__ import annotations

import random

from quarkade.core.protocol import State


def sample_chance(state: State, rng: random.Random) -> int:
    """Pick one outcome of the chance node ``state`` with its probability."""
    outcomes = state.chance_outcomes()
    point = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


def play_chance(state: State, rng: random.Random) -> None:
    """Resolve chance nodes with ``rng`` until a seat must act or the game ends."""
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))


def derived_rng(seed: int | str, purpose: str) -> random.Random:
    """An rng for one purpose (chance, a seat's agent) derived from a game seed."""
    return random.Random(f"quarkade:{seed}:{purpose}")


def random_playout(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end with uniformly random moves and sampled chance; returns it."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
