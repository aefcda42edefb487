"""Card Commons perft counts, kept as data in perft.json, freeze the move generator."""

from pathlib import Path

import pytest

from tests.perft import assert_counts, load_cases

CASES = load_cases(Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_counts(case):
    assert_counts(case)


def test_first_turn_counts_match_a_hand_count():
    """Depth 2 from the opening, counted by hand. Against an opening card of level v, seat 1
    can channel onto the four cells beside it its cards above v (red v) or below v (black
    v): on average 5 cards over the eight openings, so 20 channels; plus 11 inversions of
    the opening card (its one card of the same level and other colour, with any of 11
    discards). Classic adds the two 2s tunnelling to the four diagonal cells, and the pass;
    and in Classic an opening 5 is followed by its own Polarize choice (turn itself face down
    or not, C-3), so those 8 openings count 2 each. The two 5s also average 5 cards (a red
    5 lets the two 6s go beside it, a black 5 the eight cards A-4), so the other 24 openings
    still average 20 channels.
    """
    from tests.games.card_commons.helpers import play, texts

    state = play("opener 0", "4H b2")
    assert len(texts(state)) == 16 + 8 + 11 + 1
    assert len(texts(play("opener 0", "4H b2", variant="tutorial"))) == 16 + 11
    by_case = {c["name"]: c for c in CASES}
    assert by_case["opening-tutorial"]["counts"]["2"] == 32 * (4 * 5 + 11)
    assert by_case["opening-classic"]["counts"]["2"] == 24 * (4 * 5 + 11 + 8 + 1) + 8 * 2
