"""The rulebook's worked examples (seed 002, Examples), in the position they describe.

Seat 0 ("you", hearts and spades) sits below the field, so its side is rows 3 and 4. The
position is reached by legal play (``helpers.EXAMPLE_MOVES``): seat 1 opens 3♦ on c2 and
seat 0 passes; seat 1 channels 5♣ to b2 and polarizes c2, so the 3♦ lies face down; seat 0
tunnels 2♥ to d3; seat 1 channels 4♦ to c3. Seat 0 is to move, holding the 3♥ and the
4♥ of the examples.

        a    b    c    d
    4   .    .    .    .      seat 0's side
    3   .    .    4♦   2♥
    2   .    5♣   (3♦) .      seat 1's side
    1   .    .    .    .
"""

import pytest

from quarkade import IllegalActionError
from tests.games.card_commons.helpers import example_position, field


@pytest.fixture
def position():
    return example_position()


def test_the_example_position(position):
    assert field(position) == {"b2": "5C", "c2": "3D-", "c3": "4D", "d3": "2H"}
    assert position.current_player() == 0
    view = position.view(0)
    assert view["side_rows"][0] == [3, 4]  # your side is the top two rows
    assert view["side_rows"][1] == [1, 2]


def test_three_of_hearts_lights_five_cells(position):
    lit = position.lit_cells("3H")
    assert lit == ["b1", "c1", "a2", "d2", "d4"]
    # a2 and b1 are next to the 5♣ (3 is lower than a black 5); d2 and d4 are next to the
    # 2♥ (3 is higher than a red 2); c1 is below the face-down 3♦, which does not count.
    assert "b3" not in lit  # next to the 4♦ and the 5♣: the 4♦ forbids it
    assert "c4" not in lit  # next to the 4♦ only
    assert position.view(0)["lit"]["3H"] == lit
    position.apply_action(position.string_to_action("3H c1"))
    assert field(position)["c1"] == "3H"


def test_four_of_spades_inverts_four_of_diamonds(position):
    assert "c3" in position.lit_cells("4S")  # same level, other colour, on a single card
    assert "c3" not in position.lit_cells("4H")
    with pytest.raises(IllegalActionError, match="only a 4 of the other colour"):
        position.apply_action(position.string_to_action("inv 4H c3 /AH"))
    # The Law still applies: the 2♥ next to c3 is red and 4 is higher.
    position.apply_action(position.string_to_action("inv 4S c3 /AH"))
    assert field(position)["c3"] == "4D/4S"
    view = position.view(1)
    assert "AH" not in view["hands"][0] and "4S" not in view["hands"][0]
    assert view["discards"][0] == ["AH"]
    assert view["last"] == {"seat": 0, "kind": "invert", "card": "4S", "cell": "c3",
                            "covered": "4D", "discard": "AH"}
    # A stack holds 2 cards at most: nothing more can go on this one.
    assert all("c3" not in cells for cells in view["lit"].values())
    with pytest.raises(IllegalActionError, match="already holds a stack of 2"):
        position.apply_action(position.string_to_action("inv 4C c3 /AC"))
