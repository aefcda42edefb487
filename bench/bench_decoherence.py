"""Decoherence at compiled speed: issue 27's goals, each marked met or not.

Run with ``make bench`` (or ``python bench/bench_decoherence.py [--seconds S]
[--parts 1,2,3,4,5]``). Parts, all in this one run unless ``--parts`` says:

1. Games per CPU second of random self-play, one process: the reference engine through
   the protocol (``bench_engine.playouts``) against the compiled engine (``play_games``),
   measured alternately, two rounds each; goal: compiled at least 50x.
2. Search iterations per CPU second of ``ismcts`` on Decoherence from ``bench_search``'s
   mid-game position, compiled against Python (``compiled=0``), alternately; goal: 30x.
3. ``quarkade simulate decoherence --agents random --games 100000 --seed 1`` as a user
   runs it (start-up and loading the compiled code from the disk cache included); goal:
   it says it ran the compiled engine, under 90 s.
4. "Test this deck": ``quarkade deck-test`` with the web's 2,000 games against each
   preset (8,000 games, two workers); goal: under 30 s.
5. A hint (every move's win chance, from one search) at each decision of seat 0 in a game
   between ``hard`` and ``medium``, and that game's review (seat 0); goals on a quiet
   machine: every hint within 2 s, the review within 20 s (see ``hints_and_review``).

The machine may be shared: the load average is printed, and the ratios are measured side
by side in CPU time.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.agents import make_agent, turn_for
from quarkade.core import jit
from quarkade.core.registry import compiled_engine

sys.path.insert(0, str(Path(__file__).parent))
from bench_engine import playouts
from bench_search import midgame_decision

QUARKADE = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


def compiled_rate(game: quarkade.Game, seconds: float) -> float:
    """Random self-play games per CPU second on the compiled engine."""
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


def engine_ratio(seconds: float) -> Table:
    table = Table("protocol loop games/CPU s", "compiled games/CPU s", "ratio", "goal", "met",
                  title="Decoherence, random self-play, one core (CPU time, side by side)")
    game = quarkade.load_game("decoherence")
    loop = compiled = 0.0
    for _ in range(2):  # alternately, so that a busy minute weighs on both
        loop += playouts(game, seconds / 2, clock=time.process_time)[0] / 2
        compiled += compiled_rate(game, seconds / 2) / 2
    ratio = compiled / loop
    table.add_row(f"{loop:,.0f}", f"{compiled:,.0f}", f"{ratio:,.0f}x", ">= 50x",
                  "yes" if ratio >= 50 else "NO")
    return table


def with_params(spec: str, params: str) -> str:
    """``spec`` with more ``key=value`` parameters."""
    return f"{spec}{',' if ':' in spec else ':'}{params}"


def search_rate(spec: str, state: quarkade.State, seconds: float) -> float:
    """Iterations per CPU second of the search ``spec`` from ``state``."""
    agent = make_agent(with_params(spec, f"time={seconds}"), "decoherence")
    agent.act(turn_for(state), random.Random(0))  # loaded (compiled) before timing
    start = time.process_time()
    agent.act(turn_for(state), random.Random(1))
    return float(agent.last_iterations) / (time.process_time() - start)


def search_ratio(seconds: float) -> Table:
    table = Table("spec", "Python iterations/CPU s", "compiled iterations/CPU s", "ratio",
                  "goal", "met", title="Decoherence ismcts from a mid-game position, one "
                  "core (CPU time, side by side)")
    state = midgame_decision("decoherence")
    for spec in ("ismcts", "ismcts:rollout=greedy"):
        python = compiled = 0.0
        for _ in range(2):
            python += search_rate(with_params(spec, "compiled=0"), state, seconds / 2) / 2
            compiled += search_rate(spec, state, seconds / 2) / 2
        ratio = compiled / python
        goal = spec == "ismcts"  # the goal is the default search's
        table.add_row(spec, f"{python:,.0f}", f"{compiled:,.0f}", f"{ratio:,.1f}x",
                      ">= 30x" if goal else "", ("yes" if ratio >= 30 else "NO") if goal else "")
    return table


def timed(*args: str) -> tuple[float, str, str]:
    """Wall seconds, stdout and stderr of a ``quarkade`` command."""
    start = time.perf_counter()
    done = subprocess.run([*QUARKADE, *args], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout, done.stderr


def commands() -> Table:
    table = Table("command", "wall seconds", "reported", "goal", "met",
                  title="as a user runs them (compiled code cached on disk, two cores)")
    seconds, _, shown = timed("simulate", "decoherence", "--agents", "random", "--games",
                              "100000", "--seed", "1")
    line = next((x for x in shown.splitlines() if " games in " in x), "")
    table.add_row("quarkade simulate decoherence --agents random --games 100000 --seed 1",
                  f"{seconds:.1f}", line, "compiled, < 90 s",
                  "yes" if seconds < 90 and "compiled engine" in line else "NO")
    seconds, _, shown = timed("deck-test", "surge", "--workers", "2")
    line = next((x for x in shown.splitlines() if " games in " in x), "")
    table.add_row("quarkade deck-test surge --workers 2 (8,000 games)", f"{seconds:.1f}", line,
                  "< 30 s", "yes" if seconds < 30 else "NO")
    return table


def hints_and_review(games: int) -> Table:
    """A hint is one search of ``HINT_SECONDS`` (wall clock) from the seat's view
    (``learn.hints``): on a quiet machine it takes those seconds plus its work outside the
    search (the worlds' setup, the odds, the answer), measured here in CPU time as a hint
    of one iteration a move. A review's search per decision stops at 4,000 iterations or
    its share of the time budget: its CPU time with the iterations alone
    (``Budget(total=0)``) is the most a quiet machine takes. The process loads the
    compiled search first, as the server's workers do when they start."""
    from quarkade.agents import warming
    from quarkade.learn.hints import HINT_SECONDS, hint_for
    from quarkade.learn.review import Budget, review_game
    from quarkade.sim.match import play_game

    table = Table("game", "hints", "slowest hint wall s", "most CPU s outside the search",
                  "quiet hint s (search + outside)", "review wall s", "review CPU s (4,000 "
                  "iterations a decision)", "goals", "met", title="Decoherence hints and "
                  "reviews (hard against medium)")
    game = quarkade.load_game("decoherence")
    if not warming.load_if_ready():
        from quarkade.agents import compiled_search

        compiled_search.warm_up()
    for seed in range(games):
        bots = [make_agent("hard", "decoherence"), make_agent("medium", "decoherence")]
        final = play_game(game, bots, seed)
        state = game.new_initial_state()
        walls, outside = [], []
        for action in final.history():
            if state.current_player() == 0 and len(state.legal_actions()) > 1:
                cpu = time.process_time()
                hint_for(turn_for(state), random.Random(seed), iterations=1)
                outside.append(time.process_time() - cpu)
                wall = time.perf_counter()
                hint_for(turn_for(state), random.Random(seed))
                walls.append(time.perf_counter() - wall)
            state.apply_action(action)
        wall, cpu = time.perf_counter(), time.process_time()
        review_game(game, final.history(), [0], 0, budget=Budget(total=0), seed=seed)
        review = (time.perf_counter() - wall, time.process_time() - cpu)
        quiet = HINT_SECONDS + max(outside, default=0.0)
        met = quiet <= 2.0 and review[1] <= 20.0
        table.add_row(f"seed {seed}", str(len(walls)), f"{max(walls, default=0.0):.2f}",
                      f"{max(outside, default=0.0):.3f}", f"{quiet:.2f}", f"{review[0]:.1f}",
                      f"{review[1]:.1f}", "hint <= 2 s, review <= 20 s",
                      "yes" if met else "NO")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per side of a ratio row")
    parser.add_argument("--games", type=int, default=2, help="games of hints and reviews")
    parser.add_argument("--parts", default="1,2,3,4,5", help="which parts, e.g. 1 or 2,3")
    args = parser.parse_args()
    parts = {part.strip() for part in args.parts.split(",")}
    if not parts <= {"1", "2", "3", "4", "5"}:
        parser.error(f"--parts {args.parts!r}: the parts are 1 to 5")
    console = Console(width=160)
    console.print(f"Python {platform.python_version()} on {platform.machine()}, "
                  f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if "1" in parts:
        console.print(engine_ratio(args.seconds))
    if "2" in parts:
        console.print(search_ratio(args.seconds))
    if "3" in parts or "4" in parts:
        console.print(commands())
    if "5" in parts:
        console.print(hints_and_review(args.games))
    console.print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
