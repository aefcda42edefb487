"""``quarkade simulate``, ``quarkade tournament`` and ``quarkade analyze``: many games at once.

The work is in ``quarkade.sim``; this module parses the command line, shows progress,
prints the summary tables and writes the report.
"""

from __future__ import annotations

import os
import random
import shlex
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from quarkade.agents import make_agent
from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.cli.output import MoveTimeOpt, check_move_time, console, errors, user_errors
from quarkade.core.errors import QuarkadeError
from quarkade.core.options import parse_option_pairs
from quarkade.core.records import Fault
from quarkade.core.registry import load_game
from quarkade.sim.backends import BACKENDS, ray_module
from quarkade.sim.engines import COMPILED, ENGINES, REFERENCE, choose_engine
from quarkade.sim.plan import Plan, simulation_plan, split_agent_list, tournament_plan
from quarkade.sim.ratings import Rating, rate_tally
from quarkade.sim.report import matplotlib_figure, write_report
from quarkade.sim.results import engine_of, iter_results
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import summary_of
from quarkade.sim.tables import summary_tables
from quarkade.sim.tally import Tally

INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C

GameArg = Annotated[str, typer.Argument(help="A game, as `quarkade games` lists it.")]
AgentsOpt = Annotated[str, typer.Option(
    "--agents", "-a", help="Agent specs separated by commas, e.g. random,greedy or "
    "greedy,mcts:iterations=200,c=1.4 (a key=value piece belongs to the agent before it).")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of seats.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="A game option NAME=VALUE (repeatable).")]
SeedOpt = Annotated[int | None, typer.Option(
    help="Run seed: every game's seed is derived from it and the game's index.")]
WorkersOpt = Annotated[int | None, typer.Option(
    help="Local worker processes (default: one per core).")]
OutOpt = Annotated[Path | None, typer.Option(help="Write one JSON line per game here.")]
ReportOpt = Annotated[Path | None, typer.Option(help="Write a self-contained HTML report here.")]
BackendOpt = Annotated[str, typer.Option(help="Where to play: local or ray.")]
AddressOpt = Annotated[str | None, typer.Option(
    help="The Ray cluster to use, HOST:PORT (with --backend ray).")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="Continue the --out file of an earlier, stopped run.")]
EngineOpt = Annotated[str, typer.Option(
    help="auto (the compiled engine when every agent has a compiled form, else the "
    "reference engine), compiled, or reference (the only one whose results hold the "
    "game's own tables).")]


def simulate(
    game: GameArg,
    agents: AgentsOpt,
    games: Annotated[int, typer.Option(help="How many games.")] = 1000,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    out: OutOpt = None,
    report: ReportOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    resume: ResumeOpt = False,
    engine: EngineOpt = "auto",
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
) -> None:
    """Play many games between agents, seats rotated, and summarize them."""
    _run_command("simulate", simulation_plan, game, agents, games, players, option, seed,
                 workers, out, report, backend, address, resume, engine, move_time)


def tournament(
    game: GameArg,
    agents: AgentsOpt,
    games: Annotated[int, typer.Option(help="Games per matchup (per pair with two players).")
                     ] = 100,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    out: OutOpt = None,
    report: ReportOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    resume: ResumeOpt = False,
    engine: EngineOpt = "auto",
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
) -> None:
    """Round robin between agents; Bradley-Terry ratings on the Elo scale with intervals."""
    _run_command("tournament", tournament_plan, game, agents, games, players, option, seed,
                 workers, out, report, backend, address, resume, engine, move_time)


def analyze(
    files: Annotated[list[Path], typer.Argument(help="Results files written with --out.")],
    report: ReportOpt = None,
) -> None:
    """Summarize results files (several runs of one game together, e.g. player counts)."""
    with user_errors():
        tally = Tally()
        names: set[str] = set()
        engines: set[str] = set()
        for path in files:
            for result in iter_results(path):
                tally.add(result)
                names.add(result["game"])
                engines.add(engine_of(result))
        if not tally.games:
            raise QuarkadeError("the files hold no results")
        if len(names) > 1:
            raise QuarkadeError(f"the files mix games ({', '.join(sorted(names))}); analyze "
                                "one game")
        if report is not None:
            matplotlib_figure()
    agents = list(dict.fromkeys(spec for _, seats, _, _ in tally.outcomes for spec in seats))
    command = "quarkade analyze " + " ".join(shlex.quote(str(f)) for f in files)
    _show(tally, agents, report, command,
          {"game": tally.game, "games": f"{tally.games:,}", "files": ", ".join(map(str, files)),
           "engine": ", ".join(sorted(engines))})


