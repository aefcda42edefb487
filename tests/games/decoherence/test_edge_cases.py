"""Seed 000 section 8 (edge cases), closing, the leak, link breaks, and the ways to lose.

The made-classical loss and the simultaneous-loss rule are in test_rulings.py (D-22,
D-26), next to the rulings that settle their open points.
"""

import pytest

from quarkade import CHANCE, SPECTATOR, IllegalActionError, load_game
from tests.games.decoherence.helpers import (
    ANN,
    BOB,
    end_turn,
    facts,
    play,
    scene,
    seen_by,
    sentence,
    set_verve,
    table,
)

# -- section 8 ------------------------------------------------------------------------


def test_exclusion_a_new_kiki_takes_the_other_spin():
    state = scene((ANN, ["verved down kiki"]), test="boo'd down kiki")
    sentence(state, "boo'd down kiki")  # Bob has nothing: no target, the kiki arrives
    assert facts(state) == ["flipped", "no target"]
    assert table(state, ANN) == {1: ("kiki", "state", "down", "hidden", 3, None),
                                 2: ("kiki", "state", "up", "hidden", 3, None)}


def test_exclusion_applies_per_holder():
    # Ann's up kiki does not stop Bob's kiki from being pushed up: his piles count.
    state = scene((BOB, ["verved down kiki"]), (ANN, ["twigged up kiki"]),
                  test="tapped up lulu")
    sentence(state, "tapped up lulu", "their #1")
    assert table(state, BOB) == {1: ("kiki", "state", "up", "hidden", 3, None)}
    assert table(state, ANN)[1] == ("kiki", "state", "up", "hidden", 3, None)


def test_exclusion_holds_for_a_kiki_pushed_into_a_taken_spin():
    state = scene((BOB, ["verved down kiki", "boo'd up kiki"]), (ANN, []),
                  test="tapped up bouba")
    sentence(state, "tapped up bouba", "their #1")  # the down kiki cannot join the up one
    assert facts(state) == ["pay", "kept"]
    assert [t[2] for t in table(state, BOB).values()] == ["down", "up"]


def test_bunching_counts_other_boubas_in_the_same_spin_when_checked():
    state = scene((BOB, ["verved down bouba", "verved down bouba"]), (ANN, []),
                  test="tapped up kiki")
    assert [t[4] for t in table(state, BOB).values()] == [3, 3]
    assert [t["size"] for t in state.view(BOB)["tables"][BOB]] == [3, 3]
    assert [t["size"] for t in state.view(ANN)["tables"][BOB]] == [None, None]
    sentence(state, "tapped up kiki", "their #2")
    assert [t[4] for t in table(state, BOB).values()] == [2, 2]


def test_a_known_boubas_size_is_marked_uncertain_beside_unseen_nouns():
    # Bob's known up bouba bunches with his hidden up bouba; Ann must not learn that.
    state = scene((BOB, ["verved up bouba", "boo'd up bouba"]), (ANN, []))
    assert table(state, BOB)[1][4] == 3
    known = state.view(ANN)["tables"][BOB][0]
    assert (known["noun"], known["size"], known["size_exact"]) == ("bouba", 2, False)
    own = state.view(BOB)["tables"][BOB][0]
    assert (own["size"], own["size_exact"]) == (3, True)


def test_verved_through_with_no_lulus_gains_n():
    state = scene((ANN, []), test="verved through bouba")
    sentence(state, "verved through bouba")
    assert state.verve(ANN) == 12


def test_verved_out_at_one_verve_costs_the_last_point_and_loses():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="verved out kiki")
    set_verve(state, 1, 11)
    sentence(state, "verved out kiki")
    assert (state.verve(ANN), state.verve(BOB)) == (0, 8)
    assert state.is_terminal() and state.winners() == [BOB]
    assert state.ending() == "decoherence"


def test_discarded_cards_are_face_up_and_public():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="boo'd out kiki")
    sentence(state, "boo'd out kiki", "their #1")
    for viewer in (ANN, BOB, SPECTATOR):
        view = state.view(viewer)
        assert view["discards"][ANN] == {"boo'd": 1, "out": 1}
        assert view["discards"][BOB] == {"verved": 1, "down": 1, "bouba": 1}


# -- closing --------------------------------------------------------------------------

def test_closing_resolves_their_sentence_with_your_noun_known():
    state = scene((BOB, ["verb verved -> chain 1", "qualifier down -> chain 1",
                         "riffed through kiki"]), (ANN, ["riffed through bouba"]), test="lulu")
    assert state.verve(BOB) == 9
    play(state, "close their chain 1 with lulu")
    assert (state.verve(ANN), state.verve(BOB)) == (8, 10)
    assert table(state, BOB)[2] == ("lulu", "state", "down", "known", 2, None)
    assert state.thing(BOB, 2)["origin"] == ANN
    assert state.chains(BOB) == [None, None, None]
    assert state.view(ANN)["events"][0] == {"type": "pay", "seat": ANN, "amount": 2}


