"""The bot ladder: who enters (every level, bot and plug-in, one entrant per bot), the
ratings per player count, the files it writes, and what the web app reads back."""

import json

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.core.errors import QuarkadeError
from quarkade.server import create_app
from quarkade.sim.ladder import Entrant, entrants, read_ladder, run_ladder

HARD_TWO = "mcts:iterations=300,rollout=greedy,time=1.8"
HARD_MORE = "rollout:playouts=3000,margin=1,time=0.3"


def test_every_level_bot_and_plugin_enters_once(rogue_bots):
    two = entrants("hadronize", 2)
    assert two[:6] == [Entrant("easy", "random", "level", ("random",)),
                       Entrant("medium", "greedy", "level", ("greedy",)),
                       Entrant("hard", HARD_TWO, "level"),
                       Entrant("ev", "ev", "bot"), Entrant("exact", "exact", "bot"),
                       Entrant("rollout", "rollout", "bot")]
    assert [e.name for e in two[6:]] == ["cheater", "dawdler", "hanger", "lowest", "raiser",
                                         "steady"]
    three = entrants("hadronize", 3)
    assert three[1:3] == [Entrant("medium", "greedy", "level", ("greedy",)),
                          Entrant("hard", HARD_MORE, "level")]
    assert three[2].label == f"hard ({HARD_MORE})"
    assert two[2].label == f"hard ({HARD_TWO})"
    assert "catty" in [e.name for e in entrants("dead-cat", 2)]
    assert [e.spec for e in entrants("dead-cat", 2, ["easy", "sleuth", "hard"])] == [
        "random", "sleuth"]


def test_a_ladder_rates_each_player_count_and_writes_its_files(rogue_bots, tmp_path):
    ladder = run_ladder("hadronize", [3, 4], games=3, seed=5, results=tmp_path,
                        only=["easy", "medium", "cheater", "steady"], command="quarkade ...")
    folder = tmp_path / "hadronize"
    assert sorted(p.name for p in folder.iterdir()) == [
        "games-3p.jsonl", "games-4p.jsonl", "ladder.html", "ladder.json", "ladder.md"]
    assert [t.players for t in ladder.tables] == [3, 4]
    three, four = ladder.tables
    assert three.games == 4 * 3  # four entrants, three at a table: four matchups
    assert four.games == 3  # all four at one table
    lines = (folder / "games-3p.jsonl").read_text().splitlines()
    assert len(lines) == three.games
    for table in ladder.tables:
        assert [r.rank for r in table.rows] == [1, 2, 3, 4]
        assert [r.elo for r in table.rows] == sorted((r.elo for r in table.rows), reverse=True)
        assert all(r.low <= r.elo <= r.high for r in table.rows)
        stopped = {r.name: r.stopped for r in table.rows}
        assert stopped["cheater"] == table.games * 3 // 4 if table.players == 3 else table.games
        assert stopped["steady"] == stopped["easy"] == stopped["medium"] == 0
    data = read_ladder(tmp_path, "hadronize")
    assert data == json.loads((folder / "ladder.json").read_text())
    assert data["format"] == "quarkade-ladder/1" and data["command"] == "quarkade ..."
    markdown = (folder / "ladder.md").read_text()
    assert "## 3 players (12 games)" in markdown and "| 1 |" in markdown
    assert "<h2>4 players (3 games)</h2>" in (folder / "ladder.html").read_text()


def test_read_ladder_refuses_what_is_not_a_ladder(tmp_path):
    assert read_ladder(tmp_path, "hadronize") is None
    (tmp_path / "hadronize").mkdir()
    (tmp_path / "hadronize" / "ladder.json").write_text("{")
    with pytest.raises(QuarkadeError, match="is not JSON"):
        read_ladder(tmp_path, "hadronize")
    (tmp_path / "hadronize" / "ladder.json").write_text('{"format": "x"}')
    with pytest.raises(QuarkadeError, match="is not a quarkade-ladder/1 ladder of hadronize"):
        read_ladder(tmp_path, "hadronize")


def test_the_ladder_command_prints_the_tables_and_the_server_shows_them(rogue_bots, tmp_path):
    result = CliRunner().invoke(app, ["ladder", "dead-cat", "--players", "3", "--games", "2",
                                      "--seed", "1", "--workers", "1", "--agents",
                                      "medium,sleuth,cheater", "--results", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Dead Cat ladder" in result.stdout and "3 players (2 games)" in result.stdout
    assert "flagged: cheater was stopped in 2 games" in " ".join(result.stderr.split())
    assert "quarkade ladder dead-cat --players 3 --games 2 --seed 1 --results" in \
        json.loads((tmp_path / "dead-cat" / "ladder.json").read_text())["command"]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'q.db'}", ladder_dir=tmp_path)) as web:
        index = web.get("/ladder")
        assert index.status_code == 200 and 'href="/ladder/dead-cat"' in index.text
        assert "Hadronize <span class=\"muted\">(its bots have not been ranked yet)" in index.text
        assert 'href="/ladder"' in index.text  # the menu offers Ladder once there is one
        shown = web.get("/ladder/dead-cat")
        assert shown.status_code == 200 and "<h2>3 players (2 games)</h2>" in shown.text
        missing = web.get("/ladder/hadronize", headers={"accept": "application/json"})
        assert missing.status_code == 404
        assert missing.json()["error"] == ("The bots of Hadronize have not been ranked on "
                                           "this server yet.")
        assert web.get("/ladder/chess").status_code == 404
        (tmp_path / "dead-cat" / "ladder.json").write_text("[]")
        damaged = web.get("/ladder/dead-cat")
        assert damaged.status_code == 503 and "cannot be read" in damaged.text


@pytest.mark.parametrize(("args", "fragment"), [
    (["--players", "9"], "--players 9: hadronize is played by 2-6"),
    (["--games", "0"], "--games 0: play at least one game per matchup"),
    (["--agents", "easy,nobody"], "no agent 'nobody' for hadronize"),
    (["--agents", "easy,random"], "a ladder needs at least two different bots"),
    (["--option", "players=3"], "give player counts with --players"),
    (["--option", "goal=0"], "goal"),
])
def test_bad_ladder_requests_are_one_clear_line(tmp_path, args, fragment):
    result = CliRunner().invoke(app, ["ladder", "hadronize", "--players", "3", "--games", "1",
                                      "--workers", "1", "--results", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and fragment in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "hadronize").exists()  # refused before anything was written
