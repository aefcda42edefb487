"""Decoherence's ``resample``: how fast it is, and how often its samples agree with what
the seat can work out (issue 18's three cases).

Run: ``python bench/decoherence_resample.py [--games 10] [--samples 2000]``

Speed: at every decision of ``--games`` greedy self-play games (seeds 0..), the seat to
move resamples its state 20 times; the first call on a state builds what the seat knows
(``knowledge.Prepared``, when the module has it) and the rest reuse it, as a search does.
Agreement: in each case, the share of ``--samples`` samples for the seat that keep the
deduction (1.0 is right):

- an untouched opening hand holds a verb, a qualifier and a noun (D-23);
- "the kiki takes the down spin": both of the other seat's face-down nouns are kikis;
- a gain of 3 from a verved-up bouba: the face-down noun in that spin is a bouba.

It runs against any checkout (the scenes are built with the tests' helpers), so the figures
before and after a change come from the same script.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from quarkade.agents import make_agent
from quarkade.core.registry import load_game
from quarkade.games.decoherence.notation import KIND_OF, WORDS
from quarkade.sim.match import play_game


def speed(games: int) -> tuple[float, float, int]:
    """Mean microseconds of a first and of a repeated resample, and the positions."""
    game = load_game("decoherence")
    greedy = [make_agent("greedy", "decoherence") for _ in range(2)]
    first = again = 0.0
    positions = 0
    rng = random.Random(0)
    for seed in range(games):
        history = play_game(game, greedy, seed).history()
        state = game.new_initial_state()
        for action in history:
            seat = state.current_player()
            if seat >= 0:
                fresh = state.clone()
                if hasattr(fresh, "_prepared"):
                    fresh._prepared = None
                begin = time.perf_counter()
                fresh.resample(seat, rng)
                first += time.perf_counter() - begin
                begin = time.perf_counter()
                for _ in range(20):
                    fresh.resample(seat, rng)
                again += (time.perf_counter() - begin) / 20
                positions += 1
            state.apply_action(action)
    return 1e6 * first / positions, 1e6 * again / positions, positions


def agreement(samples: int) -> list[tuple[str, float]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' scene helpers
    from tests.games.decoherence.helpers import ANN, BOB, scene, start

    rng = random.Random(1)
    opening = start(["tapped", "up", "kiki", "verved", "down"],
                    ["riffed", "out", "lulu", "bouba", "bouba"], first=ANN, draw="down")
    flipped = scene((BOB, ["tapped up kiki", "tapped up kiki"]), (ANN, []))
    bunched = scene((BOB, ["tapped up bouba", "verved up bouba"]), (ANN, []))

    def share(state, keeps) -> float:
        return sum(keeps(state.resample(ANN, rng)) for _ in range(samples)) / samples

    def all_kinds(world) -> bool:
        return {KIND_OF[WORDS.index(w)] for w in world.hand(BOB)} == {0, 1, 2}

    return [
        ("untouched opening hand holds all three kinds", share(opening, all_kinds)),
        ("both nouns kikis after the kiki takes the down spin",
         share(flipped, lambda w: [t["noun"] for t in w.things(BOB).values()]
               == ["kiki", "kiki"])),
        ("the up state is a bouba after a gain of 3",
         share(bunched, lambda w: w.thing(BOB, 1)["noun"] == "bouba")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    for name, value in agreement(args.samples):
        print(f"{name}: {value:.3f} of {args.samples} samples")
    first, again, positions = speed(args.games)
    print(f"resample over {positions} decisions of {args.games} greedy games: first call "
          f"{first:.0f} us, repeated {again:.0f} us")


if __name__ == "__main__":
    main()
