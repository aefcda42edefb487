"""Running the simulation commands as a user would, and reading what they write."""

import json

from typer.testing import CliRunner

from quarkade.cli.main import app
from tests.cli.test_cli import assert_clean_error

runner = CliRunner()
__all__ = ["EXTRA_TABLES", "assert_clean_error", "lines", "run", "simulate", "table_rows"]

# The tables each game's analysis hook adds to a two-player run's summary and report.
EXTRA_TABLES = {
    "card-commons": ["By how it was won", "Win rate by role", "Win rate by opening card",
                     "Win rate by opening cell", "Win rate by opening side"],
    "dead-cat": ["By players", "Win rate by turn order",
                 "Win rate by time-deck size when announcing (2 players)",
                 "Announcer's round win rate by time-deck size when announcing (2 players)"],
    "decoherence": ["By how it ended", "Win rate by deck", "Win rate by deck matchup",
                    "Win rate by sentence", "Win rate by verb + qualifier"],
    "hadronize": ["By players", "Win rate by turn order"],
}


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def simulate(*args):
    result = run("simulate", *args)
    assert result.exit_code == 0, result.output
    return result


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def table_rows(text, title):
    """The rows of the rich table titled ``title`` in ``text``, as lists of cells (a row's
    cells wrapped onto a second line are left out)."""
    rows = []
    for line in text[text.index(title):].splitlines()[1:]:
        if not line.strip():
            break
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) > 1 and cells[0]:
            rows.append(cells)
    return rows
