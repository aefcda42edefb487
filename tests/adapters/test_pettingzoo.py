"""The PettingZoo AEC adapter, checked by PettingZoo's own test utilities for every game,
player count and variant, and by what PettingZoo leaves to the environment: chance
resolved inside, masks, returns, illegal actions, rendering and hidden information."""

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import quarkade
from quarkade import IllegalActionError
from quarkade.adapters import encoding
from quarkade.adapters.pettingzoo import env, raw_env
from tests.adapters.cases import CASES, HIDDEN, IDS
from tests.twins import history_with_secrets, twin_history

# PettingZoo warns about every dict observation outside its own list of classic games.
DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


def play_randomly(aec, seed):
    """One game with legal random moves; the agents in the order they were selected."""
    rng = random.Random(seed)
    selected = []
    aec.reset(seed=seed)
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        selected.append(agent)
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return selected


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_pettingzoo_api_test_and_seed_test_pass(name, options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, **options), num_cycles=200)
        seed_test(lambda: env(name, **options), num_cycles=200)
    unexpected = {str(w.message) for w in caught
                  if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_a_game_ends_with_its_returns_and_every_agent_done(name, options):
    aec = raw_env(name, **options)
    rewards = dict.fromkeys(aec.possible_agents, 0.0)
    aec.reset(seed=3)
    for agent in aec.agent_iter():
        state = aec.game_state
        assert not state.is_chance_node()  # chance is played inside the environment
        observation, reward, terminated, _, _ = aec.last()
        rewards[agent] += reward
        if terminated:
            aec.step(None)
            continue
        assert aec.possible_agents[state.current_player()] == agent
        assert observation["observation"].dtype == np.float32
        mask = observation["action_mask"]
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        for other in aec.possible_agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        aec.step(int(np.flatnonzero(mask)[0]))
    assert aec.agents == []
    final = aec.game_state
    assert final.is_terminal()
    assert [rewards[a] for a in aec.possible_agents] == final.returns()
    assert sum(rewards.values()) == pytest.approx(0)


def test_the_same_seed_replays_the_same_game_and_another_seed_differs():
    first = raw_env("dead-cat", players=4)
    second = raw_env("dead-cat", players=4)
    assert play_randomly(first, 11) == play_randomly(second, 11)
    assert first.game_state.history() == second.game_state.history()
    histories = set()
    for seed in range(4):
        play_randomly(first, seed)
        histories.add(tuple(first.game_state.history()))
    assert len(histories) == 4


def test_reset_without_a_seed_goes_on_drawing_new_games():
    aec = raw_env("hadronize")
    aec.reset(seed=5)
    play_randomly(aec, 5)
    aec.reset()
    starts = {tuple(aec.game_state.history())}
    for _ in range(5):
        aec.reset()
        starts.add(tuple(aec.game_state.history()))
    assert len(starts) > 1


def test_the_observation_is_the_games_encoding_of_the_agents_view():
    aec = raw_env("hadronize", players=4)
    aec.reset(seed=2)
    coding = encoding(aec.game)
    for seat, agent in enumerate(aec.possible_agents):
        observed = aec.observe(agent)["observation"]
        expected = np.array(coding.encode(aec.game_state.view(seat)), np.float32)
        assert np.array_equal(observed, expected)
    assert aec.observation_space(aec.possible_agents[0])["observation"].shape == (coding.size,)


def test_observations_are_fresh_arrays():
    aec = raw_env("hadronize")
    aec.reset(seed=1)
    agent = aec.agent_selection
    one, two = aec.observe(agent), aec.observe(agent)
    one["observation"][:] = 0
    one["action_mask"][:] = 0
    assert two["observation"].any() and two["action_mask"].any()


def test_raw_env_refuses_an_illegal_action_and_keeps_the_game():
    aec = raw_env("hadronize")
    aec.reset(seed=4)
    before = aec.game_state.history()
    illegal = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        aec.step(illegal)
    assert aec.game_state.history() == before


def test_env_ends_the_game_on_an_illegal_action_with_a_penalty():
    aec = env("card-commons")
    aec.reset(seed=4)
    offender = aec.agent_selection
    mask = aec.last()[0]["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards[offender] == -1.0


def test_bad_options_are_refused_with_the_games_message():
    with pytest.raises(quarkade.GameOptionError, match="players"):
        raw_env("hadronize", players=9)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("hadronize", render_mode="human")


def test_ansi_render_is_the_public_terminal_rendering():
    aec = env("dead-cat", render_mode="ansi", players=3)
    aec.reset(seed=6)
    for _ in range(4):  # a few peeks and bets: cards go face down into the time deck
        aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[-1]))
    text = aec.render()
    assert "player_0" in text and "Dead Cat" in text
    assert "alive" not in text.split("time deck")[-1]  # nobody's peeked card is shown
    assert raw_env("dead-cat").render() is None


@pytest.mark.parametrize("name", HIDDEN)
def test_an_agent_cannot_tell_its_observation_from_a_twin_games(name):
    aec = raw_env(name)
    rng = random.Random(8)
    for seed in range(3):
        for seat, agent in enumerate(aec.possible_agents):
            # Each twin differs from its game in what the seat has not seen.
            history = history_with_secrets(aec.game, seat, random.Random(seed), 45)
            twin = twin_history(aec.game, history, seat, rng)
            observed = []
            for actions in (history, twin):
                state = aec.game.new_initial_state()
                for action in actions:
                    state.apply_action(action)
                aec.game_state = state
                observed.append(aec.observe(agent))
            assert np.array_equal(observed[0]["observation"], observed[1]["observation"])
            assert np.array_equal(observed[0]["action_mask"], observed[1]["action_mask"])
