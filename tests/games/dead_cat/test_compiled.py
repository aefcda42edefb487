"""The compiled Dead Cat engine against the reference engine (see ``tests/compiled.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.core import jit
from quarkade.core.rng import sample_chance
from quarkade.games.dead_cat import compiled
from quarkade.games.dead_cat.notation import PEEK
from tests.compiled import (
    agree_at_positions,
    assert_bridge_round_trips,
    assert_compiled_perft,
    assert_play_one_is_stepwise,
    compiled_games,
    midgame_states,
)

RANDOM, GREEDY = compiled.RANDOM, compiled.GREEDY
VARIANTS = [{"players": n, "peek_first": p} for n in range(2, 6) for p in (False, True)]
POSITIONS = 100_000  # at least, over all variants


def test_compiled_and_reference_agree_at_100000_positions():
    # Seats that nearly always peek empty the box (DC-10), which the compiled agents
    # seldom do: reference games of such seats are checked too.
    checked, finals = agree_at_positions(compiled, "dead-cat", VARIANTS,
                                         [[RANDOM], [GREEDY], [RANDOM, GREEDY]], POSITIONS,
                                         others=2, reference_policy=_peeker)
    assert checked.positions >= POSITIONS
    assert checked.terminals > 800 and checked.decisions > 20_000
    assert checked.phases == set(range(5))  # every phase, the end included
    ran_out = sum(r.announcer < 0 for final in finals for r in final.rounds())
    assert ran_out > 100  # rounds that ended with the box empty (DC-10)


def _peeker(state, rng):
    legal = state.legal_actions()
    if PEEK in legal and rng.random() < 0.97:
        return PEEK
    return rng.choice(legal)


def test_compiled_perft_counts_match_the_data():
    assert_compiled_perft(compiled, Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("players", [2, 5])
def test_the_bridge_goes_there_and_back(players):
    assert_bridge_round_trips(compiled, load_game("dead-cat", players=players),
                              [GREEDY, RANDOM],
                              load_game("dead-cat", players=players, peek_first=True))


def test_play_one_is_play_stepwise_draw_for_draw():
    for options in VARIANTS:
        game = load_game("dead-cat", **options)
        for policies in ([RANDOM], [GREEDY], [GREEDY, RANDOM]):
            assert_play_one_is_stepwise(compiled, game.new_initial_state(), policies,
                                        range(300))


def test_play_one_finishes_a_game_handed_over_mid_turn():
    for players in (2, 4):
        game = load_game("dead-cat", players=players, peek_first=players == 4)
        for number, state in enumerate(midgame_states(game, 150, players)):
            assert_play_one_is_stepwise(compiled, state, [GREEDY, RANDOM],
                                        range(number, number + 3))


def test_compiled_greedy_plays_greedy_s_moves():
    """greedy has no randomness: the compiled one makes the very same move."""
    greedy = make_agent("greedy", "dead-cat")
    compared = 0
    for options in VARIANTS:
        game = load_game("dead-cat", **options)
        for history in compiled_games(compiled, game, [GREEDY, RANDOM], 25, 3):
            state = game.new_initial_state()
            for action in history:
                if not state.is_chance_node():
                    expected = greedy.act(turn_for(state), random.Random(0))
                    assert compiled.greedy_action(compiled.to_compiled(state)) == expected, \
                        state.history()
                    compared += 1
                state.apply_action(action)
    assert compared > 2000


def test_a_random_seat_picks_each_legal_move_equally_often():
    game = load_game("dead-cat", players=3)
    state = game.new_initial_state()
    rng = random.Random(1)
    while not (state.current_player() >= 0 and len(state.legal_actions()) == 5):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else max(state.legal_actions()))  # peek, then bet high
    array = compiled.to_compiled(state)
    streams = np.zeros(4, np.uint64)
    jit.seed_streams(streams, 9)
    counts = {a: 0 for a in state.legal_actions()}
    for _ in range(50_000):
        counts[int(compiled.choose(array, streams, RANDOM))] += 1
    assert min(counts.values()) > 9_500 and max(counts.values()) < 10_500, counts
