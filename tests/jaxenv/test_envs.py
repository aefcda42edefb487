"""The JAX environments as pgx environments: ``make``, batches stepped under ``jax.vmap``,
chance kept so a game converts to a reference history and back, and bad input refused."""

from __future__ import annotations

import random

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
SMOKE = [("hadronize", {"players": 4}), ("dead-cat", {"players": 3, "peek_first": True}),
         ("card-commons", {"variant": "classic", "torus": True})]
BATCH, STEPS = 256, 200


def random_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniformly random legal action per row of a batch of masks."""
    noise = jax.random.uniform(key, mask.shape)
    return jnp.argmax(jnp.where(mask, noise, -1.0), axis=-1).astype(jnp.int32)


@pytest.mark.parametrize(("name", "options"), SMOKE, ids=[name for name, _ in SMOKE])
def test_256_vmapped_environments_step_200_times(name, options):
    env = make(name, **options)
    assert isinstance(env, pgx.Env)
    init = jax.jit(jax.vmap(env.init))
    players = env.num_players

    def run(state, key):
        def one(carry, key):
            state, live_empty, total = carry
            pick, step = jax.random.split(key)
            live = ~state.terminated
            empty = live & ~state.legal_action_mask.any(axis=-1)
            action = random_legal(pick, state.legal_action_mask)
            state = jax.vmap(env.step)(state, action, jax.random.split(step, BATCH))
            return (state, live_empty + empty.sum(), total + state.rewards), state.terminated

        (state, empty, total), ended = jax.lax.scan(
            one, (state, jnp.int32(0), jnp.zeros((BATCH, players))),
            jax.random.split(key, STEPS))
        return state, empty, total, ended

    state = init(jax.random.split(jax.random.PRNGKey(0), BATCH))
    assert state.observation.shape == (BATCH, env.rules.observation_size)
    assert bool(state.legal_action_mask.any(axis=-1).all())
    final, empty, total, ended = jax.jit(run)(state, jax.random.PRNGKey(1))
    assert int(empty) == 0  # a seat to move always has a legal action
    total = np.asarray(total)
    assert np.isfinite(total).all()
    assert np.allclose(total.sum(axis=1), 0, atol=1e-5)  # zero-sum
    assert np.asarray(ended).any()  # games do end within 200 steps
    assert final.rewards.dtype == jnp.float32 and final.current_player.dtype == jnp.int32


@pytest.mark.parametrize(("name", "options"), SMOKE, ids=[name for name, _ in SMOKE])
def test_a_jax_game_is_a_reference_history_and_back(name, options):
    env = make(name, **options)
    game = load_game(name, **options)
    init, step = jax.jit(env.init), jax.jit(env.step)
    for seed in range(3):
        key = jax.random.PRNGKey(seed)
        first = state = init(key)
        steps = []
        rng = random.Random(seed)
        while not bool(state.terminated) and len(steps) < 300:
            legal = np.flatnonzero(np.asarray(state.legal_action_mask)).tolist()
            action = rng.choice(legal)
            key, sub = jax.random.split(key)
            state = step(state, jnp.int32(action), sub)
            steps.append((action, state))
        actions = history(first, steps)
        reference = game.new_initial_state()
        for action in actions:  # every action legal on the reference engine, in turn
            reference.apply_action(action)
        assert (np.asarray(state._board) == env.rules.to_board(reference)).all()
        assert (np.asarray(replay(env, actions)) == np.asarray(state._board)).all()
        assert int(state.current_player) == max(reference.current_player(), 0)
        assert outcomes(first)  # the setup's chance is in the record


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
    env = make("card-commons", variant="tutorial")
    with pytest.raises(ValueError, match="needs a key"):
        env.step(env.init(jax.random.PRNGKey(0)), jnp.int32(0))
