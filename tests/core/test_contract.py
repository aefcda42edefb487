"""The protocol contract, checked over random games of every registered game.

Each game also has its own invariants; these are the ones every game owes every face:
ascending legal actions inside the action space, unique notation that parses back,
illegal actions refused with the state unchanged, chance outcomes summing to one, views
(and the revealed view of a finished game) that are JSON, replay of ``history()``
rebuilding the game, and zero-sum returns.
"""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import quarkade
from quarkade.core.options import option_variations
from quarkade.core.rng import sample_chance


def snapshot(state):
    n = state.game.num_players
    return (state.history(), [json.dumps(state.view(p), sort_keys=True) for p in range(n)])


def options_for(name):
    """Every player count, with every variant (choice and on/off options) of the game."""
    cls = quarkade.core.game_class(name)
    return [{"players": n, **variation}
            for n in range(cls.min_players, cls.max_players + 1)
            for variation in option_variations(cls.option_specs)]


CASES = [(name, opts) for name in quarkade.list_games() for opts in options_for(name)]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_game_keeps_the_contract(name, options, seed):
    rng = random.Random(seed)
    game = quarkade.load_game(name, **options)
    state = game.new_initial_state()
    size = game.num_distinct_actions
    for _ in range(20_000):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert all(0 <= a < size for a in legal)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            action = sample_chance(state, rng)
        else:
            player = state.current_player()
            assert 0 <= player < game.num_players
            texts = [state.action_to_string(a) for a in legal]
            assert len(set(texts)) == len(texts)
            for action, text in zip(legal, texts, strict=True):
                assert state.string_to_action(text) == action
            json.dumps(state.view(player))
            json.dumps(state.view(quarkade.SPECTATOR))
            with pytest.raises(quarkade.IllegalActionError):
                state.view(game.num_players)
            before = snapshot(state)
            illegal = rng.choice([a for a in range(-1, size + 1) if a not in legal] + ["x", 1.5])
            with pytest.raises(quarkade.IllegalActionError):
                state.apply_action(illegal)
            assert snapshot(state) == before
            resampled = state.resample(player, random.Random(seed))
            assert resampled.view(player) == state.view(player)
            action = rng.choice(legal)
        state.apply_action(action)
    assert state.is_terminal(), "game did not end in 20,000 actions"
    before = snapshot(state)
    revealed = state.revealed_view()  # what a finished game with reveal on shows
    json.dumps(revealed)
    assert revealed["revealed"] is True and revealed["player"] is None
    assert state.revealed_view() == revealed and snapshot(state) == before
    returns = state.returns()
    assert len(returns) == game.num_players
    assert sum(returns) == pytest.approx(0)
    assert all(-1 <= r <= 1 for r in returns)
    replayed = game.new_initial_state()
    for action in state.history():
        replayed.apply_action(action)
    assert snapshot(replayed) == snapshot(state)
    assert replayed.returns() == returns
