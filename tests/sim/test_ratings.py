"""Bradley-Terry fits against exact answers, and how games become pairwise comparisons."""

import math

import pytest

from quarkade.sim.ratings import comparisons, elo_scale, fit_bradley_terry, rate


def test_counts_at_their_expectation_give_back_the_true_strengths():
    # Strengths 1, 2, 4 and counts equal to what they predict: 15 games per pair, i beats j
    # in 15 * p_i / (p_i + p_j) of them. Those counts solve the likelihood equations, so
    # the maximum-likelihood fit is exactly (1, 2, 4) up to scale.
    pairs = {(0, 1): (5.0, 15.0), (0, 2): (3.0, 15.0), (1, 2): (5.0, 15.0)}
    strengths = fit_bradley_terry(3, pairs)
    assert [s / strengths[0] for s in strengths] == pytest.approx([1, 2, 4], rel=1e-8)
    assert math.prod(strengths) == pytest.approx(1)


def test_two_agents_fit_their_odds():
    # 30 wins of 40: odds 3, so the strengths are sqrt(3) and 1/sqrt(3)...
    strong, weak = fit_bradley_terry(2, {(0, 1): (30.0, 40.0)})
    assert strong / weak == pytest.approx(3)
    # ... which is 400 log10(3) = 190.8 Elo points apart, around 1500.
    high, low = elo_scale([strong, weak])
    assert high - low == pytest.approx(400 * math.log10(3))
    assert (high + low) / 2 == pytest.approx(1500)


def test_a_prior_keeps_a_clean_sweep_finite():
    with pytest.raises(ValueError, match="never scored"):
        fit_bradley_terry(2, {(0, 1): (10.0, 10.0)})
    strong, weak = fit_bradley_terry(2, {(0, 1): (10.0, 10.0)}, prior=1.0)
    assert strong / weak == pytest.approx(10.5 / 0.5)


INDEX = {"a": 0, "b": 1, "c": 2}


@pytest.mark.parametrize(("seats", "winners", "expected"), [
    (["a", "b"], [0], ((0, 1, 1.0),)),
    (["b", "a"], [0], ((0, 1, 0.0),)),
    (["a", "b"], [], ((0, 1, 0.5),)),
    (["a", "a"], [0], ()),  # an agent is not compared with itself
    # a multi-player win beats every other seat; two losers are not compared
    (["a", "b", "c"], [1], ((0, 1, 0.0), (1, 2, 1.0))),
    (["a", "b", "c"], [0, 1], ((0, 1, 0.5), (0, 2, 1.0), (1, 2, 1.0))),
])
def test_games_become_pairwise_comparisons(seats, winners, expected):
    got = comparisons({"seats": seats, "winners": winners}, INDEX)
    assert sorted(got) == sorted(expected)


def results_of(wins_a, games, matchup=("a", "b")):
    return [{"seats": list(matchup), "agents": list(matchup), "winners": [0 if i < wins_a else 1]}
            for i in range(games)]


def test_ratings_come_with_bootstrap_intervals_around_the_fit():
    results = results_of(30, 40)
    first, second = rate(results, ["a", "b"], prior=0.0, rounds=100, seed=3)
    assert first.agent == "a" and first.comparisons == 40 and first.score == 0.75
    assert first.elo - second.elo == pytest.approx(400 * math.log10(3))
    assert first.low < first.elo < first.high and second.low < second.elo < second.high
    # Normal approximation: the log-odds has standard error 1 / sqrt(n p q) = 0.365, so the
    # difference (400 / ln 10 times the log-odds) has 63.4 Elo points and a 95% interval
    # 248 points wide; each rating is 1500 +- half the difference: about 124 points wide.
    width = 2 * 1.96 * 400 / math.log(10) / math.sqrt(40 * 0.75 * 0.25) / 2
    assert first.high - first.low == pytest.approx(width, rel=0.25)
    assert rate(results, ["a", "b"], prior=0.0, rounds=100, seed=3) == [first, second]
