"""Puzzles mined from games: where a bot's game reached a position with one winning move.

``mine`` plays bot self-play games (``greedy`` against ``greedy``, every game from its own
seed, so the same seed mines the same puzzles) and walks each game's positions, from the
first with at most ``max_empty`` empty cells on, until one is a puzzle
(``games.card_commons.solve.puzzles``: proven by the exact solvers). One puzzle per game
keeps them varied; a position already mined is not given twice. ``from_actions`` does the
same for the actions of a game already played (a stored or simulated game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from quarkade.agents.registry import make_agent
from quarkade.core.protocol import CHANCE
from quarkade.core.registry import load_game
from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve.puzzles import (
    Exact,
    Puzzle,
    Unsettled,
    empty_cells,
    puzzle_at,
    study,
)
from quarkade.sim.match import play_game

GAME = "card-commons"
BOTS = ("greedy", "greedy")
MAX_GAMES_PER_PUZZLE = 50  # give up when this many games in a row gave nothing new


def from_actions(game: Any, actions: Iterable[int], max_empty: int, exact: Exact
                 ) -> Puzzle | None:
    """The first puzzle along a game's actions with at most ``max_empty`` empty cells."""
    state: CardCommonsState = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
        if state.is_terminal():
            return None
        if state.current_player() == CHANCE or state.phase() != "turn" or \
                empty_cells(state) > max_empty:
            continue
        puzzle = puzzle_at(state, exact)
        if puzzle is not None:
            return puzzle
    return None


def mine(count: int, variant: str = "tutorial", torus: bool = False, max_empty: int = 8,
         seed: int = 0, progress: Callable[[int, int], None] | None = None,
         studied: bool = False) -> Iterator[Puzzle]:
    """Up to ``count`` puzzles from self-play games ``seed``, ``seed + 1``, ...; stops
    early when ``MAX_GAMES_PER_PUZZLE`` games in a row give no new one. ``progress``
    hears (games played, puzzles found). ``studied``: each puzzle carries the answer to
    every move along its solution (``study``; the ``/puzzles`` page's pool), and a puzzle
    some answer of which the solver cannot settle within its budget is left out."""
    game = load_game(GAME, variant=variant, torus=torus)
    exact = Exact()
    seen: set[tuple[str, ...]] = set()
    games = found = dry = 0
    while found < count and dry < MAX_GAMES_PER_PUZZLE:
        agents = [make_agent(spec, GAME) for spec in BOTS]
        final = play_game(game, agents, seed + games)
        games += 1
        puzzle = from_actions(game, final.history(), max_empty, exact)
        if puzzle is not None and studied:
            try:
                puzzle = replace(puzzle, steps=study(puzzle, exact))
            except Unsettled:
                puzzle = None
        if puzzle is not None and tuple(puzzle.moves) not in seen:
            seen.add(tuple(puzzle.moves))
            found += 1
            dry = 0
            yield puzzle
        else:
            dry += 1
        if progress is not None:
            progress(games, found)


__all__ = ["from_actions", "mine"]
