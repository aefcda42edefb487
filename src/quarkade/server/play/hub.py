"""The games one server process holds in memory, and where their events go.

Games are loaded from storage on demand and leave memory when nobody uses them (no page,
no bot, idle for ``Limits.idle_seconds``, or the least recently used once more than
``Limits.live_games`` are held), so memory stays flat however many games the database
holds. Each held game is a ``LiveGame``: its session, the pages watching it
(``Audience``) and its bots (``BotDriver``).

The hub wires a session's events to those who listen: a change is shown on the game's
pages and sets its bots going; what this process stored is told to the other processes
through the broker (``messages``), whose moves arrive here and are played on the copy
held (anything else, or a move that does not follow the copy, is reloaded from
storage). Deadlines that pass are applied here (``endings.flag``). Games of bots only
whose process died are picked up here: at start and every ``ORPHAN_SECONDS``, a game
under way with only bot seats whose bot turns no process has claimed (their leases ran
out) is loaded, and its bots play on (the claims keep two processes from both moving).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from quarkade.core.errors import QuarkadeError
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.messages import (
    ChatAdded,
    GameMessage,
    LobbyChanged,
    Message,
    Moves,
    Reload,
    Renamed,
    Resync,
)
from quarkade.server.play import endings
from quarkade.server.play.audience import Audience
from quarkade.server.play.bots import BotDriver
from quarkade.server.play.clocks import DeadlineWatcher
from quarkade.server.play.events import (
    Changed,
    Chatted,
    Lost,
    Moved,
    Overdue,
    Ruled,
    Updated,
)
from quarkade.server.play.session import GameSession
from quarkade.server.storage import Unavailable

log = logging.getLogger("quarkade.server")

SWEEP_SECONDS = 30.0
ORPHAN_SECONDS = 10.0  # how often games of bots only that no process holds are looked for


class LiveGame:
    """A game this process holds: its session, its pages, its bots, and the messages of
    other processes not yet taken in."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.audience = Audience(session)
        self.bots = BotDriver(session)
        self.used = 0.0  # when a request last touched it (the context's clock)
        self.heard: list[GameMessage] = []
        self.hearing: asyncio.Task[None] | None = None  # taking those in

    def busy(self) -> bool:
        """Something depends on it staying in memory: a page, a bot, a move under way."""
        return bool(self.audience.watchers) or self.session.lock.locked() or \
            self.bots.busy()

    async def taken_in(self) -> None:
        """Until the messages heard for this game so far are taken in."""
        while self.hearing is not None and not self.hearing.done():
            await asyncio.shield(self.hearing)


