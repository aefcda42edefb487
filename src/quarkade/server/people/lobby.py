"""The lobby: open seats in public games, and public games to watch.

``/lobby`` lists public games waiting for players (game, options in words, time control,
who sits where with their ratings, the open seats) and public games under way to watch.
The page keeps a socket (``/ws/lobby``) and is sent the whole list again whenever a
public game is made, filled, begun or ended, or a player is renamed, in this process or
another (the broker carries ``LobbyChanged`` and ``Renamed``), so it updates without a
reload. A page is sent the list as its player sees it (``as_seen_by``): a game where the
player already sits says so instead of offering a seat. Taking a seat and quick play are
``quick``. Unlisted games never appear here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from quarkade.core.registry import game_class
from quarkade.server.catalogue import describe_options
from quarkade.server.context import Context
from quarkade.server.messages import LobbyChanged, Renamed, Resync
from quarkade.server.people.ratings import Ratings
from quarkade.server.play import seats as seating
from quarkade.server.play.clocks import TimeControl
from quarkade.server.play.events import Listed
from quarkade.server.play.names import seat_names
from quarkade.server.storage import Unavailable

Send = Callable[[dict[str, Any]], Awaitable[None]]
HELD_BY = "held_by"  # an entry's players' ids, which only ``as_seen_by`` reads


def as_seen_by(snapshot: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    """The lobby ``snapshot`` as the page of ``player_id`` gets it: each open game says
    whether that player sits in it already (``yours``), and no entry names its players'
    ids."""
    def entry(game: dict[str, Any], open_game: bool) -> dict[str, Any]:
        seen = {key: value for key, value in game.items() if key != HELD_BY}
        if open_game:
            seen["yours"] = player_id is not None and player_id in game[HELD_BY]
        return seen

    return {**snapshot, "open": [entry(g, True) for g in snapshot["open"]],
            "live": [entry(g, False) for g in snapshot["live"]]}


class Lobby:
    """The lobby pages of this process, and what they are sent."""

    def __init__(self, ctx: Context, ratings: Ratings) -> None:
        self.ctx = ctx
        self.ratings = ratings
        self.watchers: set[Send] = set()
        self.sending: asyncio.Task[None] | None = None
        self.again = False
        ctx.events.on(Listed, self._listed)
        for kind in (LobbyChanged, Renamed, Resync):
            ctx.events.on(kind, self._heard)

    async def _listed(self, event: Listed[object]) -> None:
        """A public game of this process changed: look again, and tell the others."""
        await self.changed()
        await self.ctx.broker.publish(LobbyChanged(self.ctx.process))

    async def _heard(self, event: object) -> None:
        await self.changed()

    async def snapshot(self) -> dict[str, Any]:
        """The lobby as every page shows it, before ``as_seen_by``."""
        store = self.ctx.store
        waiting = await store.run(store.lobby.games, True, 50, None, None,
                                  self.ctx.clock.time())
        playing = await store.run(store.lobby.games, False, 30)
        return {"type": "lobby", "open": [await self._entry(g) for g in waiting],
                "live": [await self._entry(g) for g in playing]}

    async def _entry(self, game: dict[str, Any]) -> dict[str, Any]:
        chooses = game_class(game["game"]).seat_option_names
        players = len(game["seats"])
        people = [s["player_id"] for s in game["seats"] if s["player_id"]]
        ratings = await self.ratings.current(people, game["game"], players)
        names = seat_names(game["game"], game["seats"])
        return {
            "id": game["id"], "game": game["game"], "title": game_class(game["game"]).title,
            HELD_BY: people,  # (never sent: see as_seen_by)
            "players": players,
            "options": describe_options(game["game"], game["options"]) + _reveal_words(
                game["game"], bool(game.get("reveal"))),
            "time_control": TimeControl.parse(game["time_control"]).label,
            "control": game["time_control"],
            "seats": [{"seat": s["seat"], "name": name,
                       "open": s["kind"] == seating.OPEN and not s["joined"],
                       "chooses": bool(chooses(s["seat"])),
                       "invited": s["kind"] == seating.FRIEND and not s["joined"],
                       "bot": s["agent"],
                       "rating": ratings.get(s["player_id"]) if s["player_id"] else None}
                      for s, name in zip(game["seats"], names, strict=True)],
        }

    async def changed(self) -> None:
        """Send every lobby page the new list (at most one send under way; changes that
        arrive meanwhile fold into one more)."""
        if not self.watchers:
            return
        if self.sending is not None and not self.sending.done():
            self.again = True
            return
        self.sending = self.ctx.tasks.spawn(self._send_all())

    async def _send_all(self) -> None:
        while True:
            self.again = False
            try:
                message = await self.snapshot()
            except Unavailable:
                return
            for send in list(self.watchers):
                try:
                    await send(message)
                except Exception:  # a page that went away
                    self.watchers.discard(send)
            if not self.again:
                return

    async def close(self) -> None:
        if self.sending is not None:
            self.sending.cancel()
            with contextlib.suppress(BaseException):
                await self.sending

def _reveal_words(game: str, reveal: bool) -> list[str]:
    """What the table chose about hidden cards after the game, for a game that hides any
    (every seat is told before it joins, here too)."""
    if game_class(game).perfect_information:
        return []
    return ["Every hidden card shown after the game" if reveal
            else "Hidden cards stay hidden after the game"]
