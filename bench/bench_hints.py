"""How long a player waits for the first hint of a fresh game, game by game, on the real server.

Run with ``make bench`` (or ``python bench/bench_hints.py [--rounds 3] [--bot hard]``). Each
round starts ``quarkade serve`` afresh (SQLite, one process, its worker processes not yet
started) and, for every game in turn, makes a casual game against the bot as a browser
would (``POST /api/games``, the player's seat held by its cookie), waits on the seat's
WebSocket until it is the player's turn (the bot may open), and times ``POST
/api/games/<id>/hint`` from the request to the answer. The games take turns being first
after the start, so each game's "first after start" figure is measured once per round with
a cold server and its other rounds' figures come from a running one.

Printed per game: the median and slowest wall time of the first hint of a fresh game, the
first hint after the server started, the hint's own search time (``HINT_SECONDS``) and the
goal (issue 25: within 3 s on a quiet machine). A hint's time is its search plus starting
a worker process and loading the compiled search in it when none is warm; the load
average is printed with the figures, since on a shared machine everything stretches. The
last columns: the CPU seconds a fresh process (what a new worker is) spends before its
first hint's search begins, and that plus the search time: about what a player's first
hint takes on a quiet machine when no worker is warm (CPU time hardly stretches with the
load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.processes import Server, Visitor, receive_state

from quarkade import list_games
from quarkade.learn.hints import HINT_SECONDS

GOAL = 3.0
# What a new worker process does for its first hint, in a fresh interpreter: import the
# job, rebuild a fresh game to its first seat's turn (chance outcomes drawn from a fixed
# seed), run the hint's search once.
FRESH_WORKER = """
import random, sys, time
from quarkade import load_game
from quarkade.core.agent import turn_for
from quarkade.learn.hints import hint_for
from quarkade.server.work.pool import rebuild
game = sys.argv[1]
state = load_game(game).new_initial_state()
rng = random.Random(1)
while state.is_chance_node():
    state.apply_action(rng.choice(state.legal_actions()))
turn = turn_for(rebuild(game, {}, state.history()))
hint_for(turn, random.Random(1), iterations=1)  # loads what the search runs on
print(time.process_time())
"""


def fresh_worker_cpu(game: str) -> float:
    """CPU seconds a fresh process spends before its first hint's search can begin
    (imports, loading the compiled search from the disk cache, one iteration): on a quiet
    machine its first hint takes this plus the search time (CPU time hardly stretches
    with the load; the search is bounded by wall time, so it is left out)."""
    done = subprocess.run(
        [sys.executable, "-c", FRESH_WORKER, game], check=True, capture_output=True, text=True
    )
    return float(done.stdout.split()[-1])


def first_hint(server: Server, game: str, bot: str) -> tuple[float, int, bool]:
    """A fresh casual game of ``game`` against ``bot`` as a new visitor: the wall time of
    its first hint, the hint's search iterations, and whether the bot moved first."""
    visitor = Visitor()
    status, created = visitor.request(
        server,
        "POST",
        "/api/games",
        {"game": game, "options": {}, "seats": ["you", f"bot:{bot}"], "rated": False},
    )
    assert status == 201, created
    game_id = created["id"]
    with visitor.socket(server, game_id, seat=0) as socket:
        state = receive_state(socket, lambda m: bool(m["legal"]) or m["over"], timeout=120)
    assert not state["over"], f"{game} ended before the player's first turn"
    started = time.perf_counter()
    status, hint = visitor.request(server, "POST", f"/api/games/{game_id}/hint?seat=0")
    took = time.perf_counter() - started
    assert status == 200, hint
    return took, hint["iterations"], any(entry["player"] == 1 for entry in state["log"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="server starts (default 4)")
    parser.add_argument("--bot", default="hard", help="the opponent (default hard)")
    args = parser.parse_args()
    console = Console(width=150)
    games = list_games()
    console.print(
        f"first hint of a fresh game against bot:{args.bot}, {args.rounds} server "
        f"starts; {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}",
        markup=False,
    )
    fresh: dict[str, list[float]] = defaultdict(list)  # every first hint of a fresh game
    cold: dict[str, list[float]] = defaultdict(list)  # the first hint after a start
    iterations: dict[str, list[int]] = defaultdict(list)
    opened: dict[str, int] = defaultdict(int)  # games the bot opened (its worker warmed)
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            server = Server(f"sqlite:///{folder}/hints{round_}.db", "", "--no-rate-limits")
            try:
                shift = round_ % len(games)
                for index, game in enumerate(games[shift:] + games[:shift]):
                    took, searched, bot_opened = first_hint(server, game, args.bot)
                    fresh[game].append(took)
                    opened[game] += bot_opened
                    iterations[game].append(searched)
                    if index == 0:
                        cold[game].append(took)
            finally:
                server.stop()
    worker = {game: fresh_worker_cpu(game) for game in games}
    table = Table(
        "game",
        "first hints",
        "median s",
        "slowest s",
        "first after start s",
        "search s",
        "median / goal",
        "iterations (median)",
        "bot opened",
        "fresh worker start cpu s",
        "quiet estimate s",
        title=f"first hint of a fresh game (goal {GOAL:g} s)",
    )
    for game in games:
        median = statistics.median(fresh[game])
        table.add_row(
            game,
            str(len(fresh[game])),
            f"{median:.2f}",
            f"{max(fresh[game]):.2f}",
            ", ".join(f"{t:.2f}" for t in cold[game]) or "-",
            f"{HINT_SECONDS:g}",
            f"{median / GOAL:.2f}",
            f"{statistics.median(iterations[game]):,.0f}",
            f"{opened[game]}/{len(fresh[game])}",
            f"{worker[game]:.2f}",
            f"{worker[game] + HINT_SECONDS:.2f}",
        )
    console.print(table)
    console.print(f"load average at the end {os.getloadavg()[0]:.1f}", markup=False)


if __name__ == "__main__":
    main()
