"""Hints and reviews, computed in a worker process (``quarkade.server.work``): the jobs
``hints`` and ``reviews`` hand the scheduler. Each rebuilds the game from its history and
searches from the seat's information only (``quarkade.learn``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quarkade.server.work.pool import JobFailed, WorkerState, rebuild


@dataclass(frozen=True)
class HintSearch:
    """The hint for ``seat``, to move now: a win chance for each legal move and the best
    of them, from one search, labelled as the seat's page reads them (JSON)."""

    key: str | None
    game: str
    options: dict[str, Any]
    history: list[int]
    seat: int
    names: list[str]
    seed: int

    def run(self, worker: WorkerState, say: Callable[..., None]) -> dict[str, Any]:
        from quarkade.core.agent import turn_for
        from quarkade.learn.hints import hint_for

        state = rebuild(self.game, self.options, self.history)
        turn = turn_for(state)
        found = hint_for(turn, random.Random(self.seed))
        labels = {move.action: self._label(turn, move.text) for move in found.moves}
        body = found.as_json()
        for move in body["moves"]:
            move["label"] = labels[move["id"]]
        body["best"]["label"] = labels[found.best.action]
        return body

    def _label(self, turn: Any, text: str) -> str:
        from quarkade.core.errors import QuarkadeError
        from quarkade.core.words import move_words

        try:
            return move_words(self.game, turn.view, text, self.names)
        except QuarkadeError:
            return text

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"no hint within {seconds:g} s", "time")


@dataclass(frozen=True)
class ReviewRun:
    """A finished game's review for ``seats`` as ``viewer`` may read it (JSON); says its
    progress as decisions are judged. ``ended`` is the server's outcome of a game it
    decided (its rules did not end it)."""

    key: str | None
    game: str
    options: dict[str, Any]
    history: list[int]
    seats: list[int]
    viewer: int
    names: list[str]
    budget: Any  # quarkade.learn.review.Budget
    seed: str
    ended: dict[str, Any] | None = None

    def run(self, worker: WorkerState, say: Callable[..., None]) -> dict[str, Any]:
        from quarkade.core.registry import load_game
        from quarkade.learn.review import review_game

        found = review_game(load_game(self.game, **self.options), self.history, self.seats,
                            viewer=self.viewer, names=self.names, budget=self.budget,
                            seed=self.seed, progress=lambda done, total:
                            say("progress", done, total), ended=self.ended)
        return dict(found.as_json())

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"the review took more than {seconds:g} s", "time")


@dataclass(frozen=True)
class PositionAnalysis:
    """The analysis board's judgement of every legal move of a Card Commons position
    (``quarkade.learn.analysis``: exact where the solver reaches, else an estimate), each
    move labelled as the board reads it (JSON)."""

    key: str | None
    options: dict[str, Any]
    history: list[int]
    names: list[str]
    seed: int

    def run(self, worker: WorkerState, say: Callable[..., None]) -> dict[str, Any]:
        from quarkade.core.words import move_words
        from quarkade.learn.analysis import analyse

        state = rebuild("card-commons", self.options, self.history)
        moves = [move.as_json() for move in analyse(state, random.Random(self.seed))]
        if moves:
            view = state.view(state.current_player())
            for move in moves:
                move["label"] = move_words("card-commons", view, move["text"], self.names)
        return {"moves": moves}

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"no analysis within {seconds:g} s", "time")
