"""Dead Cat bot match-ups: one bot against copies of another, seeded, seats rotating.

Run with ``python bench/dead_cat_bots.py [--games N]``. Prints, per setting, the hero's
share of the wins (a shared win counts 1/k) next to a fair share of 1/players, and how
often the player who took the first turn won (ruling DC-6). Not part of ``make bench``:
it measures play, not speed.

``--sleuth`` plays the two-seat sleuth (the hard level) against each other bot instead,
and adds the mean and the longest time it took over one move.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.agent import Agent, Turn
from quarkade.games.dead_cat.notation import FIRST_BASE
from quarkade.sim import play_match

PAIRS = (("bayes", "random"), ("greedy", "random"), ("bayes", "greedy"), ("greedy", "bayes"))
SLEUTH_PAIRS = (("sleuth", "random"), ("sleuth", "greedy"), ("sleuth", "bayes"))


class Timed(Agent):
    """An agent that keeps the time each of its moves took."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.spec = inner.spec
        self.seconds: list[float] = []

    def act(self, turn: Turn, rng: random.Random) -> int:
        start = time.perf_counter()
        action = self.inner.act(turn, rng)
        self.seconds.append(time.perf_counter() - start)
        return action


def match_up(hero: str, villain: str, players: int, games: int, peek_first: bool,
             seconds: list[float] | None = None) -> tuple[float, float]:
    """(hero's share of wins, first player's share of wins) over ``games`` seeded games;
    the hero's time per move goes into ``seconds`` if given."""
    game = load_game("dead-cat", players=players, peek_first=peek_first)
    hero_share = first_share = 0.0
    for seed in range(games):
        seat = seed % players
        agents = [make_agent(villain, "dead-cat") for _ in range(players)]
        timed = agents[seat] = Timed(make_agent(hero, "dead-cat"))
        final, _ = play_match(game, agents, seed=seed)
        winners = final.game_winners()
        hero_share += (seat in winners) / len(winners)
        first_share += (final.history()[0] - FIRST_BASE in winners) / len(winners)
        if seconds is not None:
            seconds.extend(timed.seconds)
    return hero_share / games, first_share / games


def sleuth_table(games: int) -> Table:
    table = Table("peek_first", "hero", "against", "hero's share", "first player's share",
                  "mean s/move", "max s/move", title=f"Dead Cat's sleuth, two seats, {games} "
                  "games per row")
    for peek_first in (False, True):
        for hero, villain in SLEUTH_PAIRS:
            seconds: list[float] = []
            hero_share, first_share = match_up(hero, villain, 2, games, peek_first, seconds)
            table.add_row(str(peek_first).lower(), hero, villain, f"{hero_share:.3f}",
                          f"{first_share:.2f}", f"{sum(seconds) / len(seconds):.3f}",
                          f"{max(seconds):.3f}")
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row")
    parser.add_argument("--sleuth", action="store_true", help="the sleuth's match-ups")
    args = parser.parse_args()
    if args.sleuth:
        Console(width=110).print(sleuth_table(args.games))
        return
    table = Table("peek_first", "players", "hero", "against", "hero's share", "fair",
                  "first player's share", title=f"Dead Cat bots, {args.games} games per row")
    for peek_first in (False, True):
        for players in (2, 3, 5):
            for hero, villain in PAIRS:
                hero_share, first_share = match_up(hero, villain, players, args.games,
                                                   peek_first)
                table.add_row(str(peek_first).lower(), str(players), hero, villain,
                              f"{hero_share:.2f}", f"{1 / players:.2f}", f"{first_share:.2f}")
    Console(width=110).print(table)


if __name__ == "__main__":
    main()
