"""Dead Cat's hidden cards drawn again in JAX (the search's starting states): the seat sees
no difference, and the draws follow the reference's law."""

from __future__ import annotations

import random

import jax
import jax.numpy as jnp
import numpy as np

from quarkade import load_game
from quarkade.core import jit
from quarkade.core.rng import sample_chance
from quarkade.games.dead_cat import compiled
from quarkade.games.dead_cat.notation import PEEK
from quarkade.jax import dead_cat, rules_of
from tests.jaxenv.helpers import reference_positions


def test_a_resampled_board_looks_the_same_to_its_seat():
    game = load_game("dead-cat", players=3)
    rules = rules_of(game)
    positions = [state for state, _ in reference_positions(game, 3000, seed=4)
                 if state.current_player() >= 0]
    boards = jnp.asarray(np.stack([rules.to_board(state) for state in positions]))
    seats = jnp.asarray([state.current_player() for state in positions])
    keys = jax.random.split(jax.random.PRNGKey(0), len(positions))
    drawn = jax.jit(jax.vmap(rules.resample))(boards, seats, keys)
    look = jax.jit(jax.vmap(rules.observe))
    assert np.array_equal(np.asarray(look(drawn, seats)), np.asarray(look(boards, seats)))
    changed = np.asarray(drawn != boards).any(axis=1)
    assert changed.any()  # some unseen card came out the other way
    cards = np.asarray(drawn)[:, dead_cat.CARDS:dead_cat.CARDS + dead_cat.MAX_DECK]
    assert (np.asarray(drawn)[:, dead_cat.DEAD_CATS] == cards.sum(axis=1)).all()
    assert (cards.sum(axis=1) <= 3).all()  # never more dead cats than the round holds


def test_resampled_cards_follow_the_compiled_engines_law():
    # A position with four cards in the time deck, one of them the seat's own: the chance
    # that each unseen card is dead, JAX against the compiled resample, 4,000 draws each.
    game = load_game("dead-cat", players=2)
    rules = rules_of(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    while len(state._cards) < 4 or state.current_player() < 0 or state.view(0)["phase"] != "turn":
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif PEEK in state.legal_actions():
            state.apply_action(PEEK)  # every seat peeks: the time deck grows
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    board = jnp.asarray(rules.to_board(state))
    draws = 4000
    keys = jax.random.split(jax.random.PRNGKey(1), draws)
    ours = np.asarray(jax.jit(jax.vmap(lambda k: rules.resample(board, seat, k)))(keys))
    layout = compiled.to_compiled(state)
    streams = np.zeros(3, np.uint64)
    theirs = []
    for index in range(draws):
        copy = layout.copy()
        jit.seed_streams(streams, index)
        compiled.resample(copy, seat, streams)
        theirs.append(copy[compiled.CARDS:compiled.CARDS + 4])
    ours_mean = ours[:, dead_cat.CARDS:dead_cat.CARDS + 4].mean(axis=0)
    theirs_mean = np.array(theirs).mean(axis=0)
    assert np.abs(ours_mean - theirs_mean).max() < 0.05, (ours_mean, theirs_mean)
