"""``quarkade`` with Decoherence, driven as a user would."""

import json
import re

from typer.testing import CliRunner

from quarkade.cli.main import app

runner = CliRunner()
BOTS = ["--seat", "0=greedy", "--seat", "1=random", "--seed", "5"]


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_bots_play_to_the_end():
    result = run("play", "decoherence", *BOTS)
    assert result.exit_code == 0, result.output
    assert result.output.count("Game over") == 1
    # the result in words, with the bots' names ("draw" alone would match "draws")
    assert re.search(r"^Game over: (Greedy|Random) bot wins as (Greedy|Random) bot "
                     r"(decohered|had|was)|^Game over: a draw, ", result.output,
                     re.MULTILINE), result.output[-500:]
    assert run("play", "decoherence", *BOTS).output == result.output


def test_a_person_sees_the_table_and_plays_by_number():
    result = run("play", "decoherence", "--seed", "2", input="1\n" * 200)
    assert result.exit_code == 0, result.output[-2000:]
    assert "your move:" in result.output and "Your hand:" in result.output
    assert "hidden" in result.output  # the bot's nouns, face-down
    assert "Game over: " in result.output


def test_deck_options_from_the_command_line(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "decoherence", *BOTS, "--option", "deck0=random", "--option",
                 "deck1=observer", "--option", "open_decklists=yes", "--record", str(path))
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["options"]["deck0"] == "random" and record["options"]["open_decklists"]
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0 and "Game over: " in replayed.output


def test_an_illegal_deck_gets_one_clear_line():
    result = run("play", "decoherence", *BOTS, "--option", "deck1=kiki 5")
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "5 copies of kiki" in lines[0]


def test_rules_and_agents():
    rules = run("rules", "decoherence")
    assert rules.exit_code == 0 and "verve" in rules.output and "kiki" in rules.output
    agents = run("agents", "decoherence")
    assert {"greedy", "random", "ismcts", "hard"} <= set(agents.output.split())
    assert "decoherence" in run("games").output
