"""Card Commons notation and action ids: readable, forgiving in spelling, strict in content."""

import pytest

from quarkade import IllegalActionError, load_game
from quarkade.core.errors import NotationError
from quarkade.games.card_commons import notation
from quarkade.games.card_commons.notation import (
    DECLINE,
    INVERT_BASE,
    NUM_ACTIONS,
    OPENER_BASE,
    PASS,
    POLARIZE_BASE,
    REPEL_BASE,
)
from tests.games.card_commons.helpers import arrange, example_position, play, texts


def test_action_id_layout():
    assert (INVERT_BASE, REPEL_BASE, POLARIZE_BASE, DECLINE, PASS, OPENER_BASE, NUM_ACTIONS) \
        == (192, 2496, 2512, 2528, 2529, 2530, 2532)
    assert load_game("card-commons").num_distinct_actions == 2532
    assert notation.place_action(2, 6) == 38  # 3♥ (or 3♦) on c2
    assert notation.decode_place(38) == (2, 6)
    assert notation.decode_invert(notation.invert_action(9, 10, 0)) == (9, 10, 0)
    assert [notation.CARD_NAMES[c] for c in (0, 5, 6, 12, 23)] == ["AH", "6H", "AS", "AD", "6C"]
    assert notation.CELL_NAMES[0] == "a1" and notation.CELL_NAMES[15] == "d4"


def test_notation_reads_the_mover_s_cards():
    state = example_position()
    assert state.action_to_string(notation.place_action(2, 2)) == "3H c1"
    assert state.action_to_string(notation.invert_action(9, 10, 0)) == "inv 4S c3 /AH"
    assert state.action_to_string(PASS) == "pass"
    assert state.action_to_string(OPENER_BASE + 1) == "opener 1"
    state.apply_action(state.string_to_action("pass"))
    assert state.action_to_string(notation.place_action(2, 2)) == "3D c1"


@pytest.mark.parametrize("text", ["3H c1", "3h C1", "  3♥   c1 ", "3h c1"])
def test_spelling_of_a_placement_is_forgiving(text):
    assert example_position().string_to_action(text) == notation.place_action(2, 2)


@pytest.mark.parametrize("text", ["inv 4S c3 /AH", "invert 4s c3 ah", "INV 4♠ C3 / 1H"])
def test_spelling_of_an_inversion_is_forgiving(text):
    assert example_position().string_to_action(text) == notation.invert_action(9, 10, 0)


def test_follow_up_notation():
    state = arrange({"b2": "4D/4S", "c1": "2D-"})
    state.apply_action(state.string_to_action("3H b1"))
    assert state.string_to_action("repel b2>b3") == state.string_to_action("repel b2") == \
        REPEL_BASE + 5
    assert state.string_to_action("no repel") == DECLINE
    with pytest.raises(NotationError, match="nothing slides from b2 to b1"):
        state.string_to_action("repel b2>b1")
    with pytest.raises(NotationError, match="must first decide whether the 3H on b1 repels"):
        state.string_to_action("5H c2")
    with pytest.raises(NotationError, match="nothing on a1 can slide one cell further from"):
        state.string_to_action("repel a1")
    polarize = arrange({"b2": "4D", "c3": "4H-"})
    polarize.apply_action(polarize.string_to_action("5S c2"))
    with pytest.raises(NotationError, match="only itself or a face-up card beside it, not c3"):
        polarize.string_to_action("polarize c3")


@pytest.mark.parametrize(("text", "reason"), [
    ("banana", "not Card Commons notation"),
    ("3X c2", "'3x' is not a card"),
    ("3H e5", "'e5' is not a cell"),
    ("3D c1", "the 3D is not seat 0's card"),
    ("3H b2", "b2 is taken"),
    ("3H c4", "next to the 4D on c3 it must be higher than 4"),
    ("3H a4", "a4 is not next to any particle"),
    ("2H a4", "not in seat 0's hand"),
    ("inv 5H c3 /AH", "can invert only a 5 of the other colour"),
    ("inv 4S b1 /AH", "b1 is empty"),
    ("inv 4S c3 /2H", "another card from seat 0's hand"),
    ("polarize c2", "no Repel or Polarize to decide now"),
    ("opener 0", "seat 1 already opened"),
])
def test_bad_notation_says_why(text, reason):
    with pytest.raises(NotationError, match=reason):
        example_position().string_to_action(text)


@pytest.mark.parametrize(("action", "reason"), [
    (-1, "there is no action -1; action ids are 0-2531"),
    (2532, "there is no action 2532"),
    (True, "an action is an integer id 0-2531, not True"),
    ("3H c1", "an action is an integer id"),
    (1.0, "an action is an integer id"),
])
def test_bad_action_ids_are_refused_with_the_state_unchanged(action, reason):
    state = example_position()
    before = state.history()
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_action(action)
    assert state.history() == before


def test_refusals_list_some_legal_moves():
    state = play("opener 0")
    with pytest.raises(IllegalActionError, match=r"legal now: 2H b2, 2H c2, .* \(32 in all\)"):
        state.apply_action(PASS)
    with pytest.raises(IllegalActionError, match="a coin is choosing who opens"):
        play().apply_action(0)


def test_every_legal_action_reads_back():
    state = example_position()
    for action, text in zip(state.legal_actions(), texts(state), strict=True):
        assert state.string_to_action(text) == action