def _run_command(kind: str, make_plan: Callable[..., Plan], game: str, agents: str, games: int,
                 players: int | None, option: list[str] | None, seed: int | None,
                 workers: int | None, out: Path | None, report: Path | None, backend: str,
                 address: str | None, resume: bool, engine: str, move_time: float) -> None:
    with user_errors():
        check_move_time(move_time)
        options: dict[str, Any] = parse_option_pairs(option or [])
        if players is not None:
            options["players"] = players
        loaded = load_game(game, **options)
        specs = split_agent_list(agents)
        for spec in specs:
            make_agent(spec, game)
        if games < 1:
            raise QuarkadeError(f"--games {games}: play at least one game")
        if workers is not None and workers < 1:
            raise QuarkadeError(f"--workers {workers}: use at least one worker")
        if backend not in BACKENDS:
            raise QuarkadeError(f"--backend {backend!r}: the back ends are "
                                f"{', '.join(BACKENDS)}")
        if address is not None and backend != "ray":
            raise QuarkadeError("--address goes with --backend ray (the Ray cluster's "
                                "HOST:PORT)")
        if backend == "ray":
            ray_module()
        if report is not None:
            matplotlib_figure()
        if resume and out is None:
            raise QuarkadeError("--resume continues an --out file; name it with --out")
        if seed is None:
            seed = _seed_to_resume(out) if resume and out is not None else None
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
            console.print(f"seed {seed} (--seed {seed} plays the same games again)")
        plan = make_plan(game, dict(loaded.options), specs, games, seed, move_time)
        if not (resume and out is not None and out.exists()):
            engine = choose_engine(plan, engine)  # a resumed run follows its file
        elif engine not in ENGINES:
            choose_engine(plan, engine)  # says which engines there are
        workers = workers or os.cpu_count() or 1
        # Ctrl-C must reach us even when started from a shell that ignores it for
        # background jobs (a script's `cmd &`): the run stops cleanly on it.
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            with _progress() as advance:
                outcome = run_plan(plan, out, workers, backend, address, resume, advance,
                                   engine, keep_results=False)
        finally:
            signal.signal(signal.SIGINT, previous)
    command = _command_line(kind, plan, out, workers, backend, address, outcome.engine)
    played = (f"{outcome.played:,} games in {outcome.seconds:.1f} s "
              f"({outcome.games_per_second:,.0f} games/s, {ENGINE_NAMES[outcome.engine]})")
    if outcome.resumed:
        played += f" after the {outcome.resumed:,} already in {out}"
    errors.print(played, markup=False)
    say_flagged(outcome.tally)
    if outcome.interrupted:
        errors.print(f"stopped: {outcome.tally.games:,} finished games kept"
                     + (f" in {out}; add --resume to continue" if out else ""), markup=False)
    if outcome.tally.games:
        about = {"game": game, "options": ", ".join(f"{k}={v}" for k, v in plan.options.items()),
                 "agents": ", ".join(plan.agents), "seed": str(plan.seed),
                 "games": f"{outcome.tally.games:,} of {plan.total:,}",
                 "engine": ENGINE_NAMES[outcome.engine]}
        _show(outcome.tally, plan.agents, report, command, about, seed=plan.seed)
        if outcome.engine == COMPILED:
            console.print(COMPILED_NOTE, markup=False)
    if outcome.interrupted:
        raise typer.Exit(INTERRUPTED)


ENGINE_NAMES = {COMPILED: "compiled engine", REFERENCE: "reference engine"}
COMPILED_NOTE = ("Played by the compiled engine: the game's own tables (tags, tallies, lead "
                 "changes) come with --engine reference.")


def _show(tally: Tally, agents: list[str], report: Path | None, command: str,
          about: dict[str, str], seed: int = 0) -> None:
    summary = summary_of(tally)
    ratings: list[Rating] | None = None
    if len(agents) >= 2:
        ratings = rate_tally(tally, agents, seed=seed)
    for table in summary_tables(summary, ratings):
        rich_table = Table(*table.columns, title=table.title, title_justify="left",
                           show_edge=False, caption=table.note or None,
                           caption_justify="left")
        for row in table.rows:
            rich_table.add_row(*row)
        console.print(rich_table)
        console.print()
    if report is not None:
        with user_errors():
            write_report(report, summary, ratings, command, about)
        console.print(f"report written to {report}", markup=False)


