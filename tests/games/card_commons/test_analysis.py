"""Card Commons' analysis hook: openings, what won, and the running score, checked by hand."""

import random

from hypothesis import given
from hypothesis import strategies as st

from quarkade import load_game
from quarkade.core.rng import random_playout
from quarkade.games.card_commons import analysis
from quarkade.sim.hooks import game_analysis
from quarkade.sim.play import walk_game
from tests.games.card_commons.helpers import play


def test_an_opening_on_your_own_side_loses_on_open_cells():
    # Seat 1 opens 3♦ on c2, its own side (rows 1-2); both pass at once.
    state = play("opener 1", "3D c2", "pass", "pass")
    assert state.is_terminal() and state.winners() == [0]
    assert analysis.key_events(state) == {
        "opener": 1, "opening": "3D c2", "open_cells": [8, 7], "cards_on_side": [0, 1],
        "won_on": "on open cells", "placements": [0, 0], "inversions": [0, 0],
        "repels": [0, 0], "polarizes": [0, 0], "declined": [0, 0], "passes": [1, 1]}
    assert analysis.game_tags(state) == {"how it was won": "on open cells"}
    assert analysis.seat_tags(state) == [
        {"role": "responder"},
        {"role": "opener", "opening card": "red 3", "opening cell": "c2 (opener's own side)",
         "opening side": "opener's own side"}]
    # The coin makes seat 1 the leader (its tie-break); the opening card costs it an open
    # cell, so seat 0 leads from the second action on, and wins.
    walk = walk_game(state, analysis.running_score)
    assert (walk.decisions, walk.first, walk.lead_changes) == (3, 1, 1)
    assert walk.decided_at == round(1 / 4, 4)


def test_level_sides_go_to_fewer_cards_then_the_opener():
    # Seat 0 opens 3♥ on b2 (seat 1's side); seat 1 answers 4♦ on b3 (seat 0's side).
    state = play("opener 0", "3H b2", "4D b3", "pass", "pass")
    assert state.winners() == [0]  # 7 open cells and 1 card each: the opener wins
    assert analysis.game_tags(state) == {"how it was won": "on the opener's tie-break"}
    assert analysis.seat_tags(state)[0] == {
        "role": "opener", "opening card": "red 3", "opening cell": "b2 (responder's side)",
        "opening side": "responder's side"}
    assert analysis.running_score(state) == [20 * 7 + 15 + 0.5, 20 * 7 + 15]
    walk = walk_game(state, analysis.running_score)
    assert (walk.lead_changes, walk.decided_at) == (0, 0.0)  # the opener led throughout
    # An inversion makes a stack of two on seat 0's side: now fewer cards decides.
    state = play("opener 0", "3H b2", "4D b3", "inv 4S b3 /AS", "pass", "pass")
    assert analysis.key_events(state)["cards_on_side"] == [2, 1]
    assert state.winners() == [1]
    assert analysis.game_tags(state) == {"how it was won": "on fewer cards"}
    assert analysis.key_events(state)["inversions"] == [1, 0]


def test_a_black_opening_card_and_the_tutorial_ending():
    state = play("opener 1", "5C b3", variant="tutorial")
    assert analysis.seat_tags(state)[1]["opening card"] == "black 5"
    assert analysis.seat_tags(state)[1]["opening cell"] == "b3 (responder's side)"
    final = random_playout(state, random.Random(2))
    assert analysis.game_tags(final) == {"how it was won": "no legal placement left"}


def test_the_simulator_finds_the_hook_and_its_notes():
    hook = game_analysis("card-commons")
    assert hook.seat_tags is analysis.seat_tags
    assert hook.running_score is analysis.running_score
    assert hook.note("opening cell").startswith("Openers only")


@given(seed=st.integers(0, 2**32 - 1), torus=st.booleans())
def test_the_last_leader_of_a_classic_game_is_its_winner(seed, torus):
    """The running score is the scoring rule (C-12), so it names the winner at the end."""
    game = load_game("card-commons", torus=torus)
    final = random_playout(game.new_initial_state(), random.Random(seed))
    scores = analysis.running_score(final)
    assert final.winners() == [scores.index(max(scores))]
    walk = walk_game(final, analysis.running_score)
    assert walk.decided_at is not None
    events = analysis.key_events(final)
    moves = sum(sum(events[kind]) for kind in analysis.MOVE_KINDS)
    assert moves == walk.decisions - 1  # every decision but the opening
    tags = analysis.seat_tags(final)
    assert [t["role"] for t in tags].count("opener") == 1
    assert tags[final.opener()]["opening side"] in tags[final.opener()]["opening cell"]
