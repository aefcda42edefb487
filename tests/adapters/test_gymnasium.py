"""The single-agent Gymnasium adapter, checked by Gymnasium's own environment checker for
every game, player count and variant, and by what the checker leaves to us: the opponents,
the mask, the reward at the end and the penalty for an illegal action."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import quarkade
from quarkade import IllegalActionError
from quarkade.adapters import encoding
from quarkade.adapters.gymnasium import ILLEGAL_REWARD, QuarkadeEnv, env_id
from quarkade.core.agent import RandomAgent
from quarkade.core.errors import AgentSpecError
from tests.adapters.cases import CASES, IDS


def play_out(env, seed, pick=lambda mask: int(np.flatnonzero(mask)[0])):
    """One episode choosing legal actions; (total reward, steps, last info)."""
    _, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        _, reward, done, truncated, info = env.step(pick(info["action_mask"]))
        assert not truncated
        total += reward
        steps += 1
    return total, steps, info


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_gymnasium_check_env_passes(name, options):
    env = gymnasium.make(env_id(name), opponent="greedy", **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]


def test_every_game_is_registered():
    for name in quarkade.list_games():
        assert env_id(name) in gymnasium.registry


@pytest.mark.parametrize("name", quarkade.list_games())
def test_an_episode_ends_with_the_learners_return(name):
    env = QuarkadeEnv(name, opponent="random")
    total, steps, _ = play_out(env, 3)
    assert steps > 0
    state = env.game_state
    assert state.is_terminal()
    assert total == state.returns()[env.seat]


def test_the_observation_is_the_encoding_of_the_learners_view_and_the_mask_its_moves():
    env = QuarkadeEnv("hadronize", opponent="greedy", seat=1, players=3)
    observation, info = env.reset(seed=4)
    state = env.game_state
    assert state.current_player() == 1
    expected = encoding(env.game).encode(state.view(1))
    assert np.array_equal(observation, np.array(expected, np.float32))
    assert list(np.flatnonzero(info["action_mask"])) == state.legal_actions()
    assert info["seat"] == 1


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = QuarkadeEnv("card-commons", opponent="greedy", illegal_reward=-2.5)
    _, info = env.reset(seed=1)
    before = env.game_state.history()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.5, True, False)
    assert info["illegal_action"] == illegal
    assert env.game_state.history() == before  # not played
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(0)
    assert QuarkadeEnv("hadronize").illegal_reward == ILLEGAL_REWARD == -1.0


def test_the_same_seed_gives_the_same_episode():
    first, second = QuarkadeEnv("dead-cat", players=4), QuarkadeEnv("dead-cat", players=4)
    assert play_out(first, 9)[:2] == play_out(second, 9)[:2]
    assert first.game_state.history() == second.game_state.history()


def test_every_episode_plays_fresh_copies_of_the_opponents():
    env = QuarkadeEnv("dead-cat", opponent="greedy", players=3)
    play_out(env, 5)
    history = env.game_state.history()
    opponents = dict(env._agents)
    play_out(env, 6)
    assert all(env._agents[seat] is not agent for seat, agent in opponents.items())
    play_out(env, 5)  # the episodes between leave no trace
    assert env.game_state.history() == history


def test_a_seat_drawn_per_episode_covers_every_seat():
    env = QuarkadeEnv("hadronize", seat=None, players=3)
    seats = {env.reset(seed=seed)[1]["seat"] for seed in range(30)}
    assert seats == {0, 1, 2}


def test_opponents_may_differ_per_seat_and_be_agents():
    env = QuarkadeEnv("hadronize", opponent=["greedy", RandomAgent()], players=3)
    assert play_out(env, 2)[1] > 0
    with pytest.raises(AgentSpecError, match="2 agents"):
        QuarkadeEnv("hadronize", opponent=["greedy"], players=3)
    with pytest.raises(AgentSpecError, match="no agent"):
        QuarkadeEnv("hadronize", opponent="grandmaster")
    with pytest.raises(ValueError, match="seats 0-1"):
        QuarkadeEnv("hadronize", seat=2)


def test_ansi_render_shows_the_learners_own_view():
    env = QuarkadeEnv("decoherence", render_mode="ansi", opponent="greedy")
    env.reset(seed=5)
    text = env.render()
    hand = env.game_state.view(0)["hand"]
    assert "you" in text and all(word in text for word in hand)
    assert QuarkadeEnv("decoherence").render() is None
