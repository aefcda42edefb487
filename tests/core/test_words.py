"""The result sentence every game's table ends with (``quarkade.core.words.game_over``):
one sentence, the reader called "you" with its own verb, a shared win and a draw said so."""

from __future__ import annotations

from quarkade.core.words import game_over


def test_the_result_is_one_sentence_with_the_right_verb():
    names = ["Ann", "you", "Bo"]
    assert game_over(names, [0]) == "Game over: Ann wins."
    assert game_over(names, [1], "with 8 open cells to 6") == \
        "Game over: you win with 8 open cells to 6."
    assert game_over(names, [0, 1], ", each with four cubes") == \
        "Game over: Ann and you share the win, each with four cubes."
    assert game_over(names, [0, 1, 2]) == "Game over: Ann, you and Bo share the win."
    assert game_over(names, []) == "Game over: a draw."
