"""A game in play: the one owner of its state, the one road every move takes, and the
events it emits.

A move: ``GameSession.act`` (from a socket or the API) -> the game's ``apply_action`` on a
copy, with the chance outcomes that follow (drawn from the context's random source) ->
storage (the ``(game_id, step)`` key: of two processes moving at one step, one wins and
the other reloads and answers 409) -> the ``Moved`` event (the hub tells the other
processes, which play the ``(player, action)`` pairs on their copies: ``hear``) -> the
``Changed`` event (every page of this process is sent what its seat may see; a bot to move
is set going). Only after the store succeeds is the copy made current, so a refused
move, a lost race or a database that is down changes nothing.

The session knows nothing of pages, bots, the lobby or ratings: it emits events
(``events``: moved, changed, updated, ruled, chatted, listed, finished, overdue, lost)
and the hub wires whoever listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from typing import Any

from quarkade.agents.registry import is_plugin, parse_spec
from quarkade.core.errors import AgentSpecError, IllegalActionError
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.records import Fault
from quarkade.core.registry import load_game
from quarkade.core.rng import sample_chance
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.inputs import whole_number
from quarkade.server.messages import ChatAdded, ClockStamp, GameMessage, Moves
from quarkade.server.play import seats as seating
from quarkade.server.play.chat_tail import ChatTail
from quarkade.server.play.clocks import TimeControl, clock_after, clock_at_start, clock_stamp
from quarkade.server.play.events import (
    Changed,
    Chatted,
    Finished,
    Listed,
    Lost,
    Moved,
    Overdue,
    Ruled,
    Updated,
)
from quarkade.server.play.logbook import LogBook, Pending
from quarkade.server.play.names import seat_names
from quarkade.server.play.outcomes import outcome_of, returns_of
from quarkade.server.play.rated import eligible
from quarkade.server.play.rated import plan as rating_plan
from quarkade.server.storage import (
    GameDecided,
    GameTimes,
    StepTaken,
    StoredChat,
    StoredGame,
    StoredSeat,
    Unavailable,
)

log = logging.getLogger("quarkade.server")

UNAVAILABLE = "the database is not answering; nothing was played: try again in a moment"


# -- the session -----------------------------------------------------------------------------


class GameSession:
    """One game in play (or over): its state, seats, clock and chat; see the module."""

    def __init__(self, ctx: Context, stored: StoredGame) -> None:
        self.ctx = ctx
        self.id = stored.id
        self.name = stored.game
        self.host_token = stored.host_token  # a digest, as every secret here
        self.keys = stored.keys
        self.created = stored.created
        self.visibility = stored.visibility
        self.reveal = stored.reveal
        self.owner = stored.owner or f"game:{stored.id}"  # whose CPU work its bots are
        self.chat = ChatTail(stored.chat, stored.chat_count)  # the newest messages
        self.rematch = stored.rematch
        self.offer = stored.offer  # the rematch, as this game reads it (play/offers.py)
        self.times: GameTimes = stored.times
        self.control = TimeControl.parse(stored.times.time_control)
        self.rating_changes: list[dict[str, Any]] = []  # once rated: each seat's change
        self.memo: dict[Any, Any] = {}  # what views worked out for the current step
        self.names: list[str] = []  # each seat's name as players read it (``names``)
        self._set_seats(stored.seats)
        self._set_options(stored.options)
        self._replay(stored.actions)
        self._check_plugins_allowed()
        self.lock = asyncio.Lock()

    def _set_options(self, options: dict[str, Any]) -> None:
        """The game with these options, at its start (options change only before it: a
        seat taken may choose its own, such as its deck)."""
        self.game = load_game(self.name, **options)
        self.options = dict(self.game.options)
        self.viewpoints = [*range(self.game.num_players), SPECTATOR]
        self.state: State = self.game.new_initial_state()
        self.moves: list[tuple[int, int]] = []  # (player, action) in the order played
        self.book = LogBook(self.name, self.viewpoints, lambda: self.names)

    def _set_seats(self, seats: list[StoredSeat]) -> None:
        self.seats = list(seats)
        names = seat_names(self.name, self.seats)  # as players read them
        if getattr(self, "book", None) is not None and names != self.names:
            self.book.forget()  # the log's lines name the seats: made again when read
        self.names = names
        self.bots: dict[int, str] = {s.seat: s.agent for s in self.seats if s.agent}
        self.plugins = {seat for seat, spec in self.bots.items() if is_plugin(spec, self.name)}

    def _check_plugins_allowed(self) -> None:
        """A game still in play whose plug-in bot this server does not allow (any more)
        cannot be played here (``AgentSpecError``); a stopped one plays random, anywhere."""
        if self.over:
            return
        for s in self.seats:
            if s.seat in self.plugins and s.fault is None:
                name = parse_spec(s.agent or "")[0]
                if name not in self.ctx.allowed_bots:
                    raise AgentSpecError(f"its plug-in bot {name!r} is not allowed on this "
                                         "server (quarkade serve --allow-bots)")

    def _replay(self, actions: list[int]) -> None:
        pending = self.book.pending()
        for action in actions:
            player = self.state.current_player()
            self.book.play(self.state, action, pending)
            self.moves.append((player, action))
        self.book.add(pending)

    # -- who may do what ---------------------------------------------------------------

    def holder(self, tokens: list[str], player: str | None = None) -> seating.Holder:
        return seating.holder_for(tokens, self.seats, self.host_token, self.keys, player,
                                  self.times.host_player)

    def fault_of(self, seat: int) -> Fault | None:
        return next((s.fault for s in self.seats if s.seat == seat), None)

    @property
    def step(self) -> int:
        return len(self.moves)

    @property
    def waiting(self) -> bool:
        """Seats are still open or invited: the game has not begun."""
        return self.times.started is None and not self.moves

    @property
    def over(self) -> bool:
        """Over by its rules, or by the server (a resignation, a flag, an abort)."""
        return self.state.is_terminal() or self.times.ending is not None

    @property
    def revealing(self) -> bool:
        """Whether every page is shown everything: the game is over and its table chose
        to reveal the hidden cards then."""
        return self.reveal and self.over

    def outcome(self) -> dict[str, Any] | None:
        """How it ended: the server's ruling if it made one, else the rules' outcome
        (``State.outcome()``); the one answer every page, list and record shows."""
        if self.times.ending is not None:
            return {key: self.times.ending[key] for key in ("result", "winners", "ending")}
        return outcome_of(self.state)

    def returns(self) -> list[float] | None:
        if self.times.ending is not None:
            return returns_of(self.times.ending, self.game.num_players)
        return self.state.returns() if self.state.is_terminal() else None

    def movers(self) -> set[int]:
        """The seats that made a move already (chance is no seat)."""
        return {player for player, _ in self.moves if player >= 0}

    def people(self) -> set[int]:
        """The seats people play (not bots; a seat a bot took over is a bot's now)."""
        return {s.seat for s in self.seats if s.kind != seating.BOT}

    def who(self, player: int) -> str:
        return self.names[player] if player >= 0 else "nobody"

    # -- moves ---------------------------------------------------------------------------

    async def act(self, holder: seating.Holder, seat: Any, action: Any, step: Any) -> None:
        """A person's move for ``seat`` seen at ``step``; ``ApiError`` (nothing changed)
        if refused."""
        seat = whole_number(seat, "seat", "a seat number")
        action = whole_number(action, "action", "an action id (a whole number) from the "
                              "legal actions")
        if step is None:
            raise ApiError(400, "'step' is required: the step your page shows (the number "
                           "of actions played), so a move is never made on a stale table")
        step = whole_number(step, "step", "the number of actions played")
        if seat not in holder.seats:
            raise ApiError(403, f"this device holds no token for seat {seat}")
        async with self.lock:
            to_move = self.state.current_player()
            if step != self.step:
                raise ApiError(409, f"the game moved on: you saw step {step}, it is at step "
                               f"{self.step}; look again and choose")
            if self.over:
                raise ApiError(409, "the game is over; nothing more can be played")
            if self.waiting:
                raise ApiError(409, "the game has not begun: it starts when every seat is "
                               "filled")
            deadline = self.times.deadline
            if deadline is not None and self.ctx.clock.time() >= deadline:
                await self.ctx.events.emit(Overdue(self))
                raise ApiError(409, f"{self.who(to_move)} ran out of time; nothing was "
                               "played")
            if to_move != seat:
                raise ApiError(409, f"it is not seat {seat}'s turn; {self.who(to_move)} "
                               "is to move")
            try:
                await self.commit(action)
            except IllegalActionError as problem:
                raise ApiError(422, str(problem)) from None
            except StepTaken:
                lost = True  # another process moved first; this one caught up
            except GameDecided:
                await self.catch_up()
                lost = True
            except Unavailable:
                raise ApiError(503, UNAVAILABLE) from None
            else:
                lost = False
        await self.changed()
        if lost:
            if self.over:
                raise ApiError(409, "the game is over; nothing more can be played")
            raise ApiError(409, f"the game moved on: another move was made at step {step}; "
                           "look again and choose")

    async def start(self) -> None:
        """Begin once every seat is filled; resolve pending chance and let bots move (after
        creation, a seat taken, or a restart)."""
        async with self.lock:
            if self.waiting and all(s.joined for s in self.seats):
                await self._begin()
            if self.state.is_chance_node() and not self.over and not self.waiting:
                with contextlib.suppress(StepTaken, GameDecided):  # another process dealt
                    await self.commit(None)
        await self.changed()

    async def _begin(self) -> None:
        """Every seat is filled: the game begins, rated or not, clocks full."""
        store = self.ctx.store

        async def player(player_id: str) -> Any:
            return await store.run(store.players.get, player_id)

        rateable = self.times.rated and await eligible(self.seats, player)
        begun, seats = clock_at_start(self.control, self.times, self.seats, self.people(),
                                      self.state, self.ctx.clock.time(),
                                      self.ctx.limits.first_move_seconds)
        begun["rated"] = rateable
        await store.run(store.games.decide, self.id, 0, begun, seats)
        await self.catch_up()
        if self.visibility == seating.PUBLIC:
            await self.ctx.events.emit(Listed(self))

    async def commit(self, action: int | None) -> None:
        """Apply ``action`` then every chance outcome after it, store them, make them
        current, emit ``Moved``. Call with the lock held. ``StepTaken`` when another
        process stored this step first (this game then catches up)."""
        state = self.state.clone()
        pending = self.book.pending()
        moves: list[tuple[int, int]] = []
        mover = state.current_player()
        if action is not None:
            if action not in state.legal_actions():
                state.apply_action(action)  # raises the game's own refusal (a copy)
                raise IllegalActionError(f"action {action} is not legal here")
            moves.append((state.current_player(), action))
            self.book.play(state, action, pending)
        while state.is_chance_node():
            outcome = sample_chance(state, self.ctx.rng)
            moves.append((state.current_player(), outcome))
            self.book.play(state, outcome, pending)
        if not moves:
            return
        returns = state.returns() if state.is_terminal() else None
        game_values, seat_values = clock_after(
            self.control, self.times, self.seats, self.people(), state,
            mover if action is not None else None, self.ctx.clock.time(), self.movers(),
            self.ctx.limits.first_move_seconds)
        rating = None
        if game_values.get("rating_state") == "pending":  # rated in this same step
            rating = rating_plan(self.name, self.game.num_players, self.seats,
                                outcome_of(state))
            game_values["rating_state"] = "none" if rating is None else "done"
        store = self.ctx.store
        first = self.step
        now = self.ctx.clock.time()
        try:
            changes = await store.add_actions(self.id, first, moves, returns, game_values,
                                              seat_values, now if action is not None else None,
                                              rating, now)
        except StepTaken:
            await self.catch_up()
            raise
        clock = clock_stamp(game_values, seat_values)
        self._set_clock(clock)
        self._adopt(state, moves, pending)
        if rating is not None:
            self.rating_changes = changes or []
            if changes is None:  # a hint was asked in it after all: unrated (S-5)
                await self.catch_up()
        await self.ctx.events.emit(Moved(self, first, tuple(moves), clock))
        if state.is_terminal() and self.visibility == seating.PUBLIC:
            await self.ctx.events.emit(Listed(self))  # it leaves the games to watch

    def _adopt(self, state: State, moves: list[tuple[int, int]], pending: Pending | None
               ) -> None:
        """Make ``state`` current: it follows ``moves`` from this copy's state."""
        self.state = state
        self.moves.extend(moves)
        self.book.add(pending)
        self.memo.clear()

    def _set_clock(self, clock: ClockStamp) -> None:
        """Take the clock a move stored: the game's turn, deadline and end, and the seats'
        time left."""
        self.times = replace(self.times, **clock.game)
        if clock.seats:
            self._set_seats([replace(s, remaining=clock.seats[s.seat])
                             if s.seat in clock.seats else s for s in self.seats])

    # -- what other processes changed ---------------------------------------------------

    async def hear(self, messages: list[GameMessage]) -> None:
        """Take in what other processes announced, in order. Moves that follow this copy
        are played from the message, with no database call; a message that does not
        (one was missed, it does not replay here, or it is a reload: a join, an invite, a
        rematch, a stopped bot, a resync) makes it reload from the database; a chat
        message makes it read the chat again."""
        async with self.lock:
            changed = False
            chatted = any(isinstance(m, ChatAdded) for m in messages)
            for message in messages:
                if isinstance(message, ChatAdded):
                    continue
                if not isinstance(message, Moves) or self.waiting:
                    # (a game that begins may have changed its options)
                    changed = await self.catch_up() or changed
                    break  # the database has every change announced so far
                if message.first + len(message.moves) <= self.step:
                    continue  # this copy has them already (its own, or a reload's)
                if message.first != self.step or not self._play_heard(message):
                    log.info("game %s: a change from step %d does not follow step %d here; "
                             "reloading", self.id, message.first, self.step)
                    changed = await self.catch_up() or changed
                    break
                changed = True
            if changed and self.over and self.times.rating_state == "done" and \
                    not self.rating_changes:  # rated where the game ended
                store = self.ctx.store
                self.rating_changes = await store.run(store.ratings.changes_for_game,
                                                      self.id)
            fresh = await self.chat.read(self.ctx.store, self.id) if chatted else []
        if changed:
            await self.changed()
        if fresh:
            await self.ctx.events.emit(Chatted(self, tuple(fresh)))

    def _play_heard(self, message: Moves) -> bool:
        """Play another process's moves on a copy and make it current with the clock they
        stored; False (nothing changed) if one is not the legal move of its player here,
        or the game is over here (the server decided it)."""
        if self.over:
            return False
        state = self.state.clone()
        pending = self.book.pending()
        for player, action in message.moves:
            if state.is_terminal() or state.current_player() != player or \
                    action not in state.legal_actions():
                return False
            self.book.play(state, action, pending)
        self._set_clock(message.clock)
        self._adopt(state, list(message.moves), pending)
        return True

    async def refresh(self) -> None:
        """Load what another process changed (moves, joins, a rematch, chat) and show it."""
        async with self.lock:
            changed = await self.catch_up()
            fresh = await self.chat.read(self.ctx.store, self.id)
        if changed:
            await self.changed()
        if fresh:
            await self.ctx.events.emit(Chatted(self, tuple(fresh)))

    async def catch_up(self) -> bool:
        """Read the game from the database again (call with the lock held): the actions
        stored after this copy's, its seats, options, rematch, clock and ending. Whether
        anything changed."""
        store = self.ctx.store
        actions, stored = await store.run(store.games.changes_since, self.id, self.step)
        changed = bool(actions) or stored.seats != self.seats or \
            stored.rematch != self.rematch or stored.times != self.times or \
            stored.options != self.options or stored.keys != self.keys or \
            stored.offer != self.offer
        if stored.options != self.options and not self.moves:
            self._set_options(stored.options)  # a seat chose its own options on joining
        self._set_seats(stored.seats)
        self.keys = stored.keys
        try:
            self._replay(actions)
        except IllegalActionError:  # cannot happen with one history; never half-apply
            log.error("game %s: stored actions do not replay; reloading later", self.id)
            await self.ctx.events.emit(Lost(self))
        self.rematch = stored.rematch
        self.offer = stored.offer
        if stored.times.rating_state == "done" and not self.rating_changes:
            self.rating_changes = await store.run(store.ratings.changes_for_game, self.id)
        self.times = stored.times
        if changed:
            self.memo.clear()
        return changed

    async def changed(self) -> None:
        """Tell whoever listens that what the pages show changed (and that the game is due
        its ratings, if so)."""
        await self.ctx.events.emit(Changed(self))
        if self.over and self.times.rating_state == "pending":
            await self.ctx.events.emit(Finished(self))

    # -- what the server decides ---------------------------------------------------------

    async def decide(self, game: dict[str, Any], seats: dict[int, dict[str, Any]],
                     deadline: float | None = None) -> bool:
        """Store a ruling at this step (call with the lock held) and read the game again;
        False if it no longer applied (see ``GameQueries.decide``). A rated game it ends
        (its ``rating_state`` pending) is rated in the same transaction."""
        store = self.ctx.store
        rating = None
        if game.get("rating_state") == "pending":
            rating = rating_plan(self.name, self.game.num_players, self.seats,
                                game.get("ending"))
            game = {**game, "rating_state": "none" if rating is None else "done"}
        done = await store.run(store.games.decide, self.id, self.step, game, seats, deadline,
                               rating, self.ctx.clock.time())
        await self.catch_up()
        return done

    async def ruled(self) -> None:
        """The server decided something about this game: show it everywhere."""
        await self.ctx.events.emit(Ruled(self))

    async def updated(self) -> None:
        """This process stored a change (not a move, not chat): load it, show it, and tell
        the other processes."""
        await self.refresh()
        await self.ctx.events.emit(Updated(self))

    async def rated(self) -> None:
        """Ratings were applied (here or elsewhere) or refused: read them and show them."""
        async with self.lock:
            await self.catch_up()
        store = self.ctx.store
        self.rating_changes = await store.run(store.ratings.changes_for_game, self.id)
        await self.ctx.events.emit(Changed(self))
        await self.ctx.events.emit(Updated(self))

    async def fault_stored(self, fault: Fault) -> None:
        """A plug-in bot was stopped and its fault stored (``BotDriver``): show it here and
        announce it to the other processes (pages get its public part only)."""
        public = fault.public()
        async with self.lock:  # after any reload under way, which may predate the store
            self._set_seats([replace(s, fault=public) if s.seat == fault.seat and
                             s.fault is None else s for s in self.seats])
        await self.ctx.events.emit(Updated(self))

    # -- chat ----------------------------------------------------------------------------

    async def chat_stored(self, message: StoredChat) -> list[StoredChat]:
        """A message this process stored: held, with any stored before it that were not;
        announced (``Chatted`` with its number). Returns the messages new here."""
        async with self.lock:
            fresh = await self.chat.read(self.ctx.store, self.id) \
                if message.number > self.chat.count else self.chat.add([message])
        await self.ctx.events.emit(Chatted(self, tuple(fresh), message.number))
        return fresh
