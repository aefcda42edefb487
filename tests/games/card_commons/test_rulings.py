"""One test (or more) per Card Commons ruling in docs/RULINGS.md (C-1 ... C-16).

Positions come from legal play (``play``) or are laid out directly (``arrange``); cells are
named as seat 0 sees the field, row 1 at the bottom (C-2).
"""

import pytest

from quarkade import CHANCE, IllegalActionError
from tests.games.card_commons.helpers import arrange, example_position, field, play, texts

CENTRE = ("b2", "c2", "b3", "c3")


def finish(state):
    """Both seats pass: the game ends and is scored."""
    state.apply_action(state.string_to_action("pass"))
    state.apply_action(state.string_to_action("pass"))
    assert state.is_terminal()
    return state


def test_a_fair_coin_picks_the_opener():  # C-1
    state = play()
    assert state.current_player() == CHANCE
    assert [(state.action_to_string(a), p) for a, p in state.chance_outcomes()] == \
        [("opener 0", 0.5), ("opener 1", 0.5)]
    for seat in (0, 1):
        opened = play(f"opener {seat}")
        assert opened.current_player() == seat
        assert opened.opener() == seat and opened.phase() == "opening"


def test_the_other_player_takes_the_first_turn():  # C-1
    state = play("opener 1", "3D b2")
    assert state.current_player() == 0 and state.phase() == "turn"
    state.apply_action(state.string_to_action("6H a2"))
    assert state.current_player() == 1
    state.apply_action(state.string_to_action("pass"))
    assert state.current_player() == 0


def test_seats_hold_their_suits_and_sides():  # C-2
    view = play("opener 0").view(0)
    assert view["hands"][0] == [f"{r}{s}" for s in "HS" for r in "A23456"]
    assert view["hands"][1] == [f"{r}{s}" for s in "DC" for r in "A23456"]
    assert view["side_rows"] == [[3, 4], [1, 2]]
    state = play("opener 0", "4H b3")  # row 3: seat 0's own side
    assert (state.open_cells(0), state.open_cells(1)) == (7, 8)
    with pytest.raises(IllegalActionError, match="not seat 1's card"):
        state.string_to_action("5H b2")


def test_opening_takes_a_two_to_five_on_a_centre_cell():  # C-3
    state = play("opener 0")
    expected = {f"{rank}{suit} {cell}" for rank in "2345" for suit in "HS" for cell in CENTRE}
    assert set(texts(state)) == expected and len(expected) == 32
    with pytest.raises(IllegalActionError, match="an Ace or a 6 cannot open"):
        state.apply_action(state.string_to_action("AH b2"))
    with pytest.raises(IllegalActionError, match="centre cell"):
        state.apply_action(state.string_to_action("3H a1"))
    with pytest.raises(IllegalActionError, match="must open"):
        state.apply_action(state.string_to_action("pass"))


@pytest.mark.parametrize("card", ["3S", "4H", "2S"])
def test_an_opening_card_with_nothing_to_act_on_ends_the_opening(card):  # C-3
    state = play("opener 0", f"{card} c3")
    assert state.phase() == "turn" and state.current_player() == 1
    assert field(state) == {"c3": card}


@pytest.mark.parametrize("choice", ["polarize c3", "no polarize"])
def test_an_opening_five_may_turn_itself_face_down(choice):  # C-3, C-6, C-9
    """The opening places a card, and Polarize acts after a 5 is placed, on the 5 itself
    or a neighbour: with nothing beside it, the opener may turn the 5 face down."""
    state = play("opener 0", "5H c3")
    assert state.phase() == "polarize" and state.current_player() == 0
    assert texts(state) == ["polarize c3", "no polarize"]
    state.apply_action(state.string_to_action(choice))
    assert state.phase() == "turn" and state.current_player() == 1
    assert field(state) == {"c3": "5H-" if choice == "polarize c3" else "5H"}
    if choice == "polarize c3":  # a face-down particle is neutral: any level may go beside it
        assert set(state.lit_cells("AD")) == set(state.lit_cells("6D")) == {"c2", "b3", "d3",
                                                                             "c4"}


def complete_moves(state, depth):
    """Complete moves to ``depth``: a seat's follow-up decision (Repel, Polarize) is part
    of the move it follows."""
    if depth == 0 or state.is_terminal():
        return 1
    seat, total = state.current_player(), 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and child.current_player() == seat:
            total += complete_moves(child, depth)
        else:
            total += complete_moves(child, depth - 1)
    return total


