"""One test (or more) per Decoherence ruling in docs/RULINGS.md (D-1 ... D-29).

Rulings whose test is a sentence scenario point to test_sentences.py from the table.
"""

import pytest

from quarkade import CHANCE, SPECTATOR, IllegalActionError, load_game
from quarkade.games.decoherence.notation import KIND_COMPOSITIONS
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
    start,
    table,
)


def _bob_riff_closed_by_ann():
    """Bob leaves "riffed up" open; Ann, holding a down bouba, closes it with her kiki."""
    return scene((BOB, ["verb riffed -> chain 1", "qualifier up -> chain 1",
                        "riffed through lulu"]),
                 (ANN, ["verved down bouba", "close their chain 1 with kiki"]))


def test_closed_chain_choices_belong_to_its_owner():  # D-1
    state = _bob_riff_closed_by_ann()
    assert state.current_player() == BOB and state.phase() == "target"
    assert (state.verve(ANN), state.verve(BOB)) == (8, 9)  # Ann paid 3; Bob leaked 1
    assert [state.action_string_for(BOB, a) for a in state.legal_actions()] == \
        ["target: their hidden #1"]
    play(state, "target their #1")  # Bob's up kiki meets Ann's down bouba: both go
    assert state.current_player() == ANN and state.phase() == "play"
    assert table(state, ANN) == {} and table(state, BOB) == {
        1: ("lulu", "bare", None, "hidden", 2, None)}


def test_a_closed_noun_goes_back_to_the_closers_pile():  # D-25
    state = _bob_riff_closed_by_ann()
    play(state, "target their #1")
    assert state.discards(ANN) == {"verved": 1, "down": 1, "kiki": 1, "bouba": 1}
    assert state.discards(BOB) == {"riffed": 2, "up": 1, "through": 1}
    assert state.view(SPECTATOR)["discards"][ANN]["kiki"] == 1


def test_closed_verved_up_and_down_change_no_leak():  # D-2
    state = scene((BOB, ["verb verved -> chain 1", "qualifier up -> chain 1",
                         "verb verved -> chain 2", "qualifier down -> chain 2"]),
                  (ANN, ["riffed through kiki", "close their chain 1 with lulu",
                         "close their chain 2 with bouba"]))
    assert (state.verve(ANN), state.verve(BOB)) == (6, 11)  # Bob: 10 - 2 leak + 2 + 1
    assert table(state, BOB) == {1: ("lulu", "state", "up", "known", 2, None),
                                 2: ("bouba", "state", "down", "known", 2, None)}
    leak = state.view(ANN)["leak"]
    assert (leak["verved_up"], leak["verved_down"], leak["amount"]) == (0, False, 0)
    end_turn(state, draw="tapped")
    assert state.verve(ANN) == 6
    assert state.view(BOB)["leak"]["amount"] == 0  # nothing carried into Bob's own turn
    end_turn(state)
    assert state.verve(BOB) == 11


def test_a_resolution_is_checked_as_a_whole():  # D-3
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="tapped through kiki")
    set_verve(state, 1, 11)
    sentence(state, "tapped through kiki")
    assert state.verve(ANN) == 0 and state.phase() == "coin"  # not over mid-sentence
    play(state, "tails")
    assert state.is_terminal() and state.ending() == "decoherence"
    assert state.returns() == [-1.0, 1.0]


def test_the_leak_can_decohere():  # D-3
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="tapped riffed")
    set_verve(state, 2, 11)
    play(state, "verb tapped -> chain 1", "verb riffed -> chain 2", "pass")
    assert state.verve(ANN) == 0
    assert state.is_terminal() and state.winners() == [BOB]


def test_a_target_must_be_chosen_when_one_exists():  # D-4
    state = scene(((BOB, ["verved down bouba", "riffed through lulu"])), (ANN, []),
                  test="riffed out kiki")
    sentence(state, "riffed out kiki")
    assert state.phase() == "target"
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["target: their bouba #1", "target: their lulu #2"]
    with pytest.raises(IllegalActionError, match="targets listed"):
        state.apply_action(state.legal_actions()[0] - 20)  # "target your #1" is no target
    with pytest.raises(IllegalActionError):
        state.apply_action(16)  # pass


