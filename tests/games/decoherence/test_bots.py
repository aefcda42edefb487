"""Decoherence bots: what greedy chooses, that it reads only its view, and that it beats
random."""

import random

import pytest

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


def _score_by_the_book(state, me):
    """greedy's score written over the public reading methods (as it first was): the
    fast one in bots.py, on the raw lists, must agree with it everywhere."""
    from quarkade.games.decoherence.lines import WIN
    if state.is_terminal():
        return WIN * state.returns()[me]
    value = float(state.verve(me) - state.verve(1 - me))
    for seat in (me, 1 - me):
        hidden = state.hidden_nouns(seat)
        cover = min(hidden, 2) * 1.5 + max(hidden - 2, 0) * 0.4
        links = sum(1 for t in state.things(seat).values() if t["link"] is not None)
        chains = sum(0.8 if chain[1] else 0.35 for chain in state.chains(seat) if chain)
        exposed = 3.0 if hidden == 0 and links == 0 and chains == 0 else 0.0
        position = cover + 0.7 * links + chains - exposed
        value += position if seat == me else -0.5 * position
    return value + 0.15 * len(state.hand(me))


def test_the_fast_score_is_greedys_score():
    from quarkade.games.decoherence.lines import score
    from tests.games.decoherence.test_invariants import playout

    checked = 0

    def check(state):
        nonlocal checked
        for me in (0, 1):
            assert score(state, me) == pytest.approx(_score_by_the_book(state, me))
        checked += 1

    for seed in range(12):
        playout(seed, {"deck0": "balanced", "deck1": "random"}, check)
    assert checked > 300
