"""The compiled Card Commons engine against the reference engine (see ``tests/compiled.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.games.card_commons import compiled
from quarkade.games.card_commons.notation import PASS
from quarkade.games.card_commons.policy import candidate_actions
from tests.compiled import (
    Checked,
    agree_at_positions,
    assert_bridge_round_trips,
    assert_compiled_perft,
    assert_play_one_is_stepwise,
    check_game,
    compiled_games,
    midgame_states,
)

RANDOM, GREEDY = compiled.RANDOM, compiled.GREEDY
VARIANTS = [{"variant": v, "torus": t} for v in ("classic", "tutorial") for t in (False, True)]
POSITIONS = 100_000  # at least, over all variants


def test_compiled_and_reference_agree_at_100000_positions():
    # Random seats, and seats that seldom pass (so fields fill up, Repels find room to
    # slide into and Anchors meet full corners).
    checked, _ = agree_at_positions(compiled, "card-commons", VARIANTS, [[RANDOM]],
                                    POSITIONS, others=3, reference_policy=_rarely_passing,
                                    games=30)
    assert checked.positions >= POSITIONS
    assert checked.terminals > 1000 and checked.decisions > 50_000
    assert checked.phases == set(range(6))  # every phase, the end included


def _rarely_passing(state, rng):
    legal = state.legal_actions()
    if len(legal) > 1 and PASS in legal and rng.random() < 0.95:
        legal = legal[:-1]
    return rng.choice(legal)


def test_compiled_greedy_games_agree_too():
    checked = Checked()
    rng = random.Random(3)
    for number, options in enumerate(VARIANTS):
        game = load_game("card-commons", **options)
        for history in compiled_games(compiled, game, [GREEDY, RANDOM], 8, number):
            check_game(compiled, game, history, rng, checked, others=2)
    assert checked.terminals == 32


def test_compiled_perft_counts_match_the_data():
    assert_compiled_perft(compiled, Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o['variant']}-{o['torus']}")
def test_the_bridge_goes_there_and_back(options):
    assert_bridge_round_trips(compiled, load_game("card-commons", **options), [RANDOM],
                              load_game("card-commons", **{**options,
                                                           "torus": not options["torus"]}))


def test_play_one_is_play_stepwise_draw_for_draw():
    for options in VARIANTS:
        game = load_game("card-commons", **options)
        assert_play_one_is_stepwise(compiled, game.new_initial_state(), [RANDOM], range(200))
        assert_play_one_is_stepwise(compiled, game.new_initial_state(), [GREEDY, RANDOM],
                                    range(6))
        for number, state in enumerate(midgame_states(game, 40, 7)):
            assert_play_one_is_stepwise(compiled, state, [RANDOM], range(number, number + 2))


def test_compiled_greedy_scores_every_candidate_as_greedy_does():
    """The same candidates (inversions cut to the best discard) and the same value for
    each, so both greedy bots tie between the same moves."""
    greedy = make_agent("greedy", "card-commons")
    work = compiled.new_work()
    actions = np.zeros(compiled.MAX_ACTIONS, np.int64)
    values = np.zeros(compiled.MAX_ACTIONS, np.float64)
    compared = 0
    for number, options in enumerate(VARIANTS):
        game = load_game("card-commons", **options)
        for history in compiled_games(compiled, game, [RANDOM], 4, 50 + number):
            state = game.new_initial_state()
            for step, action in enumerate(history):
                if step % 3 == 1 and not state.is_chance_node() and \
                        state.phase() in ("turn", "opening"):
                    expected = candidate_actions(state.legal_actions())
                    count = compiled.greedy_values(compiled.to_compiled(state), actions, values,
                                                   work)
                    assert actions[:count].tolist() == expected
                    if count > 1:
                        me = state.current_player()
                        for a, value in zip(expected, values[:count], strict=True):
                            child = state.clone()
                            child.apply_action(a)
                            assert value == greedy._value(child, me), (state.history(), a)
                    compared += 1
                state.apply_action(action)
    assert compared > 60


def test_random_turn_action_is_the_drawn_legal_action():
    """The random seat's shortcut picks exactly the legal action a draw would index."""
    from quarkade.core import jit

    buffer = np.zeros(compiled.MAX_ACTIONS, np.int64)
    compared = 0
    for number, options in enumerate(VARIANTS):
        game = load_game("card-commons", **options)
        for state in midgame_states(game, 400, number):
            if state.phase() != "turn":
                continue
            array = compiled.to_compiled(state)
            count = compiled.legal_actions(array, buffer)
            for seed in range(4):
                streams = np.zeros(3, np.uint64)
                jit.seed_streams(streams, seed)
                drawn = compiled.random_turn_action(array, streams.copy())
                pick = jit.below(streams, 1 + state.current_player(), count)
                assert drawn == buffer[pick], (state.history(), seed)
                compared += 1
    assert compared > 1000
