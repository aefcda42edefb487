"""``quarkade simulate`` on a compiled engine: chosen by itself, the same files whatever the
workers, lines that the compiled engine replays from their seeds, and a tally that stays
small however many games are played."""

import json

import numpy as np
import pytest

from quarkade.core import jit
from quarkade.core.registry import compiled_engine, load_game
from quarkade.sim.engines import choose_engine, compiled_policy
from quarkade.sim.plan import simulation_plan, tournament_plan
from quarkade.sim.runner import run_plan
from tests.sim.helpers import lines, run, simulate, table_rows

GAMES = ["hadronize", "dead-cat", "card-commons", "decoherence"]


@pytest.mark.parametrize("game", GAMES)
def test_auto_picks_the_compiled_engine_and_says_so(game, tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    shown = simulate(game, "--agents", "random,greedy", "--games", 300, "--seed", 4,
                     "--workers", 1, "--out", one)
    assert "compiled engine" in shown.stderr
    assert "the game's own tables" in " ".join(shown.stdout.split())
    simulate(game, "--agents", "random,greedy", "--games", 300, "--seed", 4, "--workers", 2,
             "--out", two)
    assert one.read_bytes() == two.read_bytes()
    results = lines(one)
    assert [r["index"] for r in results] == list(range(300))
    assert {r["engine"] for r in results} == {"compiled"}
    assert [r["seats"] for r in results[:2]] == [["random", "greedy"], ["greedy", "random"]]
    # The summary of the run is the summary of its file.
    again = run("analyze", one)
    for title in ("Win rate by agent (per seat-game)", "Win rate by seat", "Balance",
                  "Game length (decisions per game)"):
        assert table_rows(again.stdout, title) == table_rows(shown.stdout, title)


@pytest.mark.parametrize("game", GAMES)
def test_a_compiled_line_is_the_game_the_compiled_engine_plays_from_its_seed(game, tmp_path):
    out = tmp_path / "r.jsonl"
    players = 3 if game == "hadronize" else 2
    simulate(game, "--agents", "greedy,random", "--players", players, "--games", 40,
             "--seed", 9, "--workers", 1, "--out", out)
    module = compiled_engine(game)
    loaded = load_game(game, players=players)
    for result in lines(out):
        assert result["seed"] == jit.game_seed(9, result["index"])
        state = module.new_state(loaded)
        streams = np.zeros(players + 1, np.uint64)
        jit.seed_streams(streams, result["seed"])
        policies = np.array([module.AGENTS[spec] for spec in result["seats"]])
        winners, decisions, actions, first = module.play_one(state, streams, policies)
        assert result["winners"] == [s for s in range(players) if winners >> s & 1]
        assert (result["length"], result["actions"], result["first"]) == (decisions, actions,
                                                                          first)
        assert sum(result["returns"]) == pytest.approx(0.0)


def test_auto_falls_back_to_the_reference_engine_for_agents_without_a_compiled_form():
    shown = simulate("hadronize", "--agents", "random,mcts:iterations=5", "--games", 4,
                     "--seed", 1, "--workers", 1)
    assert "reference engine" in shown.stderr
    assert table_rows(shown.stdout, "By players")  # the game's own tables are there


def test_levels_that_name_compiled_agents_have_their_compiled_form():
    assert compiled_policy("hadronize", "easy") == compiled_policy("hadronize", "random")
    assert compiled_policy("dead-cat", "medium") == compiled_policy("dead-cat", "greedy")
    assert compiled_policy("dead-cat", "hard") is None  # the sleuth
    assert compiled_policy("hadronize", "greedy:x=1") is None
    plan = simulation_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
                           ["easy", "medium"], 10, 1)
    assert choose_engine(plan, "auto") == "compiled"


def test_a_compiled_tournament_rates_every_pair():
    plan = tournament_plan("dead-cat", dict(load_game("dead-cat", players=3).options),
                           ["random", "greedy", "easy"], 200, 3)
    outcome = run_plan(plan, workers=2, engine="auto", keep_results=False)
    assert outcome.engine == "compiled" and outcome.tally.games == 200
    assert {matchup for matchup, *_ in outcome.tally.outcomes} == {plan.matchups[0]}


def test_the_tally_stays_small_however_many_games():
    plan = simulation_plan("hadronize", dict(load_game("hadronize", players=4).options),
                           ["random", "greedy"], 200_000, 2)
    outcome = run_plan(plan, workers=1, engine="compiled", keep_results=False)
    assert outcome.tally.games == 200_000 and outcome.results == []
    assert len(outcome.tally.outcomes) <= 2 * 2 * 4 * 15  # rotations, first movers, winners
    assert len(json.dumps(list(outcome.tally.lengths.items()))) < 4000


def test_quarkade_compile_readies_every_compiled_engine():
    shown = run("compile")
    assert shown.exit_code == 0, shown.output
    for game in GAMES:
        assert f"{game}: ready in" in shown.stdout