def test_closing_with_a_bouba_costs_two():  # D-5
    state = scene((BOB, ["twigged up bouba", "verb verved -> chain 1",
                         "qualifier up -> chain 1"]), (ANN, []), test="bouba")
    assert state.verve(BOB) == 9
    play(state, "close their chain 1 with bouba")
    assert state.verve(ANN) == 8  # the printed 2, though the bouba lands bunched
    assert state.verve(BOB) == 12  # N = 3: Bob's other up bouba bunches
    assert table(state, BOB) == {1: ("bouba", "state", "up", "hidden", 3, None),
                                 2: ("bouba", "state", "up", "known", 3, None)}


def test_closing_costs_follow_the_printed_sizes():  # D-5
    state = scene((BOB, ["verb verved -> chain 1", "qualifier up -> chain 1"]), (ANN, []),
                  test="kiki bouba lulu")
    set_verve(state, 2, 9)
    closes = [state.action_to_string(a) for a in state.legal_actions()
              if state.action_to_string(a).startswith("close")]
    assert closes == ["close their chain 1 with bouba", "close their chain 1 with lulu"]
    with pytest.raises(IllegalActionError, match="costs 3 verve and you have 2"):
        state.apply_action(43)  # close chain 1 with kiki


def test_closing_with_your_last_verve_loses_at_once():  # D-6
    state = scene((BOB, ["verb riffed -> chain 1", "qualifier up -> chain 1",
                         "riffed through lulu"]), (ANN, ["verved down bouba"]), test="kiki")
    set_verve(state, 3, 9)
    play(state, "close their chain 1 with kiki")
    assert state.verve(ANN) == 0
    assert state.is_terminal() and state.winners() == [BOB]
    assert table(state, ANN) == {1: ("bouba", "state", "down", "hidden", 2, None)}  # unriffed
    assert state.discards(ANN)["kiki"] == 1


@pytest.mark.parametrize(("sentences", "verve"), [
    (["verved up kiki", "verved up bouba"], 13),  # 10 + 3 + 2, leak 2
    (["verved up kiki", "verved down bouba"], 14),  # 10 + 3 + 1, no leak
    (["verved down bouba", "verved up kiki"], 14),  # order does not matter
])
def test_verved_ups_add_and_a_verved_down_zeroes_the_leak(sentences, verve):  # D-7
    state = scene((ANN, sentences))
    end_turn(state)
    assert state.verve(ANN) == verve


def test_a_kiki_with_both_spins_taken_is_discarded_with_no_effect_but_tapped_pays():  # D-8
    state = scene((ANN, ["twigged up kiki"]), (BOB, ["verved down bouba"]),
                  (ANN, ["verved down kiki"]), (BOB, []), (ANN, []), (BOB, []), (ANN, []),
                  test="tapped up kiki")
    assert state.verve(ANN) == 11
    sentence(state, "tapped up kiki")
    assert state.phase() == "play"  # no target decision though Bob has a state
    assert facts(state) == ["excluded", "discard", "pay"]
    assert state.verve(ANN) == 10  # tapped's 1 is paid regardless (seed 001)
    assert table(state, BOB) == {1: ("bouba", "state", "down", "hidden", 2, None)}
    assert table(state, ANN) == {1: ("kiki", "state", "up", "hidden", 3, None),
                                 2: ("kiki", "state", "down", "hidden", 3, None)}
    assert state.discards(ANN) == {"tapped": 1, "verved": 1, "twigged": 1, "up": 2,
                                   "down": 1, "kiki": 1}


def test_a_push_is_refused_when_the_partner_cannot_follow():  # D-9
    # Bob: a down kiki (#1), and an up kiki (#2) linked to a down bouba (#3). Pushing the
    # bouba up would send the linked kiki down, where Bob already has a kiki.
    state = scene((BOB, ["verved down kiki"]), (ANN, ["riffed through lulu"]),
                  (BOB, ["riffed through kiki"]), (ANN, []), (BOB, []), (ANN, []),
                  (BOB, ["twigged down bouba > your #2"]), (ANN, []), test="tapped up lulu")
    before = table(state, BOB)
    assert before == {1: ("kiki", "state", "down", "hidden", 3, None),
                      2: ("kiki", "state", "up", "hidden", 3, (1, 3)),
                      3: ("bouba", "state", "down", "hidden", 2, (1, 2))}
    sentence(state, "tapped up lulu", "their #3")
    assert table(state, BOB) == before
    assert facts(state) == ["pay", "kept"]
    assert state.verve(ANN) == 9


