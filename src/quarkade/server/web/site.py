"""The server's parts, as the routes reach them: one ``Site`` per app (``create_app``
makes it, ``app.state.site`` holds it)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from quarkade.learn.review import Budget
from quarkade.server.context import Context
from quarkade.server.decks.testing import DeckTests
from quarkade.server.learn.analysis import Analysis
from quarkade.server.learn.hints import Hints
from quarkade.server.learn.puzzles import PuzzlePool
from quarkade.server.learn.reviews import Reviews
from quarkade.server.people.lobby import Lobby
from quarkade.server.people.players import SESSION_AGE, Players
from quarkade.server.people.ratings import Ratings
from quarkade.server.play.chat import Chat
from quarkade.server.play.hub import Hub
from quarkade.server.play.rematch import Rematches
from quarkade.server.play.seating import Seating
from quarkade.server.storage import Unavailable


@dataclass(frozen=True)
class Site:
    ctx: Context
    hub: Hub
    seating: Seating
    rematches: Rematches
    chat: Chat
    players: Players
    ratings: Ratings
    lobby: Lobby
    hints: Hints
    reviews: Reviews
    deck_tests: DeckTests
    ladder_dir: Path
    puzzles: PuzzlePool
    analysis: Analysis

    @classmethod
    def build(cls, ctx: Context, review_budget: Budget, ladder_dir: Path,
              puzzles: PuzzlePool | None = None) -> Site:
        """Every part over ``ctx``, each listening to the events it cares about."""
        hub = Hub(ctx)
        ratings = Ratings(ctx)
        limits = ctx.limits
        seating = Seating(ctx, hub)
        return cls(ctx, hub, seating, Rematches(ctx, hub, seating), Chat(ctx),
                   Players(ctx.store, ctx.clock, limits, ctx.rates), ratings, Lobby(ctx, ratings),
                   Hints(ctx), Reviews(ctx, review_budget), DeckTests(ctx), ladder_dir,
                   puzzles or PuzzlePool(), Analysis(ctx))

    async def open(self) -> None:
        ctx = self.ctx  # sessions whose cookies have expired are forgotten at each start
        with contextlib.suppress(Unavailable):  # (or at the next start, if it is down now)
            await ctx.store.run(ctx.store.players.forget_sessions,
                                ctx.clock.time() - SESSION_AGE)
        await self.hub.open()

    async def close(self) -> None:
        ctx = self.ctx
        ctx.tasks.stopping = True
        await self.deck_tests.close()
        await self.lobby.close()
        await self.hub.close()
        await ctx.work.close()  # a job running now is stopped, so no task waits on it
        await ctx.tasks.close()
        await ctx.broker.close()
        await ctx.rates.close()
        self.players.close()
        ctx.store.close()
