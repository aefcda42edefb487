"""The bot ladder: every installed bot and difficulty level of a game, rated against one
another per player count, on the simulator (a round robin, ``tournament_plan``) and its
ratings (Bradley-Terry on the Elo scale with bootstrap intervals, ``ratings.rate``).

Entrants, for each player count: the levels (``easy``, ``medium``, ``hard``, each resolved
to the bot it is at that count), the game's own bots (its ``BOTS``) and every plug-in bot
that plays the game. One bot is one entrant however many names it has (``medium`` and
``greedy`` are the same bot; with three Hadronize players so is ``hard``): it keeps its
first name and lists the others. The generic search bots enter through the ``hard`` level.

``run_ladder`` writes, in ``<results>/<game>/``:

- ``games-<N>p.jsonl``: the result lines of the games with ``N`` players (``quarkade
  analyze`` reads them);
- ``ladder.json``: the ladder itself (``FORMAT``), written last and in one step, which the
  web app's ``/ladder`` pages show, so a page never sees half a ladder;
- ``ladder.md``: the tables as Markdown; ``ladder.html``: a self-contained page.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.agents.registry import LEVEL_NAMES, builtin_agents, levels, plugin_names
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class
from quarkade.sim.plan import tournament_plan
from quarkade.sim.ratings import rate
from quarkade.sim.report import STYLE, html_table
from quarkade.sim.results import Result
from quarkade.sim.runner import run_plan
from quarkade.sim.tables import SummaryTable

FORMAT = "quarkade-ladder/1"
LADDER_FILE = "ladder.json"


@dataclass(frozen=True)
class Entrant:
    """One bot on the ladder: its name, the spec that plays it, where it comes from
    (``level``, ``bot`` or ``plug-in``) and its other names."""

    name: str
    spec: str
    kind: str
    also: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``medium = greedy = hard``, or ``hard (mcts:iterations=300,...)`` for a level
        whose bot has no name of its own."""
        names = " = ".join((self.name, *self.also))
        return names if self.spec in (self.name, *self.also) else f"{names} ({self.spec})"


@dataclass(frozen=True)
class Row:
    """An entrant's place on the ladder of one player count."""

    rank: int
    name: str
    label: str
    spec: str
    kind: str
    elo: float
    low: float
    high: float
    score: float
    comparisons: int
    stopped: int  # games in which it was stopped (a plug-in that misbehaved)


@dataclass(frozen=True)
class Table:
    players: int
    games: int
    rows: list[Row]


@dataclass(frozen=True)
class Ladder:
    game: str
    title: str
    options: dict[str, Any]
    games_per_matchup: int
    seed: int
    command: str
    tables: list[Table]
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}


def entrants(game: str, players: int, only: Sequence[str] | None = None) -> list[Entrant]:
    """The ladder's entrants for ``game`` with ``players`` seats (see the module), or those
    of ``only`` (names of levels, bots or plug-ins, or agent specs)."""
    named: list[tuple[str, str, str]] = []  # (name, spec, kind) in ladder order
    if only is not None:
        for name in only:
            kind = "level" if name in LEVEL_NAMES else (
                "bot" if name.partition(":")[0] in builtin_agents(game) else "plug-in")
            named.append((name, _resolve(game, players, name), kind))
    else:
        named += [(level, _resolve(game, players, level), "level") for level in LEVEL_NAMES]
        # learned needs a checkpoint: it enters by its spec (--only learned:PATH)
        named += [(bot, bot, "bot") for bot in sorted(builtin_agents(game))
                  if bot not in ("mcts", "ismcts", "learned")]
        named += [(bot, bot, "plug-in") for bot in plugin_names(game)]
    found: dict[str, Entrant] = {}
    for name, spec, kind in named:
        if spec in found:
            first = found[spec]
            if name != first.name and name not in first.also:
                found[spec] = Entrant(first.name, spec, first.kind, (*first.also, name))
        else:
            found[spec] = Entrant(name, spec, kind)
    return list(found.values())


def _resolve(game: str, players: int, name: str) -> str:
    """The spec a level plays with ``players`` seats; any other name is its own spec."""
    if name not in LEVEL_NAMES:
        return name
    level = levels(game)[name]
    if isinstance(level, str):
        return level
    return level.get(players, level.get("more", ""))


def ladder_fields(game: str, player_counts: Sequence[int], only: Sequence[str] | None = None
                  ) -> dict[int, list[Entrant]]:
    """The entrants for each player count; ``QuarkadeError`` for a count the game does not
    allow or one with fewer than two different bots."""
    cls = game_class(game)
    fields = {}
    for players in player_counts:
        if not cls.min_players <= players <= cls.max_players:
            raise QuarkadeError(f"--players {players}: {game} is played by "
                                f"{cls.min_players}-{cls.max_players}")
        fields[players] = entrants(game, players, only)
        if len(fields[players]) < 2:
            raise QuarkadeError(f"a ladder needs at least two different bots; {game} with "
                                f"{players} players has {len(fields[players])}")
    return fields


