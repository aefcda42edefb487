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
    console = Console(width=100)
    console.print(table)
    console.print(answer_times())


def answer_times(games: int = 2) -> Table:
    """The slowest move of each game's hard level over a few games against greedy (the goal:
    within 2 s on one core). Tests check that the budget is kept on a clock they control;
    how long a move really takes is measured here."""
    from quarkade.sim import play_match

    table = Table("game", "hard is", "moves", "slowest move s", "within 2 s",
                  title="hard level, answer time")
    for name in quarkade.list_games():
        game = quarkade.load_game(name, **({"peek_first": True} if name == "dead-cat" else {}))
        hard = make_agent("hard", name)
        slowest, moves = 0.0, 0

        def timed(turn, rng, act=hard.act):
            nonlocal slowest, moves
            start = time.perf_counter()
            action = act(turn, rng)
            slowest = max(slowest, time.perf_counter() - start)
            moves += 1
            return action

        hard.act = timed  # type: ignore[method-assign]
        for seed in range(games):
            seats = [hard, make_agent("greedy", name)][:: 1 if seed % 2 == 0 else -1]
            seats += [make_agent("greedy", name)] * (game.num_players - 2)
            play_match(game, seats, seed=seed)
        table.add_row(name, quarkade.agents.registry.levels(name)["hard"], str(moves),
                      f"{slowest:.2f}", "yes" if slowest < 2.0 else "NO")
    return table


if __name__ == "__main__":
    main()
