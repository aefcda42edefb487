"""Statistics of a set of results: win rates with intervals, balance, length.

Counting rules (the same everywhere in the summary and the report):

- A game is a **draw** when it has no winner (every seat's return is 0: Hadronize's
  capped game tied by every seat, for instance).
- A seat **wins** when it is among the game's winners (a shared win counts for each
  winner). A seat's fair share of wins is ``1 / players``.
- An agent's win rate is over its **seat-games**: an agent holding two seats of one game
  counts two seat-games.
- The **first mover** is the seat that took the game's first decision (seat 0 in games
  where seat 0 always begins; chosen by chance in Hadronize). The first-seat advantage is
  the first mover's win rate minus the fair share.

Intervals are Wilson score intervals at 95%.

Balance metrics, after the Ludii evaluation metrics (Browne; Piette et al.):

- *balance*: 1 - (highest - lowest win rate among the seats); 1 is perfectly even.
- *advantage*: the first mover's win rate (vs the fair share).
- *drawishness* and *decisiveness*: the share of draws and of games with a winner.
- *lead changes* (games with a running score): mean changes of the sole leader per game,
  and the share of games with at least one.
- *decided at* (with a running score): mean fraction of the game played when the eventual
  winner took the lead for good (lower: the game was settled earlier).
- *duration*: game length in decisions (mean, spread, percentiles).

The game's extras (its analysis hook): per game tag, the games, draws, the first mover's
win rate and the mean length of each value; per seat tag, the win rate of the seats
holding each value; per tally, the hits over the trials of each value, summed over the
games. With several agents, seat tags and tallies are also split by the agent holding the
seat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from quarkade.core.errors import GameOptionError
from quarkade.sim.hooks import game_analysis
from quarkade.sim.results import Result
from quarkade.sim.tally import DRAWS, FAIR, FIRST_TRIALS, FIRST_WINS, GAMES, LENGTH, Tally

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (``(0, 1)`` with no trials).

    >>> [round(x, 4) for x in wilson(81, 263)]
    [0.2553, 0.3662]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = p + z2 / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    denominator = 1 + z2 / trials
    # At 0 or all successes a bound is exactly the rate (the formula misses it by rounding).
    low = 0.0 if successes <= 0 else max(0.0, (centre - spread) / denominator)
    high = 1.0 if successes >= trials else min(1.0, (centre + spread) / denominator)
    return low, high


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolating linearly (numpy's default)."""
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``trials`` with its Wilson interval."""

    wins: int
    trials: int

    @property
    def value(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.trials)

    def text(self) -> str:
        """``"52.3% [50.1, 54.5]"``."""
        low, high = self.interval
        return f"{100 * self.value:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"wins": self.wins, "trials": self.trials, "rate": self.value,
                "low": low, "high": high}


@dataclass(frozen=True)
class Lengths:
    """The distribution of game lengths (decisions per game), as ``(length, games)`` pairs
    in ascending length: a histogram, so it stays small however many games there are."""

    counts: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, values: Iterable[int]) -> Lengths:
        histogram: dict[int, int] = {}
        for value in values:
            histogram[value] = histogram.get(value, 0) + 1
        return cls.histogram(histogram)

    @classmethod
    def histogram(cls, counts: dict[int, int]) -> Lengths:
        return cls(tuple(sorted((length, n) for length, n in counts.items() if n)))

    @property
    def games(self) -> int:
        return sum(n for _, n in self.counts)

    @property
    def mean(self) -> float:
        games = self.games
        return sum(v * n for v, n in self.counts) / games if games else 0.0

    @property
    def sd(self) -> float:
        games = self.games
        if games < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum(n * (v - mean) ** 2 for v, n in self.counts) / (games - 1))

    def value_at(self, rank: int) -> int:
        """The ``rank``-th length (from 0) in ascending order."""
        for value, n in self.counts:
            if rank < n:
                return value
            rank -= n
        raise IndexError(rank)

    def percentile(self, q: float) -> float:
        """The ``q`` quantile, interpolating linearly between lengths (numpy's default)."""
        games = self.games
        if not games:
            return 0.0
        position = (games - 1) * q
        low = math.floor(position)
        below, above = self.value_at(low), self.value_at(min(low + 1, games - 1))
        return below + (above - below) * (position - low)

    def row(self) -> dict[str, float]:
        return {"mean": self.mean, "sd": self.sd,
                "min": self.counts[0][0] if self.counts else 0,
                "p10": self.percentile(0.1), "p25": self.percentile(0.25),
                "median": self.percentile(0.5), "p75": self.percentile(0.75),
                "p90": self.percentile(0.9), "max": self.counts[-1][0] if self.counts else 0}


@dataclass(frozen=True)
class Breakdown:
    """One table of a game's extras: rows keyed by a tag's value."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    rates: tuple[tuple[str, Rate], ...] = ()  # (label, rate) pairs a report can plot
    plotted: str = "win rate"  # what the rates are
    name: str = ""  # the tag or tally it breaks the results down by
    note: str = ""  # what to know to read it (the game's ``NOTES``)
    # Several agents: their names, and per row of ``rates`` each one's rate (None: no seat)
    groups: tuple[str, ...] = ()
    group_rates: tuple[tuple[Rate | None, ...], ...] = ()


@dataclass(frozen=True)
class Summary:
    """Everything the table and the report show about a set of results."""

    game: str
    games: int
    players: tuple[int, ...]
    agents: dict[str, Rate]
    agent_draws: dict[str, int]
    seats: dict[int, Rate]
    first_mover: Rate
    draws: Rate
    fair_share: float
    lengths: Lengths
    balance: float
    lead_changes: float | None
    lead_change_games: Rate | None
    decided_at: float | None
    breakdowns: list[Breakdown] = field(default_factory=list)

    @property
    def advantage(self) -> tuple[float, float, float]:
        """First mover's win rate minus the fair share, with its interval."""
        low, high = self.first_mover.interval
        fair = self.fair_share
        return self.first_mover.value - fair, low - fair, high - fair


def summarize(results: Iterable[Result]) -> Summary:
    """The summary of ``results`` (one game or many player counts alike)."""
    return summary_of(Tally.of(results))


def summary_of(tally: Tally) -> Summary:
    """The summary of the results counted in ``tally``."""
    if not tally.games:
        raise ValueError("no results to summarize")
    agent_wins: dict[str, int] = {}
    agent_trials: dict[str, int] = {}
    agent_draws: dict[str, int] = {}
    seat_wins: dict[int, int] = {}
    seat_trials: dict[int, int] = {}
    first_wins = first_trials = draws = 0
    fair = 0.0
    players = set()
    for (_, seats, winners, first), count in tally.outcomes.items():
        won = set(winners)
        fair += count / len(seats)
        players.add(len(seats))
        if not won:
            draws += count
        for seat, spec in enumerate(seats):
            agent_trials[spec] = agent_trials.get(spec, 0) + count
            seat_trials[seat] = seat_trials.get(seat, 0) + count
            agent_wins.setdefault(spec, 0)
            seat_wins.setdefault(seat, 0)
            if seat in won:
                agent_wins[spec] += count
                seat_wins[seat] += count
            elif not won:
                agent_draws[spec] = agent_draws.get(spec, 0) + count
        if first is not None:
            first_trials += count
            first_wins += count if first in won else 0
    seat_rates = {seat: Rate(seat_wins[seat], seat_trials[seat]) for seat in sorted(seat_trials)}
    values = [rate.value for rate in seat_rates.values()]
    n = tally.games
    changes, changed_games, with_change = tally.lead_changes
    decided, decided_games = tally.decided
    return Summary(
        game=tally.game,
        games=n,
        players=tuple(sorted(players)),
        agents={spec: Rate(agent_wins[spec], agent_trials[spec]) for spec in agent_trials},
        agent_draws=agent_draws,
        seats=seat_rates,
        first_mover=Rate(first_wins, first_trials),
        draws=Rate(draws, n),
        fair_share=fair / n,
        lengths=Lengths.histogram(tally.lengths),
        balance=1 - (max(values) - min(values)),
        lead_changes=changes / changed_games if changed_games else None,
        lead_change_games=Rate(int(with_change), int(changed_games)) if changed_games else None,
        decided_at=decided / decided_games if decided_games else None,
        breakdowns=_with_notes(tally.game, tag_breakdowns(tally)),
    )


def tag_breakdowns(tally: Tally) -> list[Breakdown]:
    """The game's extras: a table per game tag, per seat tag and per tally (see
    ``quarkade.sim.hooks``)."""
    tables: list[Breakdown] = []
    for name, groups in tally.game_tags.items():
        rows: list[tuple[str, ...]] = []
        rates: list[tuple[str, Rate]] = []
        for value in sorted(groups, key=_order):
            row = groups[value]
            games = int(row[GAMES])
            first = Rate(int(row[FIRST_WINS]), int(row[FIRST_TRIALS]))
            draw = Rate(int(row[DRAWS]), games)
            rows.append((str(value), str(games), draw.text(), first.text(),
                         f"{100 * row[FAIR] / games:.1f}%", f"{row[LENGTH] / games:.1f}"))
            rates.append((str(value), first))
        tables.append(Breakdown(
            f"By {name}", (name, "games", "draws", "first mover wins", "fair share",
                           "mean length"), tuple(rows), tuple(rates), "the first mover's win rate",
            name))
    # With several agents each value is also split by the agent holding the seat: what a
    # value seems worth is often only who tends to hold it.
    split = tuple(tally.tagged_agents) if len(tally.tagged_agents) > 1 else ()
    for name, counted in tally.seat_tags.items():
        tables.append(_split_table(f"Win rate by {name}", name, (name, "seats", "win rate"),
                                   "the win rate of the seats", counted, split))
    for name, counted in tally.tallies.items():
        what, by = name.rsplit(" by ", 1) if " by " in name else ("rate", "value")
        tables.append(_split_table(name[:1].upper() + name[1:], name, (by, "count", what),
                                   what, counted, split))
    return tables


def _split_table(title: str, name: str, columns: tuple[str, str, str], plotted: str,
                 counted: dict[Any, dict[str, list[int]]], split: tuple[str, ...]
                 ) -> Breakdown:
    """Rows of ``value, trials, rate`` and, with ``split`` agents, each agent's rate."""
    rows = []
    rates = []
    group_rates = []
    for value in sorted(counted, key=_order):
        by_agent = counted[value]
        rate = Rate(sum(h for h, _ in by_agent.values()), sum(t for _, t in by_agent.values()))
        shares = tuple(Rate(*by_agent[a]) if a in by_agent else None for a in split)
        rows.append((str(value), str(rate.trials), rate.text(),
                     *(f"{r.text()} ({r.trials})" if r else "-" for r in shares)))
        rates.append((str(value), rate))
        group_rates.append(shares)
    value_column, trials, rate_column = columns
    return Breakdown(
        title, (value_column, trials, f"{rate_column} [95% CI]",
                *(f"as {a} ({trials})" for a in split)),
        tuple(rows), tuple(rates), plotted, name,
        groups=split, group_rates=tuple(group_rates) if split else ())


def _with_notes(game: str, tables: list[Breakdown]) -> list[Breakdown]:
    """The tables with the notes of the game's analysis hook (none for a game not known
    here: results files can come from elsewhere)."""
    try:
        hook = game_analysis(game)
    except GameOptionError:
        return tables
    return [replace(table, note=hook.note(table.name)) for table in tables]


def _order(value: Any) -> tuple[int, Any]:
    """Numbers in numeric order, before text in text order."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0, value
    return 1, str(value)
