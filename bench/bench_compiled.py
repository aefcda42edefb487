"""The compiled engines against the protocol loop: issue 17's goals, each marked met or not.

Run with ``make bench`` (or ``python bench/bench_compiled.py [--seconds S] [--skip-cold]
[--skip-memory] [--parts 1,2,3,4]``). Parts, all in this one run unless ``--parts`` says:

1. Games per second of random self-play, one process, one core: the reference engine
   through the protocol (``bench_engine.playouts``) against the game's compiled engine
   (``play_games``, one batch), measured alternately, two rounds each, in CPU time (the
   steadier clock when other work shares the machine), and their ratio against the goal.
2. ``quarkade simulate`` on the compiled engine with one worker and with two (the same
   games; the goal: two at least 1.8x one).
3. ``quarkade simulate hadronize --agents random,greedy --games 1000000 --seed 1`` as a
   user runs it, start-up and loading the compiled code from the disk cache included
   (goal: under 60 s), and the same with ten million games, with its peak memory (goal:
   under 600 MB).
4. The first run's compile time: ``quarkade compile`` with an empty cache.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.core import jit
from quarkade.core.registry import compiled_engine
from quarkade.sim.plan import simulation_plan
from quarkade.sim.runner import run_plan

sys.path.insert(0, str(Path(__file__).parent))
from bench_engine import playouts

# (game, options, goal): the table.
ROWS = [
    ("hadronize", {"players": 2}, 100),
    ("hadronize", {"players": 6}, 100),
    ("dead-cat", {"players": 2}, 50),
    ("dead-cat", {"players": 5}, 50),
    ("card-commons", {"variant": "classic"}, 30),
    ("card-commons", {"variant": "tutorial"}, 30),
    ("decoherence", {"players": 2}, 50),  # issue 27 (bench_decoherence.py: the rest)
]
QUARKADE = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


def compiled_rate(game: quarkade.Game, seconds: float) -> float:
    """Random self-play games per CPU second on the compiled engine, one batch at a time."""
    module = compiled_engine(game.name)
    template = module.new_state(game)
    random_seats = np.array([[module.AGENTS["random"]]], dtype=np.int64)
    module.play_games(template, random_seats, 10**9, 1, 0, jit.new_results(100))  # loaded
    batch, played, start, spent = 1000, 0, time.process_time(), 0.0
    while spent < seconds:
        module.play_games(template, random_seats, 10**9, 1, played, jit.new_results(batch))
        played += batch
        spent = time.process_time() - start
        batch = min(batch * 2, 200_000)
    return played / spent


def ratios(seconds: float) -> Table:
    table = Table("game", "options", "protocol loop games/s", "compiled games/s", "ratio",
                  "goal", "met", title="compiled batch against the protocol loop, random "
                  "self-play, one core (CPU time)")
    for name, options, goal in ROWS:
        game = quarkade.load_game(name, **options)
        loop = compiled = 0.0
        for _ in range(2):  # alternately, so that a busy minute weighs on both
            loop += playouts(game, seconds / 2, clock=time.process_time)[0] / 2
            compiled += compiled_rate(game, seconds / 2) / 2
        ratio = compiled / loop
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        table.add_row(name, shown, f"{loop:,.0f}", f"{compiled:,.0f}", f"{ratio:,.0f}x",
                      f">= {goal}x", "yes" if ratio >= goal else "NO")
    return table


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (pool workers)."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                          resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def workers(games: int) -> Table:
    table = Table("game", "agents", "games", "workers", "seconds", "cpu seconds", "games/s",
                  "speed-up", "goal", "met", title="quarkade simulate, compiled engine: one "
                  "worker against two (wall clock; cpu seconds: this process and its workers)")
    game = quarkade.load_game("hadronize", players=2)
    plan = simulation_plan("hadronize", dict(game.options), ["random", "greedy"], games, 1)
    run_plan(plan, workers=1, engine="compiled", keep_results=False)  # loaded before timing
    speeds = {}
    tallies = {}
    for count in (1, 2):
        cpu = cpu_seconds()
        outcome = run_plan(plan, workers=count, engine="compiled", keep_results=False)
        cpu = cpu_seconds() - cpu
        speeds[count] = outcome.games_per_second
        tallies[count] = outcome.tally
        speedup = speeds[count] / speeds[1]
        table.add_row("hadronize", "random,greedy", f"{games:,}", str(count),
                      f"{outcome.seconds:.2f}", f"{cpu:.2f}", f"{speeds[count]:,.0f}",
                      f"{speedup:.2f}x", "" if count == 1 else ">= 1.8x",
                      "" if count == 1 else "yes" if speedup >= 1.8 else "NO")
    assert tallies[1] == tallies[2], "one and two workers counted different games"
    return table


def command(games: int) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB of the largest process, and the summary's last line,
    of ``quarkade simulate hadronize --agents random,greedy --games N --seed 1``.

    The peak is that command's own (``os.wait4`` on it: the largest of its process and
    the workers it waited for), not this process's other children."""
    with tempfile.TemporaryFile("w+") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen([*QUARKADE, "simulate", "hadronize", "--agents",
                                    "random,greedy", "--games", str(games), "--seed", "1"],
                                   stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stderr.seek(0)
        shown = stderr.read()
    if process.returncode != 0:
        raise SystemExit(f"quarkade simulate --games {games} failed:\n{shown}")
    played = [line for line in shown.splitlines() if " games in " in line]
    return seconds, usage.ru_maxrss / 1024, played[-1] if played else ""


def whole_runs(skip_memory: bool) -> Table:
    table = Table("command", "wall seconds", "peak RSS MB (largest process)", "reported",
                  "goal", "met", title="quarkade simulate hadronize --agents random,greedy "
                  "--games N --seed 1 (two workers, compiled code cached on disk)")
    seconds, peak, line = command(1_000_000)
    table.add_row("--games 1000000", f"{seconds:.1f}", f"{peak:.0f}", line, "< 60 s",
                  "yes" if seconds < 60 else "NO")
    if not skip_memory:  # the same peak at ten times the games: memory is flat
        seconds, peak, line = command(10_000_000)
        table.add_row("--games 10000000", f"{seconds:.1f}", f"{peak:.0f}", line, "< 600 MB",
                      "yes" if peak < 600 else "NO")
    return table


def cold_compile() -> Table:
    table = Table("step", "seconds", title="first run: quarkade compile with an empty cache")
    with tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        done = subprocess.run([*QUARKADE, "compile"], capture_output=True, text=True,
                              check=True, env={**os.environ, "QUARKADE_JIT_CACHE": empty})
        total = time.perf_counter() - start
        for line in done.stdout.splitlines():
            if "ready in" in line:
                name, _, rest = line.partition(": ready in ")
                table.add_row(name, rest.removesuffix(" s"))
        start = time.perf_counter()
        subprocess.run([*QUARKADE, "compile"], capture_output=True, check=True,
                       env={**os.environ, "QUARKADE_JIT_CACHE": empty})
        again = time.perf_counter() - start
    table.add_row("all, start-up included", f"{total:.1f}")
    table.add_row("all again, from the cache", f"{again:.1f}")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per side of a ratio row")
    parser.add_argument("--workers-games", type=int, default=4_000_000)
    parser.add_argument("--skip-cold", action="store_true", help="leave out part 4")
    parser.add_argument("--skip-memory", action="store_true", help="leave out the 10M run")
    parser.add_argument("--parts", default="1,2,3,4", help="which parts, e.g. 1 or 2,3")
    args = parser.parse_args()
    parts = {part.strip() for part in args.parts.split(",")}
    if not parts <= {"1", "2", "3", "4"}:
        parser.error(f"--parts {args.parts!r}: the parts are 1, 2, 3 and 4")
    console = Console(width=140)
    console.print(f"Python {platform.python_version()} on {platform.machine()}, "
                  f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if "1" in parts:
        console.print(ratios(args.seconds))
    if "2" in parts:
        console.print(workers(args.workers_games))
    if "3" in parts:
        console.print(whole_runs(args.skip_memory))
    if "4" in parts and not args.skip_cold:
        console.print(cold_compile())


if __name__ == "__main__":
    main()
