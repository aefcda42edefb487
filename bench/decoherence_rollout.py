"""What Decoherence's ``rollout`` (the hard level) loses per decision to its own noise, by
worlds, candidates and opponent model.

Run: ``python bench/decoherence_rollout.py [--positions 60] [--judge 1024]``

Positions are play decisions (three legal moves or more) from games ``greedy`` plays
against itself on the default decks, one kept in six. At each, a judge plays every legal
move to the end of the game in ``--judge`` worlds drawn from what the seat knows
(``rollout`` with ``top`` over all moves, the other seat as ``greedy`` plays, the real
opponent of the strength goal, and the seat on its own guesses as in the game), one
seed; each move's mean return is its value. Each configuration then chooses with another
seed, as the hard level would; its loss at the position is the judge's best value less
the judge's value of its choice, in returns (a return is +1 for a win, -1 for a loss:
half of it is win probability). The mean over the
positions is what one decision gives away to noise and to the candidate cut; the CPU
seconds are the configuration's own, a decision.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import cast

import numpy as np

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.rollout import RolloutAgent
from quarkade.games.decoherence.rules import DecoherenceState

# (worlds, top, opponent, guess)
CONFIGS = [(64, 4, "lines", 0), (64, 4, "greedy", 1), (128, 4, "lines", 0),
           (256, 4, "lines", 0), (64, 8, "lines", 0), (128, 8, "lines", 0)]


def positions(count: int, rng: random.Random) -> list[DecoherenceState]:
    """Play decisions with three moves or more from greedy-against-greedy games."""
    game = load_game("decoherence")
    greedy = make_agent("greedy", "decoherence")
    found: list[DecoherenceState] = []
    while len(found) < count:
        state = cast(DecoherenceState, game.new_initial_state())
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if (state.phase() == "play" and len(state.legal_actions()) >= 3
                    and rng.random() < 1 / 6):
                found.append(cast(DecoherenceState, state.clone()))
            state.apply_action(greedy.act(turn_for(state), rng))
    return found[:count]


def values(agent: RolloutAgent, state: DecoherenceState, seed: int) -> dict[int, float]:
    """Each candidate's total return, as ``agent`` computes it at ``state``."""
    turn = turn_for(state)
    first = cast(DecoherenceState, turn.sample_state(random.Random(seed)))
    return agent._compiled(first, turn.player, turn.legal_actions, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--judge", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    judge = RolloutAgent(worlds=args.judge, top=99, opponent="greedy", guess=1)
    losses: dict[tuple[int, int, str, int], list[float]] = {config: [] for config in CONFIGS}
    seconds: dict[tuple[int, int, str, int], list[float]] = {config: [] for config in CONFIGS}
    found = positions(args.positions, rng)
    for state in found:
        judged = values(judge, state, rng.getrandbits(40))
        best = max(judged.values()) / args.judge
        seed = rng.getrandbits(40)
        for config in CONFIGS:
            worlds, top, opponent, guess = config
            agent = RolloutAgent(worlds=worlds, top=top, opponent=opponent, guess=guess)
            start = time.process_time()
            totals = values(agent, state, seed)
            seconds[config].append(time.process_time() - start)
            ranked = list(totals)
            choice = max(ranked, key=lambda a: (totals[a], -ranked.index(a)))
            losses[config].append(best - judged[choice] / args.judge)
    print(f"Decoherence, {len(found)} positions, judged on {args.judge} worlds a move "
          "(the other seat as greedy, itself guessing)")
    print("| worlds | top | opponent | guess | loss a decision | standard error | best move | "
          "CPU s a decision |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for config, lost in losses.items():
        lost_ = np.array(lost)
        print(f"| {config[0]} | {config[1]} | {config[2]} | {config[3]} | {lost_.mean():.4f} | "
              f"{lost_.std() / len(lost_) ** 0.5:.4f} | {np.mean(lost_ == 0):.2f} | "
              f"{np.mean(seconds[config]):.3f} |")


if __name__ == "__main__":
    main()