def test_closing_needs_a_chain_with_a_verb_and_a_qualifier():
    state = scene((BOB, ["verb verved -> chain 1", "riffed through kiki"]), (ANN, []),
                  test="lulu")
    assert not [a for a in state.legal_actions() if 43 <= a < 52]
    with pytest.raises(IllegalActionError, match="holds only verved"):
        state.apply_action(43 + 2)  # close their chain 1 with lulu


def test_you_cannot_close_your_own_chain_or_add_to_theirs():
    state = scene((BOB, ["verb verved -> chain 1", "qualifier up -> chain 1"]),
                  (ANN, ["verb riffed -> chain 1", "qualifier up -> chain 1"]), test="lulu")
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert "noun lulu -> chain 1" in texts  # completes her own chain
    assert "close their chain 1 with lulu" in texts  # closes Bob's
    assert len([t for t in texts if "lulu" in t]) == 2


def test_closing_needs_enough_verve():
    state = scene((BOB, ["verb verved -> chain 1", "qualifier up -> chain 1"]), (ANN, []),
                  test="kiki")
    set_verve(state, 2, 9)
    assert "close their chain 1 with kiki" not in [state.action_to_string(a)
                                                    for a in state.legal_actions()]


# -- the leak ---------------------------------------------------------------------------

def test_the_leak_costs_one_per_open_chain():
    state = scene((ANN, ["verb tapped -> chain 1", "verb boo'd -> chain 2",
                         "qualifier up -> chain 2"]))
    assert state.view(BOB)["leak"] == {"seat": ANN, "open_chains": 2, "verved_up": 0,
                                       "verved_down": False, "amount": 2}
    end_turn(state)
    assert state.verve(ANN) == 8
    assert state.view(BOB)["events"][0] == {"type": "leak", "seat": ANN, "amount": 2}


def test_no_open_chain_no_leak():
    state = scene((ANN, ["riffed through kiki"]))
    end_turn(state)
    assert state.verve(ANN) == 10


# -- links ------------------------------------------------------------------------------

def test_a_fatal_link_takes_the_other_half():
    state = scene((ANN, ["riffed through bouba", "twigged out kiki > your #1"]),
                  (BOB, []), test="riffed out lulu")
    sentence(state, "riffed out lulu", "their #1")
    assert table(state, ANN) == {}
    assert facts(state) == ["discard", "discard", "discard"]
    assert state.discards(ANN) == {"twigged": 1, "riffed": 1, "through": 1, "out": 1,
                                   "kiki": 1, "bouba": 1}


def test_an_ordinary_link_break_leaves_a_dark_survivor():
    state = scene((ANN, ["riffed through bouba", "twigged up kiki > your #1"]),
                  (BOB, []), test="riffed out lulu")
    sentence(state, "riffed out lulu", "their #2")
    assert table(state, ANN) == {1: ("bouba", "bare", None, "hidden", 2, None)}
    assert facts(state) == ["discard", "dark", "discard"]


def test_a_link_across_the_table_breaks_too():
    # Ann's spinless twig state is linked to Bob's bouba; Bob riffs it out and his own
    # bouba goes dark.
    state = scene((BOB, ["verved down bouba"]), (ANN, ["twigged through kiki > their #1"]),
                  (BOB, ["riffed out lulu > their #1"]))
    assert table(state, ANN) == {}
    assert table(state, BOB) == {1: ("bouba", "bare", None, "hidden", 2, None)}


def test_linked_things_cannot_be_measured_examined_or_twigged():
    state = scene((BOB, ["riffed through lulu", "twigged up bouba > your #1"]), (ANN, []),
                  test="boo'd up kiki")
    sentence(state, "boo'd up kiki")
    assert facts(state) == ["no target"]
    assert seen_by(state, BOB, ANN) == {1: None, 2: None}


# -- the ways to lose -----------------------------------------------------------------

def test_drawing_from_an_empty_deck_loses():
    # Both players keep one hidden noun as cover and pass every turn until Ann, who went
    # first, must draw from an empty deck.
    state = scene((ANN, ["riffed through kiki"]), (BOB, ["riffed through kiki"]))
    play(state, "pass")
    while not state.is_terminal():
        if state.current_player() == CHANCE or state.phase() == "discard":
            state.apply_action(state.legal_actions()[0])
        else:
            play(state, "pass")
    assert state.ending() == "empty deck" and state.winners() == [BOB]
    assert state.deck_size(ANN) == 0 and state.deck_size(BOB) == 0
    assert state.view(SPECTATOR)["events"][-1]["losers"] == [ANN]


def test_decoherence_loses_and_ends_the_game():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="verved out kiki")
    set_verve(state, 5, 3)
    sentence(state, "verved out kiki")
    assert state.is_terminal() and state.winners() == [ANN]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(16)


def test_the_game_has_two_seats_only():
    with pytest.raises(ValueError, match="players=3"):
        load_game("decoherence", players=3)
