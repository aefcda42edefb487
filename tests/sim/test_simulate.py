"""``quarkade simulate``, ``tournament`` and ``analyze`` driven from the command line."""

import pytest

from quarkade.agents import make_agent, registry
from quarkade.core.agent import Agent
from quarkade.core.registry import load_game
from quarkade.sim import play_match
from quarkade.sim.hooks import game_analysis
from tests.sim.helpers import (
    EXTRA_TABLES,
    assert_clean_error,
    lines,
    run,
    simulate,
    table_rows,
)

# The reference engine: its result lines hold the game's extras, and play_match replays them.
RANDOM_GREEDY = ("hadronize", "--agents", "random,greedy", "--engine", "reference", "--seed",
                 "1")


def test_one_and_two_workers_write_identical_files(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    shown = simulate(*RANDOM_GREEDY, "--games", 150, "--workers", 1, "--out", one)
    simulate(*RANDOM_GREEDY, "--games", 150, "--workers", 2, "--out", two)
    assert one.read_bytes() == two.read_bytes()
    results = lines(one)
    assert [r["index"] for r in results] == list(range(150))
    assert [r["seats"] for r in results[:2]] == [["random", "greedy"], ["greedy", "random"]]
    # The summary gives win rates with their intervals, the first mover and the lengths.
    for fragment in ("Win rate by agent", "win rate [95% CI]", "first mover",
                     "first-seat advantage", "Game length", "Ratings", "By players"):
        assert fragment in shown.stdout
    assert "% [" in shown.stdout


def test_a_result_line_is_the_game_play_match_plays_from_its_seed(tmp_path):
    out = tmp_path / "r.jsonl"
    simulate("hadronize", "--agents", "greedy,random", "--players", 3, "--games", 5,
             "--seed", 4, "--workers", 1, "--out", out, "--engine", "reference")
    game = load_game("hadronize", players=3)
    for result in lines(out):
        assert result["game"] == "hadronize" and result["run_seed"] == 4
        assert result["options"] == dict(game.options)
        agents = [make_agent(spec, "hadronize") for spec in result["seats"]]
        final, record = play_match(game, agents, result["seed"])
        assert result["winners"] == final.winners()
        assert result["returns"] == final.returns()
        assert result["actions"] == len(record.actions)
        decisions = [a for a in record.actions if a.player >= 0]
        assert result["length"] == len(decisions)
        assert result["first"] == decisions[0].player
        assert result["events"]["turns"] == result["length"]
        assert result["tags"]["game"] == {"players": 3}


def test_resume_continues_a_cut_file_to_the_same_bytes(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    simulate(*RANDOM_GREEDY, "--games", 60, "--workers", 1, "--out", whole)
    text = whole.read_text()
    kept = text.splitlines(keepends=True)
    cut.write_text("".join(kept[:25]) + kept[25][:40])  # a line cut off mid-write
    shown = simulate("hadronize", "--agents", "random,greedy", "--games", 60, "--workers", 2,
                     "--out", cut, "--resume")  # no --seed nor --engine: from the file
    assert "after the 25 already in" in shown.stderr
    assert cut.read_bytes() == whole.read_bytes()
    again = simulate("hadronize", "--agents", "random,greedy", "--games", 60, "--out", cut,
                     "--resume")
    assert "0 games in" in again.stderr and cut.read_bytes() == whole.read_bytes()


def test_resume_refuses_a_file_from_another_run(tmp_path):
    out = tmp_path / "r.jsonl"
    simulate(*RANDOM_GREEDY, "--games", 4, "--workers", 1, "--out", out)
    before = out.read_bytes()
    assert_clean_error(run("simulate", "hadronize", "--agents", "greedy,random", "--games", 8,
                           "--out", out, "--resume"), "line 1: seats is", "--resume needs")
    assert_clean_error(run("simulate", *RANDOM_GREEDY[:-1], "2", "--games", 8, "--out", out,
                           "--resume"), "run_seed is 1")
    assert_clean_error(run("simulate", *RANDOM_GREEDY, "--games", 8, "--out", out, "--resume",
                           "--engine", "compiled"), "played by the reference engine",
                       "--engine reference")
    assert_clean_error(run("simulate", *RANDOM_GREEDY, "--games", 3, "--out", out, "--resume"),
                       "already holds 4 games")
    assert_clean_error(run("simulate", *RANDOM_GREEDY, "--games", 8, "--out", out),
                       "already exists", "--resume")
    assert out.read_bytes() == before


@pytest.mark.parametrize(("args", "fragments"), [
    (["simulate", "chess", "--agents", "random"], ["no game named 'chess'"]),
    (["simulate", "hadronize", "--agents", "random,wizard"], ["no agent 'wizard'", "greedy"]),
    (["simulate", "hadronize", "--agents", "random,,greedy"], ["empty entry"]),
    (["simulate", "hadronize", "--agents", "depth=2,greedy"], ["starts with a parameter"]),
    (["simulate", "hadronize", "--agents", "greedy,greedy"], ["'greedy' twice"]),
    (["simulate", "hadronize", "--agents", "greedy:depth=2"], ["no parameter 'depth'"]),
    (["simulate", "hadronize", "--agents", "random", "--option", "colour=red"],
     ["no option 'colour'"]),
    (["simulate", "hadronize", "--agents", "random", "--option", "goal"], ["name=value"]),
    (["simulate", "hadronize", "--agents", "random", "--option", "goal=0"],
     ["option goal", "from 1 to 200"]),
    (["simulate", "hadronize", "--agents", "random", "--players", "9"], ["from 2 to 6"]),
    (["simulate", "hadronize", "--agents", "random", "--games", "0"], ["at least one game"]),
    (["simulate", "hadronize", "--agents", "random", "--workers", "0"], ["at least one worker"]),
    (["simulate", "hadronize", "--agents", "random", "--backend", "cloud"], ["local, ray"]),
    (["simulate", "hadronize", "--agents", "random", "--address", "1.2.3.4:6379"],
     ["--backend ray"]),
    (["simulate", "hadronize", "--agents", "random", "--resume"], ["--out"]),
    (["tournament", "hadronize", "--agents", "greedy"], ["at least two agents"]),
    (["analyze", "/no/such/results.jsonl"], ["cannot read"]),
    (["simulate", "hadronize", "--agents", "random", "--engine", "jet"],
     ["--engine 'jet'", "auto, compiled, reference"]),
    (["simulate", "hadronize", "--agents", "random,mcts", "--engine", "compiled"],
     ["mcts has no compiled form", "compiled agents: random, greedy"]),
    (["simulate", "decoherence", "--agents", "random,lookahead", "--engine", "compiled"],
     ["lookahead has no compiled form", "compiled agents: random, greedy"]),
])
def test_bad_input_gets_one_clear_line(args, fragments):
    assert_clean_error(run(*args), *fragments)


def test_analyze_refuses_a_file_that_is_not_results(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 0}\n')
    assert_clean_error(run("analyze", bad), "line 1", "not a quarkade result line")


class FirstActionAgent(Agent):
    """Always the lowest legal action: a third, weak, deterministic agent."""

    spec = "first"

    def act(self, turn, rng):
        return turn.legal_actions[0]


def test_tournament_plays_a_round_robin_and_rates_it(tmp_path, monkeypatch):
    monkeypatch.setitem(registry.GENERIC, "first", FirstActionAgent)
    out = tmp_path / "t.jsonl"
    shown = run("tournament", "hadronize", "--agents", "random,greedy,first", "--games", 20,
                "--seed", 2, "--workers", 1, "--out", out)
    assert shown.exit_code == 0, shown.output
    results = lines(out)
    assert len(results) == 60
    assert [r["agents"] for r in results[::20]] == [
        ["random", "greedy"], ["random", "first"], ["greedy", "first"]]
    assert "Ratings (Bradley-Terry, Elo scale" in shown.stdout
    ladder = table_rows(shown.stdout, "Ratings (Bradley-Terry")
    assert [row[0] for row in ladder] == ["1", "2", "3"]
    assert ladder[0][1] == "greedy" and ladder[0][2] == "40"  # 20 games against each other


def test_analyze_merges_runs_of_several_player_counts(tmp_path):
    files = []
    for players in (2, 4):
        out = tmp_path / f"p{players}.jsonl"
        simulate("hadronize", "--agents", "greedy", "--players", players, "--games", 12,
                 "--seed", 1, "--workers", 1, "--out", out, "--engine", "reference")
        files.append(out)
    shown = run("analyze", *files)
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.stdout, "By players")
    assert [row[:2] for row in rows] == [["2", "12"], ["4", "12"]]


@pytest.mark.parametrize("game", sorted(EXTRA_TABLES))
def test_the_summary_shows_the_games_extras_with_their_notes(game):
    extra = {"decoherence": ["--option", "deck0=random"]}.get(game, [])
    shown = simulate(game, "--agents", "random", "--games", 30, "--seed", 3, "--workers", 1,
                     "--engine", "reference", *extra)
    text = " ".join(shown.stdout.split())  # notes wrap across lines
    titles = EXTRA_TABLES[game] + (["Win rate by random deck holds"] if extra else [])
    for title in titles:
        assert table_rows(shown.stdout, title)
    for note in game_analysis(game).notes.values():  # every note, under its table
        assert " ".join(note.split()) in text


def test_dead_cat_lines_hold_each_seats_tallies(tmp_path):
    out = tmp_path / "d.jsonl"
    simulate("dead-cat", "--agents", "random,greedy", "--players", 3, "--games", 6,
             "--seed", 2, "--workers", 1, "--out", out, "--engine", "reference")
    name = "announcer's round win rate by time-deck size when announcing (3 players)"
    for result in lines(out):
        assert len(result["tallies"]) == 3
        trials = sum(t for seat in result["tallies"] for _, _, t in seat.get(name, []))
        assert trials == result["events"]["rounds"]
        assert result["tags"]["game"] == {"players": 3}
