"""Holding the JAX rules (``quarkade.jax``) to the reference engines, position by position.

``reference_positions`` plays seeded reference games (random legal moves, chance drawn
with its probabilities) and keeps every position on the way, chance nodes and the end
included. ``check_positions`` lays a batch of them out as boards (the bridge) and asks the
JAX rules, in one vmapped and jitted call, what the reference engine says at each: whose
move, the legal actions (or chance outcomes) as a mask, the chance probabilities, the
returns, every seat's observation (the research encoding, ``encode_state``), and the
board after the action played there and after another legal one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from quarkade.core.protocol import CHANCE, TERMINAL, Game, State
from quarkade.core.registry import game_part
from quarkade.core.rng import sample_chance
from quarkade.jax import rules_of


@dataclass
class Compared:
    """What a differential run compared (so a test can say it compared enough)."""

    positions: int = 0
    children: int = 0
    decisions: int = 0
    chance: int = 0
    terminals: int = 0
    phases: set[int] = field(default_factory=set)


def reference_positions(game: Game, count: int, seed: int) -> list[tuple[State, int]]:
    """``count`` positions of seeded random reference games, each with the action played
    there (-1 at the end of a game)."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            action = sample_chance(state, rng) if state.is_chance_node() \
                else rng.choice(state.legal_actions())
            found.append((state.clone(), action))
            state.apply_action(action)
        if state.is_terminal() and len(found) < count:
            found.append((state, -1))
    return found


def checker(rules: Any) -> Any:
    """One jitted, vmapped call: every answer of the JAX rules at a batch of boards."""

    def answers(board: jax.Array, played: jax.Array, other: jax.Array) -> tuple[Any, ...]:
        seats = jnp.arange(rules.num_players)
        observations = jax.vmap(lambda seat: rules.observe(board, seat))(seats)
        return (rules.current_player(board), rules.legal_mask(board),
                rules.chance_weights(board), rules.returns(board), observations,
                rules.apply(board, played), rules.apply(board, other))

    return jax.jit(jax.vmap(answers))


def check_positions(game: Game, positions: list[tuple[State, int]], seed: int,
                    compared: Compared) -> None:
    """Both engines agree at every position (see the module docstring)."""
    rules = rules_of(game)
    encode_state = game_part(game.name, "encode").encode_state
    rng = random.Random(seed)
    others = []
    for state, _ in positions:
        legal = state.legal_actions()
        others.append(rng.choice(legal) if legal else -1)
    boards = np.stack([rules.to_board(state) for state, _ in positions])
    played = np.array([max(a, 0) for _, a in positions], np.int32)
    other = np.array([max(a, 0) for a in others], np.int32)
    found = jax.device_get(checker(rules)(jnp.asarray(boards), jnp.asarray(played),
                                          jnp.asarray(other)))
    player, mask, weights, returns, observations, after_played, after_other = found
    for index, (state, action) in enumerate(positions):
        where = f"{game!r} after {state.history()}"
        mover = state.current_player()
        assert player[index] == mover, f"current player differs {where}"
        legal = state.legal_actions()
        assert np.flatnonzero(mask[index]).tolist() == legal, f"legal actions differ {where}"
        if mover == CHANCE:
            total = weights[index].sum()
            for outcome, probability in state.chance_outcomes():
                assert abs(weights[index][outcome] / total - probability) < 1e-6, where
            compared.chance += 1
        elif mover == TERMINAL:
            compared.terminals += 1
        else:
            compared.decisions += 1
        assert np.allclose(returns[index], state.returns(), atol=1e-6), f"returns {where}"
        for seat in range(game.num_players):
            expected = np.array(encode_state(state, seat), np.float32)
            assert np.allclose(observations[index][seat], expected, atol=1e-6), (
                f"seat {seat}'s observation differs {where}: places "
                f"{np.flatnonzero(~np.isclose(observations[index][seat], expected))}")
        compared.positions += 1
        compared.phases.add(int(boards[index][rules.compiled.PHASE]))
        for chosen, after in ((action, after_played[index]), (others[index],
                                                                after_other[index])):
            if chosen < 0:
                continue
            child = state.clone()
            child.apply_action(chosen)
            expected_board = rules.to_board(child)
            assert (after == expected_board).all(), (
                f"board after {chosen} differs {where}: slots "
                f"{np.flatnonzero(after != expected_board).tolist()}")
            compared.children += 1
