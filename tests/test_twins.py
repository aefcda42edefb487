"""The twin-game helper really finds different games where something is hidden."""

import random

import pytest

import quarkade
from quarkade.core.rng import random_playout
from tests.twins import twin_history

HIDDEN = [name for name in quarkade.list_games()
          if not quarkade.core.game_class(name).perfect_information]


@pytest.mark.parametrize("name", HIDDEN)
def test_twins_differ_but_look_the_same_to_the_seat(name):
    game = quarkade.load_game(name)
    differing = 0
    for seed in range(6):
        final = random_playout(game.new_initial_state(), random.Random(seed))
        history = final.history()[:40]
        for seat in range(game.num_players):
            twin = twin_history(game, history, seat, random.Random(seed))
            original, copy = game.new_initial_state(), game.new_initial_state()
            for a, b in zip(history, twin, strict=True):
                assert original.action_string_for(seat, a) == copy.action_string_for(seat, b)
                original.apply_action(a)
                copy.apply_action(b)
                assert original.view(seat) == copy.view(seat)
            differing += twin != history
    assert differing >= 3
