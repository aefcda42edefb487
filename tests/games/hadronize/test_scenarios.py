"""The rulebook's worked example (seed 003, Examples): Alice and Bob, every branch.

Alice (seat 0) has three charm quarks and no strange; Bob (seat 1) has three strange and no
charm. On Alice's turn the superposed quark is charm, strange or up. Each of the six
(observer, collapse) branches is a test; the seed spells out four and the two "up"
branches follow the same rule as the ones with no matching quark.
"""

import pytest

from tests.games.hadronize.helpers import chamber, dealt, turn

ALICE, BOB = 0, 1


@pytest.fixture
def table():
    # Each seat gets four starting quarks; the fourth is one neither example flavour uses.
    return dealt([["charm", "charm", "charm", "bottom"],
                  ["strange", "strange", "strange", "top"]], first=ALICE)


def test_the_example_table(table):
    assert chamber(table, ALICE) == {"charm": 3, "bottom": 1}
    assert chamber(table, BOB) == {"strange": 3, "top": 1}
    assert table.current_player() == -1  # the superposed quark is chance
    table.apply_action(table.string_to_action("superpose c/s/u"))
    assert table.current_player() == ALICE
    assert table.view(BOB)["superposition"] == ["up", "strange", "charm"]


def test_alice_makes_herself_observe_charm(table):
    turn(table, "c/s/u", ALICE, "charm")
    assert table.hadronized(ALICE) == 4
    assert chamber(table, ALICE) == {"bottom": 1}
    assert chamber(table, BOB) == {"strange": 3, "top": 1}
    assert table.view(ALICE)["last"]["reaction"] == "hadronize"


def test_alice_makes_herself_observe_strange(table):
    turn(table, "c/s/u", ALICE, "strange")
    assert table.hadronized(ALICE) == 0
    assert chamber(table, ALICE) == {"charm": 3, "strange": 1, "bottom": 1}
    assert chamber(table, BOB) == {"strange": 3, "top": 1}


def test_alice_makes_herself_observe_up(table):
    turn(table, "c/s/u", ALICE, "up")
    assert table.hadronized(ALICE) == 0
    assert chamber(table, ALICE) == {"up": 1, "charm": 3, "bottom": 1}


def test_alice_makes_bob_observe_charm(table):
    turn(table, "c/s/u", BOB, "charm")
    assert chamber(table, BOB) == {"strange": 3, "charm": 1, "top": 1}
    assert chamber(table, ALICE) == {"charm": 3, "bottom": 1}
    assert table.hadronized(ALICE) == table.hadronized(BOB) == 0


def test_alice_makes_bob_observe_strange(table):
    turn(table, "c/s/u", BOB, "strange")
    assert chamber(table, ALICE) == {"strange": 4, "charm": 3, "bottom": 1}
    assert chamber(table, BOB) == {"top": 1}
    assert table.hadronized(ALICE) == table.hadronized(BOB) == 0
    assert table.view(BOB)["last"] == {"active": ALICE, "observer": BOB, "flavour": "strange",
                                       "reaction": "tunnel", "count": 4}


def test_alice_makes_bob_observe_up(table):
    turn(table, "c/s/u", BOB, "up")
    assert chamber(table, BOB) == {"up": 1, "strange": 3, "top": 1}
    assert chamber(table, ALICE) == {"charm": 3, "bottom": 1}


@pytest.mark.parametrize("observer", [ALICE, BOB])
def test_the_turn_passes_to_bob_afterwards(table, observer):
    turn(table, "c/s/u", observer, "up")
    assert table.active_seat() == BOB
    assert table.current_player() == -1  # Bob's superposed quark appears first
