"""Testing a deck (``quarkade.sim.decktest``, ``quarkade deck-test``): the games "Test this
deck" on the web plays, on the compiled engine, counted per preset."""

from __future__ import annotations

import json

import pytest

from quarkade.games.decoherence.decks import PRESETS
from quarkade.server.decks.plays import plans as web_plans
from quarkade.sim.decktest import deck_plans, run_deck_test, score_plan
from quarkade.sim.play import play_chunk
from tests.sim.helpers import assert_clean_error, run, table_rows

DECK = "tapped 2, verved 2, boo'd 3, twigged 1, riffed 2 | up 3, down 3, through 2, out 2 | " \
       "kiki 3, bouba 4, lulu 3"


def test_a_deck_test_plays_the_web_s_games_on_the_compiled_engine():
    ours = deck_plans("decoherence", DECK, 9)
    assert [(p.preset, p.seat) for p in ours] == [(preset, seat) for preset in PRESETS
                                                 for seat in (0, 1)]
    for item in ours:
        assert (item.plan, item.seat) in web_plans("decoherence", DECK, item.preset, 9)
        assert item.plan.games == (5 if item.seat == 0 else 4)
    first = ours[0]
    lines = [json.loads(line) for line in play_chunk(first.plan, 0, 5, "auto").lines]
    assert {line["engine"] for line in lines} == {"compiled"}
    score = score_plan(first)
    assert score.games == 5 and score.engines == {"compiled"}
    assert score.wins == sum(first.seat in line["winners"] for line in lines)


def test_a_deck_test_counts_every_preset_and_the_total():
    scores = run_deck_test("decoherence", DECK, 30, workers=2)
    assert list(scores) == [*PRESETS, "all"]
    assert all(scores[p].games == 30 for p in PRESETS) and scores["all"].games == 120
    assert scores["all"].wins == sum(scores[p].wins for p in PRESETS)
    low, high = scores["all"].interval
    assert low < scores["all"].rate < high
    # The same games however many workers play them.
    again = run_deck_test("decoherence", DECK, 30, workers=1)
    assert [(s.wins, s.draws) for s in again.values()] == \
        [(s.wins, s.draws) for s in scores.values()]


def test_a_deck_tested_against_itself_wins_about_half():
    scores = run_deck_test("decoherence", "surge", 400, workers=2)
    low, high = scores["surge"].interval
    assert low < 0.5 < high


def test_quarkade_deck_test_prints_a_row_a_preset():
    shown = run("deck-test", DECK, "--games", 20, "--workers", 1)
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.stdout, "Testing")
    assert [r[0] for r in rows] == [*PRESETS, "every preset"]
    assert [r[1] for r in rows] == ["20"] * 4 + ["80"]
    assert "80 games in" in shown.stderr and "compiled engine" in shown.stderr


@pytest.mark.parametrize(("args", "fragments"), [
    (["deck-test", "kiki 9"], ["9 copies of kiki", "at most 4"]),
    (["deck-test", "surge", "--game", "hadronize"], ["hadronize has no decks"]),
    (["deck-test", "surge", "--games", 0], ["at least one"]),
    (["deck-test", "surge", "--workers", 0], ["--workers 0"]),
    (["deck-test", "surge", "--agent", "greedy:x=1"], ["greedy"]),
])
def test_bad_input_gets_one_clear_line(args, fragments):
    assert_clean_error(run(*args), *fragments)
