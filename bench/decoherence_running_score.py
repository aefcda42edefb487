"""How often each candidate running score for Decoherence names the eventual winner.

The simulator counts lead changes with a game's running score; a score whose leader is
rarely the winner makes those counts (and "decided at") meaningless. This plays games and,
at every decision point, asks whether the seat leading on each candidate score is the one
that wins, by quarter of the game. The figures in ``games/decoherence/analysis.py`` come
from::

    python bench/decoherence_running_score.py --agents random,greedy --games 300
    python bench/decoherence_running_score.py --agents greedy --games 200

(game ``i`` is ``play_game`` with seed ``10000 + i``, agents rotated as in a simulation).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from quarkade.agents import make_agent
from quarkade.core.registry import load_game
from quarkade.games.decoherence.analysis import COVER, running_score
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.sim.match import play_game

Score = Callable[[DecoherenceState, int], float]


def cover(state: DecoherenceState, seat: int) -> int:
    """Hidden nouns, live links and open chains: what keeps a seat from being classical."""
    things = state.things(seat).values()
    return (state.hidden_nouns(seat) + sum(1 for t in things if t["link"] is not None)
            + sum(1 for chain in state.chains(seat) if chain is not None))


CANDIDATES: dict[str, Score] = {
    "verve": lambda s, seat: s.verve(seat),
    "verve + hidden nouns": lambda s, seat: s.verve(seat) + s.hidden_nouns(seat),
    f"verve + {COVER} x each piece of cover":
        lambda s, seat: s.verve(seat) + COVER * cover(s, seat),
    **{f"verve + {bonus} if any cover": (lambda b: lambda s, seat: s.verve(seat)
                                         + b * (not s.is_classical(seat)))(bonus)
       for bonus in (1, 2, 4, 6)},
    "the hook's running score": lambda s, seat: running_score(s)[seat],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="random,greedy")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    specs = args.agents.split(",")
    game = load_game("decoherence")
    right = {name: [0] * 4 for name in CANDIDATES}
    points = [0] * 4
    for i in range(args.games):
        agents = [make_agent(specs[(i + seat) % len(specs)], "decoherence") for seat in (0, 1)]
        final = play_game(game, agents, 10_000 + i)
        if len(final.winners()) != 1:
            continue
        winner = final.winners()[0]
        history = final.history()
        replay = game.new_initial_state()
        for step, action in enumerate(history):
            replay.apply_action(action)
            if replay.is_terminal() or replay.current_player() < 0:
                continue
            quarter = min(4 * step // len(history), 3)
            points[quarter] += 1
            for name, score in CANDIDATES.items():
                a, b = score(replay, 0), score(replay, 1)  # type: ignore[arg-type]
                right[name][quarter] += a != b and (a > b) == (winner == 0)
    print(f"{args.agents}, {args.games} games: share of decision points where the seat "
          "leading alone is the winner, by quarter of the game")
    for name, counts in right.items():
        shares = [c / p for c, p in zip(counts, points, strict=True)]
        print(f"{name:36} " + " ".join(f"{100 * x:4.0f}%" for x in shares)
              + f"   mean {100 * sum(shares) / 4:.0f}%")


if __name__ == "__main__":
    main()
