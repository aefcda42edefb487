"""Plug-in bots at the terminal: listed with their package, played by name, and a bot that
misbehaves is stopped with a line naming it while the game goes on and ends flagged."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from quarkade.cli.main import app
from tests.rogues import declare

runner = CliRunner()
REPO = Path(__file__).parents[2]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_agents_lists_plugins_with_their_package_and_warns_of_broken_ones(rogue_bots):
    declare(rogue_bots, {"gone": "no_such_module:Bot"}, package="broken")
    from quarkade.agents import plugins
    plugins.refresh()
    result = run("agents", "hadronize")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "steady  (plug-in from rogues 0.1)" in lines and "greedy" in lines
    assert "catty" not in result.stdout  # plays Dead Cat only
    assert result.stderr.startswith("warning: plug-in 'gone' (no_such_module:Bot, from broken")
    assert "ModuleNotFoundError" in result.stderr


def test_play_names_a_stopped_bot_and_the_game_goes_on_flagged(rogue_bots, tmp_path):
    record = tmp_path / "game.json"
    result = run("play", "hadronize", "--seat", "0=raiser:at=2", "--seat", "1=cheater",
                 "--seed", "3", "--record", str(record))
    assert result.exit_code == 0, result.output
    out = result.stdout
    stopped = [line for line in out.splitlines() if line.startswith("At its move ")]
    assert stopped == [  # as they happen; nobody at the table, so with the detail
        "At its move 1, Cheater bot answered something other than one of its 2 legal "
        "actions; its seat plays random moves from here. (It said: answered 1021)",
        "At its move 2, Raiser bot raised ZeroDivisionError; its seat plays random moves "
        "from here. (It said: ZeroDivisionError: the bot divided by zero)"]
    assert "Game over: " in out and out.count("The result is flagged. At its move") == 2
    assert "seat 0" not in out and "seat 1" not in out
    saved = json.loads(record.read_text())
    assert [(f["seat"], f["kind"]) for f in saved["faults"]] == [(0, "raised"), (1, "illegal")]


def test_a_person_at_the_table_is_not_shown_what_a_stopped_bot_said(rogue_bots, tmp_path):
    """An exception's text or a bot's answer may hold its seat's secrets: only the sentence."""
    record = tmp_path / "game.json"
    result = run("play", "dead-cat", "--seat", "0=human", "--seat", "1=raiser:at=1",
                 "--seed", "4", "--record", str(record), input="1\n" * 300)
    assert result.exit_code == 0, result.output
    stopped = [line for line in result.stdout.splitlines() if line.startswith("At its move")]
    assert stopped == ["At its move 1, Raiser bot raised ZeroDivisionError; its seat plays "
                       "random moves from here."]
    assert "divided by zero" not in result.stdout
    # The terminal's record is the whole game (every card), detail included.
    assert json.loads(record.read_text())["faults"][0]["detail"] == \
        "ZeroDivisionError: the bot divided by zero"


def test_simulate_and_tournament_flag_the_games_of_a_stopped_bot(rogue_bots, tmp_path):
    out = tmp_path / "runs.jsonl"
    result = run("simulate", "hadronize", "--agents", "cheater,greedy", "--games", "4",
                 "--seed", "1", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "flagged: cheater was stopped in 4 games (its seat played random from there); " \
           "the first: at seat 0, its move 1, it answered" in " ".join(result.stderr.split())
    assert "(answered 1021)" in " ".join(result.stderr.split())
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["faults"][0]["agent"] for line in lines] == ["cheater"] * 4
    rated = run("tournament", "hadronize", "--agents", "steady,lowest,random", "--games", "2",
                "--seed", "1", "--workers", "1")
    assert rated.exit_code == 0, rated.output
    assert "flagged" not in rated.output and "steady" in rated.stdout


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_move_time_that_is_not_a_positive_number_is_refused(value):
    for command in (["play", "hadronize"], ["simulate", "hadronize", "--agents", "random"],
                    ["serve"]):
        result = run(*command, "--move-time", value)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"error: --move-time {float(value)}: give a number")


def test_serve_allows_only_installed_plugins_by_name(rogue_bots):
    result = run("serve", "--allow-bots", "steady,nobody", "--port", "0")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --allow-bots: no plug-in bot named 'nobody' is "
                                    "installed (plug-in bots: catty, cheater")


@pytest.mark.parametrize(("name", "fragment"), [
    ("My Bot", "cannot name a bot: use lower-case letters"),
    ("greedy", "'greedy' is a built-in bot's name"),
    ("steady", "a plug-in bot named 'steady' is installed already (rogues 0.1)"),
])
def test_new_bot_refuses_a_name_it_cannot_use(rogue_bots, tmp_path, name, fragment):
    result = run("new-bot", name, "--path", str(tmp_path))
    assert result.exit_code == 2 and fragment in result.stderr
    assert not (tmp_path / name).exists()


def test_new_bot_never_writes_over_a_folder(tmp_path):
    (tmp_path / "mine").mkdir()
    result = run("new-bot", "mine", "--path", str(tmp_path))
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert list((tmp_path / "mine").iterdir()) == []


def test_a_bot_that_never_answers_is_stopped_by_the_real_clock(rogue_bots):
    """The one test on real time: a busy-looping bot, 0.3 s a move, in its own process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(rogue_bots), str(REPO)])}
    result = subprocess.run([sys.executable, "-m", "quarkade", "play", "hadronize", "--seat",
                             "0=hanger", "--seat", "1=random", "--seed", "2", "--move-time",
                             "0.3"], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert ("At its move 1, Hanger bot gave no answer within its 0.3 s per move (stopped); "
            "its seat plays random moves from here.\n") in result.stdout
    assert "Game over: " in result.stdout
