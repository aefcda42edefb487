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
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from quarkade.core.errors import GameOptionError
from quarkade.sim.hooks import game_analysis
from quarkade.sim.results import Result

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
    """The distribution of game lengths (decisions per game)."""

    values: tuple[int, ...]

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    @property
    def sd(self) -> float:
        n = len(self.values)
        if n < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum((v - mean) ** 2 for v in self.values) / (n - 1))

    def percentile(self, q: float) -> float:
        return quantile(sorted(self.values), q) if self.values else 0.0

    def row(self) -> dict[str, float]:
        return {"mean": self.mean, "sd": self.sd, "min": min(self.values, default=0),
                "p10": self.percentile(0.1), "p25": self.percentile(0.25),
                "median": self.percentile(0.5), "p75": self.percentile(0.75),
                "p90": self.percentile(0.9), "max": max(self.values, default=0)}


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


def summarize(results: Sequence[Result]) -> Summary:
    """The summary of ``results`` (one game or many player counts alike)."""
    if not results:
        raise ValueError("no results to summarize")
    agent_wins: dict[str, int] = defaultdict(int)
    agent_trials: dict[str, int] = defaultdict(int)
    agent_draws: dict[str, int] = defaultdict(int)
    seat_wins: dict[int, int] = defaultdict(int)
    seat_trials: dict[int, int] = defaultdict(int)
    first_wins = first_trials = draws = 0
    fair = 0.0
    lead_changes: list[int] = []
    decided: list[float] = []
    for result in results:
        seats = result["seats"]
        winners = set(result["winners"])
        fair += 1 / len(seats)
        if not winners:
            draws += 1
        for seat, spec in enumerate(seats):
            agent_trials[spec] += 1
            seat_trials[seat] += 1
            if seat in winners:
                agent_wins[spec] += 1
                seat_wins[seat] += 1
            elif not winners:
                agent_draws[spec] += 1
        first = result.get("first")
        if first is not None:
            first_trials += 1
            first_wins += first in winners
        if result.get("lead_changes") is not None:
            lead_changes.append(result["lead_changes"])
        if result.get("decided_at") is not None:
            decided.append(result["decided_at"])
    seat_rates = {seat: Rate(seat_wins[seat], seat_trials[seat]) for seat in sorted(seat_trials)}
    values = [rate.value for rate in seat_rates.values()]
    n = len(results)
    return Summary(
        game=results[0]["game"],
        games=n,
        players=tuple(sorted({len(r["seats"]) for r in results})),
        agents={spec: Rate(agent_wins[spec], agent_trials[spec]) for spec in agent_trials},
        agent_draws=dict(agent_draws),
        seats=seat_rates,
        first_mover=Rate(first_wins, first_trials),
        draws=Rate(draws, n),
        fair_share=fair / n,
        lengths=Lengths(tuple(r["length"] for r in results)),
        balance=1 - (max(values) - min(values)),
        lead_changes=sum(lead_changes) / len(lead_changes) if lead_changes else None,
        lead_change_games=Rate(sum(1 for c in lead_changes if c > 0), len(lead_changes))
        if lead_changes else None,
        decided_at=sum(decided) / len(decided) if decided else None,
        breakdowns=_with_notes(results[0]["game"], tag_breakdowns(results)),
    )


Counts = dict[str, dict[Any, dict[str, list[int]]]]  # name -> value -> agent -> [hits, trials]


def tag_breakdowns(results: Iterable[Result]) -> list[Breakdown]:
    """The game's extras: a table per game tag, per seat tag and per tally (see
    ``quarkade.sim.hooks``)."""
    by_game_tag: dict[str, dict[Any, list[Result]]] = defaultdict(lambda: defaultdict(list))
    seat_wins: Counts = defaultdict(lambda: defaultdict(lambda: defaultdict(lambda: [0, 0])))
    tallied: Counts = defaultdict(lambda: defaultdict(lambda: defaultdict(lambda: [0, 0])))
    agents: dict[str, None] = {}  # the agents of tagged or tallied seats, as they appear
    for result in results:
        for seat, seat_tallies in enumerate(result.get("tallies", [])):
            agent = result["seats"][seat]
            for name, counts in seat_tallies.items():
                agents.setdefault(agent)
                for value, hits, trials in counts:
                    total = tallied[name][_key(value)][agent]
                    total[0] += hits
                    total[1] += trials
        tags = result.get("tags")
        if not tags:
            continue
        for name, value in tags.get("game", {}).items():
            by_game_tag[name][_key(value)].append(result)
        winners = set(result["winners"])
        for seat, seat_tags in enumerate(tags.get("seats", [])):
            agent = result["seats"][seat]
            for name, value in seat_tags.items():
                agents.setdefault(agent)
                for item in value if isinstance(value, list) else [value]:
                    counts = seat_wins[name][_key(item)][agent]
                    counts[0] += seat in winners
                    counts[1] += 1
    tables: list[Breakdown] = []
    for name, groups in by_game_tag.items():
        rows: list[tuple[str, ...]] = []
        rates: list[tuple[str, Rate]] = []
        for value in sorted(groups, key=_order):
            group = groups[value]
            first = Rate(sum(1 for r in group if r.get("first") in set(r["winners"])),
                         sum(1 for r in group if r.get("first") is not None))
            fair = sum(1 / len(r["seats"]) for r in group) / len(group)
            draw = Rate(sum(1 for r in group if not r["winners"]), len(group))
            mean_length = sum(r["length"] for r in group) / len(group)
            rows.append((str(value), str(len(group)), draw.text(), first.text(),
                         f"{100 * fair:.1f}%", f"{mean_length:.1f}"))
            rates.append((str(value), first))
        tables.append(Breakdown(
            f"By {name}", (name, "games", "draws", "first mover wins", "fair share",
                           "mean length"), tuple(rows), tuple(rates), "the first mover's win rate",
            name))
    # With several agents each value is also split by the agent holding the seat: what a
    # value seems worth is often only who tends to hold it.
    split = tuple(agents) if len(agents) > 1 else ()
    for name, counted in seat_wins.items():
        tables.append(_split_table(f"Win rate by {name}", name, (name, "seats", "win rate"),
                                   "the win rate of the seats", counted, split))
    for name, counted in tallied.items():
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


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _order(value: Any) -> tuple[int, Any]:
    """Numbers in numeric order, before text in text order."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0, value
    return 1, str(value)
