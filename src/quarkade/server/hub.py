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
from quarkade.core.registry import game_class, load_game
from quarkade.server import endings
from quarkade.server import seats as seating
from quarkade.server.bots import BotPool
from quarkade.server.broker import Broker
from quarkade.server.clocks import Clock, DeadlineWatcher, TimeControl
from quarkade.server.decktests import DeckTests
from quarkade.server.errors import ApiError
from quarkade.server.limits import Limits, RateLimiter
from quarkade.server.live import UNAVAILABLE, LiveGame
from quarkade.server.lobby import Lobby
from quarkade.server.ratings import Ratings
from quarkade.server.storage import Store, StoredSeat, Unavailable, ValueTooLong
from quarkade.server.storage.players import StoredPlayer

log = logging.getLogger("quarkade.server")

SWEEP_SECONDS = 30.0
RELOAD: dict[str, Any] = {}  # a message with no moves: reload the game from storage


class Hub:
    """All live games of one process: loaded lazily, shared by every request."""

    def __init__(self, store: Store, broker: Broker, bot_pool: BotPool, clock: Clock,
                 limits: Limits, bot_delay: float = 0.0,
                 allowed_bots: frozenset[str] = frozenset(),
                 move_time: float = DEFAULT_MOVE_TIME, chance_seed: int | None = None) -> None:
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
        self.chance_rng = (random.SystemRandom() if chance_seed is None  # deals, dice
                           else random.Random(chance_seed))
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.chat_rate = RateLimiter(limits.chat_messages, clock)  # per seat of a game
        self.deck_tests = DeckTests(self)
        self.closing = False
        self.sweeper: asyncio.Task[None] | None = None
        self.ratings = Ratings(store)
        self.lobby = Lobby(self)
        self.deadlines = DeadlineWatcher(
            clock, lambda now: store.run(store.expired, now),
            lambda: store.run(store.next_deadline), self.expire)

    async def open(self) -> None:
        await self.broker.start(self._heard)
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())
        # Deadlines that passed while no process ran are applied now; so are ratings
        # a stopped process left pending.
        self.deadlines.start()
        self._spawn(self._rate_pending())

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _rate_pending(self) -> None:
        try:
            pending = await self.store.run(self.store.unrated_finished)
        except Unavailable:
            return
        for game_id in pending:
            try:
                await self.finished(await self.get(game_id))
            except (ApiError, Unavailable) as problem:
                log.warning("game %s: its ratings could not be applied (%s)", game_id,
                            type(problem).__name__)

    # -- what the server decides: flags, endings, ratings -----------------------------------

    async def expire(self, game_id: str, deadline: float) -> None:
        """A stored deadline passed: apply it once (whichever process claims it)."""
        live = await self.get(game_id)
        async with live.lock:
            await live._catch_up()
            ruled = await endings.flag(live, deadline)
        if ruled:
            await self.after_ruling(live)

    async def after_ruling(self, live: LiveGame) -> None:
        """The server decided something about ``live``: show it everywhere."""
        await live.changed()
        await self.announce(live)
        await self.lobby_changed()

    async def finished(self, live: LiveGame) -> None:
        """``live`` is over: rate it (once, across processes) and show the changes."""
        if live.times.rating_state == "pending":
            try:
                await self.ratings.apply(live, self.clock.time())
            except Unavailable:
                return  # a process's start-up, or the next look, rates it
            async with live.lock:
                await live._catch_up()
            live.rating_changes = await self.ratings.changes(live.id)
            await live.broadcast()
            await self.announce(live)

    async def renamed(self, player_id: str, here: bool = True) -> None:
        """A player took a new name: the games in memory where they sit show it (and, when
        it happened ``here``, the other processes' too)."""
        for live in list(self.games.values()):
            if any(s.player_id == player_id for s in live.seats):
                if here:
                    await live.refresh()
                else:
                    self._take_in_soon(live, dict(RELOAD))
        if here:
            await self.broker.publish({"type": "renamed", "player": player_id,
                                       "origin": self.process})
            await self.lobby_changed()

    async def lobby_changed(self) -> None:
        """A public game was made, filled, begun or ended: every lobby page looks again."""
        await self.lobby.changed()
        await self.broker.publish({"type": "lobby", "origin": self.process})

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
        if live.times.rating_state == "done":
            live.rating_changes = await self.ratings.changes(game_id)
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
        if message.get("type") == "lobby":
            if message.get("origin") != self.process:
                await self.lobby.changed()
            return
        if message.get("type") == "renamed":
            if message.get("origin") != self.process and isinstance(message.get("player"), str):
                await self.renamed(message["player"], here=False)
            return
        if message.get("type") == "resync":
            await self.lobby.changed()
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
                     visibility: Any = None, time_control: Any = None,
                     player: StoredPlayer | None = None, reveal: Any = None
                     ) -> tuple[LiveGame, str]:
        """A new game from a game name, its options, a choice per seat, who may find it,
        its time control and whether its hidden cards are shown once it is over (by
        default: when a bot plays); ``player`` (the creator) sits at ``you``. Returns it and
        its host token. A seat's own options (its deck) are chosen by whoever takes it."""
        try:
            loaded = load_game(game, **options)
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        control = TimeControl.parse(time_control)
        seats = seating.parse_seats(game, seat_specs, loaded.num_players, self.clock.time(),
                                    self.limits.invite_seconds,
                                    None if player is None else (player.id, player.name),
                                    self.allowed_bots)
        chosen = dict(loaded.options)
        defaults = {o.name: o.default for o in game_class(game).option_specs}
        for s in seats:
            if s.kind in (seating.FRIEND, seating.OPEN):
                for name in game_class(game).seat_option_names(s.seat):
                    chosen[name] = load_game(game, **{**chosen, name: defaults[name]}
                                             ).options[name]
        host_token = seating.new_token()
        live = await self._create(game, chosen, seats, host_token,
                                  seating.visibility_of(visibility),
                                  seating.reveal_of(reveal, seats), control.text,
                                  None if player is None else player.id)
        if live.visibility == seating.PUBLIC:
            await self.lobby_changed()
        return live, host_token

    async def _create(self, game: str, options: dict[str, Any], seats: list[StoredSeat],
                      host_token: str, visibility: str, reveal: bool,
                      time_control: str = "none", host_player: str | None = None
                      ) -> LiveGame:
        game_id = seating.new_game_id()
        try:
            await self.store.run(self.store.create_game, game_id, game, options, host_token,
                                 seats, visibility, reveal, time_control, host_player)
        except ValueTooLong as problem:
            raise ApiError(400, f"a value is too long: {problem}") from None
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "made")) from None
        return await self.get(game_id)

    async def join(self, game_id: str, invite: str, tokens: list[str],
                   player: StoredPlayer | None = None, seat_options: Any = None
                   ) -> tuple[LiveGame, int, str | None]:
        """Spend an invite: the seat it opens and the joiner's new secret (None when this
        device holds the seat already, as when the joiner opens the link again).
        ``seat_options`` are the options the seat's player chooses (its deck)."""
        live = await self.get(game_id)
        seat = invited_seat(live, invite)
        if seat is not None:
            token = await self._fill(live, seat, invite, player, seat_options)
            if token is not None:
                return live, seat, token
        friends = {s.seat for s in live.seats if s.kind == seating.FRIEND}
        mine = live.holder(tokens, None if player is None else player.id).seats & friends
        if mine:  # the joiner opening the link again
            return live, min(mine), None
        raise ApiError(403, "this invite link is not valid for this game: it was used or it "
                       "expired. A seat's player can link another device from the game page")

    async def take(self, live: LiveGame, seat: int, player: StoredPlayer,
                   seat_options: Any = None) -> str:
        """Take open seat ``seat`` from the lobby for ``player``; returns its secret."""
        found = [s for s in live.seats if s.seat == seat]
        if not found or found[0].kind != seating.OPEN:
            raise ApiError(404, f"seat {seat} of this game is not an open seat")
        if found[0].joined:
            raise ApiError(409, f"seat {seat} was taken; look for another in the lobby")
        if any(s.player_id == player.id for s in live.seats):
            raise ApiError(409, "you already sit at this table")
        token = await self._fill(live, seat, None, player, seat_options)
        if token is None:
            raise ApiError(409, f"seat {seat} was taken; look for another in the lobby")
        return token

    async def _fill(self, live: LiveGame, seat: int, invite: str | None,
                    player: StoredPlayer | None, seat_options: Any) -> str | None:
        """Fill a seat (by invite, or open), with its own options; begin the game if it
        was the last seat. The seat's new secret, or None if someone was first."""
        chosen = self._seat_options(live, seat, seat_options)
        token = seating.new_token()
        try:
            joined = await self.store.run(
                self.store.join, live.id, seat, invite, token, self.clock.time(),
                None if player is None else player.id,
                None if player is None else player.name, chosen)
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "changed")) from None
        await live.refresh()
        if not joined:
            return None
        await live.start()  # begins if every seat is filled now
        await self.announce(live)
        if live.visibility == seating.PUBLIC:
            await self.lobby_changed()
        return token

    def _seat_options(self, live: LiveGame, seat: int, raw: Any) -> dict[str, Any]:
        """The options seat ``seat`` chose, checked (400 naming what is allowed)."""
        names = game_class(live.name).seat_option_names(seat)
        if raw is None or raw == {}:
            return {}
        if not isinstance(raw, dict):
            raise ApiError(400, "a seat's options are an object of option names and values")
        if not live.waiting:
            raise ApiError(409, "the game has begun: its options are fixed")
        unknown = sorted(set(raw) - set(names))
        if unknown:
            allowed = ", ".join(names) or "none"
            raise ApiError(400, f"seat {seat} chooses no option {unknown[0]!r}; it chooses: "
                           f"{allowed}")
        try:
            loaded = load_game(live.name, **{**live.options, **raw})
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        return {name: loaded.options[name] for name in raw}

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
        if not live.over:
            raise ApiError(409, "the game is not over yet")
        async with live.lock:
            if live.rematch is None:
                seats = seating.fresh_seats(live.seats, self.clock.time(),
                                            self.limits.invite_seconds)
                new = await self._create(live.name, live.options, seats, seating.new_token(),
                                         live.visibility, live.reveal, live.control.text,
                                         live.times.host_player)
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
                       moves: list[tuple[int, int]] | None = None,
                       clock: dict[str, Any] | None = None, chat: int | None = None
                       ) -> None:
        """Tell the other processes that ``live`` changed: ``moves``, the ``(player,
        action)`` pairs stored from step ``first`` on, and the ``clock`` stored with them
        (whose turn began when, its deadline, each seat's time left), which they play on
        their copies; ``chat``, the number of a chat message stored (they read the chat
        again); without either they reload it. Never a view, a log line, a chat's text or
        a secret."""
        message: dict[str, Any] = {"game": live.id, "step": live.step, "origin": self.process}
        if moves:
            message["from"] = first
            message["moves"] = [list(pair) for pair in moves]
            message["clock"] = clock
        if chat is not None:
            message["chat"] = chat
        await self.broker.publish(message)

    async def close(self) -> None:
        self.closing = True
        await self.deadlines.close()
        await self.lobby.close()
        if self.sweeper is not None:
            self.sweeper.cancel()
        for live in self.games.values():
            if live.recheck is not None:
                live.recheck.cancel()
        for task in list(self.tasks):
            task.cancel()
        self.bot_pool.close()  # a bot thinking now is stopped, so no task waits on it
        await self.deck_tests.close()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        with contextlib.suppress(Unavailable):  # its claimed bot turns are free at once
            await self.store.run(self.store.release_claims, self.process)
        await self.broker.close()


def invited_seat(live: LiveGame, invite: str) -> int | None:
    """The friend seat whose unspent invite is ``invite``."""
    for seat in live.seats:
        if seat.kind == seating.FRIEND and seat.invite is not None and \
                secrets.compare_digest(seat.invite, invite):
            return seat.seat
    return None


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and game_id.isascii() and game_id.replace("-", "").replace(
        "_", "").isalnum()