class Hub:
    """All live games of one process: loaded lazily, shared by every request."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self.orphans: asyncio.Task[None] | None = None
        self.unresumable: set[str] = set()  # games this process cannot load
        store = ctx.store
        self.deadlines = DeadlineWatcher(
            ctx.clock, lambda now: store.run(store.games.expired, now),
            lambda: store.run(store.games.next_deadline), self.expire)
        bus = ctx.events
        bus.on(Moved, self._moved)
        bus.on(Changed, self._changed)
        bus.on(Updated, self._updated)
        bus.on(Ruled, self._ruled)
        bus.on(Chatted, self._chatted)
        bus.on(Overdue, self._overdue)
        bus.on(Lost, self._lost)

    async def open(self) -> None:
        await self.ctx.broker.start(self.hear)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        self.orphans = asyncio.get_running_loop().create_task(self._resume_orphans())
        # Deadlines that passed while no process ran are applied now; so are ratings
        # a stopped process left pending (loading such a game rates it).
        self.deadlines.start()
        self.ctx.tasks.spawn(self._rate_pending())

    async def _rate_pending(self) -> None:
        store = self.ctx.store
        try:
            pending = await store.run(store.games.unrated_finished)
        except Unavailable:
            return
        for game_id in pending:
            try:
                await self.get(game_id)
            except (ApiError, Unavailable) as problem:
                log.warning("game %s: its ratings could not be applied (%s)", game_id,
                            type(problem).__name__)

    async def _resume_orphans(self) -> None:
        """Now and every ``ORPHAN_SECONDS``: take up the games of bots only that no
        process holds (see ``resume_orphans``)."""
        while True:
            try:
                await self.resume_orphans()
            except Exception as problem:  # never silent, and looked for again later
                log.error("resuming games of bots only failed (%s: %s)",
                          type(problem).__name__, problem)
            await asyncio.sleep(ORPHAN_SECONDS)

    async def resume_orphans(self) -> list[str]:
        """Load the games under way with only bot seats that no process holds (their
        process died, or stopped), so their bots play on here; the ids taken up."""
        store = self.ctx.store
        try:
            found = await store.run(store.games.orphaned_bot_games, self.ctx.clock.time())
        except Unavailable:
            return []
        taken = []
        for game_id in found:
            if game_id in self.games or game_id in self.unresumable:
                continue
            try:
                live = await self.live(game_id)
            except (ApiError, Unavailable) as problem:
                log.warning("game %s: its bots could not be resumed (%s)", game_id,
                            type(problem).__name__)
                if isinstance(problem, ApiError) and problem.status != 503:
                    self.unresumable.add(game_id)  # e.g. a plug-in not allowed here
                continue
            live.bots.schedule()
            taken.append(game_id)
            log.info("game %s: its bots play on here (no process held it)", game_id)
        return taken

    # -- where a session's events go -----------------------------------------------------

    def _held(self, session: GameSession) -> LiveGame | None:
        """The held game of ``session`` (None: that copy left memory, or never entered)."""
        live = self.games.get(session.id)
        return live if live is not None and live.session is session else None

    async def _moved(self, event: Moved[GameSession]) -> None:
        session = event.session
        await self.ctx.broker.publish(Moves(session.id, session.step, self.ctx.process,
                                            event.first, event.moves, event.clock))
        if event.clock.game.get("deadline") is not None:
            self.deadlines.wake()

    async def _changed(self, event: Changed[GameSession]) -> None:
        live = self._held(event.session)
        if live is not None:
            await live.audience.show()
            live.bots.schedule()

    async def _updated(self, event: Updated[GameSession]) -> None:
        session = event.session
        await self.ctx.broker.publish(Reload(session.id, session.step, self.ctx.process))

    async def _ruled(self, event: Ruled[GameSession]) -> None:
        await event.session.changed()
        await self._updated(Updated(event.session))

    async def _chatted(self, event: Chatted[GameSession]) -> None:
        live = self._held(event.session)
        if live is not None and event.messages:
            await live.audience.send_chat(event.messages)
        if event.number is not None:
            session = event.session
            await self.ctx.broker.publish(ChatAdded(session.id, session.step,
                                                    self.ctx.process, event.number))

    async def _overdue(self, event: Overdue[GameSession]) -> None:
        self.deadlines.wake()

    async def _lost(self, event: Lost[GameSession]) -> None:
        if self._held(event.session) is not None:
            self.forget(event.session.id)

    # -- what the server decides: flags -----------------------------------------------

    async def expire(self, game_id: str, deadline: float) -> None:
        """A stored deadline passed: apply it once (whichever process claims it)."""
        session = await self.get(game_id)
        async with session.lock:
            await session.catch_up()
            ruled = await endings.flag(session, deadline)
        if ruled:
            await session.ruled()

    async def renamed(self, player_id: str) -> None:
        """A player took a new name here: the games in memory where they sit show it, and
        the other processes are told."""
        for live in list(self.games.values()):
            if any(s.player_id == player_id for s in live.session.seats):
                await live.session.refresh()
        message = Renamed(player_id, self.ctx.process)
        await self.ctx.broker.publish(message)
        await self.ctx.events.emit(message)

    # -- games in memory -----------------------------------------------------------------

    async def get(self, game_id: str) -> GameSession:
        """The game ``game_id`` (loaded if need be); ``ApiError`` 404, 409 or 503."""
        return (await self.live(game_id)).session

    async def live(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            live.used = self.ctx.clock.monotonic()
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
        await live.session.start()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        store = self.ctx.store
        try:
            stored = await store.run(store.games.load, game_id)
        except Unavailable:
            raise ApiError(503, "the database is not answering; try again in a moment"
                           ) from None
        if stored is None:
            raise ApiError(404, f"no game {game_id!r} here; start one from the home page")
        try:
            session = GameSession(self.ctx, stored)
        except QuarkadeError as problem:  # its game or a bot is gone, or a move is not
            raise ApiError(409, f"game {game_id} can no longer be played here: "
                           f"{problem}") from None
        if session.times.rating_state == "done":
            session.rating_changes = await store.run(store.ratings.changes_for_game,
                                                     game_id)
        live = LiveGame(session)
        live.used = self.ctx.clock.monotonic()
        self.games[game_id] = live
        self.evict()
        return live

    def forget(self, game_id: str) -> None:
        live = self.games.pop(game_id, None)
        if live is not None:
            live.bots.stop()

    def evict(self) -> int:
        """Let idle games go (they come back from storage when asked for); returns how many."""
        now = self.ctx.clock.monotonic()
        idle = [gid for gid, live in self.games.items()
                if not live.busy() and now - live.used >= self.ctx.limits.idle_seconds]
        for game_id in idle:
            del self.games[game_id]
        over = len(self.games) - self.ctx.limits.live_games
        if over > 0:  # the least recently used first, never the newest
            idle_now = [gid for gid, live in list(self.games.items())[:-1] if not live.busy()]
            for game_id in idle_now[:over]:
                del self.games[game_id]
        return len(idle) + max(over, 0)

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.evict()

    # -- what other processes say --------------------------------------------------------

    async def hear(self, message: Message) -> None:
        """What another process said (the broker delivers it here): it changed a game, the
        lobby or a name (or the broker reconnected: check every game held). A game's
        messages are taken in by its own task, so this never waits on a game
        (``LiveGame.taken_in`` says when they were)."""
        if isinstance(message, Resync):
            await self.ctx.events.emit(message)
            for held in list(self.games.values()):
                self._take_in_soon(held, Reload(held.session.id, held.session.step, ""))
            return
        if message.origin == self.ctx.process:
            return
        if isinstance(message, LobbyChanged):
            await self.ctx.events.emit(message)
            return
        if isinstance(message, Renamed):
            for held in list(self.games.values()):
                if any(s.player_id == message.player for s in held.session.seats):
                    self._take_in_soon(held, Reload(held.session.id, held.session.step, ""))
            await self.ctx.events.emit(message)
            return
        live = self.games.get(message.game)
        if live is None or message.step < live.session.step:
            return
        self._take_in_soon(live, message)

    def _take_in_soon(self, live: LiveGame, message: GameMessage) -> None:
        """Let ``live`` take in ``message`` in its own task, so one game never holds up the
        next message; messages that arrive meanwhile are taken in together, in order."""
        live.heard.append(message)
        if live.hearing is not None and not live.hearing.done():
            return

        async def take_in() -> None:
            while live.heard:
                messages, live.heard = live.heard, []
                try:
                    await live.session.hear(messages)
                except Unavailable:
                    log.warning("game %s: could not reload a change from the database",
                                live.session.id)

        live.hearing = self.ctx.tasks.spawn(take_in())

    async def close(self) -> None:
        await self.deadlines.close()
        for task in (self.sweeper, self.orphans):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for live in self.games.values():
            live.bots.stop()
        store = self.ctx.store
        with contextlib.suppress(Unavailable):  # its claimed bot turns are free at once
            await store.run(store.games.release_claims, self.ctx.process)


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and game_id.isascii() and game_id.replace("-", "").replace(
        "_", "").isalnum()


__all__ = ["Hub", "LiveGame"]
