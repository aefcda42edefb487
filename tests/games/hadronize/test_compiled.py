"""The compiled Hadronize engine against the reference engine (see ``tests/compiled.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.core import jit
from quarkade.core.rng import sample_chance
from quarkade.games.hadronize import compiled
from quarkade.games.hadronize.notation import OBSERVE_BASE
from tests.compiled import Checked, check_game, check_position, compiled_games
from tests.perft import load_cases, position

RANDOM, GREEDY = compiled.RANDOM, compiled.GREEDY
# Every player count, and the options that change the rules: a short goal (games end on
# the first hadronization), a turn cap (capped games, shared wins, draws).
VARIANTS = [{"players": n} for n in range(2, 7)] + [
    {"players": 3, "goal": 2}, {"players": 2, "goal": 1}, {"players": 4, "max_turns": 7},
    {"players": 2, "max_turns": 3, "goal": 4}]
POSITIONS = 100_000  # at least, over all variants


def test_compiled_and_reference_agree_at_100000_positions():
    checked = Checked()
    rng = random.Random(17)
    per_variant = POSITIONS // len(VARIANTS)
    for number, options in enumerate(VARIANTS):
        game = load_game("hadronize", **options)
        reached = checked.positions
        batch = 0
        while checked.positions - reached < per_variant:
            policies = [[RANDOM], [GREEDY], [RANDOM, GREEDY]][batch % 3]
            for history in compiled_games(compiled, game, policies, 20, 1000 * number + batch):
                check_game(compiled, game, history, rng, checked, others=2)
            batch += 1
    assert checked.positions >= POSITIONS
    assert checked.terminals > 1000 and checked.decisions > 20_000
    assert checked.phases == set(range(6))  # every phase, the end included


def test_compiled_perft_counts_match_the_data():
    for case in load_cases(Path(__file__).with_name("perft.json")):
        state = position(case)
        array = compiled.to_compiled(state)
        for depth, count in case["counts"].items():
            assert _perft(array, int(depth)) == count, case["name"]


def _perft(array: np.ndarray, depth: int) -> int:
    if depth == 0 or array[compiled.PHASE] == compiled.OVER:
        return 1
    buffer = np.zeros(compiled.MAX_ACTIONS, np.int64)
    total = 0
    for action in buffer[:compiled.legal_actions(array, buffer)]:
        child = array.copy()
        compiled.apply_action(child, int(action))
        total += _perft(child, depth - 1)
    return total


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_bridge_goes_there_and_back(players):
    game = load_game("hadronize", players=players, goal=8)
    rng = random.Random(players)
    checked = Checked()
    for history in compiled_games(compiled, game, [GREEDY], 5, players):
        state = game.new_initial_state()
        for action in history:
            back = compiled.from_compiled(game, compiled.to_compiled(state))
            assert (compiled.to_compiled(back) == compiled.to_compiled(state)).all()
            assert back.legal_actions() == state.legal_actions()
            check_position(compiled, back, rng, checked)
            state.apply_action(action)
    with pytest.raises(ValueError, match="another game"):
        compiled.from_compiled(load_game("hadronize", players=players, goal=9),
                               compiled.to_compiled(state))


def test_play_one_is_play_stepwise_draw_for_draw():
    for options in VARIANTS:
        game = load_game("hadronize", **options)
        template = compiled.new_state(game)
        for policies in ([RANDOM], [GREEDY], [GREEDY, RANDOM]):
            seats = np.array([policies[s % len(policies)] for s in range(game.num_players)])
            for seed in range(300):
                streams = np.zeros(game.num_players + 1, np.uint64)
                jit.seed_streams(streams, seed)
                fast, slow = template.copy(), template.copy()
                one = compiled.play_one(fast, streams.copy(), seats)
                stepwise = compiled.play_stepwise(slow, streams.copy(), seats,
                                                  np.zeros(0, np.int64))
                assert one == stepwise, (options, policies, seed)
                assert (fast == slow).all(), (options, policies, seed)


def test_play_one_finishes_a_game_handed_over_mid_turn():
    game = load_game("hadronize", players=3)
    rng = random.Random(5)
    seats = np.array([GREEDY, RANDOM, GREEDY])
    for seed in range(200):
        state = game.new_initial_state()
        for _ in range(rng.randrange(60)):
            if state.is_terminal():
                break
            state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
        streams = np.zeros(4, np.uint64)
        jit.seed_streams(streams, seed)
        fast, slow = compiled.to_compiled(state), compiled.to_compiled(state)
        one = compiled.play_one(fast, streams.copy(), seats)
        assert one == compiled.play_stepwise(slow, streams.copy(), seats, np.zeros(0, np.int64))
        assert (fast == slow).all()


def test_compiled_greedy_ties_between_the_moves_greedy_rates_best():
    greedy = make_agent("greedy", "hadronize")
    buffer = np.zeros(6, np.int64)
    compared = 0
    for players in (2, 4, 6):
        game = load_game("hadronize", players=players, goal=6)
        for history in compiled_games(compiled, game, [GREEDY, RANDOM], 30, players):
            state = game.new_initial_state()
            for action in history:
                if not state.is_chance_node():
                    turn = turn_for(state)
                    chosen = {greedy.act(turn, random.Random(seed)) for seed in range(12)}
                    count = compiled.greedy_best(compiled.to_compiled(state), buffer)
                    best = set(buffer[:count].tolist())
                    # every move greedy was seen to choose is one the compiled greedy ties
                    # between, and a single best move is the one both play
                    assert chosen <= best, state.history()
                    if count == 1:
                        assert chosen == best
                    compared += 1
                state.apply_action(action)
    assert compared > 1000
    assert OBSERVE_BASE == 20
