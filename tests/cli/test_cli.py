"""The ``quarkade`` command, driven as a user would: arguments, typed answers, files."""

import json
import re

import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from quarkade.cli import faces
from quarkade.cli.human import numbered
from quarkade.cli.main import app
from quarkade.core.protocol import CHANCE

runner = CliRunner()
SIX_BOTS = ["--players", "6", "--seat", "0=random", "--seat", "1=greedy", "--seat", "2=random",
            "--seat", "3=greedy", "--seat", "4=random", "--seat", "5=greedy", "--seed", "7"]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def assert_clean_error(result, *fragments):
    """Exit code 2, one line on stderr naming the problem, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_games_lists_hadronize():
    result = run("games")
    assert result.exit_code == 0
    assert "hadronize" in result.output and "2-6" in result.output


def test_rules_prints_the_rules_page():
    result = run("rules", "hadronize")
    assert result.exit_code == 0
    assert "superposition" in result.output and "tunnel" in result.output


def test_six_bots_play_to_the_end_and_name_the_winner():
    result = run("play", "hadronize", *SIX_BOTS)
    assert result.exit_code == 0, result.output
    assert re.search(r"^Game over: (Random|Greedy) bot \d wins\.$", result.output, re.MULTILINE)
    assert result.output.count("Game over") == 1 and "Result" not in result.output


def test_the_same_seed_gives_the_same_game():
    first = run("play", "hadronize", *SIX_BOTS)
    second = run("play", "hadronize", *SIX_BOTS)
    assert first.output == second.output
    other = run("play", "hadronize", *SIX_BOTS[:-1], "8")
    assert other.output != first.output


@pytest.mark.parametrize(("args", "fragments"), [
    (["play", "chess"], ["no game named 'chess'", "hadronize"]),
    (["play", "hadronize", "--players", "9"], ["players=9", "from 2 to 6"]),
    (["play", "hadronize", "--seat", "5=greedy"], ["seats are 0-1"]),
    (["play", "hadronize", "--seat", "0=wizard"], ["no agent 'wizard'", "greedy", "random"]),
    (["play", "hadronize", "--seat", "greedy"], ["SEAT=AGENT"]),
    (["play", "hadronize", "--seat", "0=greedy", "--seat", "0=random"], ["given twice"]),
    (["play", "hadronize", "--option", "goal"], ["name=value"]),
    (["play", "hadronize", "--option", "colour=red"], ["no option 'colour'", "players, goal"]),
    (["play", "hadronize", "--seat", "0=greedy:depth=3"], ["no parameter 'depth'"]),
    (["rules", "chess"], ["no game named"]),
    (["replay", "/no/such/file.json"], ["cannot read"]),
])
def test_bad_arguments_get_one_clear_line(args, fragments):
    assert_clean_error(run(*args), *fragments)


def test_bad_typed_moves_are_explained_and_asked_again():
    result = run("play", "hadronize", "--seed", "3", input="99\n0\nbanana\n\nq\n")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "99 is out of range: enter a number from 1 to 2, or help." in result.output
    assert "0 is out of range" in result.output
    assert "'banana' is not one of the moves listed" in result.output
    assert "nothing entered" in result.output
    assert result.output.count("your move:") == 1  # asked again, not a new turn
    assert "Game stopped." in result.output


def test_the_log_sets_chance_in_unless_it_finishes_a_move_that_said_nothing():
    console = Console(record=True, width=100)
    log = faces.GameLog(console)
    log.show(CHANCE, "The die roll gives the first turn to Ada.")
    log.show(0, None)  # a peek has no line of its own ...
    log.show(CHANCE, "Ada peeks: an alive cat.")  # ... the card seen is the move's line
    log.show(1, "Ben turns the die to 3.")
    log.show(CHANCE, "The box is shuffled.")
    assert console.export_text().splitlines() == [
        "  The die roll gives the first turn to Ada.", "Ada peeks: an alive cat.",
        "Ben turns the die to 3.", "  The box is shuffled."]


def test_a_peek_in_the_terminal_is_the_players_own_line():
    result = run("play", "dead-cat", "--seed", "190988", input="peek\nq\n")
    assert "Game stopped." in result.output and "Traceback" not in result.output
    assert "  The die roll gives the first turn to Greedy bot." in result.output
    assert "help): You peek: an alive cat." in result.output


def test_a_person_plays_a_whole_game_by_number_and_by_notation():
    answers = "\n".join(["observe 1", "1"] * 400)
    result = run("play", "hadronize", "--seed", "11", input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over: " in result.output
    assert "you" in result.output


def test_stopping_saves_an_unfinished_record(tmp_path):
    path = tmp_path / "partial.json"
    result = run("play", "hadronize", "--seed", "3", "--record", str(path), input="1\n1\nq\n")
    assert result.exit_code == 1 and "The unfinished game's record is saved to" in result.output
    record = json.loads(path.read_text())
    assert record["returns"] is None and record["seats"][0] == {"name": "you", "agent": "human"}
    assert run("replay", str(path)).exit_code == 0


def test_closed_input_stops_cleanly():
    result = run("play", "hadronize", "--seed", "3", input="")
    assert result.exit_code == 1
    assert "Game stopped." in result.output and "Traceback" not in result.output


def test_record_then_replay(tmp_path):
    path = tmp_path / "game.json"
    played = run("play", "hadronize", *SIX_BOTS, "--record", str(path))
    assert played.exit_code == 0
    record = json.loads(path.read_text())
    assert record["game"] == "hadronize" and record["seed"] == 7
    assert [s["agent"] for s in record["seats"]] == ["random", "greedy"] * 3
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0
    winner = re.search(r"Game over: ((Random|Greedy) bot \d) wins", played.output).group(1)
    assert f"Game over: {winner} wins." in replayed.output
    step = run("replay", str(path), "--step", "24")
    assert step.exit_code == 0 and "turn 1" in step.output
    stepping = run("replay", str(path), "-i", input="\n\nb\nl\nzz\nq\n")
    assert stepping.exit_code == 0 and "press Enter" in stepping.output


def test_replay_names_the_step_where_a_record_breaks(tmp_path):
    path = tmp_path / "game.json"
    run("play", "hadronize", *SIX_BOTS, "--record", str(path))
    record = json.loads(path.read_text())
    record["actions"][30]["id"] = 37  # "first 5" in the middle of a turn
    path.write_text(json.dumps(record))
    assert_clean_error(run("replay", str(path)), "step 31:", "not legal")
    path.write_text("{not json")
    assert_clean_error(run("replay", str(path)), "not JSON")
    assert_clean_error(run("replay", str(path.parent / "x.json"), "--step", "3"), "cannot read")


def test_replay_refuses_a_step_out_of_range(tmp_path):
    path = tmp_path / "game.json"
    run("play", "hadronize", *SIX_BOTS, "--record", str(path))
    assert_clean_error(run("replay", str(path), "--step", "100000"), "--step 100000")


def test_games_without_menus_or_commands_keep_the_numbered_list():
    assert faces.action_menu("hadronize", {}, ["observe 0"], ["you"]) is None
    assert faces.prompt_command("hadronize", {}, "lit 3H", ["you"]) is None
    result = run("play", "hadronize", "--seed", "3", input="list\nq\n")
    assert result.output.count("  1  observe 0") == 2  # listed, then listed again on request


def test_seats_not_given_keep_their_defaults():
    """`--seat 1=hard` is you against hard (issue 16): seat 0 stays the person at the
    keyboard unless it is given a bot, and other seats not given are greedy."""
    result = run("play", "card-commons", "--seat", "1=random", "--seed", "4", input="q\n")
    assert "  you\n" in result.output and "  Random bot: " in result.output
    assert "your move" in result.output and result.exit_code == 1  # asked, then quit
    bots = run("play", "hadronize", "--players", "3", "--seat", "0=random", "--seed", "4")
    assert bots.exit_code == 0
    assert "  Greedy bot 1: " in bots.output and "  Greedy bot 2: " in bots.output
    assert "your move" not in bots.output


def test_the_prompt_is_short_help_lists_the_commands_and_the_result_is_in_words():
    """Issue 25 item 20: `help` at the prompt lists what may be typed (it was refused as an
    illegal move); the prompt is short; the result is a sentence, not raw returns; seats
    read "you" and "Greedy bot", never "seat 1 (greedy)"; --help shows no type beside
    flags."""
    result = run("play", "hadronize", "--seed", "3", input="help\nq\n")
    assert "not one of the moves" not in result.output
    assert "  list: show every move again, numbered" in result.output
    assert "  q: stop the game" in result.output
    assert "move (1-2, help): " in result.output
    assert "notation" not in result.output and "seat 1" not in result.output
    bots = run("play", "hadronize", "--seat", "0=random", "--seed", "4")
    assert "returns" not in bots.output and "[-" not in bots.output
    assert re.search(r"Game over: (Random bot|Greedy bot) wins\.", bots.output), bots.output
    for command in ((), ("play",)):
        shown = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
        assert "<bool>" not in shown.output
        assert re.search(r"--help +Show this message", shown.output)


def test_the_list_of_commands_gives_each_one_sentence_unbroken():
    """`quarkade --help` at a wide terminal: each command's summary is its docstring's first
    paragraph on one line (the source's line breaks cut "...then the levels;" from "with a
    bot's name...")."""
    shown = runner.invoke(app, ["--help"], env={"COLUMNS": "400"}).output
    for name, command in typer.main.get_command(app).commands.items():
        first = " ".join((command.help or "").split("\n\n")[0].split())
        line = next(row for row in shown.splitlines() if row.startswith(f"│ {name} "))
        assert first in " ".join(line.strip("│ ").split()), name


def test_a_long_list_of_moves_is_set_in_columns():
    """Item 20: a Card Commons turn with dozens of moves fits in a screen's worth of lines,
    so the table above it stays in view; every move is still numbered."""
    console = Console(width=120, record=True)
    labels = [f"play card {n}" for n in range(72)]
    numbered(console, labels)
    lines = console.export_text().splitlines()
    assert len(lines) <= 24
    text = " ".join(lines)
    assert all(f"{n + 1:>3}  play card {n} " in text + " " for n in range(72))
