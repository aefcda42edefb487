"""A sweep: the same agents over a grid of player counts and option values, one run a cell.

``quarkade sweep hadronize --agents greedy --players 2..6 --option goal=6..14 --games
100000`` plays 100,000 games at each of the 45 settings (every player count with every
goal) and reads four measures off each cell's summary, each with its 95% interval:

- the **first-seat edge**: the first mover's win rate minus the fair share (Wilson);
- the **mean game length** in decisions (the mean +- 1.96 standard errors);
- the **draw rate** (Wilson);
- the **win rate of the first agent** named, when there are two or more (Wilson).

Every cell has the run seed: the same games in the cells that share their setting's rules
(common random numbers, so neighbouring cells differ by the rule, not by luck). A value
list is ``a..b`` (integers from a to b), ``a..b..step``, or ``x,y,z``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quarkade.core.errors import GameOptionError
from quarkade.core.registry import load_game
from quarkade.sim.stats import Z95, Summary

Interval = tuple[float, float, float]  # value, low, high


@dataclass(frozen=True)
class Axis:
    """One swept dimension: ``players`` or an option, and its values in order."""

    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Cell:
    """One setting of the grid and what its run gave."""

    setting: dict[str, Any]
    summary: Summary
    engine: str
    seconds: float


@dataclass(frozen=True)
class Measure:
    """A number read off a cell's summary, with its interval."""

    name: str
    unit: str  # how the table shows it: "pp", "%" or "" (a plain number)
    read: Callable[[Summary, str], Interval | None]
    diverging: bool = False  # a heat map centred on zero


def parse_values(name: str, text: str) -> list[str]:
    """``"6..14"``, ``"2..10..2"`` or ``"a,b,c"`` as its list of values (text)."""
    text = text.strip()
    if ".." in text:
        parts = text.split("..")
        try:
            numbers = [int(part) for part in parts]
        except ValueError:
            raise GameOptionError(f"{name}={text}: a range is two or three whole numbers, "
                                  "first..last or first..last..step (e.g. 6..14)") from None
        if len(numbers) not in (2, 3) or (len(numbers) == 3 and numbers[2] < 1) \
                or numbers[1] < numbers[0]:
            raise GameOptionError(f"{name}={text}: a range runs first..last or "
                                  "first..last..step, up, with a step of at least 1")
        step = numbers[2] if len(numbers) == 3 else 1
        return [str(v) for v in range(numbers[0], numbers[1] + 1, step)]
    values = [v.strip() for v in text.split(",")]
    if not all(values):
        raise GameOptionError(f"{name}={text!r}: list values separated by commas, e.g. "
                              "false,true, or give a range such as 6..14")
    return values


def build_axes(game: str, players: str | None, options: list[str]) -> list[Axis]:
    """The grid's axes from ``--players`` and ``--option NAME=VALUES``: each value checked
    (and converted) by the game's own options, so a bad one is refused before any play."""
    raw: dict[str, list[str]] = {}
    if players is not None:
        raw["players"] = parse_values("--players", players)
    for pair in options:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise GameOptionError(f"--option {pair!r}: write NAME=VALUES, e.g. goal=6..14")
        if name in raw:
            raise GameOptionError(f"{name} is swept twice; give it once with all its values")
        raw[name] = parse_values(name, text)
    axes = []
    for name, values in raw.items():
        converted = []
        for value in values:
            loaded = load_game(game, **{name: value})  # refuses a bad value with the reason
            converted.append(loaded.options[name])
        if len(set(converted)) != len(converted):
            raise GameOptionError(f"{name} lists a value twice")
        axes.append(Axis(name, tuple(converted)))
    return axes


def settings(axes: list[Axis]) -> list[dict[str, Any]]:
    """Every cell's setting, the first axis varying slowest."""
    return [dict(zip([axis.name for axis in axes], values, strict=True))
            for values in itertools.product(*(axis.values for axis in axes))]


def first_seat_edge(summary: Summary, agent: str) -> Interval:
    value, low, high = summary.advantage
    return 100 * value, 100 * low, 100 * high


def mean_length(summary: Summary, agent: str) -> Interval:
    lengths = summary.lengths
    half = Z95 * lengths.sd / math.sqrt(lengths.games) if lengths.games else 0.0
    return lengths.mean, lengths.mean - half, lengths.mean + half


def draw_rate(summary: Summary, agent: str) -> Interval:
    low, high = summary.draws.interval
    return 100 * summary.draws.value, 100 * low, 100 * high


def agent_win_rate(summary: Summary, agent: str) -> Interval | None:
    rate = summary.agents.get(agent)
    if rate is None:
        return None
    low, high = rate.interval
    return 100 * rate.value, 100 * low, 100 * high


MEASURES = (
    Measure("first-seat edge", "pp", first_seat_edge, diverging=True),
    Measure("mean length (decisions)", "", mean_length),
    Measure("draws", "%", draw_rate),
    Measure("win rate of", "%", agent_win_rate),
)


def measures(agents: list[str]) -> list[Measure]:
    """The measures of a sweep with these agents (an agent's win rate needs two)."""
    return [m for m in MEASURES if m.read is not agent_win_rate or len(agents) > 1]


def measure_title(measure: Measure, agents: list[str]) -> str:
    return f"win rate of {agents[0]}" if measure.read is agent_win_rate else measure.name


def interval_text(interval: Interval | None, unit: str) -> str:
    """``"+2.9 pp [+2.6, +3.2]"``, ``"52.1% [51.8, 52.4]"`` or ``"17.1 [17.0, 17.1]"``."""
    if interval is None:
        return "-"
    value, low, high = interval
    if unit == "pp":
        return f"{value:+.1f} pp [{low:+.1f}, {high:+.1f}]"
    if unit == "%":
        return f"{value:.1f}% [{low:.1f}, {high:.1f}]"
    return f"{value:.1f} [{low:.1f}, {high:.1f}]"
