"""The games of "test this deck": a deck played by the game's test bot against each
preset, half the games with the deck at seat 0 and half at seat 1: the games ``quarkade
deck-test`` plays (``quarkade.sim.decktest``: the simulator's plans and chunks, on the
compiled engine where there is one). Game ``i`` of a run is fixed by its plan, so a run
can be repeated. Each chunk of games is a job (``DeckChunk``) in the worker processes
(``quarkade.server.work``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quarkade.server.work.pool import JobFailed, WorkerState
from quarkade.sim.decktest import DeckPlan, deck_plans, score_plan


def plans(game: str, deck: str, preset: str, games: int) -> list[tuple[Any, int]]:
    """The two plans of a deck against one preset (the deck at seat 0, then at seat 1),
    each with the seat the deck holds."""
    return [(item.plan, item.seat) for item in deck_plans(game, deck, games, presets=[preset])]


def tally(plan: Any, start: int, stop: int, seat: int) -> tuple[int, int, int]:
    """Games ``start..stop-1`` of ``plan``: (wins, draws, games) of the deck at ``seat``."""
    score = score_plan(DeckPlan("", seat, plan), "auto", start, stop)
    return score.wins, score.draws, score.games


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
