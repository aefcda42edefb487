"""``quarkade sweep``: a grid of settings, a table with intervals, and a report whose heat
maps load in a real Chromium."""

from __future__ import annotations

import pytest

from quarkade.core.registry import load_game
from quarkade.sim.plan import simulation_plan
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import summary_of
from quarkade.sim.sweep import build_axes, parse_values
from tests.sim.helpers import assert_clean_error, run, table_rows

HEAT_MAPS = ["first-seat edge", "mean length (decisions)", "draws", "win rate of greedy"]


def test_a_sweep_report_opens_in_chromium_with_every_heat_map(tmp_path, browser):
    report = tmp_path / "sweep.html"
    shown = run("sweep", "hadronize", "--agents", "greedy,random", "--players", "2..3",
                "--option", "goal=3..5", "--option", "max_turns=0,12", "--games", 600,
                "--seed", 2, "--workers", 1, "--report", report)
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.stdout, "Sweep: hadronize")
    assert [row[:3] for row in rows] == [[p, g, t] for p in ("2", "3") for g in ("3", "4", "5")
                                         for t in ("0", "12")]
    assert all(row[3] == "600" and "pp [" in row[4] for row in rows)
    assert "12/12 players=3, goal=5, max_turns=12" in shown.stderr
    page = browser.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.as_uri())
    assert page.title() == "Quarkade sweep: hadronize"
    headings = page.locator("h2").all_inner_texts()
    assert headings == ["Run", "Every setting", *(f"Heat map: {m}" for m in HEAT_MAPS)]
    assert page.locator("table").nth(1).locator("tbody tr").count() == 12
    # players across, goal down, one heat map per value of the third axis (max_turns)
    images = page.locator("figure img")
    assert images.count() == len(HEAT_MAPS) * 2
    for index in range(images.count()):
        image = images.nth(index)
        assert image.evaluate("img => img.complete && img.naturalWidth > 200")
        assert image.bounding_box()["height"] > 100
    captions = page.locator("figcaption").all_inner_texts()
    assert captions[0].startswith("first-seat edge (pp) by players and goal, max_turns=0")
    assert captions[1].endswith("max_turns=12; each cell shows the value and the half-width "
                                "of its 95% interval.")
    assert requests == [report.as_uri()]  # self-contained
    page.screenshot(path=str(tmp_path / "sweep.png"), full_page=True)


def test_a_cell_is_the_run_simulate_plays_at_that_setting():
    shown = run("sweep", "dead-cat", "--agents", "random,greedy", "--option",
                "peek_first=false,true", "--players", "3", "--games", 3000, "--seed", 7,
                "--workers", 2)
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.stdout, "Sweep: dead-cat")
    assert [row[:2] for row in rows] == [["3", "False"], ["3", "True"]]  # players first
    game = load_game("dead-cat", players=3, peek_first=True)
    plan = simulation_plan("dead-cat", dict(game.options), ["random", "greedy"], 3000, 7)
    summary = summary_of(run_plan(plan, workers=1, engine="auto", keep_results=False).tally)
    assert rows[1][-1].startswith(f"{100 * summary.agents['random'].value:.1f}%")


def test_values_are_ranges_steps_or_lists():
    assert parse_values("goal", "6..9") == ["6", "7", "8", "9"]
    assert parse_values("goal", "6..12..3") == ["6", "9", "12"]
    assert parse_values("peek_first", "false, true") == ["false", "true"]
    axes = build_axes("dead-cat", "2,5", ["peek_first=false,true"])
    assert [(a.name, a.values) for a in axes] == [("players", (2, 5)),
                                                 ("peek_first", (False, True))]


@pytest.mark.parametrize(("args", "fragments"), [
    (["--option", "goal=9..3"], ["first..last"]),
    (["--option", "goal=a..b"], ["whole numbers"]),
    (["--option", "goal=6..8..0"], ["step of at least 1"]),
    (["--option", "colour=red,blue"], ["no option 'colour'"]),
    (["--option", "goal"], ["NAME=VALUES"]),
    (["--option", "goal=6,,7"], ["separated by commas"]),
    (["--option", "goal=0..3"], ["option goal", "from 1 to 200"]),
    (["--players", "2..9"], ["from 2 to 6"]),
    (["--players", "2", "--option", "goal=6,6"], ["twice"]),
    (["--players", "2", "--option", "goal=6", "--option", "goal=7"], ["swept twice"]),
    ([], ["nothing to sweep"]),
    (["--players", "2", "--games", "0"], ["at least one game"]),
    (["--players", "2", "--engine", "compiled", "--agents", "mcts"], ["no compiled form"]),
])
def test_bad_sweeps_get_one_clear_line(args, fragments):
    if "--agents" not in args:
        args = [*args, "--agents", "greedy"]
    assert_clean_error(run("sweep", "hadronize", *args), *fragments)