def run_ladder(game: str, player_counts: Sequence[int], games: int, seed: int,
               results: Path, options: dict[str, Any] | None = None,
               only: Sequence[str] | None = None, workers: int = 1,
               move_time: float = DEFAULT_MOVE_TIME, command: str = "",
               on_progress: Callable[[int, int, int], None] | None = None) -> Ladder:
    """Play the ladder of ``game`` for each player count and write its files (see the
    module); ``on_progress(players, done, total)`` follows each player count's games."""
    cls = game_class(game)
    fields = ladder_fields(game, player_counts, only)  # every refusal before any game
    folder = results / game
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise QuarkadeError(f"cannot make {folder}: {problem.strerror or problem}") from None
    tables = []
    base = dict(options or {})
    for players, field_of in fields.items():
        plan = tournament_plan(game, {**base, "players": players},
                               [e.spec for e in field_of], games, seed, move_time)
        out = folder / f"games-{players}p.jsonl"
        out.unlink(missing_ok=True)  # the latest ladder replaces the one before
        progress = None if on_progress is None else (
            lambda done, total, n=players: on_progress(n, done, total))
        outcome = run_plan(plan, out, workers, on_progress=progress)
        if outcome.interrupted:
            raise KeyboardInterrupt
        tables.append(rank(field_of, players, outcome.results, seed))
    ladder = Ladder(game, cls.title, base, games, seed, command, tables)
    write_ladder(folder, ladder)
    return ladder


def rank(field_of: Sequence[Entrant], players: int, results: Sequence[Result],
         seed: int) -> Table:
    """The ladder of one player count from its games."""
    by_spec = {e.spec: e for e in field_of}
    stopped = {e.spec: 0 for e in field_of}
    for result in results:
        for agent in {fault["agent"] for fault in result.get("faults", ())}:
            stopped[agent] += 1
    ratings = rate(results, [e.spec for e in field_of], seed=seed)
    rows = [Row(place, by_spec[r.agent].name, by_spec[r.agent].label, r.agent,
                by_spec[r.agent].kind, round(r.elo, 1), round(r.low, 1), round(r.high, 1),
                round(r.score, 4), r.comparisons, stopped[r.agent])
            for place, r in enumerate(ratings, start=1)]
    return Table(players, len(results), rows)


def write_ladder(folder: Path, ladder: Ladder) -> None:
    """``ladder.md``, ``ladder.html``, then ``ladder.json`` (replaced in one step)."""
    (folder / "ladder.md").write_text(markdown(ladder), encoding="utf-8")
    (folder / "ladder.html").write_text(page(ladder), encoding="utf-8")
    partial = folder / f".{LADDER_FILE}.{os.getpid()}"
    partial.write_text(json.dumps(ladder.to_dict(), indent=1) + "\n", encoding="utf-8")
    os.replace(partial, folder / LADDER_FILE)


def read_ladder(results: Path, game: str) -> dict[str, Any] | None:
    """The latest ladder of ``game`` under ``results`` as JSON data, or None if there is
    none; ``QuarkadeError`` if the file is not a ladder."""
    path = results / game / LADDER_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as problem:
        raise QuarkadeError(f"cannot read {path}: {problem.strerror or problem}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise QuarkadeError(f"{path} is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != game:
        raise QuarkadeError(f"{path} is not a {FORMAT} ladder of {game}")
    return data


# -- the tables, as text and as a page --------------------------------------------------------


COLUMNS = ("rank", "bot", "Elo", "95% interval", "score", "comparisons", "stopped in")


def table_rows(table: dict[str, Any]) -> list[tuple[str, ...]]:
    """One ladder table (as JSON data) as rows of text under ``COLUMNS``."""
    return [(str(r["rank"]), r["label"], f"{r['elo']:.0f}", f"[{r['low']:.0f}, {r['high']:.0f}]",
             f"{100 * r['score']:.1f}%", f"{r['comparisons']:,}",
             f"{r['stopped']} games" if r["stopped"] else "") for r in table["rows"]]


def table_title(table: dict[str, Any]) -> str:
    return f"{table['players']} players ({table['games']:,} games)"


def about(ladder: dict[str, Any]) -> str:
    """What the ladder is, in one sentence."""
    options = ", ".join(f"{k}={v}" for k, v in ladder["options"].items())
    return (f"Bradley-Terry ratings on the Elo scale (mean 1500; 95% bootstrap intervals) from "
            f"a round robin, {ladder['games_per_matchup']} games per matchup, seats rotated, "
            f"seed {ladder['seed']}{', ' + options if options else ''}; made {ladder['created']}."
            " A bot stopped in some games (it raised, chose an illegal action or overran its "
            "time) played random from there in those games.")


def markdown(ladder: Ladder) -> str:
    data = ladder.to_dict()
    parts = [f"# {ladder.title} ladder", "", about(data), ""]
    if ladder.command:
        parts += [f"Command: `{ladder.command}`", ""]
    for table in data["tables"]:
        parts += [f"## {table_title(table)}", "", "| " + " | ".join(COLUMNS) + " |",
                  "|" + " --- |" * len(COLUMNS)]
        parts += ["| " + " | ".join(row) + " |" for row in table_rows(table)]
        parts.append("")
    return "\n".join(parts)


def page(ladder: Ladder) -> str:
    """The ladder as a self-contained HTML page."""
    data = ladder.to_dict()
    title = f"{ladder.title} ladder"
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Quarkade: {html.escape(title)}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(about(data))}</p>"]
    if ladder.command:
        parts.append(f"<p>Command: <code>{html.escape(ladder.command)}</code></p>")
    parts += [html_tables(data), "</body></html>", ""]
    return "\n".join(parts)


def html_tables(ladder: dict[str, Any]) -> str:
    """Every table of a ladder (as JSON data) as HTML, for the page and the web app."""
    return "\n".join(html_table(SummaryTable(table_title(t), COLUMNS, tuple(table_rows(t))))
                     for t in ladder["tables"])
