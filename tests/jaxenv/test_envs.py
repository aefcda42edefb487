"""The JAX environments as pgx environments: ``make``, batches stepped under ``jax.vmap``,
chance kept so a game converts to a reference history and back, and bad input refused."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pgx
import pytest

from quarkade import load_game
from quarkade.core.errors import GameOptionError
from quarkade.core.rng import sample_chance
from quarkade.jax import make
from quarkade.jax.records import history, outcomes, replay

# One option set per game for the batch smoke (the differential tests cover them all).
SMOKE = {"hadronize": {"players": 4}, "dead-cat": {"players": 3, "peek_first": True},
         "card-commons": {"variant": "classic", "torus": True}}
BATCH, STEPS = 256, 200


@functools.cache
def batched(name: str) -> Any:
    """Game ``name``'s smoke environment with its ``init`` and ``step`` over a batch of
    ``BATCH`` games, compiled once per test process."""
    env = make(name, **SMOKE[name])
    return env, jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))


@dataclass
class Played:
    """``BATCH`` games of random legal moves stepped together ``STEPS`` times (a game
    over stays over): the first and last states and, per step, what the tests read."""

    first: Any
    last: Any
    actions: list[np.ndarray] = field(default_factory=list)
    chance: list[np.ndarray] = field(default_factory=list)  # outcomes drawn after each
    ended: list[np.ndarray] = field(default_factory=list)
    rewards: list[np.ndarray] = field(default_factory=list)
    stuck: int = 0  # live games with no legal action, over every step


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of a batch of masks."""
    return np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=-1).astype(np.int32)


@functools.cache
def play(name: str) -> Played:
    """The smoke's games of ``name`` (played once per test process)."""
    _, init, step = batched(name)
    rng = np.random.default_rng(0)
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, BATCH))
    played = Played(first=jax.device_get(state), last=None)
    for _ in range(STEPS):
        mask = np.asarray(state.legal_action_mask)
        played.stuck += int((~np.asarray(state.terminated) & ~mask.any(axis=-1)).sum())
        action = random_legal(rng, mask)
        key, sub = jax.random.split(key)
        state = step(state, jnp.asarray(action), jax.random.split(sub, BATCH))
        played.actions.append(action)
        played.chance.append(np.asarray(state._chance))
        played.ended.append(np.asarray(state.terminated))
        played.rewards.append(np.asarray(state.rewards))
    played.last = jax.device_get(state)
    return played


@pytest.mark.parametrize("name", SMOKE)
def test_256_vmapped_environments_step_200_times(name):
    env = batched(name)[0]
    assert isinstance(env, pgx.Env)
    played = play(name)
    assert played.first.observation.shape == (BATCH, env.rules.observation_size)
    assert played.first.legal_action_mask.any(axis=-1).all()
    assert played.stuck == 0  # a seat to move always has a legal action
    total = np.sum(played.rewards, axis=0)
    assert np.isfinite(total).all()
    assert np.allclose(total.sum(axis=1), 0, atol=1e-5)  # zero-sum
    assert played.last.terminated.any()  # games do end within 200 steps
    assert played.last.rewards.dtype == np.float32
    assert played.last.current_player.dtype == np.int32


@pytest.mark.parametrize("name", SMOKE)
def test_a_jax_game_is_a_reference_history_and_back(name):
    env = batched(name)[0]
    game = load_game(name, **SMOKE[name])
    played = play(name)
    ended = np.array(played.ended)
    lanes = [*np.flatnonzero(ended[-1])[:3], *np.flatnonzero(~ended[-1])[:1]]
    for lane in lanes:  # three finished games and one still going, if there is one
        steps = STEPS if not ended[-1][lane] else int(np.argmax(ended[:, lane])) + 1
        first = lane_of(played.first, lane)
        assert outcomes(first)  # the setup's chance is in the record
        actions = history(first, [(played.actions[step][lane],
                                   SimpleNamespace(_chance=played.chance[step][lane]))
                                  for step in range(steps)])
        reference = game.new_initial_state()
        for action in actions:  # every action legal on the reference engine, in turn
            reference.apply_action(action)
        board = played.last._board[lane]
        assert (board == env.rules.to_board(reference)).all()
        assert (np.asarray(replay(env, actions)) == board).all()
        assert played.last.current_player[lane] == max(reference.current_player(), 0)
        assert reference.is_terminal() == bool(ended[-1][lane])


def lane_of(state: Any, lane: int) -> Any:
    """One game of a batch's state."""
    return jax.tree_util.tree_map(lambda leaf: leaf[lane], state)


def test_a_reference_game_replays_on_the_jax_rules():
    env = make("hadronize", players=3, goal=4)
    game = load_game("hadronize", players=3, goal=4)
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    board = replay(env, state.history())
    assert (np.asarray(board) == env.rules.to_board(state)).all()
    assert np.asarray(env.rules.returns(board)).tolist() == state.returns()


def test_the_bridge_gives_a_pgx_state_at_a_decision():
    game = load_game("dead-cat", players=2)
    env = make("dead-cat", players=2)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="chance"):
        env.from_reference(state)
    state.apply_action(state.legal_actions()[1])
    jax_state = env.from_reference(state)
    assert int(jax_state.current_player) == 1
    assert np.flatnonzero(np.asarray(jax_state.legal_action_mask)).tolist() == \
        state.legal_actions()
    back = env.to_reference(jax_state)
    assert back.legal_actions() == state.legal_actions() and back.view(0) == state.view(0)


def test_bad_names_and_options_are_refused_with_what_is_allowed():
    with pytest.raises(GameOptionError, match="no game named 'chess'"):
        make("chess")
    with pytest.raises(GameOptionError, match=r"no JAX environment.*card-commons"):
        make("decoherence")
    with pytest.raises(GameOptionError, match="players"):
        make("dead-cat", players=9)
    env = batched("card-commons")[0]
    with pytest.raises(ValueError, match="needs a key"):
        env.step(lane_of(play("card-commons").first, 0), jnp.int32(0))
