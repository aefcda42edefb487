"""Ratings: a Bradley-Terry fit of pairwise results, on the Elo scale, with bootstrap intervals.

Every game gives pairwise comparisons between seats held by different agents: in a drawn
game every such pair ties; otherwise each winner beats each other seat and winners tie
one another (two losers of a multi-player game are not compared). A tie counts half a
win to each side.

Bradley-Terry gives each agent a strength ``p`` with ``P(i beats j) = p_i / (p_i + p_j)``,
fitted by maximum likelihood with Hunter's MM iteration. Ratings are shown on the Elo scale,
``1500 + 400 log10 p`` with the mean rating 1500: 400 points is 10-to-1 odds, 100 points
about a 64% expected score. (This is the Elo scale of a fitted model, not an online Elo
update, so it does not depend on the order in which games were played.) ``prior`` adds
that many virtual drawn comparisons to every compared pair, which keeps a clean sweep
finite; the tournament uses one.

Intervals: the games of each matchup are resampled with replacement ``rounds`` times
(game by game up to ``EXACT_RESAMPLE`` games; past that, each outcome's count is drawn
from its binomial, in the normal approximation, which is as good at those sizes and
costs the same for ten games or ten million),
the model refitted each time, and the 2.5% and 97.5% quantiles of each rating kept.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from quarkade.sim.results import Result
from quarkade.sim.stats import quantile
from quarkade.sim.tally import Tally

Comparison = tuple[int, int, float]  # agent i, agent j (i < j), i's score: 1, 0.5 or 0


@dataclass(frozen=True)
class Rating:
    agent: str
    comparisons: int
    score: float  # mean pairwise score: wins plus half the ties, per comparison
    elo: float
    low: float
    high: float


def comparisons(result: Result, index: dict[str, int]) -> tuple[Comparison, ...]:
    """The pairwise comparisons one game gives (agents as indices into ``index``)."""
    return outcome_comparisons(result["seats"], result["winners"], index)


def outcome_comparisons(seat_agents: Sequence[str], winning_seats: Sequence[int],
                        index: dict[str, int]) -> tuple[Comparison, ...]:
    """The pairwise comparisons of a game with these seats and winners."""
    seats = [index[spec] for spec in seat_agents]
    winners = set(winning_seats)
    found: list[Comparison] = []
    for s, a in enumerate(seats):
        for t in range(s + 1, len(seats)):
            b = seats[t]
            if a == b:
                continue
            if not winners or (s in winners and t in winners):
                score = 0.5
            elif s in winners:
                score = 1.0
            elif t in winners:
                score = 0.0
            else:
                continue
            found.append((a, b, score) if a < b else (b, a, 1.0 - score))
    return tuple(found)


def fit_bradley_terry(k: int, pairs: dict[tuple[int, int], tuple[float, float]],
                      prior: float = 0.0, tolerance: float = 1e-10,
                      max_rounds: int = 100_000) -> list[float]:
    """Bradley-Terry strengths (geometric mean 1) of ``k`` agents.

    ``pairs[(i, j)]`` with ``i < j`` is ``(score of i, comparisons)`` between them.

    >>> [round(p, 6) for p in fit_bradley_terry(2, {(0, 1): (3.0, 4.0)})]
    [1.732051, 0.57735]
    """
    wins = [0.0] * k
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score, count) in pairs.items():
        if count <= 0:
            continue
        wins[i] += score + prior / 2
        wins[j] += count - score + prior / 2
        games[(i, j)] = count + prior
    for agent in range(k):
        if wins[agent] <= 0:
            raise ValueError(f"agent {agent} never scored: its Bradley-Terry strength is 0 "
                             "(use a prior)")
    strengths = [1.0] * k
    for _ in range(max_rounds):
        denominators = [0.0] * k
        for (i, j), count in games.items():
            share = count / (strengths[i] + strengths[j])
            denominators[i] += share
            denominators[j] += share
        updated = [wins[a] / denominators[a] if denominators[a] else 1.0 for a in range(k)]
        scale = math.exp(-sum(math.log(p) for p in updated) / k)
        updated = [p * scale for p in updated]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strengths,
                                                                  strict=True))
        strengths = updated
        if change < tolerance:
            break
    return strengths


def elo_scale(strengths: Sequence[float]) -> list[float]:
    """Strengths as Elo-scale ratings with mean 1500."""
    logs = [400 * math.log10(p) for p in strengths]
    mean = sum(logs) / len(logs)
    return [1500 + value - mean for value in logs]


EXACT_RESAMPLE = 20_000


def _resample(rng: random.Random, counts: list[int]) -> Counter[int]:
    """How often each outcome comes up when ``sum(counts)`` games are drawn with
    replacement from games with these outcome counts (a multinomial draw)."""
    total = sum(counts)
    if total <= EXACT_RESAMPLE:
        return Counter(rng.choices(range(len(counts)), weights=counts, k=total))
    picked: Counter[int] = Counter()
    left, share_left = total, 1.0
    for outcome, count in enumerate(counts):  # conditional binomials
        share = min(1.0, count / total / share_left) if share_left > 0 else 1.0
        mean = left * share
        drawn = round(rng.gauss(mean, math.sqrt(max(mean * (1 - share), 0.0))))
        drawn = min(left, max(0, drawn)) if outcome < len(counts) - 1 else left
        picked[outcome] = drawn
        left -= drawn
        share_left -= count / total
    return picked


def rate(results: Iterable[Result], agents: Sequence[str], prior: float = 1.0,
         rounds: int = 200, seed: int = 0) -> list[Rating]:
    """Ratings of ``agents`` from ``results``, strongest first."""
    return rate_tally(Tally.of(results), agents, prior, rounds, seed)


def rate_tally(tally: Tally, agents: Sequence[str], prior: float = 1.0, rounds: int = 200,
               seed: int = 0) -> list[Rating]:
    """Ratings of ``agents`` from the results counted in ``tally``, strongest first."""
    index = {spec: i for i, spec in enumerate(agents)}
    k = len(agents)
    # Games of one matchup, reduced to how often each distinct outcome happened: the
    # bootstrap resamples these counts rather than the games themselves.
    by_matchup: dict[tuple[str, ...], Counter[tuple[Comparison, ...]]] = defaultdict(Counter)
    for (matchup, seats, winners, _), count in tally.outcomes.items():
        by_matchup[matchup][outcome_comparisons(seats, winners, index)] += count
    groups = [(list(outcomes), list(outcomes.values())) for outcomes in by_matchup.values()]

    def fit(samples: list[list[tuple[tuple[Comparison, ...], int]]]) -> list[float]:
        pairs: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
        for sample in samples:
            for outcome, count in sample:
                for i, j, score in outcome:
                    pair = pairs[(i, j)]
                    pair[0] += score * count
                    pair[1] += count
        return elo_scale(fit_bradley_terry(
            k, {key: (value[0], value[1]) for key, value in pairs.items()}, prior))

    observed = fit([list(zip(outcomes, counts, strict=True)) for outcomes, counts in groups])
    rng = random.Random(f"quarkade-ratings:{seed}")
    draws: list[list[float]] = []
    for _ in range(rounds):
        sample = []
        for outcomes, counts in groups:
            picked = _resample(rng, counts)
            sample.append([(outcomes[o], c) for o, c in picked.items()])
        draws.append(fit(sample))
    totals = [[0.0, 0.0] for _ in agents]
    for outcomes, counts in groups:
        for outcome, count in zip(outcomes, counts, strict=True):
            for i, j, score in outcome:
                totals[i][0] += score * count
                totals[i][1] += count
                totals[j][0] += (1 - score) * count
                totals[j][1] += count
    ratings = []
    for a, spec in enumerate(agents):
        spread = sorted(d[a] for d in draws)
        low, high = (quantile(spread, 0.025), quantile(spread, 0.975)) if spread \
            else (observed[a], observed[a])
        points, compared = totals[a]
        ratings.append(Rating(spec, int(compared), points / compared if compared else 0.0,
                              observed[a], low, high))
    return sorted(ratings, key=lambda r: -r.elo)

