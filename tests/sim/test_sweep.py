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


# -- sweeping a deck's composition ---------------------------------------------------------

def test_a_deck_sweep_tests_each_composition_against_the_presets(tmp_path, browser):
    from quarkade.games.decoherence.decks import PRESETS
    from quarkade.sim.decktest import run_deck_test
    from quarkade.sim.sweep import deck_for

    report = tmp_path / "decks.html"
    shown = run("sweep", "decoherence", "--agents", "greedy", "--deck", "kiki=2..4",
                "--deck", "lulu=3..4", "--games", 40, "--workers", 1, "--report", report)
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.stdout, "Deck sweep: decoherence")
    # kiki 2 with lulu 3 leaves five boubas: no legal deck, said once
    assert [row[:3] for row in rows] == [["2", "4", "160"], ["3", "3", "160"],
                                         ["3", "4", "160"], ["4", "3", "160"],
                                         ["4", "4", "160"]]
    assert "no legal deck at 1 setting(s): kiki 2, lulu 3" in " ".join(shown.stderr.split())
    deck = deck_for("decoherence", "balanced", {"kiki": 3, "lulu": 4})
    assert deck.endswith("kiki 3, bouba 3, lulu 4")
    scores = run_deck_test("decoherence", deck, 40, workers=1)
    assert rows[2][3].startswith(f"{100 * scores['all'].rate:.1f}%")  # the deck's own test
    page = browser.new_page()
    page.goto(report.as_uri())
    headings = page.locator("h2").all_inner_texts()
    assert headings == ["Run", "Every setting", "Heat map: win rate against the presets",
                        *(f"Heat map: win rate against {preset}" for preset in PRESETS)]
    images = page.locator("figure img")
    assert images.count() == 1 + len(PRESETS)
    assert images.first.evaluate("img => img.complete && img.naturalWidth > 200")


def test_a_deck_is_made_up_to_ten_of_each_kind():
    from quarkade.sim.sweep import deck_for

    assert deck_for("decoherence", "balanced", {"boo'd": 4, "verved": 0}) == (
        "tapped 2, boo'd 4, twigged 2, riffed 2 | up 3, down 3, through 2, out 2 | "
        "kiki 3, bouba 4, lulu 3")
    assert deck_for("decoherence", "balanced", {"boo'd": 0, "verved": 0}) == (
        "tapped 4, twigged 3, riffed 3 | up 3, down 3, through 2, out 2 | "
        "kiki 3, bouba 4, lulu 3")
    assert deck_for("decoherence", "surge", {"kiki": 0, "lulu": 0}) is None


@pytest.mark.parametrize(("args", "fragments"), [
    (["--deck", "kiki=0..5"], ["0 to 4 copies"]),
    (["--deck", "kaka=1..2"], ["'kaka' is not a Decoherence word"]),
    (["--deck", "kiki"], ["WORD=COUNTS"]),
    (["--deck", "kiki=1..2", "--deck", "kiki=3"], ["kiki is swept twice"]),
    (["--deck", "kiki=1..2", "--base", "kiki 9"], ["9 copies of kiki"]),
    (["--deck", "kiki=1..2", "--players", "2"], ["leave out --players"]),
    (["--deck", "kiki=1..2", "--seed", "3"], ["no --seed"]),
    (["--base", "surge"], ["give --deck too"]),
])
def test_bad_deck_sweeps_get_one_clear_line(args, fragments):
    assert_clean_error(run("sweep", "decoherence", "--agents", "greedy", *args), *fragments)


def test_a_game_without_decks_has_no_deck_sweep():
    assert_clean_error(run("sweep", "hadronize", "--agents", "greedy", "--deck", "kiki=1..2"),
                       "hadronize has no decks")
