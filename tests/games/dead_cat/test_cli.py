"""Dead Cat through the ``quarkade`` command, as a user would drive it."""

import json
import re

from typer.testing import CliRunner

from quarkade.cli.main import app

runner = CliRunner()
FIVE_BOTS = ["--players", "5", "--seat", "0=bayes", "--seat", "1=random", "--seat", "2=greedy",
             "--seat", "3=random", "--seat", "4=bayes", "--seed", "2"]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_games_and_agents_list_dead_cat():
    assert re.search(r"dead-cat\W+2-5", run("games").output)
    listed = set(run("agents", "dead-cat").output.split())
    assert {"bayes", "greedy", "random", "ismcts", "hard"} <= listed


def test_rules_prints_the_rules_page():
    result = run("rules", "dead-cat")
    assert result.exit_code == 0
    assert "time deck" in result.output and "peek_first" in result.output


def test_five_bots_play_to_the_end():
    result = run("play", "dead-cat", *FIVE_BOTS)
    assert result.exit_code == 0, result.output
    assert re.search(r"^Game over: (Odds bot|Random bot|Greedy bot)( \d)? wins with four cubes\.$",
                     result.output, re.MULTILINE)
    assert result.output.count("Game over") == 1
    assert run("play", "dead-cat", *FIVE_BOTS).output == result.output


def test_a_bots_game_log_never_names_a_card():
    result = run("play", "dead-cat", *FIVE_BOTS, "--option", "peek_first=yes")
    assert result.exit_code == 0, result.output
    assert "peeks at the top card of the box" in result.output
    assert "peeks: a" not in result.output  # with no person at the table, the log is public


def test_a_person_sees_their_cards_and_plays_a_whole_game():
    answers = "\n".join(["peek", "1"] * 600)
    result = run("play", "dead-cat", "--players", "3", "--seed", "4", "--option",
                 "peek_first=true", input=answers)
    assert result.exit_code == 0, result.output[-2000:]
    assert "You peek: a" in result.output  # a sentence about "you" starts with a capital
    assert not re.search(r"\byou (takes|peeks|turns|calls)\b", result.output, re.IGNORECASE)
    assert "your peeks:" in result.output and "time deck:" in result.output
    assert "Game over: " in result.output


def test_bad_option_value_gets_one_clear_line():
    result = run("play", "dead-cat", "--option", "peek_first=maybe")
    assert result.exit_code == 2
    assert "true or false" in result.stderr
    result = run("play", "dead-cat", "--players", "6")
    assert result.exit_code == 2 and "from 2 to 5" in result.stderr


def test_record_then_replay(tmp_path):
    path = tmp_path / "game.json"
    played = run("play", "dead-cat", *FIVE_BOTS, "--record", str(path))
    assert played.exit_code == 0
    record = json.loads(path.read_text())
    assert record["game"] == "dead-cat" and record["options"]["peek_first"] is False
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0
    found = re.search(r"^Game over: (.+) wins", played.output, re.MULTILINE)
    assert found is not None, played.output
    winner = found.group(1)
    assert f"Game over: {winner} wins" in replayed.output
    as_seat = run("replay", str(path), "--seat", "0", "--step", "5")
    assert as_seat.exit_code == 0 and "Dead Cat - round" in as_seat.output
