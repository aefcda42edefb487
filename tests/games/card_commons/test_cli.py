"""``quarkade`` with Card Commons, driven as a person would: bots, typed moves, records."""

import json
import re

import pytest
from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.games.card_commons.solve.ledger import Ledger

runner = CliRunner()
BOTS = ["--seat", "0=greedy", "--seat", "1=random", "--seed", "3"]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_games_and_rules_list_card_commons():
    listed = run("games")
    assert re.search(r"card-commons\s+│\s+2\s+│\s+Open information", listed.output)
    page = run("rules", "card-commons")
    assert page.exit_code == 0
    for words in ("Fundamental Law", "Tunnel", "Repel", "Anchor", "Polarize", "worked example",
                  "inv 4S c3"):
        assert words in page.output


def test_greedy_against_random_plays_to_the_end_and_prints_the_score():
    result = run("play", "card-commons", *BOTS)
    assert result.exit_code == 0, result.output
    assert result.output.count("Game over") == 1
    assert "open cells on own side: Greedy bot 7/8, Random bot 0/8" in result.output
    assert result.output.endswith("Game over: Greedy bot wins with 7 open cells to 0.\n")
    assert run("play", "card-commons", *BOTS).output == result.output


@pytest.mark.parametrize("options", [["variant=tutorial"], ["torus=yes"],
                                     ["variant=tutorial", "torus=true"]])
def test_every_variant_plays_from_the_command_line(options):
    flags = [flag for option in options for flag in ("--option", option)]
    result = run("play", "card-commons", *BOTS, *flags)
    assert result.exit_code == 0, result.output
    assert "Game over: " in result.output
    assert ("Tutorial" in result.output) == ("variant=tutorial" in options)
    assert ("torus)" in result.output) == any(o.startswith("torus") for o in options)


def test_bad_options_get_one_clear_line():
    result = run("play", "card-commons", "--option", "variant=expert")
    assert result.exit_code == 2
    assert "variant='expert' is not allowed; it takes one of classic, tutorial" in result.stderr
    assert "players=3" in run("play", "card-commons", "--players", "3").stderr


def test_a_person_is_prompted_and_bad_input_is_explained():
    # Seed 3: the coin gives the opening to the person at seat 0.
    answers = ["banana", "99", "lit 3H", "lit 3D", "3H a4", "list", "q"]
    result = run("play", "card-commons", "--seed", "3", input="\n".join(answers) + "\n")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Coin: you open." in result.output
    assert "your cards and the cells each can go on:" in result.output
    assert "  3H  b2 c2 b3 c3" in result.output
    assert "'banana' is not one of the moves listed" in result.output
    assert "99 is out of range" in result.output
    assert "the 3♥ can go on 4 cells: b2 c2 b3 c3" in result.output
    assert "the 3♦ is not in your hand" in result.output
    assert "the opening card goes on a centre cell" in result.output
    assert re.search(r"^\s+32\s+5S c3\s+on your side\s*$", result.output, re.MULTILINE)
    assert result.output.count("your move:") == 1
    assert "Game stopped." in result.output


def test_a_person_plays_a_whole_game_and_other_spellings_work(tmp_path):
    path = tmp_path / "game.json"
    answers = ["3♥ b2"] + ["1"] * 300  # then always the first move listed
    result = run("play", "card-commons", "--seed", "3", "--record", str(path),
                 input="\n".join(answers))
    assert result.exit_code == 0, result.output[-2000:]
    assert "You opened with the 3♥ on b2." in result.output  # a sentence starts with a capital
    assert "Game over: " in result.output
    record = json.loads(path.read_text())
    assert record["game"] == "card-commons" and record["actions"][1]["text"] == "3H b2"
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0 and "Game over: " in replayed.output
    assert run("replay", str(path), "--step", "3").exit_code == 0


SOLVED_LINE = ("opener 0, 4H b2, 5C b3, inv 5H b3 /2S, 6D c3, 6H a3, inv 6C c3 /3C, AH d3, "
               "inv AC d3 /5D")


def test_solve_prints_the_value_and_every_winning_move_of_a_position():
    result = run("solve", "card-commons", "-o", "variant=tutorial", "--moves", SOLVED_LINE)
    assert result.exit_code == 0, result.output
    assert "seat 0 to move wins with best play" in result.output
    assert "winning moves (13): 2H c4, 3H c4" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["hadronize"], "no solver for 'hadronize'; solvable: card-commons"),
    (["card-commons"], "only the Tutorial game is solved"),
    (["card-commons", "-o", "variant=tutorial", "--table-bits", "40"],
     "--table-bits 40: 16-30 allowed"),
    (["card-commons", "-o", "variant=tutorial", "--plies", "-1"], "--plies -1: 0-8 allowed"),
    (["card-commons", "-o", "variant=tutorial", "--workers", "0"], "--workers 0: 1-64 allowed"),
    (["card-commons", "-o", "variant=tutorial", "--moves", "opener 0, 4H b2, zz"],
     "'zz' is not Card Commons notation"),
    (["card-commons", "-o", "variant=tutorial", "--moves", "opener 0"],
     "the position is in its opening phase"),
    (["card-commons", "--moves", "opener 1"],
     "the position is in its opening phase; the solver reads positions after the opening"),
    (["card-commons", "-o", "variant=tutoral"], "variant"),
    (["card-commons", "-o", "variant=tutorial", "--openings", "2H,6H"],
     "--openings '2H,6H': name opening cards, separated by commas, from 2H, 3H, 4H, 5H, "
     "2S, 3S, 4S, 5S"),
])
def test_solve_refuses_bad_input_in_one_line(args, message):
    result = run("solve", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_solve_refuses_a_ledger_of_the_other_field(tmp_path):
    kept = tmp_path / "torus.ledger.json"
    Ledger(kept, torus=True, min_nodes=0).settle(1, 0, nodes=0)
    result = run("solve", "card-commons", "-o", "variant=tutorial", "--ledger", str(kept),
                 "--book", str(tmp_path / "book.json"))
    assert result.exit_code == 2
    assert f"--ledger {kept}: " in result.output and "torus, not this field" in result.output
    assert "Traceback" not in result.output


def test_the_perfect_bot_plays_from_the_terminal():
    result = run("play", "card-commons", "-o", "variant=tutorial", "--seat",
                 "0=perfect:nodes=200000", "--seat", "1=greedy", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "Perfect tutorial bot: Plays the Tutorial variant" in result.output
    assert "Game over: " in result.output
