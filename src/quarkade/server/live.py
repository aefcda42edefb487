"""A game in play: the one road every move takes.

socket or API -> ``LiveGame.act`` -> the game's ``apply_action`` (on a copy, with the
chance outcomes that follow, drawn from ``random.SystemRandom``) -> storage (the
``(game_id, step)`` key: of two processes moving at one step, one wins and the other
reloads and answers 409) -> the broker (the new ``(player, action)`` pairs: other
processes play them on their own copies, ``hear``) -> every page of this process (each
sent only what its seat may see). Only after the store succeeds is the copy
made current, so a refused move, a lost race or a database that is down changes nothing.

Bots move in ``run_bots``: the bot's turn is claimed in the database (so one process
moves it), the move is computed by ``bots.BotPool`` under a hard deadline, and a bot that
fails or runs out of time is replaced for that move by the first legal action (logged).
A plug-in bot that raises, answers an illegal action or overruns its move time is stopped
instead: its fault is stored on its seat (every process and every later load see it), the
game is flagged on every page and in its record, and the seat plays random from then on.
A store that fails is retried with growing pauses, so bots resume when the database is
back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from quarkade.agents.contained import fault_for
from quarkade.agents.registry import is_plugin, parse_spec
from quarkade.core.errors import AgentSpecError, IllegalActionError
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.records import Fault, GameRecord, RecordedAction, Seat
from quarkade.core.registry import game_class, load_game
from quarkade.core.rng import sample_chance
from quarkade.core.words import action_label, log_line
from quarkade.server import endings
from quarkade.server import seats as seating
from quarkade.server.bots import BotFailed, BotJob
from quarkade.server.clocks import TimeControl, clock_view
from quarkade.server.errors import ApiError
from quarkade.server.inputs import whole_number
from quarkade.server.storage import (
    StepTaken,
    StoredChat,
    StoredGame,
    StoredSeat,
    Unavailable,
)
from quarkade.server.storage.store import GameDecided, GameTimes

if TYPE_CHECKING:
    from quarkade.server.hub import Hub

log = logging.getLogger("quarkade.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]
UNAVAILABLE = "the database is not answering; nothing was played: try again in a moment"


@dataclass(eq=False)
class Watcher:
    """One open page: where to send, whose view it shows, and what its device holds."""

    send: Send
    viewpoint: int
    holder: seating.Holder


@dataclass
class LogEntry:
    """One action as one viewpoint may read it (never its id)."""

    step: int
    player: int
    text: str
    line: str | None
    hidden: bool  # the notation differs from the full one: the id would tell more

    def public(self) -> dict[str, Any]:
        return {"step": self.step, "player": self.player, "text": self.text, "line": self.line}


class LiveGame:
    """One game in play (or over): its state, per-viewpoint logs, watchers and bots."""

    def __init__(self, hub: Hub, stored: StoredGame) -> None:
        self.hub = hub
        self.id = stored.id
        self.name = stored.game
        self.host_token = stored.host_token
        self.created = stored.created
        self.visibility = stored.visibility
        self.reveal = stored.reveal
        self.chat: list[StoredChat] = list(stored.chat)
        self.rematch = stored.rematch
        self.times: GameTimes = stored.times
        self.control = TimeControl.parse(stored.times.time_control)
        self._set_seats(stored.seats)
        self._set_options(stored.options)
        self._replay(stored.actions)
        self._check_plugins_allowed()
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.recheck: asyncio.TimerHandle | None = None
        self.refreshing: asyncio.Task[None] | None = None  # taking in another's changes
        self.heard: list[dict[str, Any]] = []  # their messages, not yet taken in
        self.used = 0.0  # when a request last touched it (the hub's clock)
        self.rating_changes: list[dict[str, Any]] = []  # once rated: each seat's change

    def _set_options(self, options: dict[str, Any]) -> None:
        """The game with these options, at its start (options change only before it: a
        seat taken may choose its own, such as its deck)."""
        self.game = load_game(self.name, **options)
        self.options = dict(self.game.options)
        self.viewpoints = [*range(self.game.num_players), SPECTATOR]
        self.state: State = self.game.new_initial_state()
        self.moves: list[tuple[int, int]] = []  # (player, action) in the order played
        self.logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        self.revealed_log: list[LogEntry] | None = None  # made once the game is over
        # ((step, seat), the moves that end the game for that seat)
        self._ending_cache: tuple[tuple[int, int], dict[int, str]] | None = None

    def _set_seats(self, seats: list[StoredSeat]) -> None:
        self.seats = list(seats)
        self.names = [s.name for s in self.seats]
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
                if name not in self.hub.allowed_bots:
                    raise AgentSpecError(f"its plug-in bot {name!r} is not allowed on this "
                                         "server (quarkade serve --allow-bots)")

    def fault_of(self, seat: int) -> Fault | None:
        return next((s.fault for s in self.seats if s.seat == seat), None)

    def _replay(self, actions: list[int]) -> None:
        for action in actions:
            self._play(self.state, action, self.logs)
            self.moves.append((self.logs[SPECTATOR][-1].player, action))

    # -- who may do what ---------------------------------------------------------------

    def holder(self, tokens: list[str], player: str | None = None) -> seating.Holder:
        return seating.holder_for(tokens, self.seats, self.host_token, player,
                                  self.times.host_player)

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

    def outcome(self) -> dict[str, Any] | None:
        """How it ended: the server's ruling if it made one, else the rules' outcome
        (``State.outcome()``); the one answer every page, list and record shows."""
        if self.times.ending is not None:
            return {key: self.times.ending[key] for key in ("result", "winners", "ending")}
        return _outcome(self.state)

    def returns(self) -> list[float] | None:
        if self.times.ending is not None:
            return endings.returns_of(self.times.ending, self.game.num_players)
        return self.state.returns() if self.state.is_terminal() else None

    def people(self) -> set[int]:
        """The seats people play (not bots; a seat a bot took over is a bot's now)."""
        return {s.seat for s in self.seats if s.kind != seating.BOT}

    def busy(self) -> bool:
        """Something depends on it staying in memory: a page, a bot, a move under way."""
        return bool(self.watchers) or self.lock.locked() or self.recheck is not None or (
            self.bot_task is not None and not self.bot_task.done())

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
            if deadline is not None and self.hub.clock.time() >= deadline:
                self.hub.deadlines.wake()
                raise ApiError(409, f"{self._who(to_move)} ran out of time; nothing was "
                               "played")
            if to_move != seat:
                raise ApiError(409, f"it is not seat {seat}'s turn; {self._who(to_move)} "
                               "is to move")
            try:
                await self._commit(action)
            except IllegalActionError as problem:
                raise ApiError(422, str(problem)) from None
            except StepTaken:
                lost = True  # another process moved first; this one caught up
            except GameDecided:
                await self._catch_up()
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
                    await self._commit(None)
        await self.changed()
        if self.over:
            await self.hub.finished(self)

    async def _begin(self) -> None:
        """Every seat is filled: the game begins, rated or not, clocks full."""
        hub = self.hub
        rated = await hub.ratings.eligible(self)
        full = self.control.starting()
        seats = {s: {"remaining": full} for s in self.people()} if full is not None else {}
        await hub.store.run(hub.store.decide, self.id, 0,
                            {"started": hub.clock.time(), "rated": rated}, seats)
        await self._catch_up()
        await hub.lobby_changed()

    async def _commit(self, action: int | None) -> None:
        """Apply ``action`` then every chance outcome after it, store them, make them
        current, tell other processes. Call with the lock held. ``StepTaken`` when another
        process stored this step first (this game then catches up)."""
        state = self.state.clone()
        logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        moves: list[tuple[int, int]] = []
        mover = state.current_player()
        if action is not None:
            if action not in state.legal_actions():
                state.apply_action(action)  # raises the game's own refusal (a copy)
                raise IllegalActionError(f"action {action} is not legal here")
            moves.append((state.current_player(), action))
            self._play(state, action, logs)
        while state.is_chance_node():
            outcome = sample_chance(state, self.hub.chance_rng)
            moves.append((state.current_player(), outcome))
            self._play(state, outcome, logs)
        if not moves:
            return
        returns = state.returns() if state.is_terminal() else None
        game_values, seat_values = self._clock_after(state, mover if action is not None
                                                     else None)
        store = self.hub.store
        now = self.hub.clock.time()
        first = self.step
        try:
            await store.run(store.add_actions, self.id, first, moves, returns,
                            game_values, seat_values, now if action is not None else None)
        except StepTaken:
            await self._catch_up()
            raise
        clock = _clock_message(game_values, seat_values)
        self._set_clock(clock)
        if game_values.get("deadline") is not None:
            self.hub.deadlines.wake()
        self._adopt(state, moves, logs)
        await self.hub.announce(self, first, moves, clock)
        if state.is_terminal() and self.visibility == seating.PUBLIC:
            await self.hub.lobby_changed()  # it leaves the games to watch

    def _adopt(self, state: State, moves: list[tuple[int, int]],
               logs: dict[int, list[LogEntry]]) -> None:
        """Make ``state`` current: it follows ``moves`` from this copy's state."""
        self.state = state
        self.moves.extend(moves)
        for viewpoint in self.viewpoints:
            self.logs[viewpoint].extend(logs[viewpoint])

    def _clock_after(self, state: State, mover: int | None
                     ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """The clock once ``state`` is reached by ``mover``'s move (None: chance alone):
        the mover's time spent (real-time), whose turn begins now and its deadline."""
        now = self.hub.clock.time()
        people = self.people()
        seats: dict[int, dict[str, Any]] = {}
        if mover is not None and mover in people and self.times.turn_started is not None:
            spent = self.control.spent(self.seats[mover].remaining,
                                       now - self.times.turn_started)
            if spent != self.seats[mover].remaining:
                seats[mover] = {"remaining": spent}
        game: dict[str, Any] = {"turn_started": now, "deadline": None}
        to_move = state.current_player()
        if state.is_terminal():
            game.update(finished=now, outcome=_outcome(state),
                        rating_state="pending" if self.times.rated else "none")
        elif to_move in people:
            remaining = seats.get(to_move, {}).get("remaining", self.seats[to_move].remaining)
            game["deadline"] = self.control.deadline(now, remaining)
        return game, seats

    def _set_clock(self, clock: dict[str, Any]) -> None:
        """Take the clock a move stored (``_clock_message``): the game's turn, deadline and
        end, and the seats' time left."""
        self.times = replace(self.times, **clock["game"])
        remaining = {int(seat): value for seat, value in clock["seats"].items()}
        if remaining:
            self._set_seats([replace(s, remaining=remaining[s.seat]) if s.seat in remaining
                             else s for s in self.seats])

    async def hear(self, messages: list[dict[str, Any]]) -> None:
        """Take in what other processes announced, in order. Moves that follow this copy
        are played from the message, with no database call; a message that does not
        (one was missed, it does not replay here, or it is a join, an invite, a rematch, a
        stopped bot or a resync, which carry no moves) makes it reload from the database; a
        chat message's number makes it read the chat again."""
        async with self.lock:
            changed = False
            chatted = [m for m in messages if type(m.get("chat")) is int]
            messages = [m for m in messages if type(m.get("chat")) is not int]
            for message in messages:
                moves = _moves_in(message)
                first = message.get("from")
                clock = _clock_in(message)
                if moves is None or type(first) is not int or clock is None or \
                        self.waiting:  # a game that begins may have changed its options
                    changed = await self._catch_up() or changed
                    break  # the database has every change announced so far
                if first + len(moves) <= self.step:
                    continue  # this copy has them already (its own, or a reload's)
                if first != self.step or not self._play_heard(moves, clock):
                    log.info("game %s: a change from step %d does not follow step %d here; "
                             "reloading", self.id, first, self.step)
                    changed = await self._catch_up() or changed
                    break
                changed = True
            fresh = self.add_chat(await self.hub.store.run(
                self.hub.store.chat_since, self.id, len(self.chat))) if chatted else []
        if changed:
            await self.changed()
        if fresh:
            await self.send_chat(fresh)

    def _play_heard(self, moves: list[tuple[int, int]], clock: dict[str, Any]) -> bool:
        """Play another process's ``moves`` on a copy and make it current with the
        ``clock`` they stored; False (nothing changed) if one is not the legal move of its
        player here, or the game is over here (the server decided it)."""
        if self.over:
            return False
        state = self.state.clone()
        logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        for player, action in moves:
            if state.is_terminal() or state.current_player() != player or \
                    action not in state.legal_actions():
                return False
            self._play(state, action, logs)
        self._set_clock(clock)
        self._adopt(state, moves, logs)
        return True

    async def refresh(self) -> None:
        """Load what another process changed (moves, joins, a rematch, chat) and show it."""
        async with self.lock:
            changed = await self._catch_up()
            fresh = await self.hub.store.run(self.hub.store.chat_since, self.id,
                                             len(self.chat))
            fresh = self.add_chat(fresh)
        if changed:
            await self.changed()
        if fresh:
            await self.send_chat(fresh)

    async def _catch_up(self) -> bool:
        actions, stored = await self.hub.store.run(
            self.hub.store.changes_since, self.id, self.step)
        changed = bool(actions) or stored.seats != self.seats or \
            stored.rematch != self.rematch or stored.times != self.times or \
            stored.options != self.options
        if stored.options != self.options and not self.moves:
            self._set_options(stored.options)  # a seat chose its own options on joining
        self._set_seats(stored.seats)
        try:
            self._replay(actions)
        except IllegalActionError:  # cannot happen with one history; never half-apply
            log.error("game %s: stored actions do not replay; reloading later", self.id)
            self.hub.forget(self.id)
        self.rematch = stored.rematch
        if stored.times.rating_state == "done" and not self.rating_changes:
            self.rating_changes = await self.hub.ratings.changes(self.id)
        self.times = stored.times
        return changed

    def _play(self, state: State, action: int, logs: dict[int, list[LogEntry]]) -> None:
        """Apply one action to ``state``, adding what each viewpoint reads of it to ``logs``."""
        player = state.current_player()
        full = state.action_to_string(action)
        notations = {v: state.action_string_for(v, action) for v in self.viewpoints}
        state.apply_action(action)
        step = len(state.history())
        for viewpoint, notation in notations.items():
            line = self._line(state.view(viewpoint), player, notation)
            logs[viewpoint].append(LogEntry(step, player, notation, line, notation != full))

    def _line(self, view: dict[str, Any], player: int, notation: str) -> str | None:
        try:
            return log_line(self.name, view, player, notation, self.names)
        except ModuleNotFoundError:  # a game without a text module: the notation says it
            return None

    # -- chat ----------------------------------------------------------------------------

    def add_chat(self, messages: list[StoredChat]) -> list[StoredChat]:
        """Keep the messages not held yet (in order); returns those."""
        fresh = [m for m in messages if m.number >= len(self.chat)]
        for message in fresh:
            if message.number == len(self.chat):
                self.chat.append(message)
        return [m for m in fresh if m.number < len(self.chat)]

    async def send_chat(self, messages: list[StoredChat]) -> None:
        """Show new chat messages on every open page (the chat is the same for all)."""
        frame = {"type": "chat", "messages": [chat_json(m) for m in messages]}
        for watcher in list(self.watchers):
            try:
                await watcher.send(frame)
            except Exception:  # a page that went away; it catches up when it reconnects
                self.watchers.discard(watcher)

    # -- bots ----------------------------------------------------------------------------

    def schedule_bots(self) -> None:
        if self.hub.games.get(self.id) is not self:
            return  # left memory (or never entered it): the copy loaded next moves bots
        if self.state.current_player() in self.bots and not self.over and not self.waiting \
                and (self.bot_task is None or self.bot_task.done()) and not self.hub.closing:
            self.bot_task = asyncio.get_running_loop().create_task(self.run_bots())
            self.hub.tasks.add(self.bot_task)
            self.bot_task.add_done_callback(self._bot_task_done)

    def _bot_task_done(self, task: asyncio.Task[None]) -> None:
        self.hub.tasks.discard(task)
        if task.cancelled():
            return
        problem = task.exception()
        if problem is not None:  # never silent: log it and look again shortly
            log.error("game %s: the bot loop stopped (%s: %s); retrying", self.id,
                      type(problem).__name__, problem)
            self._recheck_in(1.0)

    def _recheck_in(self, seconds: float) -> None:
        if self.recheck is not None:
            self.recheck.cancel()

        def look_again() -> None:
            self.recheck = None
            self.schedule_bots()

        self.recheck = asyncio.get_running_loop().call_later(seconds, look_again)

    async def run_bots(self) -> None:
        """Move for bots while a bot is to move; returns when a person (or nobody) is."""
        hub = self.hub
        pause = 0.05
        while not hub.closing:
            async with self.lock:
                seat = self.state.current_player()
                spec = self.bots.get(seat)
                if spec is None or self.over or self.waiting:
                    return
                step = self.step
                history = self.state.history()
                move = 1 + sum(player == seat for player, _ in self.moves)
            if hub.bot_delay:
                await asyncio.sleep(hub.bot_delay)  # so people can follow the bots
                if self.step != step:
                    continue
            try:
                claimed = await hub.store.run(hub.store.claim_bot_turn, self.id, step,
                                              hub.process, hub.clock.time(), hub.bot_lease)
            except Unavailable:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            if not claimed:
                # Another process moves it; if that process dies, its claim runs out.
                self._recheck_in(hub.bot_lease + 0.2)
                return
            action, fallback = await self._bot_move(seat, spec, history, move)
            while not hub.closing:
                async with self.lock:
                    if self.step != step:
                        break  # someone else moved meanwhile; look again
                    if action is None or action not in self.state.legal_actions():
                        action = self.state.legal_actions()[0]
                        log.error("game %s: bot %s at seat %d failed at step %d (%s); "
                                  "played the fallback move %r", self.id, spec, seat, step,
                                  fallback or "no legal move", self.state.action_to_string(
                                      action))
                    try:
                        await self._commit(action)
                    except (StepTaken, GameDecided):
                        break
                    except Unavailable:
                        pass
                    else:
                        pause = 0.05
                        break
                log.warning("game %s: the bot's move could not be stored; retrying",
                            self.id)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
            await self.broadcast()

    async def _bot_move(self, seat: int, spec: str, history: list[int], move: int
                        ) -> tuple[int | None, str | None]:
        """The action of the bot at ``seat`` (its ``move``-th), or None and why not (the
        caller then plays the fallback move). A stopped plug-in's seat plays random; a
        plug-in that fails now is stopped (``_stop``)."""
        hub = self.hub
        if self.fault_of(seat) is not None:
            return hub.chance_rng.choice(self.state.legal_actions()), None
        plugin = seat in self.plugins
        job = BotJob(f"{self.id}/{seat}", self.name, self.options, history, spec,
                     hub.move_time if plugin else None)
        try:
            return await hub.bot_pool.choose(job), None
        except BotFailed as problem:
            if not plugin:
                return None, str(problem)
            failure = problem
        await self._stop(fault_for(seat, spec, move, failure.kind, failure.what,
                                   failure.detail))
        return hub.chance_rng.choice(self.state.legal_actions()), None

    async def _stop(self, fault: Fault) -> None:
        """Stop a plug-in bot: its fault stored on its seat (retried while the database is
        away), shown here, announced to the other processes. The operator's log gets the
        detail, which may hold what only the bot's seat knows; pages never do."""
        log.warning("game %s: %s (%s)", self.id, fault.message, fault.detail or "no detail")
        hub = self.hub
        pause = 0.05
        while not hub.closing:
            try:
                await hub.store.run(hub.store.set_fault, self.id, fault)
                break
            except Unavailable:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
        public = fault.public()
        async with self.lock:  # after any reload under way, which may predate the store
            self.seats = [replace(s, fault=public) if s.seat == fault.seat and s.fault is None
                          else s for s in self.seats]
        await hub.announce(self)

    # -- what each viewpoint sees ----------------------------------------------------------

    async def changed(self) -> None:
        await self.broadcast()
        self.schedule_bots()
        if self.over and self.times.rating_state == "pending":
            await self.hub.finished(self)

    async def broadcast(self) -> None:
        cache: dict[tuple[int, seating.Holder], dict[str, Any]] = {}
        for watcher in list(self.watchers):
            key = (watcher.viewpoint, watcher.holder)
            if key not in cache:
                cache[key] = {"type": "state", "server": self.hub.process,
                              **self.payload(watcher.viewpoint, watcher.holder)}
            try:
                await watcher.send(cache[key])
            except Exception:  # a page that went away; it catches up when it reconnects
                self.watchers.discard(watcher)

    @property
    def revealing(self) -> bool:
        """Whether every page is shown everything: the game is over (by its rules, or by
        the server: a resignation, a flag, an abort) and its table chose to reveal the
        hidden cards then."""
        return self.reveal and self.over

    def payload(self, viewpoint: int, holder: seating.Holder) -> dict[str, Any]:
        """Everything one page shows: only ``viewpoint``'s view, log and (if it moves) moves;
        everything once the game is over if the table chose to reveal."""
        state = self.state
        to_move = state.current_player()
        revealing = self.revealing
        view = state.revealed_view() if revealing else state.view(viewpoint)
        legal: list[dict[str, Any]] = []
        over = self.over
        if viewpoint >= 0 and to_move == viewpoint and viewpoint in holder.seats and not over:
            losing = self._endings(viewpoint)
            for action in state.legal_actions():
                text = state.action_string_for(viewpoint, action)
                legal.append({"id": action, "text": text, "label": self._label(view, text),
                              **({"ends": losing[action]} if action in losing else {})})
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.name,
            "title": game_class(self.name).title,
            "options": self.game.options if revealing else self.game.options_for(viewpoint),
            "step": self.step,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "agent": s.agent,
                       "joined": s.joined, "player": s.player_id is not None,
                       "replaced": s.replaced} for s in self.seats],
            "viewpoint": None if viewpoint == SPECTATOR else viewpoint,
            "held": sorted(holder.seats),
            "view": view,
            "secret": not revealing and viewpoint >= 0 and _without_player(view)
            != _without_player(state.view(SPECTATOR)),
            "to_move": to_move if to_move >= 0 and not over else None,
            "over": over,
            "returns": self.returns(),
            "winners": (self.outcome() or {}).get("winners", []),
            "outcome": self.outcome(),
            "waiting": self.waiting,
            "clock": self.clock_view(),
            "rated": self.times.rated,
            "may": endings.allowed(self, holder),
            "rating_changes": self.rating_changes,
            "legal": legal,
            "log": [entry.public() for entry in self.log_for(viewpoint)],
            "rematch": self.rematch,
            "visibility": self.visibility,
            # Plug-in bots stopped in this game (their seats play random): the game is flagged.
            # (Never a fault's detail: it may hold what only the bot's seat knows.)
            "flagged": [{"seat": s.seat, "message": s.fault.message}
                        for s in self.seats if s.fault is not None],
            "reveal": self.reveal,
            "revealed": revealing,
            "hides": not self.game.perfect_information,
        }
        if holder.host:
            # The host sees whether each friend joined; the link only while it is unspent.
            data["invites"] = [
                {"seat": s.seat, "joined": s.joined,
                 **({"url": f"/games/{self.id}/join/{s.invite}"} if s.invite else {})}
                for s in self.seats if s.kind == seating.FRIEND]
        return data

    def _endings(self, seat: int) -> dict[int, str]:
        """The legal moves after which the game is over without ``seat`` winning (``loss``
        or ``draw``), so a page asks first. Judged from what the seat knows only, so the
        warning tells it nothing hidden: the move must end the game so in every one of a
        few states the seat cannot tell from this one (any state, with open cards)."""
        if self._ending_cache is not None and self._ending_cache[0] == (self.step, seat):
            return self._ending_cache[1]
        state = self.state
        models = [state] if self.game.perfect_information else [
            state.resample(seat, random.Random(seed)) for seed in range(3)]
        found: dict[int, str] = {}
        for action in state.legal_actions():
            results = set()
            for model in models:
                trial = model.clone()
                trial.apply_action(action)
                outcome = trial.outcome()
                results.add(None if outcome is None or seat in outcome.winners
                            else outcome.result)
            ending = results.pop() if len(results) == 1 else None
            if ending is not None:
                found[action] = "draw" if ending == "draw" else "loss"
        self._ending_cache = ((self.step, seat), found)
        return found

    def clock_view(self) -> dict[str, Any]:
        to_move = self.state.current_player()
        running = to_move if to_move >= 0 and not self.over else None
        return clock_view(self.control, [s.remaining for s in self.seats], running,
                          self.times.turn_started, self.times.deadline, self.hub.clock.time())

    def _label(self, view: dict[str, Any], notation: str) -> str:
        try:
            label = action_label(self.name, view, notation, self.names)
        except ModuleNotFoundError:
            return notation
        return " ".join(label.split())

    def _who(self, player: int) -> str:
        return self.names[player] if player >= 0 else "nobody"

    def log_for(self, viewpoint: int) -> list[LogEntry]:
        """The log ``viewpoint`` reads: its own, or every action in full once revealed."""
        if not self.revealing:
            return self.logs[viewpoint]
        if self.revealed_log is None:
            state = self.game.new_initial_state()
            entries = []
            for player, action in self.moves:
                notation = state.action_to_string(action)
                state.apply_action(action)
                entries.append(LogEntry(len(state.history()), player, notation,
                                        self._line(state.revealed_view(), player, notation),
                                        False))
            self.revealed_log = entries
        return self.revealed_log

    def record_for(self, viewpoint: int) -> dict[str, Any]:
        """The game record as ``viewpoint`` may read it: its notation, and no id it may not
        know (an action whose notation it reads differently gets id -1); once revealed,
        every action in full, for everyone."""
        revealing = self.revealing
        actions = [RecordedAction(-1 if entry.hidden else action, entry.text, player)
                   for entry, (player, action) in zip(self.log_for(viewpoint), self.moves,
                                                      strict=True)]
        seats = [Seat(s.name, _agent_of(s)) for s in self.seats]
        decided = self.times.ending is not None
        options = self.game.options if revealing else self.game.options_for(viewpoint)
        record = GameRecord(self.name, options, seats, actions,
                            self.returns(), seed="live", created=self.created,
                            outcome=self.outcome(), decided_by="server" if decided else None,
                            faults=[s.fault for s in self.seats if s.fault is not None])
        data = record.to_dict()
        data["viewer"] = "spectator" if viewpoint == SPECTATOR else viewpoint
        data["revealed"] = revealing
        return data

    def step_view(self, viewpoint: int, step: int) -> dict[str, Any]:
        """The table ``viewpoint`` saw after ``step`` actions (for the replay page); every
        step in full once the game is over, if the table chose to reveal."""
        if not 0 <= step <= self.step:
            raise ApiError(404, f"step {step} does not exist; this game has steps 0-{self.step}")
        state = self.game.new_initial_state()
        for _, action in self.moves[:step]:
            state.apply_action(action)
        to_move = state.current_player()
        if step == self.step and self.times.ending is not None:  # the server's ruling
            outcome = self.outcome()
            assert outcome is not None
            view = state.revealed_view() if self.revealing else state.view(viewpoint)
            return {"step": step, "steps": self.step, "view": view,
                    "to_move": None, "over": True, "winners": outcome["winners"],
                    "outcome": outcome, "returns": self.returns()}
        over = state.is_terminal()
        view = state.revealed_view() if self.revealing else state.view(viewpoint)
        return {"step": step, "steps": self.step, "view": view,
                "to_move": to_move if to_move >= 0 else None, "over": over,
                "winners": state.winners() if over else [],
                "outcome": _outcome(state),
                "returns": state.returns() if over else None}