def test_a_kiki_that_cannot_take_the_partner_spin_is_no_twig_target():  # D-9
    # Ann: a down kiki (#1) and a bare kiki (#2). Twigged up needs a down partner: the bare
    # kiki cannot go down beside the other, the down kiki already is.
    state = scene((ANN, ["verved down kiki"]), (BOB, ["riffed through bouba"]),
                  (ANN, ["riffed through kiki"]), (BOB, []), (ANN, []), (BOB, []), (ANN, []),
                  test="twigged up lulu")
    sentence(state, "twigged up lulu")
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["target: your kiki #1"]
    play(state, "target your #1")
    assert table(state, ANN)[1] == ("kiki", "state", "down", "hidden", 3, (0, 3))
    assert table(state, ANN)[3] == ("lulu", "state", "up", "hidden", 2, (0, 1))


def test_a_flipped_kiki_riffs_with_its_new_spin():  # D-9
    # Ann's new kiki cannot be up beside her up kiki: it is down, so it meets Bob's down
    # bouba in the same spin and both grow instead of cancelling.
    state = scene((BOB, ["verved down bouba"]), (ANN, ["twigged up kiki"]),
                  test="riffed up kiki")
    sentence(state, "riffed up kiki", "their #1")
    assert facts(state) == ["flipped", "grow", "grow"]
    assert table(state, ANN)[2] == ("kiki", "state", "down", "known", 6, None)
    assert table(state, BOB) == {1: ("bouba", "state", "down", "hidden", 5, None)}


def test_tapped_may_push_a_spinless_state():  # D-11
    state = scene((ANN, ["twigged up bouba"]), (BOB, ["twigged through lulu > their #1"]),
                  (ANN, []), test="tapped up kiki")
    assert table(state, BOB) == {1: ("lulu", "state", None, "hidden", 2, (0, 1))}
    sentence(state, "tapped up kiki", "their #1")
    assert table(state, BOB) == {1: ("lulu", "state", "up", "hidden", 2, (0, 1))}
    assert table(state, ANN) == {1: ("bouba", "state", "down", "hidden", 2, (1, 1)),
                                 2: ("kiki", "state", "up", "hidden", 3, None)}


def test_a_spinless_partner_stays_spinless():  # D-11
    state = scene((ANN, ["twigged up bouba"]),
                  (BOB, ["twigged through lulu > their #1", "tapped down kiki > their #1"]))
    assert table(state, ANN) == {1: ("bouba", "state", "down", "hidden", 2, (1, 1))}
    assert table(state, BOB)[1] == ("lulu", "state", None, "hidden", 2, (0, 1))


def test_a_known_thing_that_goes_dark_is_hidden_but_remembered():  # D-16
    state = scene((BOB, ["verved up lulu", "twigged down bouba > your #1"]), (ANN, []),
                  test="riffed out kiki boo'd up bouba")
    assert table(state, BOB)[1] == ("lulu", "state", "up", "known", 2, (1, 2))
    sentence(state, "riffed out kiki", "their #2")
    assert table(state, BOB) == {1: ("lulu", "bare", None, "hidden", 2, None)}
    assert state.view(ANN)["hidden_nouns"][BOB] == 1  # it counts as hidden again
    assert seen_by(state, BOB, ANN) == {1: "lulu"}  # but Ann saw it face-up
    assert seen_by(state, BOB, SPECTATOR) == {1: "lulu"}
    sentence(state, "boo'd up bouba", "their #1")  # and it may be measured again
    assert table(state, BOB) == {1: ("lulu", "state", "up", "measured", 2, None)}


def test_growth_survives_going_dark():  # D-17
    state = scene((BOB, ["riffed through lulu", "twigged up bouba > your #1"]),
                  (ANN, ["riffed up kiki > their #2"]), test="riffed out lulu")
    assert table(state, BOB)[2] == ("bouba", "state", "up", "hidden", 5, (1, 1))
    sentence(state, "riffed out lulu", "their #1")
    assert table(state, BOB) == {2: ("bouba", "bare", None, "hidden", 5, None)}
    assert state.view(ANN)["tables"][BOB][0]["growth"] == 3