@pytest.mark.parametrize("torus", [False, True])
def test_the_opening_five_adds_its_polarize_choice_to_the_move_count(torus):  # C-3
    """From one opener, 32 openings become 40 complete moves (each opening 5 may turn
    itself face down or not), and 1,656 two-move lines become 2,240."""
    state = play("opener 0", variant="classic", torus=torus)
    assert complete_moves(state, 1) == 40
    assert complete_moves(state, 2) == 2240


def test_law_is_strict_and_ignores_the_placed_cards_colour():  # C-4
    red = arrange({"b2": "4D"})
    for card in ("5H", "5S", "6H", "6S"):
        assert red.lit_cells(card) == ["b1", "a2", "c2", "b3"]
    for card in ("AH", "3S", "4H"):
        assert red.lit_cells(card) == []
    assert red.lit_cells("4S") == ["b2"]  # only by inverting the 4♦
    black = arrange({"b2": "4C"})
    for card in ("AH", "3H", "AS", "3S"):
        assert black.lit_cells(card) == ["b1", "a2", "c2", "b3"]
    assert black.lit_cells("5S") == [] and black.lit_cells("4S") == []
    with pytest.raises(IllegalActionError, match="next to the 4C on b2 it must be lower than 4"):
        black.apply_action(black.string_to_action("4S a2"))


def test_law_reads_only_face_up_top_cards():  # C-4
    face_down_top = arrange({"b2": "5C/4D-"})
    assert face_down_top.lit_cells("6H") == ["b1", "a2", "c2", "b3"]
    assert face_down_top.lit_cells("AS") == ["b1", "a2", "c2", "b3"]
    black_top = arrange({"b2": "4D/4C"})  # only the black 4 on top counts
    assert black_top.lit_cells("3H") == ["b1", "a2", "c2", "b3"]
    assert black_top.lit_cells("5H") == []


def test_face_down_particle_lets_cards_channel_beside_it():  # C-5
    state = arrange({"b2": "4H-"}, to_move=1)
    for card in ("AC", "3D", "6D", "6C"):
        assert state.lit_cells(card) == ["b1", "a2", "c2", "b3"]
    assert state.lit_cells("2D") == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]


def test_repel_and_polarize_follow_an_invert_too():  # C-6
    repel = arrange({"b2": "3D", "c2": "2D"})
    repel.apply_action(repel.string_to_action("inv 3S b2 /AH"))
    assert repel.phase() == "repel" and texts(repel) == ["repel c2>d2", "no repel"]
    repel.apply_action(repel.string_to_action("repel c2>d2"))
    assert field(repel) == {"b2": "3D/3S", "d2": "2D"}
    polarize = arrange({"b2": "5D"})
    polarize.apply_action(polarize.string_to_action("inv 5S b2 /AH"))
    assert polarize.phase() == "polarize"
    assert texts(polarize) == ["polarize b2", "no polarize"]
    polarize.apply_action(polarize.string_to_action("polarize b2"))
    assert field(polarize) == {"b2": "5D/5S-"}
    assert polarize.current_player() == 1


@pytest.mark.parametrize("card", ["4C", "5C"])
def test_a_slid_four_on_a_corner_is_no_anchor(card):  # C-6, C-10
    # The 3♥ on c1 pushes the card on b1 onto the corner a1, next to the 6♦ on a2, which
    # a 4 or a 5 could never be placed beside: a slide ignores the Law and fires nothing.
    state = arrange({"b1": card, "a2": "6D"})
    state.apply_action(state.string_to_action("3H c1"))
    state.apply_action(state.string_to_action("repel b1>a1"))
    assert field(state) == {"a1": card, "a2": "6D", "c1": "3H"}
    assert state.phase() == "turn" and state.current_player() == 1
    assert "ignored" not in state.view(0)["last"]


def test_tunnel_cell_still_obeys_the_law():  # C-7
    # c3 is diagonal to the 4♦ on b2, and beside the black Ace on d3: nothing is lower
    # than 1, so not even a 2 may go there.
    state = arrange({"b2": "4D", "d3": "AS"}, to_move=1)
    lit = state.lit_cells("2C")
    assert "a1" in lit and "c1" in lit and "a3" in lit  # diagonal cells with no neighbours
    assert "c3" not in lit
    assert "b1" not in lit  # beside the red 4: a 2 is not higher
    with pytest.raises(IllegalActionError, match="next to the AS on d3 it must be lower"):
        state.apply_action(state.string_to_action("2C c3"))