def chat_json(message: StoredChat) -> dict[str, Any]:
    """A chat message as pages get it (its text is shown as text, never as markup)."""
    return {"number": message.number, "seat": message.seat, "name": message.name,
            "text": message.body, "sent": message.sent}


def _agent_of(seat: StoredSeat) -> str:
    if seat.replaced:  # a person, then a bot for the rest of the game
        return f"person, then bot:{seat.agent} ({seat.replaced})"
    return seat.agent or seat.kind


def _outcome(state: State) -> dict[str, Any] | None:
    outcome = state.outcome()
    return None if outcome is None else outcome.as_json()


def _moves_in(message: dict[str, Any]) -> list[tuple[int, int]] | None:
    """The ``(player, action)`` pairs a broker message carries, or None (none, or not
    well formed: the receiver reloads instead)."""
    moves = message.get("moves")
    if not isinstance(moves, list) or not moves or len(moves) > 10_000:
        return None
    pairs = []
    for pair in moves:
        if not (isinstance(pair, list) and len(pair) == 2 and
                all(type(number) is int for number in pair)):
            return None
        pairs.append((pair[0], pair[1]))
    return pairs


# What a move stores of the clock beside it (``LiveGame._clock_after``), as a broker message
# carries it: the game's fields and each seat's time left. Nothing here is secret.
CLOCK_FIELDS = {"turn_started": (float, type(None)), "deadline": (float, type(None)),
                "finished": (float, type(None)), "rating_state": (str,)}


