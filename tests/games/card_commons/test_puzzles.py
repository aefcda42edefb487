"""Puzzles (``solve/puzzles.py``, ``learn/puzzles.py``): every mined puzzle, replayed through
the engine, is a position where exactly one legal action wins, the solution starts with it,
and the solution played out wins for the seat that was to move."""

from __future__ import annotations

import pytest

from quarkade.core.registry import load_game
from quarkade.games.card_commons.solve.puzzles import Exact, empty_cells, replay
from quarkade.games.card_commons.solver import Solver
from quarkade.learn.puzzles import mine

pytest.importorskip("numba")

MAX_EMPTY = 5


def check(puzzle, exact: Exact, max_empty: int = MAX_EMPTY, minimax: bool = True) -> None:
    game = load_game("card-commons", variant=puzzle.variant, torus=puzzle.torus)
    state = replay(game, puzzle.moves)  # raises on a move the engine refuses
    assert state.phase() == "turn"
    assert empty_cells(state) == puzzle.empty <= max_empty
    mover = state.current_player()
    winners = exact.winning_actions(state)
    assert winners == [state.string_to_action(puzzle.solution[0])]
    assert len(state.legal_actions()) >= 2
    # the same answer from plain minimax on the reference engine (these seeds' puzzles
    # are small enough for it)
    if minimax:
        assert Solver(max_nodes=200_000).winning_actions(state) == winners
    for text in puzzle.solution:
        assert not state.is_terminal()
        if state.current_player() == mover:
            assert state.string_to_action(text) in exact.winning_actions(state)
        state.apply_action(state.string_to_action(text))
    assert state.is_terminal() and state.returns()[mover] > 0


@pytest.mark.parametrize("variant", ["tutorial", "classic"])
def test_each_puzzle_has_one_winning_move_and_a_solution_that_wins(variant):
    found = list(mine(3, variant=variant, max_empty=MAX_EMPTY, seed=11))
    assert len(found) == 3
    assert len({tuple(p.moves) for p in found}) == 3
    exact = Exact(budget=0)  # its own tables, no node budget
    for puzzle in found:
        assert puzzle.variant == variant
        assert puzzle.moves[0].startswith("opener ")
        check(puzzle, exact)


def test_the_same_seed_mines_the_same_puzzles():
    first = [p.as_json() for p in mine(2, variant="tutorial", max_empty=MAX_EMPTY, seed=3)]
    again = [p.as_json() for p in mine(2, variant="tutorial", max_empty=MAX_EMPTY, seed=3)]
    assert first == again


def test_study_answers_every_move_along_the_solution_as_the_solver_does():
    exact = Exact(budget=0)
    for puzzle in mine(2, variant="tutorial", max_empty=MAX_EMPTY, seed=5, studied=True):
        state = replay(load_game("card-commons", variant="tutorial"), puzzle.moves)
        mover = state.current_player()
        steps = {step["at"]: step for step in puzzle.steps}
        assert steps[0]["also"] == []  # one winning move: a puzzle
        for at, text in enumerate(puzzle.solution):
            if state.current_player() == mover:
                for also in steps[at]["also"]:
                    assert state.string_to_action(also) in exact.winning_actions(state)
                for wrong, reply in steps[at]["refutations"].items():
                    after = state.clone()
                    after.apply_action(after.string_to_action(wrong))
                    assert not exact.wins(after, mover)
                    while not after.is_terminal() and after.current_player() == mover:
                        after.apply_action(after.legal_actions()[0])
                    assert (reply == "") == after.is_terminal()
                    if reply:
                        assert after.string_to_action(reply) in exact.winning_actions(after)
            state.apply_action(state.string_to_action(text))


def test_the_servers_shipped_pool_holds_proven_puzzles():
    """Every puzzle of the pool the web's /puzzles page serves, replayed through the
    engine: exactly one winning move (by the exact solver, no node budget), and a
    solution that wins."""
    import json

    from quarkade.games.card_commons.solve.puzzles import Puzzle
    from quarkade.server.learn.puzzles import POOL

    exact = Exact(budget=0)
    entries = json.loads(POOL.read_text())
    assert len(entries) >= 20
    for entry in entries:
        fields = {k: v for k, v in entry.items() if k != "steps"}
        check(Puzzle(**fields), exact, max_empty=8, minimax=False)
