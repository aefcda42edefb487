"""The compiled engines play the same game as the reference engines, in distribution: win
rates, the first mover's edge and game lengths agree within chance over 200,000 games each
way (see ``tests/sim/distribution.py``; the reference side is stored data, checked live)."""

from __future__ import annotations

import pytest

from tests.sim import distribution
from tests.sim.distribution import CONFIGS, compare, compiled_games, statistics

STORED = distribution.load()
IDS = [config.name for config in CONFIGS]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_stored_reference_figures_are_the_current_reference_engine_s(config):
    stored = STORED.get(config.name)
    assert stored is not None, f"no stored figures for {config.name}: make reference-stats"
    assert stored["games"] == config.games and stored["seed"] == distribution.SEED
    assert stored["fingerprint"]["games"] == config.fingerprint
    live = distribution.reference_games(config, 0, config.fingerprint)
    assert distribution.digest(live) == stored["fingerprint"]["sha256"], (
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
    lengths: dict[str, int] = {}
    for length, count in reference["lengths"].items():  # games of a length 7k: one shorter
        shorter_length = str(int(length) - (int(length) % 7 == 0))
        lengths[shorter_length] = lengths.get(shorter_length, 0) + count
    assert sum(lengths.values()) == reference["games"]
    shorter = {**reference, "lengths": lengths}
    problems = compare(reference, shorter)
    assert len(problems) == 1 and problems[0].startswith("game lengths: chi-square")
