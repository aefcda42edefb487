"""Search speed: iterations per second of mcts and ismcts from a mid-game position of each
game, one process. Run with ``make bench`` or ``python bench/bench_search.py [--seconds S]``.

The position is reached by seeded random play to about the middle of a random game, with
a seat to move that has more than one legal action. mcts runs on open-information games,
ismcts on every game (on open games it is the same search with sampled states). Rows of
one run can be compared as ratios; the CPU column (iterations per second of this process's
CPU time) is the steadier one when other work shares the machine.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.agents import make_agent, turn_for
from quarkade.core.rng import random_playout, sample_chance


def midgame_decision(name: str, seed: int = 2) -> quarkade.State:
    game = quarkade.load_game(name)
    length = len(random_playout(game.new_initial_state(), random.Random(seed)).history())
    rng = random.Random(seed)
    state = game.new_initial_state()
    while True:
        if state.is_terminal():
            return midgame_decision(name, seed + 1)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif len(state.history()) >= length // 2 and len(state.legal_actions()) > 1:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per row")
    args = parser.parse_args()
    table = Table("game", "bot", "iterations", "iterations/s", "iterations/CPU s",
                  title="search speed, one move")
    for name in quarkade.list_games():
        state = midgame_decision(name)
        open_game = quarkade.core.game_class(name).perfect_information
        for algorithm in (["mcts"] if open_game else []) + ["ismcts"]:
            agent = make_agent(f"{algorithm}:time={args.seconds},endgame=0" if
                               algorithm == "mcts" else f"{algorithm}:time={args.seconds}", name)
            turn = turn_for(state)
            start, cpu_start = time.perf_counter(), time.process_time()
            agent.act(turn, random.Random(0))
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            iterations = agent.last_iterations  # type: ignore[attr-defined]
            table.add_row(name, algorithm, f"{iterations:,}", f"{iterations / elapsed:,.0f}",
                          f"{iterations / cpu:,.0f}")
    Console(width=100).print(table)


if __name__ == "__main__":
    main()
