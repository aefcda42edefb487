"""A run's results counted as they come: everything the summary, the tables, the report and
the ratings read, in memory that does not grow with the number of games.

A game counts once, by its *outcome*: the matchup it belongs to, the agent at each seat,
the winners and the first mover. Many games share an outcome (two agents on two seats
give at most a dozen), so a run of ten million games is a few dozen counters, plus a
histogram of game lengths and, from the game's analysis hook, sums per tag value.
``Tally.add`` counts one result line; ``add_outcome`` counts a batch of games that share
an outcome (what the compiled engines report); ``merge`` adds another tally. Tallies of
the chunks of a run, merged in any order, give the tally of the whole run.

The first time an agent, a tag or a tag value is met fixes its place in the tables, as a
list of results would: merge chunks in index order to keep the order of a file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from quarkade.sim.results import Result

# (matchup: the run's agents for this game, seats: the agent at each seat, winners (seats,
# ascending), the first mover's seat or None)
Outcome = tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], int | None]
# name -> value -> agent -> [hits, trials]
Counts = dict[str, dict[Any, dict[str, list[int]]]]

# Per value of a game tag: games, draws, first mover's wins, games with a first mover,
# the sum of fair shares and the sum of lengths.
GAMES, DRAWS, FIRST_WINS, FIRST_TRIALS, FAIR, LENGTH = range(6)


@dataclass
class Tally:
    """Counts of a set of results (see the module docstring)."""

    game: str = ""
    games: int = 0
    outcomes: dict[Outcome, int] = field(default_factory=dict)
    lengths: dict[int, int] = field(default_factory=dict)
    lead_changes: list[int] = field(default_factory=lambda: [0, 0, 0])  # sum, games, >0
    decided: list[float] = field(default_factory=lambda: [0.0, 0])  # sum, games
    game_tags: dict[str, dict[Any, list[float]]] = field(default_factory=dict)
    seat_tags: Counts = field(default_factory=dict)
    tallies: Counts = field(default_factory=dict)
    tagged_agents: dict[str, None] = field(default_factory=dict)  # as first met
    # A plug-in bot stopped in some games: agent -> [its faults, the first one (as JSON)].
    faults: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, results: Iterable[Result]) -> Tally:
        tally = cls()
        for result in results:
            tally.add(result)
        return tally

    def add_outcome(self, game: str, matchup: tuple[str, ...], seats: tuple[str, ...],
                    winners: tuple[int, ...], first: int | None,
                    lengths: dict[int, int]) -> None:
        """Count games of one outcome, whose lengths are ``{length: games}``."""
        count = sum(lengths.values())
        if not count:
            return
        self.game = self.game or game
        self.games += count
        key = (matchup, seats, winners, first)
        self.outcomes[key] = self.outcomes.get(key, 0) + count
        for length, games in lengths.items():
            self.lengths[length] = self.lengths.get(length, 0) + games

    def add(self, result: Result) -> None:
        """Count one result line (see ``quarkade.sim.play``), its game's extras too."""
        seats = tuple(result["seats"])
        matchup = tuple(result.get("agents") or sorted(set(seats)))
        winners = tuple(sorted(result["winners"]))
        first = result.get("first")
        length = result.get("length", 0)
        self.add_outcome(result.get("game", ""), matchup, seats, winners, first, {length: 1})
        for fault in result.get("faults", ()):
            self.faults.setdefault(fault["agent"], [0, fault])[0] += 1
        if result.get("lead_changes") is not None:
            changes = self.lead_changes
            changes[0] += result["lead_changes"]
            changes[1] += 1
            changes[2] += result["lead_changes"] > 0
        if result.get("decided_at") is not None:
            self.decided[0] += result["decided_at"]
            self.decided[1] += 1
        for seat, seat_tallies in enumerate(result.get("tallies", [])):
            for name, counts in seat_tallies.items():
                self.tagged_agents.setdefault(seats[seat])
                for value, hits, trials in counts:
                    _count(self.tallies, name, value, seats[seat], hits, trials)
        tags = result.get("tags")
        if not tags:
            return
        won = set(winners)
        for name, value in tags.get("game", {}).items():
            row = self.game_tags.setdefault(name, {}).setdefault(_key(value), [0.0] * 6)
            row[GAMES] += 1
            row[DRAWS] += not won
            row[FIRST_WINS] += first in won
            row[FIRST_TRIALS] += first is not None
            row[FAIR] += 1 / len(seats)
            row[LENGTH] += length
        for seat, seat_tags in enumerate(tags.get("seats", [])):
            for name, value in seat_tags.items():
                self.tagged_agents.setdefault(seats[seat])
                for item in value if isinstance(value, list) else [value]:
                    _count(self.seat_tags, name, _key(item), seats[seat], seat in won, 1)

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to these."""
        self.game = self.game or other.game
        self.games += other.games
        for key, count in other.outcomes.items():
            self.outcomes[key] = self.outcomes.get(key, 0) + count
        for length, count in other.lengths.items():
            self.lengths[length] = self.lengths.get(length, 0) + count
        self.lead_changes = [a + b for a, b in zip(self.lead_changes, other.lead_changes,
                                                   strict=True)]
        self.decided = [self.decided[0] + other.decided[0], self.decided[1] + other.decided[1]]
        for name, tagged in other.game_tags.items():
            mine = self.game_tags.setdefault(name, {})
            for value, row in tagged.items():
                total = mine.setdefault(value, [0.0] * 6)
                for i, amount in enumerate(row):
                    total[i] += amount
        for agent in other.tagged_agents:
            self.tagged_agents.setdefault(agent)
        for agent, (count, first) in other.faults.items():
            self.faults.setdefault(agent, [0, first])[0] += count
        for counts, theirs in ((self.seat_tags, other.seat_tags),
                               (self.tallies, other.tallies)):
            for name, values in theirs.items():
                for value, agents in values.items():
                    for agent, (hits, trials) in agents.items():
                        _count(counts, name, value, agent, hits, trials)


def _count(counts: Counts, name: str, value: Any, agent: str, hits: int, trials: int) -> None:
    total = counts.setdefault(name, {}).setdefault(_key(value), {}).setdefault(agent, [0, 0])
    total[0] += hits
    total[1] += trials


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
