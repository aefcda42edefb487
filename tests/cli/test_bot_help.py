"""``quarkade agents GAME BOT``: what a bot does and the parameters its spec may set, read
from the bot's own declarations."""

from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.core.options import Option
from quarkade.games.decoherence.bots import GreedyAgent

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def words(text):
    """The text with its line breaks and runs of spaces as single spaces (the terminal's
    width decides where rich wraps)."""
    return " ".join(text.split())


def test_a_bot_is_described_with_every_parameter_it_declares():
    result = run("agents", "hadronize", "rollout")
    assert result.exit_code == 0
    assert words(result.stdout).startswith("rollout: Greedy improved by one step of look-ahead")
    table = result.stdout.split("\nparameter ", 1)[1].splitlines()[1:]
    names = [line.split()[0] for line in table if line[:1].isalpha()]
    assert names == ["playouts", "time", "margin", "compiled"]
    assert "a whole number of at least 1" in words(result.stdout)


def test_a_parameter_declared_in_a_games_bot_is_in_its_help(monkeypatch):
    monkeypatch.setattr(GreedyAgent, "parameters", (
        Option("boldness", 2, "how much it risks for a bigger line", int, minimum=0,
               maximum=5),))
    result = run("agents", "decoherence", "greedy")
    row = next(line for line in result.stdout.splitlines() if line.startswith("boldness"))
    assert row.split()[:2] == ["boldness", "2"]
    assert "from 0 to 5" in words(result.stdout)
    assert "how much it risks for a bigger" in words(result.stdout)


def test_levels_say_which_bot_plays_them_and_unknown_bots_are_refused():
    hard = words(run("agents", "hadronize", "hard").stdout)
    assert "2 seats: mcts:" in hard and "more seats: rollout:" in hard
    assert "It takes no parameters." in words(run("agents", "dead-cat", "greedy").stdout)
    refused = run("agents", "hadronize", "sleuth")
    assert refused.exit_code == 2
    assert "no agent 'sleuth' for hadronize; agents: ev, exact, greedy" in words(
        refused.stderr)
