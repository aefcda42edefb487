"""The compiled engines play the same game as the reference engines, in distribution: win
rates, the first mover's edge and game lengths agree within chance over 200,000 games each
way (see ``tests/sim/distribution.py``; the reference side is stored data, checked live)."""

from __future__ import annotations

import pytest

from tests.sim import distribution
from tests.sim.distribution import CONFIGS, Config, compare, compiled_games, statistics

STORED = distribution.load()
IDS = [config.name for config in CONFIGS]


def live_games(config: Config) -> int:
    """How many of the stored first games to replay live (the reference greedy of Card
    Commons plays about ten a second)."""
    return 20 if config.game == "card-commons" and "greedy" in config.agents \
        else distribution.FINGERPRINT


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_stored_reference_figures_are_the_current_reference_engine_s(config):
    stored = STORED.get(config.name)
    assert stored is not None, f"no stored figures for {config.name}: make reference-stats"
    assert stored["games"] == config.games and stored["seed"] == distribution.SEED
    live = distribution.reference_games(config, 0, live_games(config))
    assert [list(game) for game in live] == stored["first_games"][:len(live)], (
        f"the reference engine no longer plays the stored games of {config.name}: "
        "regenerate them with make reference-stats (python -m tests.sim.distribution "
        "--write --stale)")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_compiled_engine_plays_the_reference_distribution(config):
    compiled = statistics(config, compiled_games(config))
    assert compiled["games"] == config.games
    assert compare(STORED[config.name], compiled) == []


def test_the_comparison_sees_a_small_bias_in_a_rate_or_in_the_lengths():
    config = CONFIGS[0]
    reference = STORED[config.name]
    assert compare(reference, reference) == []
    biased = {**reference, "agent_wins": dict(reference["agent_wins"]),
              "seat_wins": list(reference["seat_wins"])}
    biased["agent_wins"]["greedy"] -= 2000  # one point of 200,000 seat-games
    biased["agent_wins"]["random"] += 2000
    assert [problem.split(":")[0] for problem in compare(reference, biased)] == [
        "random wins", "greedy wins"]
    shorter = {**reference, "lengths": {str(int(length) - (int(length) % 7 == 0)): count
                                        for length, count in reference["lengths"].items()}}
    problems = compare(reference, shorter)
    assert len(problems) == 1 and problems[0].startswith("game lengths: chi-square")
