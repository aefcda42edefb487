"""The Card Commons endgame solver: exact values, and the bots that use it."""

import random

import pytest

import quarkade
from quarkade.agents import make_agent, turn_for
from quarkade.core.rng import sample_chance
from quarkade.games.card_commons.notation import PASS
from quarkade.games.card_commons.solver import Solver, empty_cells, endgame, solve


def late_position(seed, cells, variant="classic"):
    """A random game played (without passing) until at most ``cells`` cells are empty."""
    rng = random.Random(seed)
    state = quarkade.load_game("card-commons", variant=variant).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if state.phase() == "turn" and empty_cells(state) <= cells:
            return state
        legal = state.legal_actions()
        state.apply_action(rng.choice([a for a in legal if a != PASS] or legal))
    return None


def minimax(state):
    """Plain minimax for seat 0, no table, no pruning: the reference."""
    if state.is_terminal():
        return 1 if state.returns()[0] > 0 else -1
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


POSITIONS = [p for p in (late_position(seed, 3) for seed in range(40)) if p is not None][:8]


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_solver_agrees_with_plain_minimax(index):
    state = POSITIONS[index]
    assert solve(state, max_nodes=10**6) == minimax(state)


def test_winning_actions_win_and_the_endgame_hook_plays_one():
    checked = 0
    for seed in range(60):
        state = late_position(seed, 5)
        if state is None:
            continue
        solver = Solver(10**6)
        winners = solver.winning_actions(state)
        me = state.current_player()
        for action in winners:
            child = state.clone()
            child.apply_action(action)
            assert solver.value(child) == (1 if me == 0 else -1)
        hooked = endgame(state, random.Random(seed))
        if winners:
            assert hooked in winners
            checked += 1
        else:
            assert hooked is None
    assert checked >= 5


def test_budget_gives_up_instead_of_guessing():
    state = late_position(1, 12)
    assert solve(state, max_nodes=10) is None


def test_mcts_and_solver_bots_play_a_solved_win():
    for seed in range(60):
        state = late_position(seed, 5)
        if state is None:
            continue
        winners = Solver(10**6).winning_actions(state)
        if not winners:
            continue
        for spec in ("mcts:iterations=1", "solver"):
            action = make_agent(spec, "card-commons").act(turn_for(state), random.Random(0))
            assert action in winners, spec
        return
    pytest.fail("no won late position found")
