"""Engine speed through the public protocol: random playouts and clone cost.

Run with ``make bench`` (or ``python bench/bench_engine.py [--seconds S] [GAME ...]``).
Every figure comes from this one run, so ratios between rows are meaningful even on a noisy
machine; absolute figures vary from run to run.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
import timeit

from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.core.options import option_variations
from quarkade.core.rng import sample_chance


def playouts(game: quarkade.Game, seconds: float, seed: int = 1,
             clock=time.perf_counter) -> tuple[float, float, float]:
    """Random games for ``seconds`` of ``clock``: (games/s, actions/s, mean actions per game)."""
    rng = random.Random(seed)
    games = actions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = clock() - start
    return games / elapsed, actions / elapsed, actions / games


def midgame(game: quarkade.Game, seed: int = 2) -> quarkade.State:
    """A state about halfway through a random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    length = len(state.history())
    half = game.new_initial_state()
    for action in state.history()[: length // 2]:
        half.apply_action(action)
    return half


def per_call_us(function, repeat: int = 5, number: int = 20000) -> float:
    return min(timeit.repeat(function, repeat=repeat, number=number)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=quarkade.list_games())
    parser.add_argument("--seconds", type=float, default=3.0, help="per playout row")
    parser.add_argument("--cpu", action="store_true",
                        help="time playouts by this process's CPU time, not the wall clock "
                        "(steadier when other work shares the machine)")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    console = Console(width=130)
    console.print(f"Python {platform.python_version()} on {platform.machine()}, one process"
                  + (", playouts in CPU time" if args.cpu else ""))
    table = Table("game", "players", "options", "games/s", "actions/s", "actions/game",
                  "clone us", "legal_actions us", title="random playouts through the protocol")
    for name in args.games:
        cls = quarkade.core.game_class(name)
        # One row per player count and per variant (options with a few named choices).
        for players in sorted({cls.min_players, cls.max_players}):
            for variant in option_variations(cls.option_specs, switches=False):
                game = quarkade.load_game(name, players=players, **variant)
                games_s, actions_s, length = playouts(game, args.seconds, clock=clock)
                state = midgame(game)
                shown = " ".join(f"{k}={v}" for k, v in variant.items()) or "-"
                table.add_row(name, str(players), shown, f"{games_s:,.0f}", f"{actions_s:,.0f}",
                              f"{length:.0f}", f"{per_call_us(state.clone):.2f}",
                              f"{per_call_us(state.legal_actions):.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