def test_anchor_ignores_one_neighbour_only_while_placed():  # C-8
    state = arrange({"a2": "5D"})
    assert "a1" in state.lit_cells("4S") and "a1" in state.lit_cells("4H")
    assert "a1" not in state.lit_cells("3S")  # only a 4 anchors
    state.apply_action(state.string_to_action("4S a1"))
    assert state.view(1)["last"] == {"seat": 0, "kind": "channel", "card": "4S",
                                     "cell": "a1", "ignored": ["a2"]}
    # Seat 1 channels beside the 4♠ under the Law as usual: lower than a black 4.
    assert [card for card, cells in state.view(1)["lit"].items() if "b1" in cells] == \
        ["AD", "2D", "3D", "AC", "2C", "3C"]
    both = arrange({"a2": "5D", "b1": "6D"})
    assert "a1" not in both.lit_cells("4S")
    with pytest.raises(IllegalActionError, match="an Anchor may ignore only one neighbour"):
        both.apply_action(both.string_to_action("4S a1"))


def test_an_inverting_anchor_still_needs_the_opposite_colour():  # C-8
    state = arrange({"a1": "4D", "a2": "5H"})
    assert state.lit_cells("4S") == ["a1"]  # ignores the red 5 beside it
    assert "a1" not in state.lit_cells("4H")  # the 4♦ below is not a neighbour to ignore
    state.apply_action(state.string_to_action("inv 4S a1 /AH"))
    assert field(state)["a1"] == "4D/4S"
    assert state.view(0)["last"]["ignored"] == ["a2"]
    blocked = arrange({"a1": "4D", "a2": "5H", "b1": "6D"})
    assert blocked.lit_cells("4S") == []


def test_anchor_on_a_torus_ignores_one_per_pair():  # C-8, C-14
    # a1's in-field neighbours are a2 and b1; across the edges, d1 and a4.
    one_each = arrange({"a2": "5D", "d1": "6D"}, torus=True)
    assert "a1" in one_each.lit_cells("4S")
    one_each.apply_action(one_each.string_to_action("4S a1"))
    assert one_each.view(0)["last"]["ignored"] == ["d1", "a2"]
    same_pair = arrange({"a2": "5D", "b1": "6D"}, torus=True)
    assert "a1" not in same_pair.lit_cells("4S")
    three = arrange({"a2": "5D", "d1": "6D", "a4": "5H"}, torus=True)
    assert "a1" not in three.lit_cells("4S")


def test_polarize_turns_the_top_card_of_a_stack():  # C-9
    state = arrange({"b2": "4S/4D"})
    state.apply_action(state.string_to_action("5H a2"))
    assert texts(state) == ["polarize a2", "polarize b2", "no polarize"]
    state.apply_action(state.string_to_action("polarize b2"))
    assert field(state) == {"a2": "5H", "b2": "4S/4D-"}
    # Neither the face-down 4♦ nor the 4♠ under it counts for the Law now: beside b2 any
    # level goes (a1 and a3 are beside the red 5 as well).
    assert state.lit_cells("AD") == ["b1", "c2", "b3"]
    assert state.lit_cells("6C") == ["a1", "b1", "c2", "a3", "b3"]
    # Which card lies face down stays known to both seats and to a spectator.
    assert state.view(-2)["field"]["b2"] == [{"card": "4S", "face_up": True},
                                             {"card": "4D", "face_up": False}]


def test_polarize_offers_the_five_and_face_up_neighbours_only():  # C-9
    state = arrange({"b2": "4D", "c3": "4H-"})
    state.apply_action(state.string_to_action("5S c2"))
    assert state.phase() == "polarize" and state.current_player() == 0
    assert texts(state) == ["polarize b2", "polarize c2", "no polarize"]
    state.apply_action(state.string_to_action("no polarize"))
    assert field(state) == {"b2": "4D", "c2": "5S", "c3": "4H-"}
    assert state.current_player() == 1


