"""The lobby: open seats in public games, public games to watch, and quick play.

- ``/lobby`` lists public games waiting for players (game, options in words, time
  control, who sits where with their ratings, the open seats) and public games under way
  to watch. The page keeps a socket (``/ws/lobby``) and is sent the whole list again
  whenever a public game is made, filled, begun or ended, in this process or another (the
  broker carries ``{"type": "lobby"}``), so it updates without a reload.
- Taking an open seat is one click (``POST /api/games/<id>/seats/<n>/take``, with the
  seat's own options, such as its deck); the game begins when every seat is filled.
- Quick play (``POST /api/lobby/quick``: game, player count, time control) seats the
  player in the open game of that kind whose seated players' mean rating is closest to
  theirs, or opens one (the player at seat 0, the other seats open) and waits there.

Unlisted games never appear in the lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, load_game
from quarkade.server import seats as seating
from quarkade.server.clocks import TimeControl
from quarkade.server.errors import ApiError
from quarkade.server.storage import Unavailable
from quarkade.server.storage.lobby import LobbyQueries
from quarkade.server.storage.players import StoredPlayer

if TYPE_CHECKING:
    from quarkade.server.hub import Hub
    from quarkade.server.live import LiveGame

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Lobby:
    """The lobby pages of this process, and what they are sent."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.queries = LobbyQueries(hub.store.engine)
        self.watchers: set[Send] = set()
        self.sending: asyncio.Task[None] | None = None
        self.again = False

    async def snapshot(self) -> dict[str, Any]:
        """The lobby as every page shows it."""
        store = self.hub.store
        waiting = await store.run(self.queries.games, True)
        playing = await store.run(self.queries.games, False, 30)
        return {"type": "lobby", "open": [await self._entry(g) for g in waiting],
                "live": [await self._entry(g) for g in playing]}

    async def _entry(self, game: dict[str, Any]) -> dict[str, Any]:
        from quarkade.server.common import describe_options

        chooses = game_class(game["game"]).seat_option_names
        players = len(game["seats"])
        people = [s["player_id"] for s in game["seats"] if s["player_id"]]
        ratings = await self.hub.ratings.current(people, game["game"], players)
        return {
            "id": game["id"], "game": game["game"], "players": players,
            "options": describe_options(game["game"], game["options"]) + _reveal_words(
                game["game"], bool(game.get("reveal"))),
            "time_control": TimeControl.parse(game["time_control"]).label,
            "control": game["time_control"],
            "seats": [{"seat": s["seat"], "name": s["name"],
                       "open": s["kind"] == seating.OPEN and not s["joined"],
                       "chooses": bool(chooses(s["seat"])),
                       "invited": s["kind"] == seating.FRIEND and not s["joined"],
                       "bot": s["agent"],
                       "rating": ratings.get(s["player_id"]) if s["player_id"] else None}
                      for s in game["seats"]],
        }

    async def changed(self) -> None:
        """Send every lobby page the new list (at most one send under way; changes that
        arrive meanwhile fold into one more)."""
        if not self.watchers:
            return
        if self.sending is not None and not self.sending.done():
            self.again = True
            return
        self.sending = asyncio.get_running_loop().create_task(self._send_all())
        self.hub.tasks.add(self.sending)
        self.sending.add_done_callback(self.hub.tasks.discard)

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

    async def quick(self, player: StoredPlayer, game: Any, players: Any, time_control: Any,
                    deck: Any = None) -> tuple[LiveGame, int, str | None]:
        """Seat ``player`` in the closest open game of this kind, or open one. Returns the
        game, the seat, and the seat's new secret. ``deck`` (a game with a deck builder
        only) is the player's deck at whichever seat they get; without it a seat's own
        options keep their defaults."""
        from quarkade.server.common import deck_games, deck_options, known_game
        from quarkade.server.decks import check_deck

        if not isinstance(game, str):
            raise ApiError(400, "'game' should name a game")
        known_game(game)
        if deck is not None and deck != "":
            if game not in deck_games():
                raise ApiError(400, f"{game} takes no deck; leave 'deck' out (decks are for: "
                               f"{', '.join(deck_games())})")
            deck = check_deck(game, deck)
        own = deck_options(game) if deck else ()

        def choices(seat: int) -> dict[str, str] | None:  # the player's deck at ``seat``
            names = [name for name in game_class(game).seat_option_names(seat) if name in own]
            return {name: deck for name in names} or None
        try:
            count = load_game(game, **({} if players is None else {"players": players})
                              ).num_players
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        control = TimeControl.parse(time_control)
        hub = self.hub
        mine = (await hub.ratings.current([player.id], game, count))[player.id]
        candidates = []
        for entry in await hub.store.run(self.queries.games, True, 200, game, control.text):
            seats = entry["seats"]
            if len(seats) != count or any(s["player_id"] == player.id for s in seats):
                continue
            open_seats = [s["seat"] for s in seats if s["kind"] == seating.OPEN
                          and not s["joined"]]
            if not open_seats:
                continue
            people = [s["player_id"] for s in seats if s["player_id"]]
            ratings = await hub.ratings.current(people, game, count)
            mean = sum(ratings.values()) / len(ratings) if ratings else mine
            candidates.append((abs(mean - mine), entry["created"], entry["id"], open_seats))
        for _, _, game_id, open_seats in sorted(candidates, key=lambda c: (c[0], c[1])):
            live = await hub.get(game_id)
            for seat in open_seats:
                try:
                    token = await hub.take(live, seat, player, choices(seat))
                except ApiError as problem:
                    if problem.status == 409:
                        continue  # someone took it first: the next one
                    raise
                return live, seat, token
        specs = ["you", *[seating.OPEN] * (count - 1)]
        live, _ = await hub.create(game, {"players": count, **(choices(0) or {})}, specs,
                                   seating.PUBLIC, control.text, player)
        return live, 0, live.seats[0].token


def _reveal_words(game: str, reveal: bool) -> list[str]:
    """What the table chose about hidden cards after the game, for a game that hides any
    (every seat is told before it joins, here too)."""
    if game_class(game).perfect_information:
        return []
    return ["Every hidden card shown after the game" if reveal
            else "Hidden cards stay hidden after the game"]
