"""The server's parts, as the routes reach them: one ``Site`` per app (``create_app``
makes it, ``app.state.site`` holds it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from quarkade.learn.review import Budget
from quarkade.server.context import Context
from quarkade.server.decks.testing import DeckTests
from quarkade.server.learn.hints import Hints
from quarkade.server.learn.reviews import Reviews
from quarkade.server.limits import RateLimiter
from quarkade.server.people.lobby import Lobby
from quarkade.server.people.players import Players
from quarkade.server.people.ratings import Ratings
from quarkade.server.play.chat import Chat
from quarkade.server.play.hub import Hub
from quarkade.server.play.rematch import Rematches
from quarkade.server.play.seating import Seating


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
    limiters: dict[str, RateLimiter]
    ladder_dir: Path

    @classmethod
    def build(cls, ctx: Context, review_budget: Budget, ladder_dir: Path) -> Site:
        """Every part over ``ctx``, each listening to the events it cares about."""
        hub = Hub(ctx)
        ratings = Ratings(ctx)
        limits = ctx.limits
        seating = Seating(ctx, hub)
        return cls(ctx, hub, seating, Rematches(ctx, hub, seating), Chat(ctx),
                   Players(ctx.store, ctx.clock, limits), ratings, Lobby(ctx, ratings),
                   Hints(ctx), Reviews(ctx, review_budget), DeckTests(ctx),
                   {"create": RateLimiter(limits.create_games, ctx.clock),
                    "moves": RateLimiter(limits.http_moves, ctx.clock),
                    "deck tests": RateLimiter(limits.deck_tests, ctx.clock)},
                   ladder_dir)

    async def open(self) -> None:
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
        self.players.close()
        ctx.store.close()
