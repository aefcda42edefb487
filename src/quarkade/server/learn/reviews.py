"""Reviews of finished games: every decision of the seats a viewer may see, judged by a
search from that seat's information only (``quarkade.learn.review``).

A review runs in a worker process as a job of the asking client, merged by game and
viewer (a seat, or ``all`` where every seat sees everything): however many ask, one runs;
once done it is stored with the game and never computed again. A review of a hidden-cards
game is for a seat this device (or its player) holds; a review of a game the asker did not
play is for a finished public game only. A game the server decided (a resignation, a
flag, an abort) is reviewed as played, with the server's outcome.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from quarkade.core.protocol import SPECTATOR
from quarkade.core.registry import game_class
from quarkade.learn.review import Budget, ReviewError, check_seats, seats_for
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.learn.searches import ReviewRun
from quarkade.server.play import seats as seating
from quarkade.server.play.session import GameSession
from quarkade.server.work.scheduler import Busy


@dataclass
class Progress:
    """A review under way in this process: how far it is, and how it ended."""

    total: int = 0
    done: int = 0
    error: str | None = None


class Reviews:
    """The reviews of this process: under way, and the search budget each gets."""

    def __init__(self, ctx: Context, budget: Budget) -> None:
        self.ctx = ctx
        self.budget = budget
        self.running: dict[tuple[str, str], Progress] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def viewpoint(self, session: GameSession, holder: seating.Holder, asked: str | None
                  ) -> int:
        """Whose review this device may ask for (``asked``: a seat, or none)."""
        viewpoint = holder.viewpoint(asked, session.state.current_player())
        if not session.game.perfect_information and viewpoint == SPECTATOR:
            raise ApiError(403, f"{game_class(session.name).title} hides cards, so a review "
                           "is for a seat this device holds, and a spectator has none")
        try:
            seats_for(session.game, viewpoint)
        except ReviewError as problem:
            raise ApiError(403, str(problem)) from None
        return viewpoint

    async def state(self, session: GameSession, holder: seating.Holder, viewpoint: int,
                    client: str, start: bool) -> dict[str, Any]:
        """The review's state (``none``, ``running`` with progress, ``done`` with the
        review, ``failed``), after starting it if ``start`` and it is neither done nor
        under way."""
        if not session.over:
            raise ApiError(409, "this game is not finished: a review needs a finished game")
        if not session.movers():
            raise ApiError(409, "there is nothing to review: the game ended before anyone "
                           "moved")
        if not holder.seats and session.visibility != seating.PUBLIC:
            raise ApiError(403, "a review of a game you did not play is for a finished "
                           "public game; this one is unlisted")
        game = session.game
        seats = seats_for(game, viewpoint) if game.perfect_information else \
            check_seats(game, viewpoint, [viewpoint])
        key = "all" if game.perfect_information else str(viewpoint)
        store = self.ctx.store
        hinted = await store.run(store.learning.hinted, session.id)
        cached = await store.run(store.learning.review, session.id, key)
        if cached is not None:
            return {"state": "done", "review": cached, "hinted": hinted}
        progress = self.running.get((session.id, key))
        if start and (progress is None or progress.error):
            progress = self.running[(session.id, key)] = Progress()
            self._start(session, seats, viewpoint, key, client, progress)
        if progress is None:
            return {"state": "none", "hinted": hinted}
        if progress.error:
            return {"state": "failed", "error": progress.error, "hinted": hinted}
        return {"state": "running", "done": progress.done, "total": progress.total,
                "hinted": hinted}

    def _start(self, session: GameSession, seats: list[int], viewpoint: int, key: str,
               client: str, progress: Progress) -> None:
        ended = session.outcome() if session.times.ending is not None else None
        job = ReviewRun(None, session.name, session.options,
                        [action for _, action in session.moves], seats, viewpoint,
                        list(session.names), self.budget, session.id, ended)
        limits = self.ctx.limits

        def advance(done: int, total: int) -> None:  # from the scheduler's thread
            progress.done, progress.total = done, total

        try:
            answer = self.ctx.work.enqueue(job, client, "review", limits.review_seconds,
                                           key=("review", session.id, key),
                                           progress=advance)
        except Busy as busy:
            self.running.pop((session.id, key), None)
            raise ApiError(429, f"you have {busy.waiting} requests waiting for the server's "
                           "workers already; ask again when they are done") from None

        async def run() -> None:
            store = self.ctx.store
            try:
                review = await asyncio.shield(answer)
                await store.run(store.learning.save_review, session.id, key, review)
            except Exception as problem:  # shown on the page; the next POST tries again
                progress.error = f"the review could not be made: {problem}"
                return
            self.running.pop((session.id, key), None)

        task = self.ctx.tasks.spawn(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def settled(self) -> None:
        """Until the reviews started so far have ended (tests)."""
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
