"""The symmetries of Card Commons (``symmetry.py``) hold: a random game and its mapped
twin, played from the same coin, have the mapped legal moves, the mapped observations and
the same returns at every step; and the maps that do not hold are found out."""

from __future__ import annotations

import random

import numpy as np
import pytest

from quarkade.core.registry import load_game
from quarkade.games.card_commons import symmetry
from quarkade.games.card_commons.encode import encode_state

VARIANTS = [{"variant": "tutorial"}, {"variant": "tutorial", "torus": True},
            {"variant": "classic"}, {"variant": "classic", "torus": True}]


def _breaks(options: dict[str, object], cells: symmetry.Cells, games: int, seed: int) -> str:
    """Where the map breaks the rules in ``games`` random games ('' if nowhere)."""
    game = load_game("card-commons", **options)
    actions = symmetry.action_map(cells)
    rng = random.Random(seed)
    for number in range(games):
        state, twin = game.new_initial_state(), game.new_initial_state()
        while True:
            if state.is_terminal() or twin.is_terminal():
                if state.is_terminal() != twin.is_terminal():
                    return f"game {number}: one ended, its twin did not"
                if state.returns() != twin.returns():
                    return f"game {number}: returns {state.returns()} and {twin.returns()}"
                break
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                legal = state.legal_actions()
                if sorted(actions[legal].tolist()) != twin.legal_actions():
                    return f"game {number}: the legal moves differ"
                for seat in (0, 1):
                    seen = np.asarray(encode_state(state, seat), np.float32)
                    mapped = symmetry.map_observation(seen, cells)
                    if not np.array_equal(mapped, encode_state(twin, seat)):
                        return f"game {number}: seat {seat}'s observations differ"
                action = rng.choice(legal)
            state.apply_action(action)
            twin.apply_action(int(actions[action]))
    return ""


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_every_symmetry_holds(options: dict[str, object]) -> None:
    held = symmetry.symmetries(options)
    assert held[0] == symmetry.IDENTITY
    for number, cells in enumerate(held):
        assert _breaks(options, cells, 60, number) == ""


@pytest.mark.parametrize("options", VARIANTS[2:], ids=["classic", "classic-torus"])
def test_the_classic_game_is_not_symmetric_across_the_sides(options: dict[str, object]) -> None:
    """Turning the field swaps the seats' sides, which the Classic game's score reads."""
    assert len(symmetry.symmetries(options)) == 2
    for cells in symmetry.SQUARE:
        if cells not in (symmetry.IDENTITY, symmetry.MIRROR):
            assert _breaks(options, cells, 60, 7) != ""


def test_the_maps_are_the_eight_of_the_square() -> None:
    assert len(set(symmetry.SQUARE)) == 8
    for cells in symmetry.SQUARE:
        assert sorted(cells) == list(range(16))
        actions = symmetry.action_map(cells)
        assert sorted(actions.tolist()) == list(range(len(actions)))
        assert {cells[c] for c in (5, 6, 9, 10)} == {5, 6, 9, 10}  # the centre stays
