"""A Dead Cat game that ends 4-4 is a shared win, and every face says so.

Seed 004 (End of the Game): players who reach four cubes together win together. With two
players that is every seat, so the returns are all 0 (nothing is won from anyone), yet it
is not a draw: ``State.outcome()`` is the one answer, read by the terminal, the records,
the simulator and the web app (the page's words are checked in the browser tests).
"""

import io
import json

from rich.console import Console
from typer.testing import CliRunner

from quarkade.cli import faces
from quarkade.cli.main import app
from quarkade.core.records import GameRecord, Seat
from quarkade.sim.plan import Plan
from quarkade.sim.play import play_one
from tests.games.dead_cat.playing import random_game

# Found by search: a two-player game (announcing 5% of the time) that ends 4-4.
SEED = 307


def four_all():
    final = random_game(seed=SEED, players=2, announce=0.05)
    assert final.cubes() == [4, 4]
    return final


def test_a_four_four_ending_is_a_shared_win_not_a_draw():
    final = four_all()
    outcome = final.outcome()
    assert (outcome.result, outcome.winners) == ("shared win", (0, 1))
    assert final.winners() == [0, 1] == final.game_winners()
    assert final.returns() == [0.0, 0.0]
    assert outcome.text(["Ann", "Bob"]) == "Ann and Bob share the win"


def test_the_terminal_and_the_record_say_the_same():
    final = four_all()
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(
        faces.render("dead-cat", final.view(0), ["Ann", "Bob"], you=0))
    assert "Game over: Ann and Bob share the win, each with four cubes." in out.getvalue()
    record = GameRecord.from_state(final, [Seat("Ann", "random"), Seat("Bob", "random")])
    assert record.outcome == {"result": "shared win", "winners": [0, 1],
                              "ending": "four cubes"}
    again = GameRecord.from_json(record.to_json())
    assert again.outcome == record.outcome and again.replay().outcome() == final.outcome()


def test_the_simulator_counts_it_as_a_shared_win(tmp_path):
    runner = CliRunner()
    found = None
    for seed in range(400):  # a run whose games include a 4-4 ending
        plan = Plan("dead-cat", {"players": 2}, [["random", "random"]], 1, seed)
        line = play_one(plan, 0)
        if line["winners"] == [0, 1]:
            found = seed
            break
    assert found is not None, "no 4-4 game in 400 random runs"
    assert line["result"] == "shared win" and line["returns"] == [0.0, 0.0]
    out = tmp_path / "one.jsonl"
    result = runner.invoke(app, ["simulate", "dead-cat", "--agents", "random", "--games", "1",
                                 "--seed", str(found), "--out", str(out),
                                 "--engine", "reference"])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text().splitlines()[0])
    assert written["result"] == "shared win" and written["winners"] == [0, 1]


def test_the_compiled_engine_writes_it_as_a_shared_win(tmp_path):
    out = tmp_path / "many.jsonl"
    result = CliRunner().invoke(app, ["simulate", "dead-cat", "--agents", "random", "--games",
                                      "1000", "--seed", "1", "--out", str(out), "--workers",
                                      "1", "--engine", "compiled"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    shared = [line for line in lines if line["winners"] == [0, 1]]
    assert shared, "no 4-4 game in 1,000 compiled games (about 1 in 4,000 is; game 414 here)"
    assert all(line["engine"] == "compiled" and line["result"] == "shared win"
               and line["returns"] == [0.0, 0.0] for line in shared)
    assert all(line["result"] == "win" for line in lines if len(line["winners"]) == 1)
