"""``quarkade puzzles``: the JSON list the issue asks for, and clear answers to bad input."""

import json

import pytest
from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.core.registry import load_game
from quarkade.games.card_commons.solve.puzzles import Exact, replay

pytest.importorskip("numba")
runner = CliRunner()


def test_json_lists_puzzles_whose_first_solution_move_is_the_only_winning_one():
    result = runner.invoke(app, ["puzzles", "card-commons", "--count", "2", "--variant",
                                 "tutorial", "--max-empty", "5", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert len(found) == 2
    exact = Exact(budget=0)
    for puzzle in found:
        assert {"variant", "moves", "solution"} <= set(puzzle)
        assert puzzle["variant"] == "tutorial"
        state = replay(load_game("card-commons", variant="tutorial"), puzzle["moves"])
        assert exact.winning_actions(state) == [state.string_to_action(puzzle["solution"][0])]


def test_solve_moves_names_a_classic_puzzles_one_winning_move():
    found = json.loads(runner.invoke(app, ["puzzles", "card-commons", "--count", "1",
                                           "--variant", "classic", "--max-empty", "5",
                                           "--seed", "11", "--json"]).stdout)
    assert found[0]["variant"] == "classic"
    result = runner.invoke(app, ["solve", "card-commons", "-o", "variant=classic",
                                 "--table-bits", "18", "--moves",
                                 ", ".join(found[0]["moves"])])
    assert result.exit_code == 0, result.output
    assert "to move wins with best play" in result.output
    assert f"winning moves (1): {found[0]['solution'][0]}" in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["chess"], "puzzles are mined for card-commons"),
    (["card-commons", "--variant", "blitz"], "classic or tutorial allowed"),
    (["card-commons", "--count", "0"], "--count 0: 1-500 allowed"),
    (["card-commons", "--max-empty", "13"], "--max-empty 13: 1-12 allowed"),
])
def test_bad_input_is_answered_with_what_is_allowed(args, said):
    result = runner.invoke(app, ["puzzles", *args])
    assert result.exit_code != 0
    assert said in result.output
    assert "Traceback" not in result.output


def test_pool_writes_puzzles_the_server_reads_with_an_answer_to_every_move(tmp_path):
    from quarkade.server.learn.puzzles import read_pool

    pool = tmp_path / "pool.json"
    result = runner.invoke(app, ["puzzles", "card-commons", "--count", "2", "--max-empty",
                                 "5", "--seed", "4", "--pool", str(pool), "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    written = json.loads(pool.read_text())
    assert [{k: v for k, v in entry.items() if k != "steps"} for entry in written] == printed
    assert all(entry["variant"] == "tutorial" for entry in written)  # the default rules
    puzzles = read_pool(pool)
    assert len(puzzles) == 2
    for puzzle in puzzles:
        state = puzzle.state_at(0)
        answered = set(puzzle.steps[0]["refutations"]) | {state.action_to_string(
            puzzle.solution[0])} | set(puzzle.steps[0]["also"])
        assert answered == {state.action_to_string(a) for a in state.legal_actions()}
    missing = runner.invoke(app, ["puzzles", "card-commons", "--pool",
                                  str(tmp_path / "no" / "pool.json")])
    assert missing.exit_code == 2 and "no folder" in missing.output


def test_serve_refuses_a_puzzle_pool_that_is_not_one(tmp_path):
    bad = tmp_path / "pool.json"
    bad.write_text('{"not": "a list"}')
    result = runner.invoke(app, ["serve", "--puzzles", str(bad)])
    assert result.exit_code == 2
    assert "--puzzles" in result.output and "a JSON list" in result.output
    assert "Traceback" not in result.output
