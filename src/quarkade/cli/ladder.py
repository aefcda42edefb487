"""``quarkade ladder GAME``: every installed bot and level of a game, rated per player count
(``quarkade.sim.ladder``), shown as tables and written where the web app finds it."""

from __future__ import annotations

import os
import random
import shlex
import signal
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from quarkade.agents import make_agent
from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.cli.output import MoveTimeOpt, check_move_time, console, errors, user_errors
from quarkade.cli.simulate import INTERRUPTED, say_flagged
from quarkade.core.errors import QuarkadeError
from quarkade.core.options import parse_option_pairs
from quarkade.core.registry import game_class, load_game
from quarkade.sim.ladder import COLUMNS, about, run_ladder, table_rows, table_title
from quarkade.sim.plan import split_agent_list
from quarkade.sim.results import read_results

DEFAULT_RESULTS = Path("ladder")
ResultsOpt = Annotated[Path, typer.Option(
    help="Where ladders are kept, a folder per game (quarkade serve --ladder reads it).")]


def ladder(
    game: Annotated[str, typer.Argument(help="A game, as `quarkade games` lists it.")],
    players: Annotated[list[int] | None, typer.Option(
        "--players", "-p", help="A player count to rate (repeatable; default: every count "
        "the game allows).")] = None,
    games: Annotated[int, typer.Option(help="Games per matchup.")] = 50,
    agents: Annotated[str | None, typer.Option(
        "--agents", "-a", help="Rate only these (levels, bots, plug-ins or agent specs, "
        "separated by commas); default: every level, bot and installed plug-in.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option NAME=VALUE (repeatable).")] = None,
    seed: Annotated[int | None, typer.Option(help="Run seed (same seed, same games).")] = None,
    workers: Annotated[int | None, typer.Option(
        help="Local worker processes (default: one per core).")] = None,
    results: ResultsOpt = DEFAULT_RESULTS,
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
) -> None:
    """Rate every installed bot and level of a game against each other, per player count."""
    with user_errors():
        check_move_time(move_time)
        cls = game_class(game)
        options: dict[str, Any] = parse_option_pairs(option or [])
        if "players" in options:
            raise QuarkadeError("give player counts with --players, not --option players=")
        load_game(game, **options)  # refuses a bad option before any game is played
        counts = list(dict.fromkeys(players or range(cls.min_players, cls.max_players + 1)))
        only = split_agent_list(agents) if agents is not None else None
        for spec in only or ():
            make_agent(spec, game)
        if games < 1:
            raise QuarkadeError(f"--games {games}: play at least one game per matchup")
        if workers is not None and workers < 1:
            raise QuarkadeError(f"--workers {workers}: use at least one worker")
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        workers = workers or os.cpu_count() or 1
        words = ["quarkade", "ladder", game, *(w for n in counts for w in ("--players", str(n))),
                 "--games", str(games), "--seed", str(seed), "--results", str(results)]
        if only is not None:
            words += ["--agents", ",".join(only)]
        words += [w for pair in option or [] for w in ("--option", pair)]
        if move_time != DEFAULT_MOVE_TIME:
            words += ["--move-time", f"{move_time:g}"]
        command = " ".join(shlex.quote(w) for w in words)
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            made = run_ladder(game, counts, games, seed, results, options, only, workers,
                              move_time, command, on_progress=_progress)
        except KeyboardInterrupt:
            errors.print("stopped: the ladder was not written (the one before stays)",
                         markup=False)
            raise typer.Exit(INTERRUPTED) from None
        finally:
            signal.signal(signal.SIGINT, previous)
    data = made.to_dict()
    console.print(f"[bold]{made.title} ladder[/bold]")
    console.print(about(data), markup=False)
    for table in data["tables"]:
        shown = Table(*COLUMNS, title=table_title(table), title_justify="left",
                      show_edge=False)
        for row in table_rows(table):
            shown.add_row(*row)
        console.print(shown)
        say_flagged(read_results(results / game / f"games-{table['players']}p.jsonl")[0])
    folder = results / game
    console.print(f"written: {folder / 'ladder.md'}, {folder / 'ladder.html'}, "
                  f"{folder / 'ladder.json'}", markup=False, soft_wrap=True)


def _progress(players: int, done: int, total: int) -> None:
    if done == 0 or done == total:
        errors.print(f"{players} players: {done:,} of {total:,} games", markup=False)
