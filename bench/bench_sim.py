"""Simulation throughput: the same run with one worker and with two, and their ratio.

Run with ``make bench`` (or ``python bench/bench_sim.py [--games N] [GAME]``). Both rows
play the same games (same plan, same seed: the results are identical), so the ratio is
the speed-up of the local back end; on a machine shared with other work it comes out low.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource

from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.sim.plan import simulation_plan
from quarkade.sim.runner import run_plan


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the pool's workers): with two
    workers it should be about twice the wall time; much less means the cores were busy
    with other work."""
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(u.ru_utime + u.ru_stime for u in usage)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="hadronize")
    parser.add_argument("--agents", default="random,greedy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20000)
    args = parser.parse_args()
    console = Console(width=110)
    game = quarkade.load_game(args.game, players=args.players)
    plan = simulation_plan(args.game, dict(game.options), args.agents.split(","), args.games,
                           seed=1)
    console.print(f"Python {platform.python_version()} on {platform.machine()}, "
                  f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    table = Table("game", "agents", "players", "games", "workers", "seconds", "cpu seconds",
                  "games/s", "speed-up", title="quarkade simulate: one worker against two")
    speeds = {}
    results = {}
    for workers in (1, 2):
        cpu = cpu_seconds()
        outcome = run_plan(plan, workers=workers, keep_results=True)
        cpu = cpu_seconds() - cpu
        speeds[workers] = outcome.games_per_second
        results[workers] = outcome.results
        table.add_row(args.game, args.agents, str(args.players), f"{args.games:,}", str(workers),
                      f"{outcome.seconds:.2f}", f"{cpu:.2f}", f"{outcome.games_per_second:,.0f}",
                      f"{outcome.games_per_second / speeds[1]:.2f}x")
    assert results[1] == results[2], "one and two workers gave different results"
    console.print(table)


if __name__ == "__main__":
    main()