def test_repel_slides_a_whole_stack_away_from_the_three():  # C-10
    state = arrange({"b2": "4D/4S", "c1": "2D-"})
    state.apply_action(state.string_to_action("3H b1"))
    assert texts(state) == ["repel c1>d1", "repel b2>b3", "no repel"]
    state.apply_action(state.string_to_action("repel b2>b3"))
    assert field(state) == {"b1": "3H", "c1": "2D-", "b3": "4D/4S"}
    assert state.view(0)["last"] == {"seat": 0, "kind": "repel", "cell": "b2", "to": "b3",
                                     "cards": ["4D", "4S"], "by": "b1"}
    assert (state.open_cells(0), state.particles(0)) == (7, 2)


def test_repel_is_not_asked_when_nothing_can_slide():  # C-10
    edge = arrange({"a1": "4C"})  # beyond a1, seen from a2, is off the field
    edge.apply_action(edge.string_to_action("3H a2"))
    assert edge.phase() == "turn" and edge.current_player() == 1
    blocked = arrange({"a2": "4C", "a1": "5C"})  # beyond a2, seen from a3, is taken
    blocked.apply_action(blocked.string_to_action("3H a3"))
    assert blocked.phase() == "turn" and blocked.current_player() == 1


def test_repel_slides_across_the_torus_edge():  # C-10, C-14
    state = arrange({"a1": "4C"}, torus=True)
    state.apply_action(state.string_to_action("3H a2"))
    assert texts(state) == ["repel a1>a4", "no repel"]
    state.apply_action(state.string_to_action("repel a1"))  # the target may be left out
    assert field(state) == {"a2": "3H", "a4": "4C"}


def test_pass_is_always_allowed_in_classic():  # C-11
    state = example_position()
    assert texts(state)[-1] == "pass" and len(texts(state)) > 1
    empty_hand = arrange({"b2": "4D"}, hands={0: ""})
    assert texts(empty_hand) == ["pass"]


def test_two_passes_in_a_row_end_the_game():  # C-11
    state = example_position()
    state.apply_action(state.string_to_action("pass"))
    assert not state.is_terminal() and state.current_player() == 1
    state.apply_action(state.string_to_action("pass"))
    assert state.is_terminal() and state.legal_actions() == []
    # open cells: seat 0 keeps 6 of rows 3-4 (4♦, 2♥ there), seat 1 keeps 6 of rows 1-2;
    # particles 2 each; seat 1 opened, so seat 1 wins (C-12).
    assert state.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)


def test_a_pass_after_a_placement_does_not_end_it():  # C-11
    state = example_position()
    for move in ("pass", "5D c1", "no polarize", "pass"):
        state.apply_action(state.string_to_action(move))
        assert not state.is_terminal()
    assert state.current_player() == 1


def test_more_open_cells_wins():  # C-12
    assert finish(arrange({"b2": "4D", "b1": "3C"}, opener=1)).returns() == [1.0, -1.0]
    # A face-down card still closes its cell.
    state = finish(arrange({"b3": "4H-"}, opener=0))
    assert (state.open_cells(0), state.open_cells(1)) == (7, 8)
    assert state.winner() == 1


@pytest.mark.parametrize("stack", ["4D/4S", "4D/4S-"])
def test_fewer_particles_breaks_a_tie(stack):  # C-12
    state = finish(arrange({"b2": stack, "b3": "3C"}, opener=1))
    assert (state.open_cells(0), state.open_cells(1)) == (7, 7)
    assert (state.particles(0), state.particles(1)) == (1, 2)
    assert state.winner() == 0


@pytest.mark.parametrize("opener", [0, 1])
def test_the_opener_breaks_a_double_tie(opener):  # C-12
    state = finish(arrange({"b2": "4D", "b3": "3C"}, opener=opener))
    assert state.winner() == opener
    assert state.view(0)["winner"] == opener


def test_tutorial_has_no_abilities_and_no_pass():  # C-13
    state = play("opener 1", "4C b2", variant="tutorial")
    assert "pass" not in texts(state)
    assert state.lit_cells("2H") == ["b1", "a2", "c2", "b3"]  # no diagonal cells
    state.apply_action(state.string_to_action("3H c2"))  # the 4♣ could slide to a2: no Repel
    assert state.phase() == "turn" and state.current_player() == 1
    state.apply_action(state.string_to_action("5D d2"))  # no Polarize
    assert state.phase() == "turn" and state.current_player() == 0
    anchor = arrange({"a2": "5D"}, variant="tutorial")
    assert "a1" not in anchor.lit_cells("4S")
    with pytest.raises(IllegalActionError, match="no passing"):
        anchor.apply_action(anchor.string_to_action("pass"))


