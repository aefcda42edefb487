"""Dead Cat perft counts, kept as data in perft.json, freeze the move generator.

The first counts from the two-player start can be checked by hand: the die roll (2), then
announce or peek (4); an announce starts the next round (announce or peek again) and a peek
is a draw (alive or dead), so depth 3 is 2 x (2 + 2) = 8; at depth 4 each draw has five
bets and each new round two moves again: 2 x (2 + 2 + 5 + 5) = 28.
"""

from pathlib import Path

import pytest

from tests.perft import load_cases, perft, position

CASES = load_cases(Path(__file__).with_name("perft.json"))


def test_hand_counted_start():
    start = next(case for case in CASES if case["name"] == "start-2p")
    assert [start["counts"][str(d)] for d in range(1, 5)] == [2, 4, 8, 28]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_counts(case):
    state = position(case)
    for depth, count in case["counts"].items():
        assert perft(state, int(depth)) == count, f"depth {depth}"
