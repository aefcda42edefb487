"""The bot's and self-play's search (``quarkade.jax.gumbel``): mctx's Gumbel MuZero
answer, move for move, and where the rules are certain, values proven from the game's
ends alone that the exact solver confirms."""

from __future__ import annotations

import random

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.rng import sample_chance
from quarkade.games.card_commons.solve import tutorial
from quarkade.jax import network, rules_of
from quarkade.jax.env import JaxEnv
from quarkade.jax.gumbel import gumbel_policy, root_edges
from quarkade.jax.search import recurrent_fn, search
from quarkade.sim.match import play_game

GAME = load_game("card-commons", variant="tutorial")


@pytest.fixture(scope="module")
def env():
    return JaxEnv(rules_of(GAME))


@pytest.fixture(scope="module")
def params(env):
    return network.init(jax.random.PRNGKey(1), env.rules.observation_size, env.num_actions,
                        16, 1)


def endgames(empty: tuple[int, ...], count: int, seed: int = 0):
    """``count`` turn positions of greedy Tutorial games with a number of empty cells in
    ``empty``, at most one a game."""
    greedy = make_agent("greedy", "card-commons")
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        final = play_game(GAME, [greedy, greedy], rng.getrandbits(48))
        state = GAME.new_initial_state()
        for action in final.history():
            if (state.phase() == "turn"
                    and 16 - bin(state._occupied).count("1") in empty):
                found.append(state.clone())
                break
            state.apply_action(action)
    return found


def searched(env, params, states, simulations, policy, considered=16, noise=1.0,
             **options):
    batch = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves),
                                   *[env.from_reference(s) for s in states])
    logits, value = network.forward(params, batch.observation)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=batch)
    return policy(params, jax.random.PRNGKey(7), root, recurrent_fn(env), simulations,
                  ~batch.legal_action_mask, qtransform=mctx.qtransform_completed_by_mix_value,
                  max_num_considered_actions=considered, gumbel_scale=noise, **options)


def test_the_search_answers_as_mctxs_gumbel_muzero_policy(env, params):
    # Same keys, same tree: the backup written for the batch changes the cost, not a visit.
    states = endgames((5, 6, 7, 8, 9), 3)
    ours = searched(env, params, states, 48, gumbel_policy).policy
    theirs = searched(env, params, states, 48, mctx.gumbel_muzero_policy)
    np.testing.assert_array_equal(ours.action, theirs.action)
    np.testing.assert_array_equal(ours.search_tree.children_visits,
                                  theirs.search_tree.children_visits)
    np.testing.assert_allclose(ours.search_tree.node_values,
                               theirs.search_tree.node_values, atol=1e-6)
    np.testing.assert_allclose(ours.action_weights, theirs.action_weights, atol=1e-6)


def won_at_once(seeds):
    """A Tutorial position where some legal moves end the game won for the mover and others
    do not (from random games)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if state.phase() == "turn":
                mover = state.current_player()
                wins = []
                for action in state.legal_actions():
                    child = state.clone()
                    child.apply_action(action)
                    if child.is_terminal() and child.returns()[mover] > 0:
                        wins.append(action)
                if 0 < len(wins) < len(state.legal_actions()):
                    return state, wins
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no position with a won ending among other moves")


def test_proven_values_are_the_solvers_and_a_proven_win_is_played(env, params):
    # The bot's settings (no noise, every legal move weighed) on short endings and on a
    # position with a move that wins at once: every value the search proves from the
    # rules' returns is the exact solver's, and a proven win is played.
    state, wins = won_at_once(range(300))
    states = [state, *endgames((0, 1), 7)]
    out = searched(env, params, states, 128, gumbel_policy, considered=128, noise=0.0,
                   legal=lambda batch: batch.legal_action_mask)
    roots = np.asarray(out.exact[:, 0])
    actions = np.asarray(out.policy.action)
    assert roots[0] == 1.0 and actions[0] in wins
    solver = tutorial.TutorialSolver(table_bits=16)
    for state, value, action in zip(states, roots, actions, strict=True):
        if np.isnan(value):
            continue
        truth = solver.value(tutorial.position_of(state)).value
        assert value == (1.0 if truth == tutorial.WIN else -1.0)
        if value > 0:
            child = state.clone()
            child.apply_action(int(action))
            assert child.is_terminal() or (
                solver.value(tutorial.position_of(child)).value == tutorial.LOSS)
    # Without ``legal`` nothing is proven.
    plain = searched(env, params, states[:2], 16, gumbel_policy)
    assert np.isnan(np.asarray(plain.exact)).all()


FIELDS = [{"variant": "tutorial"}, {"variant": "tutorial", "torus": True},
          {"variant": "classic"}, {"variant": "classic", "torus": True}]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(FIELDS))
def test_no_decision_has_more_legal_actions_than_the_bound(seed, options):
    # The search keeps a node's legal actions in ``most_legal`` slots (Card Commons: 193
    # of the 2,532 ids); a decision with more would lose the rest. Random games: at each
    # decision, random moves, and every inversion put off while a channel is legal half
    # the time (so hands stay full while the field fills, where the count is highest).
    game = load_game("card-commons", **options)
    bound = rules_of(game).most_legal()
    rng = random.Random(seed)
    keep = rng.random() < 0.5
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = [] if state.is_chance_node() else state.legal_actions()
        assert len(legal) <= bound, (len(legal), state.history())
        channels = [a for a in legal if a < 192]
        state.apply_action(sample_chance(state, rng) if not legal
                           else rng.choice(channels if keep and channels else legal))


@pytest.mark.parametrize("prove", [False, True])
def test_the_search_over_slots_answers_as_over_every_action_id(env, params, prove):
    # ``search`` keeps each node's legal actions in slots; without noise it makes the
    # same tree as the search over all 2,532 ids, visit for visit, and answers by id
    # (weighing 128 root moves, so the position with a move that wins at once has proofs).
    states = [won_at_once(range(300))[0], *endgames((0, 1, 5, 6, 9, 12), 6, seed=3)]
    batch = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves),
                                   *[env.from_reference(s) for s in states])
    every, slots = (search(env, params, jax.random.PRNGKey(7), batch, 160, gumbel_scale=0.0,
                           considered=128, prove=prove, slotted=slotted)
                    for slotted in (False, True))
    assert slots.slots is not None and every.slots is None
    assert slots.slots.shape == (len(states), env.rules.most_legal())
    np.testing.assert_array_equal(slots.policy.action, every.policy.action)
    root = every.policy.search_tree.ROOT_INDEX
    np.testing.assert_array_equal(
        slots.by_action(slots.policy.search_tree.children_visits[:, root]),
        every.policy.search_tree.children_visits[:, root])
    np.testing.assert_allclose(slots.policy.action_weights, every.policy.action_weights,
                               atol=1e-6)
    np.testing.assert_allclose(slots.policy.search_tree.node_values,
                               every.policy.search_tree.node_values, atol=1e-6)
    np.testing.assert_array_equal(np.isnan(root_edges(slots)), np.isnan(root_edges(every)))
    assert (not prove) or not np.isnan(np.asarray(root_edges(slots))).all()
    for state, action in zip(states, np.asarray(slots.policy.action), strict=True):
        assert int(action) in state.legal_actions()