def test_the_first_player_draws_on_turn_one():  # D-19
    state = start(["tapped", "up", "kiki", "verved", "down"],
                  ["riffed", "out", "lulu", "boo'd", "through"], first=1)
    assert state.current_player() == CHANCE and state.active_seat() == BOB
    assert len(state.hand(BOB)) == 5
    play(state, "draw bouba")
    assert len(state.hand(BOB)) == 6 and state.current_player() == BOB


def test_random_decks_are_drawn_by_chance_per_kind():  # D-20
    game = load_game("decoherence", deck0="random")
    state = game.new_initial_state()
    sizes = []
    for _ in range(3):
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
        state.apply_action(outcomes[-1][0])
    assert sizes == [len(KIND_COMPOSITIONS[k]) for k in range(3)] == [381, 68, 6]
    assert state.view(ANN)["decklists"][ANN] == \
        "tapped 4, verved 4, boo'd 2 | up 4, down 4, through 2 | kiki 4, bouba 4, lulu 2"
    assert state.view(BOB)["decklists"][ANN] is None
    assert state.phase() == "first"
    assert state.card_count() == 60
    replay = game.new_initial_state()
    for action in state.history():
        assert replay.action_string_for(BOB, action) in ("deck 0 verbs", "deck 0 qualifiers",
                                                         "deck 0 nouns")
        replay.apply_action(action)


def test_opening_hands_draw_one_of_each_kind_then_two():  # D-23
    three_verbs = ("tapped 2, verved 4, riffed 4 | up 4, down 2, through 2, out 2 | "
                   "kiki 4, bouba 4, lulu 2")
    state = load_game("decoherence", deck0=three_verbs).new_initial_state()
    play(state, "first seat 0")
    kinds = []
    for _ in range(5):
        outcomes = state.chance_outcomes()
        kinds.append([state.action_to_string(a).split()[1] for a, _ in outcomes])
        state.apply_action(outcomes[0][0])
    assert kinds[0] == ["tapped", "verved", "riffed"]
    assert kinds[1] == ["up", "down", "through", "out"]
    assert kinds[2] == ["kiki", "bouba", "lulu"]
    assert len(kinds[3]) == 10  # any card: every word of the deck
    weights = dict(state.chance_outcomes())  # seat 1's first draw: its verbs by count
    assert weights == {0: pytest.approx(0.2), 1: pytest.approx(0.2), 2: pytest.approx(0.2),
                       3: pytest.approx(0.2), 4: pytest.approx(0.2)}


def test_three_open_chains_at_most():  # D-24
    state = scene((ANN, ["verb tapped -> chain 1", "verb verved -> chain 2",
                         "verb riffed -> chain 3"]), test="boo'd")
    assert not [a for a in state.legal_actions() if 17 <= a < 22]
    with pytest.raises(IllegalActionError, match="already have 3 open chains"):
        state.apply_action(17 + 2)  # verb boo'd


def test_chain_order_is_enforced():  # D-24
    state = scene((ANN, ["verb tapped -> chain 1"]), test="up up kiki")
    with pytest.raises(IllegalActionError, match="has both a verb and a qualifier"):
        state.apply_action(34)  # noun kiki -> chain 1
    with pytest.raises(IllegalActionError, match="is not open"):
        state.apply_action(22 + 4 * 1)  # qualifier up -> chain 2
    play(state, "qualifier up -> chain 1")
    with pytest.raises(IllegalActionError, match="nothing else; your chain 1 already holds"):
        state.apply_action(22)  # a second qualifier up -> chain 1
    assert state.chains(ANN)[0] == ("tapped", "up")


def test_made_classical_at_the_start_of_the_opponent_turn():  # D-22
    state = scene((ANN, ["verved up kiki"]), (BOB, ["riffed through lulu"]), (ANN, []))
    assert state.view(BOB)["hidden_nouns"] == [0, 1]
    play(state, "pass")
    assert state.is_terminal() and state.ending() == "made classical"
    assert state.winners() == [BOB]


def test_an_open_chain_is_enough_cover():  # D-22
    state = scene((ANN, ["verved up kiki"]), (BOB, ["riffed through lulu"]),
                  (ANN, ["verb tapped -> chain 1"]))
    play(state, "pass")
    assert not state.is_terminal() and state.current_player() == CHANCE


def test_made_classical_is_not_checked_on_the_first_two_turns():  # D-22
    state = scene((ANN, []), (BOB, []))
    assert state.is_classical(ANN) and state.is_classical(BOB)
    play(state, "pass")  # Ann's second turn starts: now Bob is checked
    assert state.is_terminal() and state.winners() == [ANN]
    assert state.ending() == "made classical"


