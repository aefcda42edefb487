"""``quarkade sweep``: the same agents over a grid of player counts and option values, or a
deck over a grid of its words' counts.

The grid and its measures are in ``quarkade.sim.sweep``; each cell is a ``quarkade
simulate`` run (``quarkade.sim.runner``), or with ``--deck`` a deck test against the
presets (``quarkade.sim.decktest``), on the compiled engine when it can. This module
parses the command line, prints a line per cell and the table, and writes the report.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from quarkade.agents import make_agent
from quarkade.cli.output import console, errors, user_errors
from quarkade.cli.simulate import ENGINE_NAMES, AgentsOpt, EngineOpt, GameArg, ReportOpt
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import load_game
from quarkade.sim.decktest import DeckScore, decks_of, run_deck_test
from quarkade.sim.engines import choose_engine
from quarkade.sim.plan import simulation_plan, split_agent_list
from quarkade.sim.report import matplotlib_figure, write_sweep_report
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import summary_of
from quarkade.sim.sweep import (
    Cell,
    DeckSummary,
    build_axes,
    deck_axes,
    deck_for,
    deck_measures,
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
    deck: Annotated[list[str] | None, typer.Option(
        "--deck", help="A word of a deck and its counts, WORD=COUNTS (repeatable): "
        "kiki=0..4. Sweeps the deck's composition instead: at each setting the deck "
        "(--base, the other words of each kind making up its ten) is tested against "
        "every preset, as 'Test this deck' does.")] = None,
    base: Annotated[str | None, typer.Option(
        help="The deck whose words --deck changes (a preset or word counts; default: the "
        "first preset).")] = None,
) -> None:
    """Play the same agents at every setting of a grid; the first-seat edge, game length,
    draws and an agent's win rate at each, with intervals (heat maps in --report). With
    --deck, a deck's win rate against the presets at every composition of the grid."""
    if deck:
        _deck_sweep(game, agents, deck, base, players, option, games, seed, workers, report,
                    engine)
        return
    with user_errors():
        if base is not None:
            raise QuarkadeError("--base is the deck a --deck sweep changes; give --deck too")
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


def _deck_sweep(game: str, agents: str, pairs: list[str], base: str | None,
                players: str | None, option: list[str] | None, games: int, seed: int | None,
                workers: int | None, report: Path | None, engine: str) -> None:
    """``quarkade sweep GAME --deck WORD=COUNTS ...`` (see ``sweep``)."""
    with user_errors():
        decks = decks_of(game)
        if players is not None or option:
            raise QuarkadeError("a --deck sweep changes only the deck: leave out --players "
                                "and --option")
        specs = split_agent_list(agents)
        if len(specs) != 1:
            raise QuarkadeError(f"--agents {agents!r}: a deck sweep takes one bot, which "
                                f"plays both seats (e.g. --agents {decks.TEST_AGENT})")
        make_agent(specs[0], game)
        if seed is not None:
            raise QuarkadeError("a deck sweep plays the games 'Test this deck' plays: it "
                                "takes no --seed")
        if games < 1:
            raise QuarkadeError(f"--games {games}: play at least one game against each "
                                "preset")
        if workers is not None and workers < 1:
            raise QuarkadeError(f"--workers {workers}: use at least one worker")
        base = base or next(iter(decks.PRESETS))
        try:
            decks.parse_deck(base)
        except ValueError as problem:  # names the rule the deck breaks
            raise QuarkadeError(f"--base {base!r}: {problem}") from None
        axes = deck_axes(game, pairs)
        if report is not None:
            matplotlib_figure()
        workers = workers or os.cpu_count() or 1
        cells = []
        missing = []
        started = time.perf_counter()
        grid = settings(axes)
        for number, setting in enumerate(grid, start=1):
            shown = ", ".join(f"{k} {v}" for k, v in setting.items())
            tested = deck_for(game, base, setting)
            if tested is None:
                missing.append(shown)
                continue
            began = time.perf_counter()
            scores: dict[str, DeckScore] = run_deck_test(game, tested, games, workers,
                                                         engine, specs[0])
            seconds = time.perf_counter() - began
            used = sorted(scores["all"].engines)
            cells.append(Cell(setting, DeckSummary(scores), used[0] if used else engine,
                              seconds))
            errors.print(f"{number}/{len(grid)} {shown}: {scores['all'].games:,} games in "
                         f"{seconds:.1f} s ({', '.join(ENGINE_NAMES[e] for e in used)})",
                         markup=False)
    shown_measures = deck_measures(game)
    table = Table(*(axis.name for axis in axes), "games",
                  *(m.name + " [95% CI]" for m in shown_measures),
                  title=f"Deck sweep: {game}, {base} changed, {specs[0]} at both seats",
                  title_justify="left", show_edge=False)
    for cell in cells:
        table.add_row(*(str(cell.setting[axis.name]) for axis in axes),
                      f"{cell.summary.games:,}",
                      *(interval_text(m.read(cell.summary, specs[0]), m.unit)
                        for m in shown_measures))
    Console(width=max(console.width, 150), highlight=False).print(table)
    if missing:
        errors.print(f"no legal deck at {len(missing)} setting(s): {'; '.join(missing)}",
                     markup=False)
    errors.print(f"{sum(c.summary.games for c in cells):,} games in "
                 f"{time.perf_counter() - started:.1f} s", markup=False)
    if report is not None:
        words = ["quarkade", "sweep", game, "--agents", specs[0], "--base", base]
        for pair in pairs:
            words += ["--deck", pair]
        words += ["--games", str(games), "--engine", engine]
        command = " ".join(shlex.quote(w) for w in words)
        about = {"game": game, "deck changed": base, "bot at both seats": specs[0],
                 "games against each preset": f"{games:,}", "settings": f"{len(cells)}",
                 "settings with no legal deck": "; ".join(missing) or "none",
                 "engine": ", ".join(sorted({ENGINE_NAMES[c.engine] for c in cells}))}
        with user_errors():
            write_sweep_report(report, game, specs, axes, cells, command, about,
                               shown_measures)
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