def test_tutorial_player_who_cannot_place_loses():  # C-13
    state = arrange({"b2": "4C"}, hands={0: "3S 2H", 1: "6D"}, variant="tutorial")
    assert not state.is_terminal()
    # After the 3♠ every cell beside a particle touches a black card: a 6 fits nowhere,
    # and with one card seat 1 cannot invert.
    state.apply_action(state.string_to_action("3S a2"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.view(1)["winner"] == 0


def test_tutorial_keeps_the_classic_opening_and_discard():  # C-13
    tutorial = play("opener 1", variant="tutorial")
    assert texts(tutorial) == texts(play("opener 1"))
    state = arrange({"b2": "4D"}, hands={0: "4S AH"}, variant="tutorial")
    assert texts(state) == ["inv 4S b2 /AH"]


def test_torus_neighbours_wrap():  # C-14
    flat = arrange({"a1": "4C"})
    assert flat.lit_cells("3H") == ["b1", "a2"]
    torus = arrange({"a1": "4C"}, torus=True)
    assert torus.lit_cells("3H") == ["b1", "d1", "a2", "a4"]
    assert torus.lit_cells("5H") == []  # the Law reaches across the edges too
    assert arrange({"d4": "4C"}, torus=True).lit_cells("3H") == ["d1", "d3", "a4", "c4"]


def test_tutorial_on_a_torus_wraps_without_abilities():  # C-13, C-14
    state = arrange({"a1": "4C"}, variant="tutorial", torus=True)
    assert state.lit_cells("3H") == ["b1", "d1", "a2", "a4"]  # wrapped neighbours count
    assert state.lit_cells("2H") == ["b1", "d1", "a2", "a4"]  # but no Tunnel diagonals
    state.apply_action(state.string_to_action("3H d1"))  # could push a1 on to b1: no Repel
    assert state.phase() == "turn" and state.current_player() == 1
    assert "pass" not in texts(state)


def test_tunnel_wraps_on_a_torus():  # C-14
    torus = arrange({"a1": "4C"}, torus=True)
    assert torus.lit_cells("2H") == ["b1", "d1", "a2", "b2", "d2", "a4", "b4", "d4"]
    assert arrange({"a1": "4C"}).lit_cells("2H") == ["b1", "a2", "b2"]


def test_invert_needs_another_card_to_discard():  # C-15
    alone = arrange({"b2": "4D"}, hands={0: "4S"})
    assert texts(alone) == ["pass"] and alone.lit_cells("4S") == []
    pair = arrange({"b2": "4D"}, hands={0: "4S AH"})
    assert texts(pair) == ["inv 4S b2 /AH", "pass"]
    with pytest.raises(IllegalActionError, match="another card from seat 0's hand"):
        pair.apply_action(pair.string_to_action("inv 4S b2 /4S"))


def test_discards_are_public_and_out_of_the_game():  # C-15
    state = example_position()
    state.apply_action(state.string_to_action("inv 4S c3 /AH"))
    for seat in (0, 1, -2):
        assert state.view(seat)["discards"] == [["AH"], []]
    state.apply_action(state.string_to_action("pass"))
    with pytest.raises(IllegalActionError, match="the AH is not in seat 0's hand"):
        state.apply_action(state.string_to_action("AH b1"))


def test_stacks_and_face_down_cards_cannot_be_inverted():  # C-16
    state = arrange({"b2": "4D-", "c3": "3C/3D"})
    assert "b2" not in state.lit_cells("4S") and "c3" not in state.lit_cells("3S")
    with pytest.raises(IllegalActionError, match="face down and cannot be inverted"):
        state.apply_action(state.string_to_action("inv 4S b2 /AH"))
    with pytest.raises(IllegalActionError, match="already holds a stack of 2"):
        state.apply_action(state.string_to_action("inv 3S c3 /AH"))


def test_a_seat_may_invert_its_own_card():  # C-16
    state = arrange({"b2": "4H"})
    assert "b2" in state.lit_cells("4S")
    state.apply_action(state.string_to_action("inv 4S b2 /AH"))
    assert field(state) == {"b2": "4H/4S"}