def test_a_link_to_the_other_side_saves_both():  # D-22
    state = scene((ANN, ["verb twigged -> chain 1", "qualifier through -> chain 1"]),
                  (BOB, ["verved up lulu", "close their chain 1 with kiki"]))
    assert state.current_player() == ANN  # Ann picks the target of her closed chain
    play(state, "target their #1")
    assert table(state, ANN) == {1: ("kiki", "state", None, "known", 3, (1, 1))}
    assert state.view(ANN)["hidden_nouns"] == [0, 0]
    play(state, "pass", "draw tapped")  # Ann's turn: Bob has only a link, and survives
    assert not state.is_terminal()
    play(state, "pass")  # Bob's turn: Ann has only a link, and survives
    assert not state.is_terminal() and state.current_player() == CHANCE


@pytest.mark.parametrize(("bob_plays", "ann_hidden", "bob_hidden", "winners"), [
    (["verved down bouba", "riffed through lulu"], 1, 2, [BOB]),
    (["verved down bouba"], 1, 1, []),
    (["verved up lulu"], 1, 0, [ANN]),
])
def test_both_decohere_more_hidden_nouns_wins(bob_plays, ann_hidden, bob_hidden,
                                              winners):  # D-26
    state = scene((BOB, bob_plays), (ANN, ["riffed through kiki"]), test="verved out kiki")
    set_verve(state, 1, 3)
    sentence(state, "verved out kiki")
    assert (state.verve(ANN), state.verve(BOB)) == (0, 0)
    assert state.view(SPECTATOR)["hidden_nouns"] == [ann_hidden, bob_hidden]
    assert state.is_terminal() and state.winners() == winners
    assert state.returns() == ([0.0, 0.0] if not winners else
                               [1.0, -1.0] if winners == [ANN] else [-1.0, 1.0])


def test_both_decohere_equal_hidden_nouns_draw():  # D-26
    state = scene((BOB, ["verved down bouba"]), (ANN, ["riffed through kiki"]),
                  test="verved out kiki")
    set_verve(state, 1, 2)
    sentence(state, "verved out kiki")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.view(ANN)["events"][-1] == {"type": "end", "reason": "decoherence",
                                             "losers": [ANN, BOB], "winners": []}


def test_discard_down_to_seven_card_by_card():  # D-28
    state = scene((ANN, ["verb tapped -> chain 1"]), (BOB, ["verb tapped -> chain 1"]),
                  (ANN, []), (BOB, []), (ANN, []), (BOB, []), (ANN, []))
    assert len(state.hand(ANN)) == 8  # more than seven is fine during the turn
    play(state, "pass")
    assert state.phase() == "discard" and state.current_player() == ANN
    word = state.hand(ANN)[0]
    discard = state.string_to_action(f"discard {word}")
    assert state.action_string_for(BOB, discard) == f"discard {word}"
    state.apply_action(discard)
    assert len(state.hand(ANN)) == 7 and state.current_player() == CHANCE
    assert state.view(BOB)["discards"][ANN] == {word: 1}
    assert state.verve(ANN) == 6  # one open chain leaked on each of four turns


def test_a_lone_verved_through_lulu_counts_itself():  # D-12
    # No other lulu on Ann's table: N = 2, plus 1 for the played lulu, which is on her
    # table when the effect is worked out (as a kiki is for exclusion, a bouba for bunching).
    state = scene((BOB, []), (ANN, []), test="verved through lulu")
    sentence(state, "verved through lulu")
    assert facts(state) == ["gain"]
    assert state.verve(ANN) == 13
    assert table(state, ANN) == {1: ("lulu", "bare", None, "known", 2, None)}


def test_riffed_out_with_no_target_leaves_its_noun_as_cover():  # D-29
    # Bob's table is empty, so riffed out has nothing to choose: it has no effect, and the
    # noun it would have discarded with its target stays, hidden, as cover.
    state = scene((BOB, []), (ANN, []), test="riffed out kiki")
    sentence(state, "riffed out kiki")
    assert facts(state) == ["no target"]
    assert table(state, ANN) == {1: ("kiki", "bare", None, "hidden", 3, None)}
    assert state.view(BOB)["hidden_nouns"] == [1, 0]
    assert state.discards(ANN) == {"riffed": 1, "out": 1}
