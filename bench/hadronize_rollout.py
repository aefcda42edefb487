"""What Hadronize's ``rollout`` gains over ``greedy`` per decision, by playouts and margin.

Run: ``python bench/hadronize_rollout.py [--players 6] [--positions 40] [--judge 10000]``

Positions are drawn from games every seat plays ``greedy`` (a decision kept with
probability 0.15). At each, ``--judge`` paired playouts per choice (compiled, one seed)
estimate every choice's value; the choice ``rollout`` makes with P playouts and margin M
(``bots.decide`` over the first P of 10,000 other playouts, another seed) is scored by
the judge's value of it less that of greedy's choice. The mean over the positions is the
win probability one such decision adds, judged independently of the noise it was chosen
with; ``changed`` is how often it overrules greedy.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from quarkade import load_game
from quarkade.core.rng import sample_chance
from quarkade.games.hadronize import compiled
from quarkade.games.hadronize.bots import decide
from quarkade.games.hadronize.policy import greedy_action
from quarkade.games.hadronize.rules import HadronizeState

CHOOSE = 10_000
CONFIGS = [(playouts, margin) for playouts in (300, 1000, 3000, 10000) for margin in (0, 1, 2)]


def positions(players: int, count: int, rng: random.Random) -> list[HadronizeState]:
    game = load_game("hadronize", players=players)
    found: list[HadronizeState] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.15:
                found.append(state.clone())
            state.apply_action(greedy_action(state.view(state.current_player()),
                                             state.legal_actions(), rng))
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--judge", type=int, default=10_000)
    args = parser.parse_args()
    rng = random.Random(args.players * 101)
    gains: dict[tuple[int, int], list[float]] = {config: [] for config in CONFIGS}
    for state in positions(args.players, args.positions, rng):
        legal = state.legal_actions()
        fallback = greedy_action(state.view(state.current_player()), legal, rng)
        array = compiled.to_compiled(state)
        actions = np.array(legal, np.int64)
        judged = np.empty((args.judge, len(legal)))
        compiled.rollout_returns(array, actions, 0, rng.getrandbits(62), judged)
        value = judged.mean(axis=0)
        greedy = legal.index(fallback)
        playouts = np.empty((CHOOSE, len(legal)))
        compiled.rollout_returns(array, actions, 0, rng.getrandbits(62), playouts)
        for count, margin in CONFIGS:
            some = playouts[:count]
            totals = {a: float(some[:, i].sum()) for i, a in enumerate(legal)}
            squares = {a: float(((some[:, i] - some[:, greedy]) ** 2).sum())
                       for i, a in enumerate(legal)}
            choice = decide(totals, squares, count, fallback, margin)
            gains[(count, margin)].append(float(value[legal.index(choice)] - value[greedy]))
    print(f"Hadronize, {args.players} seats, {args.positions} positions, judged on "
          f"{args.judge} playouts a choice")
    print("| playouts | margin | gain a decision | standard error | changed |")
    print("| --- | --- | --- | --- | --- |")
    for (count, margin), found in gains.items():
        values = np.array(found)
        print(f"| {count} | {margin} | {values.mean():+.4f} | "
              f"{values.std() / len(values) ** 0.5:.4f} | {np.mean(values != 0):.2f} |")


if __name__ == "__main__":
    main()
