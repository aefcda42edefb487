"""The games of "test this deck": a deck played by the game's test bot against each
preset, half the games with the deck at seat 0 and half at seat 1, with the simulator's
own plans and chunks (``quarkade.sim``): game ``i`` of a run is fixed by its plan, so a
run can be repeated. Each chunk of games is a job (``DeckChunk``) in the worker processes
(``quarkade.server.work``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quarkade.core.registry import load_game
from quarkade.server.decks.games import deck_rules
from quarkade.server.work.pool import JobFailed, WorkerState
from quarkade.sim.plan import simulation_plan
from quarkade.sim.play import play_chunk

RUN_SEED = 16


def plans(game: str, deck: str, preset: str, games: int) -> list[tuple[Any, int]]:
    """The two plans of a deck against one preset (the deck at seat 0, then at seat 1),
    each with the seat the deck holds."""
    decks = deck_rules(game)
    found = []
    for seat in (0, 1):
        chosen = {decks.DECK_OPTION.format(seat=seat): deck,
                  decks.DECK_OPTION.format(seat=1 - seat): preset}
        options = dict(load_game(game, **chosen).options)
        half = games // 2 + (games % 2 if seat == 0 else 0)
        found.append((simulation_plan(game, options, [decks.TEST_AGENT], half, RUN_SEED),
                      seat))
    return found


def tally(plan: Any, start: int, stop: int, seat: int) -> tuple[int, int, int]:
    """Games ``start..stop-1`` of ``plan``: (wins, draws, games) of the deck at ``seat``."""
    wins = draws = 0
    lines = play_chunk(plan, start, stop).lines or []
    for line in lines:
        winners = json.loads(line)["winners"]
        wins += seat in winners
        draws += not winners
    return wins, draws, stop - start


@dataclass(frozen=True)
class DeckChunk:
    """Games ``start..stop-1`` of a deck test's plan: (wins, draws, games) of the deck
    at ``seat`` (``tally``)."""

    key: str | None
    plan: Any
    start: int
    stop: int
    seat: int

    def run(self, worker: WorkerState, say: Callable[..., None]) -> tuple[int, int, int]:
        return tally(self.plan, self.start, self.stop, self.seat)

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"a chunk of the deck test took more than {seconds:g} s", "time")
