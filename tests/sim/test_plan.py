"""Plans: who sits where in game i, game i's seed, and how --agents is read."""

import pytest

from quarkade.core.errors import AgentSpecError
from quarkade.sim.plan import (
    game_seed,
    seat_agents,
    simulation_plan,
    split_agent_list,
    tournament_plan,
)


@pytest.mark.parametrize(("k", "players"), [(1, 2), (2, 2), (2, 4), (3, 2), (3, 3), (4, 6)])
def test_every_agent_sits_at_every_seat_once_in_any_k_consecutive_games(k, players):
    agents = [f"a{i}" for i in range(k)]
    for start in range(5):
        for seat in range(players):
            held = [seat_agents(agents, players, game)[seat]
                    for game in range(start, start + k)]
            assert sorted(held) == agents


def test_two_agents_swap_seats_game_by_game():
    assert [seat_agents(["random", "greedy"], 2, g) for g in range(3)] == [
        ["random", "greedy"], ["greedy", "random"], ["random", "greedy"]]


def test_game_seeds_follow_the_run_seed_and_index_only():
    seeds = [game_seed(1, i) for i in range(1000)]
    assert seeds == [game_seed(1, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**48 for s in seeds)
    assert game_seed(2, 0) != game_seed(1, 0)


def test_simulation_plan_is_one_matchup():
    plan = simulation_plan("hadronize", {"players": 3}, ["random", "greedy"], 10, 7)
    assert plan.total == 10 and plan.agents == ["random", "greedy"]
    assert plan.seats(1) == ["greedy", "random", "greedy"]
    assert plan.game_seed(4) == game_seed(7, 4)


def test_tournament_is_a_round_robin_with_common_seeds():
    plan = tournament_plan("hadronize", {"players": 2}, ["a", "b", "c"], 4, 7)
    assert plan.matchups == (("a", "b"), ("a", "c"), ("b", "c"))
    assert plan.total == 12
    assert plan.seats(4) == ["a", "c"] and plan.seats(5) == ["c", "a"]
    assert plan.game_seed(1) == plan.game_seed(5) == plan.game_seed(9)


def test_a_tournament_needs_two_agents():
    with pytest.raises(AgentSpecError, match="at least two agents"):
        tournament_plan("hadronize", {"players": 2}, ["greedy"], 4, 7)


@pytest.mark.parametrize(("text", "specs"), [
    ("random,greedy", ["random", "greedy"]),
    (" random , greedy ", ["random", "greedy"]),
    ("greedy", ["greedy"]),
    ("greedy,mcts:iterations=200,c=1.4,random", ["greedy", "mcts:iterations=200,c=1.4", "random"]),
])
def test_agent_lists_split_at_commas_keeping_parameters(text, specs):
    assert split_agent_list(text) == specs


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty entry"),
    ("random,,greedy", "empty entry"),
    ("random,", "empty entry"),
    ("iterations=3,greedy", "starts with a parameter"),
    ("greedy,random,greedy", "lists 'greedy' twice"),
])
def test_bad_agent_lists_are_refused_with_a_reason(text, message):
    with pytest.raises(AgentSpecError, match=message):
        split_agent_list(text)
