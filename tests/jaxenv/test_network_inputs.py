"""What the network reads. The rules' symmetries in JAX: the trainer learns each position
through a map drawn at random (its observation mapped, its policy target moved with the
moves), and the network averaged over the maps (``search.evaluate``) gives a position and
each of its mapped twins the same value and the same policy, moved with the moves. The
game's features (``Config.features``): a network trained to read them reads them in the
search (JAX) and in the bot's numpy pass alike."""

from __future__ import annotations

import json
import random

import jax
import jax.numpy as jnp
import numpy as np

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.games.card_commons import features
from quarkade.jax import make, network
from quarkade.jax.alphazero import Config, Trainer
from quarkade.jax.search import evaluate, inputs
from quarkade.sim.match import play_game

TUTORIAL = {"variant": "tutorial"}


def _positions(count: int, seed: int) -> list:
    """Reference Tutorial positions a seat must decide in, after random moves."""
    game = load_game("card-commons", **TUTORIAL)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 14)):
            if state.is_terminal():
                break
            options = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                       else state.legal_actions())
            state.apply_action(rng.choice(options))
        if not state.is_terminal() and not state.is_chance_node():
            found.append(state)
    return found


def _twin(state, actions: np.ndarray):
    """The position reached by the mapped moves of ``state``'s history."""
    twin = state.game.new_initial_state()
    for action in state.history():
        twin.apply_action(int(actions[action]))
    return twin


def test_the_jax_rules_map_observations_as_the_reference_does():
    env = make("card-commons", **TUTORIAL)
    maps = env.rules.symmetries()
    assert maps.shape == (8, env.num_actions)
    assert len(make("card-commons").rules.symmetries()) == 2  # Classic: the mirror alone
    for state in _positions(6, 1):
        seen = env.from_reference(state).observation
        for number, actions in enumerate(maps):
            twin = env.from_reference(_twin(state, actions))
            assert np.array_equal(env.rules.map_observation(seen, number), twin.observation)
            mask = np.asarray(env.from_reference(state).legal_action_mask)
            assert np.array_equal(np.asarray(twin.legal_action_mask)[actions], mask)


def test_the_averaged_network_is_the_same_on_every_twin():
    env = make("card-commons", **TUTORIAL)
    trainer = Trainer(Config("card-commons", TUTORIAL, games=2, simulations=2, width=16,
                             blocks=1))
    maps = env.rules.symmetries()
    for state in _positions(3, 2):
        seen = env.from_reference(state).observation[None]
        logits, value = evaluate(env, trainer.params, seen, symmetric=True)
        plain, _ = evaluate(env, trainer.params, seen)
        assert not np.allclose(logits, jax.nn.log_softmax(plain))  # the maps do differ
        for actions in maps[1:]:
            twin = env.from_reference(_twin(state, actions)).observation[None]
            mapped, mapped_value = evaluate(env, trainer.params, twin, symmetric=True)
            np.testing.assert_allclose(mapped[0][actions], logits[0], atol=1e-4)
            np.testing.assert_allclose(mapped_value, value, atol=1e-5)


def test_the_trainer_learns_each_position_through_the_map_drawn_for_it():
    config = Config("card-commons", TUTORIAL, games=2, simulations=2, max_steps=40,
                    updates=2, batch_size=8, eval_games=2, width=16, blocks=1,
                    symmetries=True)
    trainer = Trainer(config)
    assert trainer.maps == 8
    env, maps = trainer.env, trainer.env.rules.symmetries()
    states = _positions(8, 3)
    observation = jnp.stack([env.from_reference(s).observation for s in states])
    rng = np.random.default_rng(0)
    policy = jnp.asarray(rng.dirichlet(np.ones(env.num_actions), len(states)), jnp.float32)
    target = jnp.linspace(-1, 1, len(states))
    which = jnp.arange(len(states)) % 8
    seen, moved, kept = trainer._mapped((observation, policy, target), which)
    assert np.array_equal(kept, target)
    for row, state in enumerate(states):
        actions = maps[row % 8]
        twin = env.from_reference(_twin(state, actions))
        assert np.array_equal(seen[row], twin.observation)
        np.testing.assert_allclose(np.asarray(moved[row])[actions], policy[row])
    plain = Trainer(Config("card-commons", TUTORIAL, games=2, simulations=2, width=16,
                           blocks=1, symmetries=False))
    assert plain.maps == 1
    assert plain._mapped((observation, policy, target), which)[0] is observation
    trainer.iteration(0.0)  # and an iteration learns through them
    assert np.isfinite(trainer.history[-1]["policy_loss"])


def test_a_network_that_reads_the_features_reads_them_everywhere(tmp_path):
    config = Config("card-commons", TUTORIAL, games=2, simulations=2, max_steps=2,
                    updates=2, batch_size=8, eval_games=2, width=16, blocks=1, features=True)
    trainer = Trainer(config)
    env = trainer.env
    assert trainer.params["in_w"].shape[0] == 405 + features.SIZE
    trainer.iteration(0.0)
    trainer.save(tmp_path / "cc")
    bot = make_agent(f"learned:{tmp_path / 'cc'},simulations=0,symmetric=0", "card-commons")
    for state in _positions(4, 4):
        seen = env.from_reference(state).observation[None]
        wide = inputs(env, trainer.params, seen)
        np.testing.assert_allclose(wide[0, 405:], features.compute(np.asarray(seen))[0])
        logits, _ = network.forward(trainer.params, wide)
        legal = state.legal_actions()
        assert bot.act(turn_for(state), random.Random(0)) == legal[
            int(np.argmax(np.asarray(logits[0])[legal]))]
    searching = make_agent(f"learned:{tmp_path / 'cc'},simulations=4", "card-commons")
    final = play_game(load_game("card-commons", **TUTORIAL),
                      [searching, make_agent("random", "card-commons")], 0)
    assert final.is_terminal()


def test_the_bot_averages_over_the_symmetries_in_numpy_as_the_search_does(tmp_path):
    trainer = Trainer(Config("card-commons", TUTORIAL, games=2, simulations=2, width=16,
                             blocks=1, features=True))
    trainer.save(tmp_path / "cc")
    assert json.loads((tmp_path / "cc" / "agent.json").read_text())["symmetric"] is True
    env = trainer.env
    bots = {flag: make_agent(f"learned:{tmp_path / 'cc'},simulations=0,symmetric={flag}",
                             "card-commons") for flag in (-1, 0, 1)}
    assert [bots[flag].symmetric for flag in (-1, 0, 1)] == [True, False, True]
    differ = 0
    for state in _positions(12, 5):
        seen = env.from_reference(state).observation[None]
        legal = state.legal_actions()
        moves = []
        for symmetric in (True, False):
            logits, _ = evaluate(env, trainer.params, seen, symmetric)
            moves.append(legal[int(np.argmax(np.asarray(logits[0])[legal]))])
        turn = turn_for(state)
        assert bots[1].act(turn, random.Random(0)) == moves[0]
        assert bots[0].act(turn, random.Random(0)) == moves[1]
        differ += moves[0] != moves[1]
    assert differ  # averaging does change some moves of an untrained network
