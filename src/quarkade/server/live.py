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
from quarkade.server import seats as seating
from quarkade.server.bots import BotFailed, BotJob
from quarkade.server.errors import ApiError
from quarkade.server.inputs import whole_number
from quarkade.server.storage import StepTaken, StoredGame, StoredSeat, Unavailable

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
        self.game = load_game(stored.game, **stored.options)
        self.options = dict(self.game.options)
        self.host_token = stored.host_token
        self.created = stored.created
        self.visibility = stored.visibility
        self.seats: list[StoredSeat] = list(stored.seats)
        self.names = [s.name for s in self.seats]
        self.bots: dict[int, str] = {s.seat: s.agent for s in self.seats if s.agent}
        self.plugins = {seat for seat, spec in self.bots.items() if is_plugin(spec, self.name)}
        self.rematch = stored.rematch
        self.viewpoints = [*range(self.game.num_players), SPECTATOR]
        self.state: State = self.game.new_initial_state()
        self.moves: list[tuple[int, int]] = []  # (player, action) in the order played
        self.logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        self._replay(stored.actions)
        self._check_plugins_allowed()
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.recheck: asyncio.TimerHandle | None = None
        self.refreshing: asyncio.Task[None] | None = None  # taking in another's changes
        self.heard: list[dict[str, Any]] = []  # their messages, not yet taken in
        self.used = 0.0  # when a request last touched it (the hub's clock)

    def _check_plugins_allowed(self) -> None:
        """A game still in play whose plug-in bot this server does not allow (any more)
        cannot be played here (``AgentSpecError``); a stopped one plays random, anywhere."""
        if self.state.is_terminal():
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

    def holder(self, tokens: list[str]) -> seating.Holder:
        return seating.holder_for(tokens, self.seats, self.host_token)

    @property
    def step(self) -> int:
        return len(self.moves)

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
            if self.state.is_terminal():
                raise ApiError(409, "the game is over; nothing more can be played")
            if to_move != seat:
                raise ApiError(409, f"it is not seat {seat}'s turn; {self._who(to_move)} "
                               "is to move")
            try:
                await self._commit(action)
            except IllegalActionError as problem:
                raise ApiError(422, str(problem)) from None
            except StepTaken:
                lost = True  # another process moved first; this one caught up
            except Unavailable:
                raise ApiError(503, UNAVAILABLE) from None
            else:
                lost = False
        await self.changed()
        if lost:
            raise ApiError(409, f"the game moved on: another move was made at step {step}; "
                           "look again and choose")

    async def start(self) -> None:
        """Resolve pending chance and let bots move (after creation or a restart)."""
        async with self.lock:
            if self.state.is_chance_node():
                with contextlib.suppress(StepTaken):  # another process dealt it; caught up
                    await self._commit(None)
        await self.changed()

    async def _commit(self, action: int | None) -> None:
        """Apply ``action`` then every chance outcome after it, store them, make them
        current, tell other processes. Call with the lock held. ``StepTaken`` when another
        process stored this step first (this game then catches up)."""
        state = self.state.clone()
        logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        moves: list[tuple[int, int]] = []
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
        store = self.hub.store
        first = self.step
        try:
            await store.run(store.add_actions, self.id, first, moves, returns)
        except StepTaken:
            await self._catch_up()
            raise
        self._adopt(state, moves, logs)
        await self.hub.announce(self, first, moves)

    def _adopt(self, state: State, moves: list[tuple[int, int]],
               logs: dict[int, list[LogEntry]]) -> None:
        """Make ``state`` current: it follows ``moves`` from this copy's state."""
        self.state = state
        self.moves.extend(moves)
        for viewpoint in self.viewpoints:
            self.logs[viewpoint].extend(logs[viewpoint])

    async def hear(self, messages: list[dict[str, Any]]) -> None:
        """Take in what other processes announced, in order. Moves that follow this copy
        are played from the message, with no database call; a message that does not
        (one was missed, it does not replay here, or it is a join, an invite, a rematch, a
        stopped bot or a resync, which carry no moves) makes it reload from the database."""
        async with self.lock:
            changed = False
            for message in messages:
                moves = _moves_in(message)
                first = message.get("from")
                if moves is None or type(first) is not int:
                    changed = await self._catch_up() or changed
                    break  # the database has every change announced so far
                if first + len(moves) <= self.step:
                    continue  # this copy has them already (its own, or a reload's)
                if first != self.step or not self._play_heard(moves):
                    log.info("game %s: a change from step %d does not follow step %d here; "
                             "reloading", self.id, first, self.step)
                    changed = await self._catch_up() or changed
                    break
                changed = True
        if changed:
            await self.changed()

    def _play_heard(self, moves: list[tuple[int, int]]) -> bool:
        """Play another process's ``moves`` on a copy and make it current; False (nothing
        changed) if one is not the legal move of its player here."""
        state = self.state.clone()
        logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        for player, action in moves:
            if state.is_terminal() or state.current_player() != player or \
                    action not in state.legal_actions():
                return False
            self._play(state, action, logs)
        self._adopt(state, moves, logs)
        return True

    async def refresh(self) -> None:
        """Load what another process changed (moves, joins, a rematch) and show it."""
        async with self.lock:
            changed = await self._catch_up()
        if changed:
            await self.changed()

    async def _catch_up(self) -> bool:
        actions, seats, rematch = await self.hub.store.run(
            self.hub.store.changes_since, self.id, self.step)
        changed = bool(actions) or seats != self.seats or rematch != self.rematch
        try:
            self._replay(actions)
        except IllegalActionError:  # cannot happen with one history; never half-apply
            log.error("game %s: stored actions do not replay; reloading later", self.id)
            self.hub.forget(self.id)
        self.seats = seats
        self.rematch = rematch
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

    # -- bots ----------------------------------------------------------------------------

    def schedule_bots(self) -> None:
        if self.hub.games.get(self.id) is not self:
            return  # left memory (or never entered it): the copy loaded next moves bots
        if self.state.current_player() in self.bots and (
                self.bot_task is None or self.bot_task.done()) and not self.hub.closing:
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
                if spec is None:
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
                    except StepTaken:
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

    def payload(self, viewpoint: int, holder: seating.Holder) -> dict[str, Any]:
        """Everything one page shows: only ``viewpoint``'s view, log and (if it moves) moves."""
        state = self.state
        to_move = state.current_player()
        view = state.view(viewpoint)
        legal: list[dict[str, Any]] = []
        if viewpoint >= 0 and to_move == viewpoint and viewpoint in holder.seats:
            for action in state.legal_actions():
                text = state.action_string_for(viewpoint, action)
                legal.append({"id": action, "text": text, "label": self._label(view, text)})
        over = state.is_terminal()
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.name,
            "title": game_class(self.name).title,
            "options": self.game.options_for(viewpoint),
            "step": self.step,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "agent": s.agent,
                       "joined": s.joined} for s in self.seats],
            "viewpoint": None if viewpoint == SPECTATOR else viewpoint,
            "held": sorted(holder.seats),
            "view": view,
            "secret": viewpoint >= 0 and _without_player(view)
            != _without_player(state.view(SPECTATOR)),
            "to_move": to_move if to_move >= 0 else None,
            "over": over,
            "returns": state.returns() if over else None,
            "winners": state.winners() if over else [],
            "outcome": _outcome(state),
            "legal": legal,
            "log": [entry.public() for entry in self.logs[viewpoint]],
            "rematch": self.rematch,
            "visibility": self.visibility,
            # Plug-in bots stopped in this game (their seats play random): the game is flagged.
            # (Never a fault's detail: it may hold what only the bot's seat knows.)
            "flagged": [{"seat": s.seat, "message": s.fault.message}
                        for s in self.seats if s.fault is not None],
        }
        if holder.host:
            # The host sees whether each friend joined; the link only while it is unspent.
            data["invites"] = [
                {"seat": s.seat, "joined": s.joined,
                 **({"url": f"/games/{self.id}/join/{s.invite}"} if s.invite else {})}
                for s in self.seats if s.kind == seating.FRIEND]
        return data

    def _label(self, view: dict[str, Any], notation: str) -> str:
        try:
            label = action_label(self.name, view, notation, self.names)
        except ModuleNotFoundError:
            return notation
        return " ".join(label.split())

    def _who(self, player: int) -> str:
        return self.names[player] if player >= 0 else "nobody"

    def record_for(self, viewpoint: int) -> dict[str, Any]:
        """The game record as ``viewpoint`` may read it: its notation, and no id it may not
        know (an action whose notation it reads differently gets id -1)."""
        actions = [RecordedAction(-1 if entry.hidden else action, entry.text, player)
                   for entry, (player, action) in zip(self.logs[viewpoint], self.moves,
                                                      strict=True)]
        seats = [Seat(s.name, s.agent or s.kind) for s in self.seats]
        over = self.state.is_terminal()
        record = GameRecord(self.name, self.game.options_for(viewpoint), seats, actions,
                            self.state.returns() if over else None, seed="live",
                            created=self.created, outcome=_outcome(self.state),
                            faults=[s.fault for s in self.seats if s.fault is not None])
        data = record.to_dict()
        data["viewer"] = "spectator" if viewpoint == SPECTATOR else viewpoint
        return data

    def step_view(self, viewpoint: int, step: int) -> dict[str, Any]:
        """The table ``viewpoint`` saw after ``step`` actions (for the replay page)."""
        if not 0 <= step <= self.step:
            raise ApiError(404, f"step {step} does not exist; this game has steps 0-{self.step}")
        state = self.game.new_initial_state()
        for _, action in self.moves[:step]:
            state.apply_action(action)
        to_move = state.current_player()
        over = state.is_terminal()
        return {"step": step, "steps": self.step, "view": state.view(viewpoint),
                "to_move": to_move if to_move >= 0 else None, "over": over,
                "winners": state.winners() if over else [],
                "outcome": _outcome(state),
                "returns": state.returns() if over else None}


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


def _without_player(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "player"}


__all__ = ["LiveGame", "Watcher"]
