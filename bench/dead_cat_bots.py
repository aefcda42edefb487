"""Dead Cat bot match-ups: one bot against copies of another, seeded, seats rotating.

Run with ``python bench/dead_cat_bots.py [--games N]``. Prints, per setting, the hero's
share of the wins (a shared win counts 1/k) next to a fair share of 1/players, and how
often the player who took the first turn won (ruling DC-6). Not part of ``make bench``:
it measures play, not speed.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.games.dead_cat.notation import FIRST_BASE
from quarkade.sim import play_match

PAIRS = (("bayes", "random"), ("greedy", "random"), ("bayes", "greedy"), ("greedy", "bayes"))


def match_up(hero: str, villain: str, players: int, games: int, peek_first: bool
             ) -> tuple[float, float]:
    """(hero's share of wins, first player's share of wins) over ``games`` seeded games."""
    game = load_game("dead-cat", players=players, peek_first=peek_first)
    hero_share = first_share = 0.0
    for seed in range(games):
        seat = seed % players
        agents = [make_agent(villain, "dead-cat") for _ in range(players)]
        agents[seat] = make_agent(hero, "dead-cat")
        final, _ = play_match(game, agents, seed=seed)
        winners = final.game_winners()
        hero_share += (seat in winners) / len(winners)
        first_share += (final.history()[0] - FIRST_BASE in winners) / len(winners)
    return hero_share / games, first_share / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row")
    args = parser.parse_args()
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
