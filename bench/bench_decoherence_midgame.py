"""Decoherence: clone() and legal_actions() on a state halfway through a game between two
greedy bots (random Decoherence games are short, so ``bench_engine``'s half-way state is
usually still in the opening). Run: ``python bench/bench_decoherence_midgame.py``.
"""

from __future__ import annotations

import timeit

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.sim import play_match


def main() -> None:
    game = load_game("decoherence")
    final, _ = play_match(game, [make_agent("greedy", "decoherence") for _ in range(2)], seed=4)
    history = final.history()
    state = game.new_initial_state()
    for action in history[: len(history) // 2]:
        state.apply_action(action)
    things = sum(len(state.things(seat)) for seat in range(2))

    def per_call_us(function) -> float:
        return min(timeit.repeat(function, number=20000, repeat=5)) / 20000 * 1e6

    print(f"greedy game of {len(history)} actions, state after {len(history) // 2} "
          f"({state.phase()}, {things} things on the table): clone "
          f"{per_call_us(state.clone):.2f} us, legal_actions "
          f"{per_call_us(state.legal_actions):.2f} us")


if __name__ == "__main__":
    main()
