"""Dead Cat's analysis hook: announce timings per round and per seat, and cubes as the score."""

import random

from hypothesis import given
from hypothesis import strategies as st

from quarkade import load_game
from quarkade.core.rng import random_playout
from quarkade.games.dead_cat import analysis
from quarkade.games.dead_cat.analysis import NEVER, RAN_OUT
from quarkade.sim.hooks import game_analysis
from quarkade.sim.play import walk_game
from tests.games.dead_cat.helpers import announce, peek, table

TIMING = "time-deck size when announcing (2 players)"
ROUNDS = f"announcer's round win rate by {TIMING}"


def scripted_game():
    """Five rounds between seat 0 (first) and seat 1, one of each kind of ending."""
    state = table(players=2, first=0)
    announce(state)  # round 1, seat 0 begins: all dice on 1, the announcer's tie
    peek(state, "alive", 3)  # round 2, seat 1 begins
    peek(state, "dead", 2)
    announce(state)  # seat 1 calls with 2 cards: the dead cat is 1st, seat 0's 2 is closer
    announce(state)  # round 3, seat 0 begins and calls at once again
    announce(state)  # round 4, seat 1 begins and does the same
    for bet0, bet1 in ((2, 2), (3, 3), (4, 4), (6, 5)):  # round 5: the box runs out
        peek(state, "alive", bet0)
        peek(state, "alive", bet1)
    return state  # no dead cat: seat 0's 6 is highest


def test_a_scripted_game_reports_each_rounds_timing():
    state = scripted_game()
    assert state.is_terminal() and state.winners() == [0] and state.cubes() == [4, 1]
    assert analysis.key_events(state) == {
        "rounds": 5, "timings": [0, 2, 0, 0, RAN_OUT], "announcers": [0, 1, 0, 1, None],
        "round_winners": [[0], [0], [0], [1], [0]], "cubes": [4, 1]}
    assert analysis.game_tags(state) == {"players": 2}
    assert analysis.seat_tags(state) == [
        {"turn order": 1, TIMING: [0]},
        {"turn order": 2, TIMING: [0, 2, RAN_OUT]}]
    assert analysis.tallies(state) == [
        {ROUNDS: {0: (2, 2)}},
        {ROUNDS: {2: (0, 1), 0: (1, 1), RAN_OUT: (0, 1)}}]
    walk = walk_game(state, analysis.running_score)
    # Seat 0 took the first cube with the game's second action and never lost the lead.
    assert (walk.first, walk.lead_changes, walk.decided_at) == (0, 0, round(1 / 35, 4))
    assert len(state.history()) == 35


def test_a_seat_that_never_announces_is_tagged_so():
    state = table(players=3, first=2)
    announce(state)  # seat 2 begins every third round and calls at once
    peek(state, "alive", 4)  # round 2: seat 1 begins
    peek(state, "alive", 5)  # seat 2
    peek(state, "alive", 2)  # seat 0
    announce(state)  # seat 1 calls with 3 cards, all alive: the highest die, seat 2's 5
    tags = analysis.seat_tags(state)
    name = "time-deck size when announcing (3 players)"
    assert [t[name] for t in tags] == [[NEVER], [3], [0]]
    assert [t["turn order"] for t in tags] == [2, 3, 1]
    assert analysis.key_events(state)["round_winners"] == [[2], [2]]


def test_the_simulator_finds_the_hook_and_its_notes():
    hook = game_analysis("dead-cat")
    assert hook.tallies is analysis.tallies
    assert hook.note(TIMING).startswith("The game win rate")
    assert hook.note(ROUNDS).startswith("One trial per round")


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), peek_first=st.booleans())
def test_every_round_is_one_trial_of_the_seat_that_ended_it(seed, players, peek_first):
    game = load_game("dead-cat", players=players, peek_first=peek_first)
    final = random_playout(game.new_initial_state(), random.Random(seed))
    rounds = final.rounds()
    name = (f"announcer's round win rate by time-deck size when announcing "
            f"({players} players)")
    tallies = analysis.tallies(final)
    assert sum(t for seat in tallies for _, t in seat[name].values()) == len(rounds)
    for r in rounds:
        ended_by = r.peekers[-1] if r.announcer < 0 else r.announcer
        assert analysis.key_events(final)["timings"][r.number - 1] in tallies[ended_by][name]
    if peek_first:
        assert 0 not in analysis.key_events(final)["timings"]
    assert analysis.running_score(final) == [float(c) for c in final.cubes()]
