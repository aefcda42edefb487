"""The games one server process holds in memory, and the changes that make or join games.

Games are loaded from storage on demand and leave memory when nobody uses them (no page,
no bot, idle for ``Limits.idle_seconds``, or the least recently used once more than
``Limits.live_games`` are held), so memory stays flat however many games the database
holds. Other processes' moves arrive through the broker and are played on the copy held
here; their other changes, or a move that does not follow the copy, are reloaded from
storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections import OrderedDict
from typing import Any

from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import load_game
from quarkade.server import seats as seating
from quarkade.server.bots import BotPool
from quarkade.server.broker import Broker
from quarkade.server.clocks import Clock
from quarkade.server.errors import ApiError
from quarkade.server.limits import Limits
from quarkade.server.live import UNAVAILABLE, LiveGame
from quarkade.server.storage import Store, StoredSeat, Unavailable, ValueTooLong

log = logging.getLogger("quarkade.server")

SWEEP_SECONDS = 30.0
RELOAD: dict[str, Any] = {}  # a message with no moves: reload the game from storage


class Hub:
    """All live games of one process: loaded lazily, shared by every request."""

    def __init__(self, store: Store, broker: Broker, bot_pool: BotPool, clock: Clock,
                 limits: Limits, bot_delay: float = 0.0,
                 allowed_bots: frozenset[str] = frozenset(),
                 move_time: float = DEFAULT_MOVE_TIME) -> None:
        self.store = store
        self.allowed_bots = allowed_bots  # the plug-in bots seats may use
        self.move_time = move_time  # seconds a plug-in bot may think per move
        self.broker = broker
        self.bot_pool = bot_pool
        self.clock = clock
        self.limits = limits
        self.bot_delay = bot_delay
        self.bot_lease = limits.bot_seconds + 5.0  # a claim outlives the bot's deadline
        self.process = secrets.token_hex(6)  # this process, in claims and broker messages
        self.chance_rng = random.SystemRandom()
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.sweeper: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self.broker.start(self._heard)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())

    # -- games in memory -----------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            live.used = self.clock.monotonic()
            return live
        if not _plausible_id(game_id):
            raise ApiError(404, "no game with that id here; start one from the home page")
        pending = self.loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self.loading[game_id] = future
        try:
            live = await self._load(game_id)
            future.set_result(live)
        except BaseException as problem:
            future.set_exception(problem)
            future.exception()  # retrieved: waiters re-raise it themselves
            raise
        finally:
            del self.loading[game_id]
        await live.start()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        try:
            stored = await self.store.run(self.store.load_game, game_id)
        except Unavailable:
            raise ApiError(503, "the database is not answering; try again in a moment"
                           ) from None
        if stored is None:
            raise ApiError(404, f"no game {game_id!r} here; start one from the home page")
        try:
            live = LiveGame(self, stored)
        except QuarkadeError as problem:  # its game or a bot is gone, or a move is not
            raise ApiError(409, f"game {game_id} can no longer be played here: "
                           f"{problem}") from None
        live.used = self.clock.monotonic()
        self.games[game_id] = live
        self.evict()
        return live

    def forget(self, game_id: str) -> None:
        self.games.pop(game_id, None)

    def evict(self) -> int:
        """Let idle games go (they come back from storage when asked for); returns how many."""
        now = self.clock.monotonic()
        idle = [gid for gid, live in self.games.items()
                if not live.busy() and now - live.used >= self.limits.idle_seconds]
        for game_id in idle:
            del self.games[game_id]
        over = len(self.games) - self.limits.live_games
        if over > 0:  # the least recently used first, never the newest
            idle_now = [gid for gid, live in list(self.games.items())[:-1] if not live.busy()]
            for game_id in idle_now[:over]:
                del self.games[game_id]
        return len(idle) + max(over, 0)

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.evict()

    async def _heard(self, message: dict[str, Any]) -> None:
        """Another process changed a game (or the broker reconnected: check every game)."""
        if message.get("type") == "resync":
            for held in list(self.games.values()):
                self._take_in_soon(held, dict(RELOAD))
            return
        if message.get("origin") == self.process:
            return
        live = self.games.get(str(message.get("game")))
        step = message.get("step")
        if live is None or (isinstance(step, int) and step < live.step):
            return
        self._take_in_soon(live, message)

    def _take_in_soon(self, live: LiveGame, message: dict[str, Any]) -> None:
        """Let ``live`` take in ``message`` in its own task, so one game never holds up the
        next message; messages that arrive meanwhile are taken in together, in order."""
        live.heard.append(message)
        if live.refreshing is not None and not live.refreshing.done():
            return

        async def take_in() -> None:
            while live.heard:
                messages, live.heard = live.heard, []
                try:
                    await live.hear(messages)
                except Unavailable:
                    log.warning("game %s: could not reload a change from the database",
                                live.id)

        live.refreshing = asyncio.get_running_loop().create_task(take_in())
        self.tasks.add(live.refreshing)
        live.refreshing.add_done_callback(self.tasks.discard)

    # -- making and joining games ----------------------------------------------------------

    async def create(self, game: str, options: dict[str, Any], seat_specs: list[Any],
                     visibility: Any = None) -> tuple[LiveGame, str]:
        """A new game from a game name, its options and a choice per seat; returns it and
        its host token."""
        try:
            loaded = load_game(game, **options)
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        seats = seating.parse_seats(game, seat_specs, loaded.num_players, self.clock.time(),
                                    self.limits.invite_seconds, self.allowed_bots)
        host_token = seating.new_token()
        live = await self._create(game, dict(loaded.options), seats, host_token,
                                  seating.visibility_of(visibility))
        return live, host_token

    async def _create(self, game: str, options: dict[str, Any], seats: list[StoredSeat],
                      host_token: str, visibility: str) -> LiveGame:
        game_id = seating.new_game_id()
        try:
            await self.store.run(self.store.create_game, game_id, game, options, host_token,
                                 seats, visibility)
        except ValueTooLong as problem:
            raise ApiError(400, f"a value is too long: {problem}") from None
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "made")) from None
        return await self.get(game_id)

    async def join(self, game_id: str, invite: str, tokens: list[str]) -> tuple[LiveGame, int,
                                                                              str | None]:
        """Spend an invite: the seat it opens and the joiner's new secret (None when this
        device holds the seat already, as when the joiner opens the link again)."""
        live = await self.get(game_id)
        for seat in live.seats:
            if seat.kind != seating.FRIEND:
                continue
            if seat.invite is not None and secrets.compare_digest(seat.invite, invite):
                token = seating.new_token()
                try:
                    joined = await self.store.run(self.store.join, game_id, seat.seat, invite,
                                                  token, self.clock.time())
                except Unavailable:
                    raise ApiError(503, UNAVAILABLE.replace("played", "changed")) from None
                await live.refresh()
                if not joined:
                    break
                await self.announce(live)
                return live, seat.seat, token
        friends = {s.seat for s in live.seats if s.kind == seating.FRIEND}
        mine = live.holder(tokens).seats & friends
        if mine:  # the joiner opening the link again
            return live, min(mine), None
        raise ApiError(403, "this invite link is not valid for this game: it was used or it "
                       "expired. A seat's player can link another device from the game page")

    async def renew_invite(self, live: LiveGame, holder: seating.Holder, seat: int) -> str:
        if not holder.host:
            raise ApiError(403, "only the device that made the game can renew its invites")
        found = [s for s in live.seats if s.seat == seat and s.kind == seating.FRIEND]
        if not found or found[0].joined:
            raise ApiError(409, f"seat {seat} is not a friend seat waiting for its player")
        invite = seating.new_token()
        expires = self.clock.time() + self.limits.invite_seconds
        await self.store.run(self.store.renew_invite, live.id, seat, invite, expires)
        await live.refresh()
        await self.announce(live)
        return invite

    async def link(self, live: LiveGame, holder: seating.Holder, seat: int) -> str:
        """A one-time code that gives another device ``seat``'s secret (asked by its holder)."""
        if seat not in holder.seats:
            raise ApiError(403, f"only a device holding seat {seat} can link another device")
        code = seating.new_token()
        await self.store.run(self.store.set_link, live.id, seat, code,
                             self.clock.time() + self.limits.link_seconds)
        return code

    async def use_link(self, game_id: str, code: str) -> tuple[LiveGame, int, str]:
        live = await self.get(game_id)
        found = await self.store.run(self.store.use_link, game_id, code, self.clock.time())
        if found is None:
            raise ApiError(403, "this device link was used or expired; ask for a new one "
                           "from a device that holds the seat")
        return live, found[0], found[1]

    async def rematch(self, live: LiveGame, holder: seating.Holder) -> LiveGame:
        """The same table again with new secrets and invites; made once, then shared."""
        if not holder.seats and not holder.host:
            raise ApiError(403, "only someone at the table can ask for a rematch")
        if not live.state.is_terminal():
            raise ApiError(409, "the game is not over yet")
        async with live.lock:
            if live.rematch is None:
                seats = seating.fresh_seats(live.seats, self.clock.time(),
                                            self.limits.invite_seconds)
                new = await self._create(live.name, live.options, seats, seating.new_token(),
                                         live.visibility)
                if await self.store.run(self.store.set_rematch, live.id, new.id):
                    live.rematch = new.id
                else:  # another process made it first: keep theirs
                    self.forget(new.id)
                    await self.store.run(self.store.delete_game, new.id)
                    await live._catch_up()
        await live.broadcast()
        await self.announce(live)
        assert live.rematch is not None
        return await self.get(live.rematch)

    async def announce(self, live: LiveGame, first: int | None = None,
                       moves: list[tuple[int, int]] | None = None) -> None:
        """Tell the other processes that ``live`` changed: ``moves``, the ``(player,
        action)`` pairs stored from step ``first`` on, which they play on their copies;
        without them they reload it. Never a view, a log line or a secret."""
        message: dict[str, Any] = {"game": live.id, "step": live.step, "origin": self.process}
        if moves:
            message["from"] = first
            message["moves"] = [list(pair) for pair in moves]
        await self.broker.publish(message)

    async def close(self) -> None:
        self.closing = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for live in self.games.values():
            if live.recheck is not None:
                live.recheck.cancel()
        for task in list(self.tasks):
            task.cancel()
        self.bot_pool.close()  # a bot thinking now is stopped, so no task waits on it
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        with contextlib.suppress(Unavailable):  # its claimed bot turns are free at once
            await self.store.run(self.store.release_claims, self.process)
        await self.broker.close()


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and game_id.isascii() and game_id.replace("-", "").replace(
        "_", "").isalnum()
