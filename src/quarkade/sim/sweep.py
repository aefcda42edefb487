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
    summary: Summary | DeckSummary
    engine: str
    seconds: float


@dataclass(frozen=True)
class Measure:
    """A number read off a cell's summary, with its interval."""

    name: str
    unit: str  # how the table shows it: "pp", "%" or "" (a plain number)
    read: Callable[[Any, str], Interval | None]  # of a Summary (or a deck's DeckSummary)
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


# -- sweeping a deck's composition ---------------------------------------------------------
#
# ``quarkade sweep decoherence --agents greedy --deck "boo'd=0..4" --deck verved=0..4``: a
# deck (``--base``, a preset by default) with some words' counts set at each cell, the other
# words of each kind making up its ten (``deck_for``), tested against every preset as "Test
# this deck" tests it (``quarkade.sim.decktest``). A cell's measures are the deck's win rate
# against all the presets and against each.


@dataclass(frozen=True)
class DeckSummary:
    """A deck's test at one cell: its score against each preset and in all."""

    scores: dict[str, Any]  # preset (or "all") -> ``quarkade.sim.decktest.DeckScore``

    @property
    def games(self) -> int:
        return int(self.scores["all"].games)


def deck_axes(game: str, pairs: list[str]) -> list[Axis]:
    """The axes of ``--deck WORD=VALUES``: each a word of the game's decks and counts."""
    from quarkade.sim.decktest import decks_of

    decks = decks_of(game)
    notation = decks.word_index  # refuses a word that is not one, naming the words
    axes: list[Axis] = []
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise GameOptionError(f"--deck {pair!r}: write WORD=COUNTS, e.g. kiki=0..4")
        try:
            word = decks.WORDS[notation(name)]
        except ValueError as problem:
            raise GameOptionError(f"--deck {pair!r}: {problem}") from None
        if any(axis.name == word for axis in axes):
            raise GameOptionError(f"{word} is swept twice; give it once with all its counts")
        counts = []
        for value in parse_values(word, text):
            try:
                count = int(value)
            except ValueError:
                raise GameOptionError(f"{word}={text}: counts are whole numbers") from None
            if not 0 <= count <= decks.MAX_COPIES:
                raise GameOptionError(f"{word}={text}: a deck holds 0 to {decks.MAX_COPIES} "
                                      f"copies of a word")
            counts.append(count)
        if len(set(counts)) != len(counts):
            raise GameOptionError(f"{word} lists a count twice")
        axes.append(Axis(word, tuple(counts)))
    return axes


def deck_for(game: str, base: str, setting: dict[str, int]) -> str | None:
    """The deck ``base`` with each word of ``setting`` at its count and the other words
    of its kind making up the kind's total: taken one at a time from the word with the
    most copies, or given to the one with the fewest (the lower word first on a tie). None
    if no legal deck has those counts."""
    from quarkade.sim.decktest import decks_of

    decks = decks_of(game)
    counts = list(decks.parse_deck(base))
    for word, count in setting.items():
        counts[decks.WORDS.index(word)] = count
    fixed = {decks.WORDS.index(word) for word in setting}
    for words in decks.KIND_WORDS:
        rest = [w for w in words if w not in fixed]
        target = decks.PER_KIND - sum(counts[w] for w in words if w in fixed)
        if target < 0 or target > decks.MAX_COPIES * len(rest) or (target and not rest):
            return None
        while sum(counts[w] for w in rest) > target:
            word = max(rest, key=lambda w: (counts[w], -w))
            counts[word] -= 1
        while sum(counts[w] for w in rest) < target:
            word = min(rest, key=lambda w: (counts[w], w))
            counts[word] += 1
    decks.check_deck(counts)
    return str(decks.deck_text(counts))


def deck_win_rate(against: str) -> Callable[[DeckSummary, str], Interval | None]:
    """A measure's reader: the deck's win rate against ``against`` (a preset or "all")."""
    def read(summary: DeckSummary, agent: str) -> Interval | None:
        score = summary.scores.get(against)
        if score is None or not score.games:
            return None
        low, high = score.interval
        return 100 * score.rate, 100 * low, 100 * high
    return read


def deck_measures(game: str) -> list[Measure]:
    """The deck's win rate against all the presets, then against each."""
    from quarkade.sim.decktest import decks_of

    shown = [Measure("win rate against the presets", "%", deck_win_rate("all"))]
    shown += [Measure(f"win rate against {preset}", "%", deck_win_rate(preset))
              for preset in decks_of(game).PRESETS]
    return shown
