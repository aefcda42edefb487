"""How long a typical game's review takes, game by game, with the default budget.

Run with ``make bench`` or ``python bench/bench_review.py [--games N] [--seconds S]``. Each
game is played between ``hard`` and ``medium`` from a fixed seed (seats alternating), then
reviewed as the web app would: every seat where nothing is hidden, seat 0 only where
something is. Wall time and CPU time are printed per review, with the decisions judged and
the mean search iterations per decision; ``Budget`` keeps the wall time near its total
(40 s) whatever the game's length.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.agents import make_agent
from quarkade.learn.review import Budget, review_game, seats_for
from quarkade.sim.match import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per game (default 1)")
    parser.add_argument("--seconds", type=float, default=Budget().total,
                        help="the review's total search time (default: the app's)")
    args = parser.parse_args()
    table = Table("game", "seed", "decisions", "judged", "iterations/decision", "wall s",
                  "cpu s", title=f"review time, budget {args.seconds:g} s")
    for name in quarkade.list_games():
        game = quarkade.load_game(name)
        for seed in range(args.games):
            bots = [make_agent("hard", name), make_agent("medium", name)]
            if seed % 2:
                bots.reverse()
            final = play_game(game, bots, seed)
            seats = seats_for(game, 0)
            wall, cpu = time.perf_counter(), time.process_time()
            review = review_game(game, final.history(), seats, viewer=0,
                                 budget=Budget(total=args.seconds), seed=seed)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            judged = [d for d in review.decisions if not d.forced]
            mean = sum(d.iterations for d in judged) / max(1, len(judged))
            table.add_row(name, str(seed), str(len(review.decisions)), str(len(judged)),
                          f"{mean:.0f}", f"{wall:.1f}", f"{cpu:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
