"""The twin-game helper really finds different games where something is hidden."""

import random

import pytest

import quarkade
from quarkade.core.rng import random_playout
from tests.twins import NoTwin, history_with_secrets, twin_history

HIDDEN = [name for name in quarkade.list_games()
          if not quarkade.core.game_class(name).perfect_information]


@pytest.mark.parametrize("name", HIDDEN)
def test_twins_differ_but_look_the_same_to_the_seat(name):
    game = quarkade.load_game(name)
    for seed in range(4):
        for seat in range(game.num_players):
            history = history_with_secrets(game, seat, random.Random(seed), 40)
            twin = twin_history(game, history, seat, random.Random(seed))
            assert twin != history
            original, copy = game.new_initial_state(), game.new_initial_state()
            for a, b in zip(history, twin, strict=True):
                assert original.action_string_for(seat, a) == copy.action_string_for(seat, b)
                original.apply_action(a)
                copy.apply_action(b)
                assert original.view(seat) == copy.view(seat)


@pytest.mark.parametrize("name", quarkade.list_games())
def test_a_history_that_hides_nothing_has_no_twin(name):
    """The helper never hands back the original as a twin: a leak test fed one could not
    fail."""
    game = quarkade.load_game(name)
    history = random_playout(game.new_initial_state(), random.Random(1)).history()[:1]
    with pytest.raises(NoTwin):
        twin_history(game, history, 0, random.Random(1), tries=5)
