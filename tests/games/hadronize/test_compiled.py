"""The compiled Hadronize engine against the reference engine (see ``tests/compiled.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.games.hadronize import compiled
from tests.compiled import (
    agree_at_positions,
    assert_bridge_round_trips,
    assert_compiled_perft,
    assert_play_one_is_stepwise,
    compiled_games,
    midgame_states,
)

RANDOM, GREEDY = compiled.RANDOM, compiled.GREEDY
# Every player count, and the options that change the rules: a short goal (games end on
# the first hadronization), a turn cap (capped games, shared wins, draws).
VARIANTS = [{"players": n} for n in range(2, 7)] + [
    {"players": 3, "goal": 2}, {"players": 2, "goal": 1}, {"players": 4, "max_turns": 7},
    {"players": 2, "max_turns": 3, "goal": 4}]
POSITIONS = 100_000  # at least, over all variants


def test_compiled_and_reference_agree_at_100000_positions():
    checked, _ = agree_at_positions(compiled, "hadronize", VARIANTS,
                                    [[RANDOM], [GREEDY], [RANDOM, GREEDY]], POSITIONS, others=2)
    assert checked.positions >= POSITIONS
    assert checked.terminals > 1000 and checked.decisions > 20_000
    assert checked.phases == set(range(6))  # every phase, the end included


def test_compiled_perft_counts_match_the_data():
    assert_compiled_perft(compiled, Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_bridge_goes_there_and_back(players):
    assert_bridge_round_trips(compiled, load_game("hadronize", players=players, goal=8),
                              [GREEDY], load_game("hadronize", players=players, goal=9))


def test_play_one_is_play_stepwise_draw_for_draw():
    for options in VARIANTS:
        game = load_game("hadronize", **options)
        for policies in ([RANDOM], [GREEDY], [GREEDY, RANDOM]):
            assert_play_one_is_stepwise(compiled, game.new_initial_state(), policies,
                                        range(300))


def test_play_one_finishes_a_game_handed_over_mid_turn():
    game = load_game("hadronize", players=3)
    for number, state in enumerate(midgame_states(game, 200, 5)):
        assert_play_one_is_stepwise(compiled, state, [GREEDY, RANDOM], range(number, number + 3))


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
                    assert chosen <= best <= set(state.legal_actions()), state.history()
                    if count == 1:
                        assert chosen == best
                    compared += 1
                state.apply_action(action)
    assert compared > 1000


def test_compiled_rollout_returns_agree_with_the_python_ones():
    # The same playouts (greedy everywhere, this turn's collapse spread over its flavours)
    # on both engines, with their own random streams: each choice's mean return and its
    # paired difference from greedy's choice agree within noise.
    from quarkade.games.hadronize.bots import RolloutAgent
    from quarkade.games.hadronize.policy import greedy_action

    state = load_game("hadronize", players=4, goal=4).new_initial_state()
    rng = random.Random(11)
    while state.current_player() < 0:
        state.apply_action(rng.choice(state.legal_actions()))
    turn = turn_for(state)
    legal = turn.legal_actions
    fallback = greedy_action(turn.view, legal, rng)
    agent = RolloutAgent()
    found = {}
    for name, playouts, method in (("python", 400, agent._python_returns),
                                   ("compiled", 20_000, agent._compiled_returns)):
        agent.playouts = playouts
        totals, squares, done = method(state, legal, fallback, random.Random(2), 0.0)
        assert done == playouts
        found[name] = {a: (totals[a] / done, (totals[a] - totals[fallback]) / done,
                           squares[a] / done) for a in legal}
    spread = {a: max(found["python"][a][2] - found["python"][a][1] ** 2, 1e-4) ** 0.5
              for a in legal}
    for a in legal:
        (mean, gain, _), (mean_c, gain_c, _) = found["python"][a], found["compiled"][a]
        # returns lie in [-1/3, 1]: a standard deviation of at most 2/3
        assert abs(mean - mean_c) < 4 * (2 / 3) * (1 / 400 ** 0.5 + 1 / 20_000 ** 0.5)
        assert abs(gain - gain_c) < 4 * spread[a] * (1 / 400 ** 0.5 + 1 / 20_000 ** 0.5)
    assert len({round(found["compiled"][a][0], 2) for a in legal}) > 1  # not all alike
