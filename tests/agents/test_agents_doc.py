"""The bot in docs/AGENTS.md ("Your own bot") works as written: installed as a plug-in, it
plays every game by name, takes its parameter, and is never stopped."""

import re
from pathlib import Path

import pytest

from quarkade import list_games, load_game
from quarkade.agents import plugins
from quarkade.sim import run_plan, simulation_plan
from tests.rogues import declare

AGENTS = Path(__file__).parents[2] / "docs" / "AGENTS.md"


@pytest.fixture
def doc_bot(tmp_path, monkeypatch):
    section = AGENTS.read_text(encoding="utf-8").split("## Your own bot", 1)[1]
    code = re.search(r"^```python\n(.*?)^```", section, re.S | re.M).group(1)
    (tmp_path / "doc_bot.py").write_text(code, encoding="utf-8")
    declare(tmp_path, {"doc-bot": "doc_bot:Bot"}, package="doc-bot")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.refresh()
    yield
    plugins.refresh()


@pytest.mark.parametrize("game", list_games())
def test_the_documented_bot_plays_every_game_and_is_never_stopped(doc_bot, game):
    options = dict(load_game(game).options)
    plan = simulation_plan(game, options, ["doc-bot:playouts=2", "random"], games=2, seed=3)
    results = run_plan(plan).results
    assert len(results) == 2 and not any("faults" in r for r in results)