def _clock_message(game: dict[str, Any], seats: dict[int, dict[str, Any]]) -> dict[str, Any]:
    return {"game": {key: value for key, value in game.items() if key in CLOCK_FIELDS},
            "seats": {str(seat): values["remaining"] for seat, values in seats.items()}}


def _clock_in(message: dict[str, Any]) -> dict[str, Any] | None:
    """The clock a broker message carries with its moves, or None (none, or not well
    formed: the receiver reloads instead)."""
    clock = message.get("clock")
    if not isinstance(clock, dict) or not isinstance(clock.get("game"), dict) or \
            not isinstance(clock.get("seats"), dict):
        return None
    game = {}
    for key, value in clock["game"].items():
        if key not in CLOCK_FIELDS:
            return None
        if type(value) is int:  # JSON may write a whole float as an int
            value = float(value)
        if not isinstance(value, CLOCK_FIELDS[key]):
            return None
        game[key] = value
    seats = {}
    for seat, value in clock["seats"].items():
        if not (isinstance(seat, str) and seat.isdigit() and len(seat) < 4) or \
                not (value is None or type(value) in (int, float)):
            return None
        seats[seat] = None if value is None else float(value)
    return {"game": game, "seats": seats}


def _without_player(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "player"}


__all__ = ["LiveGame", "Watcher", "chat_json"]
