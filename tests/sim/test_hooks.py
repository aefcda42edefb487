"""The analysis hook: found when a game has one, optional, and read by the replay walk."""

import dataclasses
import random

import pytest

from quarkade import load_game
from quarkade.core.registry import game_parts
from quarkade.core.rng import random_playout
from quarkade.sim import hooks, play
from quarkade.sim.hooks import GameAnalysis
from quarkade.sim.plan import simulation_plan
from quarkade.sim.play import walk_game
from quarkade.sim.stats import summarize


@pytest.fixture
def finished():
    game = load_game("hadronize", players=2)
    return random_playout(game.new_initial_state(), random.Random(3))


def test_a_game_without_an_analysis_module_has_an_empty_hook(monkeypatch):
    hooks.game_analysis.cache_clear()
    parts = dataclasses.replace(game_parts("hadronize"), analysis=None)
    monkeypatch.setattr(hooks, "game_parts", lambda game: parts)
    try:
        assert hooks.game_analysis("hadronize") == GameAnalysis()
    finally:
        hooks.game_analysis.cache_clear()


def test_results_without_a_hook_have_no_extras_and_still_summarize(monkeypatch):
    monkeypatch.setattr(play, "game_analysis", lambda game: GameAnalysis())
    plan = simulation_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
                           ["random", "greedy"], 6, 1)
    results = [play.play_one(plan, i) for i in range(6)]
    assert not {"events", "tags", "tallies", "lead_changes", "decided_at"} & results[0].keys()
    summary = summarize(results)
    assert summary.lead_changes is None and summary.breakdowns == []


def scripted(scores_by_step):
    """A running score read from a table: the scores after ``step`` actions."""
    def running_score(state):
        step = len(state.history())
        return max((s, scores) for s, scores in scores_by_step.items() if s <= step)[1]
    return running_score


def test_lead_changes_count_new_sole_leaders(finished):
    n = len(finished.history())
    winner = finished.winners()[0]
    other = 1 - winner
    lead = {0: [1.0, 0.0], 1: [0.0, 1.0]}  # seat -> scores with that seat ahead
    table = {0: [0.0, 0.0], 2: lead[other], 4: [1.0, 1.0], 6: lead[other],  # tie: no change
             8: lead[winner], 10: lead[other], 12: lead[winner]}  # three changes
    walk = walk_game(finished, scripted(table))
    assert walk.lead_changes == 3
    assert walk.decided_at == round(11 / n, 4)  # the winner led from the 12th action on
    # A winner who never led alone: not decided.
    assert walk_game(finished, scripted({0: [1.0, 1.0]})).decided_at is None
