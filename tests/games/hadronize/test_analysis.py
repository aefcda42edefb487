"""Hadronize's analysis hook: key events, tags and running score of finished games."""

import random

from hypothesis import given
from hypothesis import strategies as st

from quarkade import SPECTATOR, load_game
from quarkade.core.rng import random_playout
from quarkade.games.hadronize import analysis
from quarkade.sim.hooks import game_analysis
from quarkade.sim.play import walk_game
from tests.games.hadronize.helpers import dealt, turn


def test_a_scripted_game_reports_its_reactions_and_lead():
    # Seat 0 holds two charms; seat 1 holds two stranges.
    state = dealt([["charm", "charm", "up", "top"], ["strange", "strange", "down", "top"]],
                  goal=3)
    turn(state, "c/s/u", 1, "strange")  # seat 0 makes seat 1 observe: three tunnel to seat 0
    turn(state, "d/b/t", 1, "bottom")   # seat 1 keeps a bottom
    turn(state, "c/s/u", 0, "charm")    # seat 0 hadronizes three charms and wins
    assert state.is_terminal() and state.winners() == [0]
    assert analysis.key_events(state) == {
        "turns": 3, "ended": "goal", "hadronized": [3, 0], "hadronizations": 1, "tunnels": 1,
        "largest_hadronization": 3}
    assert analysis.game_tags(state) == {"players": 2}
    assert analysis.seat_tags(state) == [{"turn order": 1}, {"turn order": 2}]
    walk = walk_game(state, analysis.running_score)
    assert (walk.decisions, walk.first, walk.lead_changes) == (3, 0, 0)
    # Seat 0 took the lead with the game's last action and kept it.
    assert walk.decided_at == round(17 / 18, 4) and len(state.history()) == 18


def test_turn_order_counts_from_the_seat_chance_picked():
    state = dealt([["up"] * 4, ["down"] * 4, ["top"] * 4], first=2, max_turns=1)
    turn(state, "u/d/t", 2, "up")
    assert state.is_terminal()
    assert [t["turn order"] for t in analysis.seat_tags(state)] == [2, 3, 1]
    assert analysis.game_tags(state) == {"players": 3, "ended by": "turn cap"}
    assert analysis.key_events(state)["ended"] == "turn cap"


def test_the_simulator_finds_the_hook():
    hook = game_analysis("hadronize")
    assert hook.key_events is analysis.key_events
    assert hook.running_score is analysis.running_score


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_reaction_counts_agree_with_what_the_table_showed(seed, players):
    """The hook reads reactions from chamber and score changes; the view names them."""
    game = load_game("hadronize", players=players)
    final = random_playout(game.new_initial_state(), random.Random(seed))
    replay = game.new_initial_state()
    seen = {"hadronize": 0, "tunnel": 0}
    largest = 0
    for action in final.history():
        collapsing = replay.is_chance_node() and replay.superposition() is not None
        replay.apply_action(action)
        if collapsing:
            last = replay.view(SPECTATOR)["last"]
            seen[last["reaction"]] = seen.get(last["reaction"], 0) + 1
            if last["reaction"] == "hadronize":
                largest = max(largest, last["count"])
    events = analysis.key_events(final)
    assert events["hadronizations"] == seen["hadronize"]
    assert events["tunnels"] == seen["tunnel"]
    assert events["largest_hadronization"] == largest
    assert sum(events["hadronized"]) == sum(analysis.running_score(final))