def say_flagged(tally: Tally) -> None:
    """One line per plug-in bot stopped in some games: how many, and the first message."""
    for agent, (count, stored) in tally.faults.items():
        fault = Fault(**stored)
        first = fault.message if fault.whole else \
            f"at seat {fault.seat}, its move {fault.move}, it {fault.message}"
        first += f" ({fault.detail})" if fault.detail else ""
        errors.print(f"flagged: {agent} was stopped in {count:,} game"
                     f"{'s' if count != 1 else ''} (its seat played random from "
                     f"there); the first: {first}", markup=False, soft_wrap=True)


def _seed_to_resume(out: Path) -> int | None:
    """The run seed of an existing results file (so ``--resume`` needs no ``--seed``)."""
    if not out.exists() or out.stat().st_size == 0:
        return None
    for result in iter_results(out):
        seed = result.get("run_seed")
        return seed if isinstance(seed, int) else None
    return None


def _command_line(kind: str, plan: Plan, out: Path | None, workers: int, backend: str,
                  address: str | None, engine: str = REFERENCE) -> str:
    """The command that plays the same games again (every choice spelled out)."""
    words = ["quarkade", kind, plan.game, "--agents", ",".join(plan.agents),
             "--games", str(plan.games), "--players", str(plan.players)]
    for name, value in plan.options.items():
        if name != "players":
            words += ["--option", f"{name}={value}"]
    words += ["--seed", str(plan.seed)]
    if plan.move_time != DEFAULT_MOVE_TIME:
        words += ["--move-time", f"{plan.move_time:g}"]
    if out is not None:
        words += ["--out", str(out)]
    words += ["--workers", str(workers)] if backend == "local" else ["--backend", backend]
    if address:
        words += ["--address", address]
    words += ["--engine", engine]
    return " ".join(shlex.quote(w) for w in words)


class _GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("? games/s" if speed is None else f"{speed:,.0f} games/s")


class _progress:
    """Progress of a run: a live bar on a terminal, otherwise a line at each 10% (and at
    the first games written), so a run of hours leaves a readable log."""

    def __init__(self) -> None:
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.started = 0.0
        self.start_done = 0
        self.next_line = 0

    def __enter__(self) -> Callable[[int, int], None]:
        return self.update

    def update(self, done: int, total: int) -> None:
        # The bar (and its refresh thread) starts at the first call, which the runner makes
        # after its workers are forked.
        if self.bar is None and self.task is None and errors.is_terminal:
            self.bar = Progress(
                TextColumn("playing"), BarColumn(), MofNCompleteColumn(), _GamesPerSecond(),
                TimeRemainingColumn(), console=errors, refresh_per_second=4)
            self.task = self.bar.add_task("games", total=total, completed=done)
            self.bar.start()
        if self.started == 0.0:  # the call before play: where this run starts from
            self.started, self.start_done, self.next_line = time.perf_counter(), done, done + 1
            return
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, completed=done)
        elif done >= self.next_line:
            elapsed = time.perf_counter() - self.started
            speed = (done - self.start_done) / elapsed if elapsed > 0 else 0.0
            left = (total - done) / speed if speed > 0 else 0.0
            errors.print(f"{done:,} of {total:,} games written ({speed:,.0f} games/s, "
                         f"{left:,.0f} s left)", markup=False)
            self.next_line = done + max(1, total // 10)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def compile_engines() -> None:
    """Compile the compiled engines now (else the first run after an install pays it);
    the code is kept on disk."""
    with user_errors():
        from quarkade.core.registry import compiled_engine, has_compiled_engine, list_games

        names = [name for name in list_games() if has_compiled_engine(name)]
        started = time.perf_counter()
        modules = {name: compiled_engine(name) for name in names}
        from quarkade.core import jit

        kept = jit.CACHE_DIR
        console.print(f"numba loaded in {time.perf_counter() - started:.1f} s; compiled "
                      f"code is kept in {kept}", markup=False)
        for name, module in modules.items():
            began = time.perf_counter()
            module.warm_up(load_game(name))
            console.print(f"{name}: ready in {time.perf_counter() - began:.1f} s", markup=False)
        from quarkade.agents import compiled_search, warming

        began = time.perf_counter()
        compiled_search.warm_up()
        warming.mark_ready()  # server workers load it ahead from now on
        console.print(f"the search (mcts, ismcts): ready in {time.perf_counter() - began:.1f} "
                      "s", markup=False)
