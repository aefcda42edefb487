"""Hadronize bots: what greedy chooses, and that it beats random."""

import random

import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.sim import play_match
from tests.games.hadronize.helpers import dealt


def _choice(state, spec="greedy", seed=0):
    state.apply_action(state.string_to_action("superpose c/s/u"))
    return state.action_to_string(make_agent(spec, "hadronize").act(turn_for(state),
                                                                      random.Random(seed)))


def test_greedy_takes_the_winning_hadronization():
    state = dealt([["charm", "strange", "up", "top"], ["strange"] * 4], goal=2)
    assert _choice(state) == "observe 0"  # any of c/s/u hadronizes 2 and wins


def test_greedy_tunnels_a_big_pile_away_from_the_opponent():
    state = dealt([["down", "down", "bottom", "bottom"], ["strange", "charm", "up", "top"]])
    # Seat 1 holds one of each of c/s/u: whatever collapses, two quarks tunnel to seat 0.
    assert _choice(state) == "observe 1"


def test_greedy_reads_only_its_view():
    state = dealt([["charm"] * 4, ["strange"] * 4])
    state.apply_action(state.string_to_action("superpose c/s/u"))
    turn = turn_for(state)
    assert turn.view == state.view(0)
    assert make_agent("greedy", "hadronize").act(turn, random.Random(1)) in turn.legal_actions


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_beats_random(players):
    game = load_game("hadronize", players=players)
    wins = 0
    games = 120
    for seed in range(games):
        seat = seed % players
        agents = [make_agent("random", "hadronize") for _ in range(players)]
        agents[seat] = make_agent("greedy", "hadronize")
        final, _ = play_match(game, agents, seed=seed)
        wins += final.returns()[seat] > 0
    # Fair share is 1/players; greedy wins well over half the games in both settings.
    assert wins / games > 0.6
