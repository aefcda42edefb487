"""Decoherence bots: what greedy chooses, that it reads only its view, and that it beats
random."""

import random

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.sim import play_match
from tests.games.decoherence.helpers import ANN, BOB, scene, set_verve


def _greedy_turn(state, seed=0):
    """Let greedy play until the seat to move changes or a chance node comes."""
    agent = make_agent("greedy", "decoherence")
    seat = state.current_player()
    played = []
    while state.current_player() == seat:
        turn = turn_for(state)
        action = agent.act(turn, random.Random(seed))
        played.append(turn.action_text(action))
        state.apply_action(action)
    return played


def test_greedy_finishes_the_opponent_with_verved_out():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="verved out kiki")
    set_verve(state, 10, 3)
    played = _greedy_turn(state)
    assert played == ["verb verved -> chain 1", "qualifier out -> chain 1",
                      "noun kiki -> chain 1"]
    assert state.is_terminal() and state.winners() == [ANN]


def test_greedy_does_not_close_with_its_last_verve():
    state = scene((BOB, ["verb riffed -> chain 1", "qualifier through -> chain 1",
                         "riffed through lulu"]), (ANN, ["riffed through bouba"]), test="kiki")
    set_verve(state, 3, 9)
    played = _greedy_turn(state)
    assert "close their chain 1 with kiki" not in played
    assert not state.is_terminal() or state.winners() != [BOB]


def test_greedy_keeps_cover_rather_than_be_made_classical():
    # Ann's only noun is known; passing now would lose at the start of Bob's turn.
    state = scene((ANN, ["verved up kiki"]), (BOB, ["riffed through lulu"]), (ANN, []),
                  test="tapped")
    played = _greedy_turn(state)
    assert played[0] != "pass"
    assert not state.is_terminal()


def test_greedy_reads_only_its_view():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="riffed out kiki")
    turn = turn_for(state)
    assert turn.view == state.view(ANN)
    assert make_agent("greedy", "decoherence").act(turn, random.Random(1)) in turn.legal_actions


def test_greedy_beats_random():
    game = load_game("decoherence")
    wins = 0
    games = 40
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent("random", "decoherence") for _ in range(2)]
        agents[seat] = make_agent("greedy", "decoherence")
        final, _ = play_match(game, agents, seed=seed)
        wins += final.returns()[seat] > 0
    assert wins / games > 0.75
