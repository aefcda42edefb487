"""Ratings as pages read them (the leaderboard, a player's ratings and history), and the
games an older process left pending (the model is ``play.skill``; which games are rated
and how an ending rates them is ``play.rated``).

A rated game is rated in the same step that ends it (``play.rated``: the session hands
storage the plan with the move or ruling). A game left ``pending`` (ended by a process
from before that rule, or stopped between) is rated when it is next loaded: ``Ratings``
listens for the session's ``Finished`` event, and a process starting up loads the games
left pending, which emit it. A rating is shown as "1500?" while provisional (RULINGS
S-10); provisional players are left off the leaderboard.
"""

from __future__ import annotations

import logging
from typing import Any

from quarkade.agents.registry import LEVEL_NAMES
from quarkade.server.context import Context
from quarkade.server.play.events import Finished
from quarkade.server.play.names import seat_names
from quarkade.server.play.rated import plan
from quarkade.server.play.session import GameSession
from quarkade.server.play.skill import (
    ANCHORS,
    CENTRE,
    anchor,
    label,
    margin,
    provisional,
    shown,
)
from quarkade.server.storage import Unavailable

log = logging.getLogger("quarkade.server")


class Ratings:
    """Rating games left pending, and reading ratings for pages."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.queries = ctx.store.ratings
        ctx.events.on(Finished, self.finished)

    async def finished(self, event: Finished[GameSession]) -> None:
        """``event.session`` is over and its ratings are pending: rate it (once, across
        processes) and show the changes."""
        session = event.session
        if session.times.rating_state != "pending":
            return
        rating = plan(session.name, session.game.num_players, session.seats,
                      session.outcome())
        store = self.store
        try:
            if rating is None:
                await store.run(store.games.set_unrated, session.id)
            else:
                await store.run(self.queries.apply, session.id, rating,
                                self.ctx.clock.time())
        except Unavailable:
            return  # a process's start-up, or the next look, rates it
        await session.rated()

    async def leaderboard(self, game: str, players: int) -> list[dict[str, Any]]:
        """The established players (provisional ones are left off: S-10) and the bot
        levels' anchors, by rating, highest first."""
        rows = await self.store.run(self.queries.leaderboard, game, players)
        board = [{"name": r["name"], "rating": round(shown((r["mu"], r["sigma"]))),
                  "shown": label((r["mu"], r["sigma"])),
                  "deviation": round(margin(r["sigma"])), "games": r["games"],
                  "bot": False} for r in rows if not provisional(r["sigma"])]
        for name in LEVEL_NAMES:
            sigma = anchor(name)[1]
            board.append({"name": f"{name.capitalize()} bot", "rating": round(ANCHORS[name]),
                          "shown": str(round(ANCHORS[name])),
                          "deviation": round(margin(sigma)), "games": None, "bot": True})
        return sorted(board, key=lambda entry: (-entry["rating"], entry["bot"],
                                                entry["name"].lower()))

    async def of_player(self, player_id: str) -> list[dict[str, Any]]:
        rows = await self.store.run(self.queries.player_ratings, player_id)
        return [{"game": r["game"], "players": r["players"],
                 "rating": round(shown((r["mu"], r["sigma"]))),
                 "shown": label((r["mu"], r["sigma"])),
                 "provisional": provisional(r["sigma"]),
                 "deviation": round(margin(r["sigma"])), "games": r["games"]}
                for r in rows]

    async def history(self, player_id: str) -> list[dict[str, Any]]:
        """The player's rated games, oldest first, each with its ``opponents`` named as
        players read them."""
        found = await self.store.run(self.queries.history, player_id)
        for entry in found:
            seats = entry.pop("seats")
            mine = entry.pop("mine")
            entry["opponents"] = [name for seat, name in
                                  zip(seats, seat_names(entry["game"], seats), strict=True)
                                  if seat["seat"] != mine]
        return found

    async def current(self, player_ids: list[str], game: str, players: int) -> dict[str, int]:
        """Shown ratings of these players in ``game`` with ``players`` (newcomers 1500)."""
        found = await self.store.run(self.queries.ratings, player_ids, game, players)
        return {p: round(shown(found[p][:2])) if p in found else round(CENTRE)
                for p in player_ids}
