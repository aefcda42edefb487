"""``quarkade sweep``: the same agents over a grid of player counts and option values.

The grid and its measures are in ``quarkade.sim.sweep``; each cell is a ``quarkade
simulate`` run (``quarkade.sim.runner``), on the compiled engine when it can. This module
parses the command line, prints a line per cell and the table, and writes the report.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from quarkade.agents import make_agent
from quarkade.cli.output import console, errors, user_errors
from quarkade.cli.simulate import ENGINE_NAMES, AgentsOpt, EngineOpt, GameArg, ReportOpt
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import load_game
from quarkade.sim.engines import choose_engine
from quarkade.sim.plan import simulation_plan, split_agent_list
from quarkade.sim.report import matplotlib_figure, write_sweep_report
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import summary_of
from quarkade.sim.sweep import (
    Cell,
    build_axes,
    interval_text,
    measure_title,
    measures,
    settings,
)


def sweep(
    game: GameArg,
    agents: AgentsOpt,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help="Player counts: 2..6, 2,4,6 or one count.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="An option and its values, NAME=VALUES (repeatable): "
        "goal=6..14, goal=6..14..2 or peek_first=false,true.")] = None,
    games: Annotated[int, typer.Option(help="Games at each setting.")] = 10_000,
    seed: Annotated[int | None, typer.Option(help="Run seed, the same at every setting.")
                    ] = None,
    workers: Annotated[int | None, typer.Option(
        help="Local worker processes (default: one per core).")] = None,
    report: ReportOpt = None,
    engine: EngineOpt = "auto",
) -> None:
    """Play the same agents at every setting of a grid; the first-seat edge, game length,
    draws and an agent's win rate at each, with intervals (heat maps in --report)."""
    with user_errors():
        specs = split_agent_list(agents)
        for spec in specs:
            make_agent(spec, game)
        axes = build_axes(game, players, option or [])
        if not axes:
            raise QuarkadeError("nothing to sweep: give --players and/or --option "
                                "NAME=VALUES, e.g. --players 2..6 --option goal=6..14")
        if games < 1:
            raise QuarkadeError(f"--games {games}: play at least one game at each setting")
        if workers is not None and workers < 1:
            raise QuarkadeError(f"--workers {workers}: use at least one worker")
        if report is not None:
            matplotlib_figure()
        grid = settings(axes)
        plans = [simulation_plan(game, dict(load_game(game, **setting).options), specs, games,
                                 0) for setting in grid]  # every setting is a game first
        engines = {choose_engine(plan, engine) for plan in plans}
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
            console.print(f"seed {seed} (--seed {seed} plays the same games again)")
        workers = workers or os.cpu_count() or 1
        cells = []
        started = time.perf_counter()
        for number, (setting, plan) in enumerate(zip(grid, plans, strict=True), start=1):
            plan = simulation_plan(game, plan.options, specs, games, seed)
            outcome = run_plan(plan, workers=workers, engine=engine, keep_results=False)
            if outcome.interrupted:
                raise typer.Exit(130)
            cells.append(Cell(setting, summary_of(outcome.tally), outcome.engine,
                              outcome.seconds))
            shown = ", ".join(f"{k}={v}" for k, v in setting.items())
            errors.print(f"{number}/{len(grid)} {shown}: {games:,} games in "
                         f"{outcome.seconds:.1f} s ({ENGINE_NAMES[outcome.engine]})",
                         markup=False)
    shown_measures = measures(specs)
    table = Table(*(axis.name for axis in axes), "games",
                  *(measure_title(m, specs) + " [95% CI]" for m in shown_measures),
                  title=f"Sweep: {game}, {', '.join(specs)}", title_justify="left",
                  show_edge=False)
    for cell in cells:
        table.add_row(*(str(cell.setting[axis.name]) for axis in axes),
                      f"{cell.summary.games:,}",
                      *(interval_text(m.read(cell.summary, specs[0]), m.unit)
                        for m in shown_measures))
    Console(width=max(console.width, 150), highlight=False).print(table)  # one line a row
    errors.print(f"{len(cells) * games:,} games in {time.perf_counter() - started:.1f} s",
                 markup=False)
    if report is not None:
        command = _command_line(game, specs, players, option or [], games, seed, engine)
        about = {"game": game, "agents": ", ".join(specs), "games per setting": f"{games:,}",
                 "settings": f"{len(cells)}", "seed": str(seed),
                 "engine": ", ".join(ENGINE_NAMES[e] for e in sorted(engines))}
        with user_errors():
            write_sweep_report(report, game, specs, axes, cells, command, about)
        console.print(f"report written to {report}", markup=False)


def _command_line(game: str, specs: list[str], players: str | None, options: list[str],
                  games: int, seed: int, engine: str) -> str:
    words = ["quarkade", "sweep", game, "--agents", ",".join(specs)]
    if players is not None:
        words += ["--players", players]
    for pair in options:
        words += ["--option", pair]
    words += ["--games", str(games), "--seed", str(seed), "--engine", engine]
    return " ".join(shlex.quote(w) for w in words)


__all__ = ["sweep"]
