"""Live games: the authoritative state of each game, its watchers, and the bots that play it.

A ``LiveGame`` is rebuilt from storage by replaying its action ids, then kept in memory.
Every change goes through ``_commit``: the move and the chance outcomes that follow it
(drawn from ``random.SystemRandom`` and stored as actions) are applied to a copy, stored,
and only then made current, so a refused or failed move changes nothing. After each change
every watcher (a WebSocket of one seat or a spectator) is sent what its seat may see.

Bots act in a thread pool, so a slow bot never stalls the other games, and each game has
one lock, so a person and a bot never move at once.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from quarkade.agents import make_agent
from quarkade.core.agent import Agent, Turn, turn_for
from quarkade.core.errors import IllegalActionError, QuarkadeError
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.records import GameRecord, RecordedAction, Seat
from quarkade.core.registry import game_class, load_game
from quarkade.core.rng import sample_chance
from quarkade.core.words import action_label, log_line
from quarkade.server import seats as seating
from quarkade.server.errors import ApiError
from quarkade.server.storage import Store, StoredGame, StoredSeat

log = logging.getLogger("quarkade.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]


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
        self.seats: list[StoredSeat] = list(stored.seats)
        self.names = [s.name for s in self.seats]
        self.agents: dict[int, Agent] = {
            s.seat: make_agent(s.agent, self.name) for s in self.seats if s.agent}
        self.rematch = stored.rematch
        self.viewpoints = [*range(self.game.num_players), SPECTATOR]
        self.state: State = self.game.new_initial_state()
        self.moves: list[tuple[int, int]] = []  # (player, action) in the order played
        self.logs: dict[int, list[LogEntry]] = {v: [] for v in self.viewpoints}
        for action in stored.actions:
            self._play(self.state, action, self.logs)
            self.moves.append((self.logs[SPECTATOR][-1].player, action))
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.bot_task: asyncio.Task[None] | None = None

    # -- who may do what ---------------------------------------------------------------

    def holder(self, tokens: list[str]) -> seating.Holder:
        return seating.holder_for(tokens, self.seats, self.host_token)

    @property
    def step(self) -> int:
        return len(self.moves)

    # -- moves ---------------------------------------------------------------------------

    async def act(self, holder: seating.Holder, seat: Any, action: Any, step: Any) -> None:
        """A person's move for ``seat``; raises ``ApiError`` (nothing changed) if refused."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ApiError(400, f"seat should be a seat number, not {seat!r}")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(400, f"action should be an action id (a whole number) from the "
                           f"legal actions, not {action!r}")
        if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
            raise ApiError(400, f"step should be the number of actions played, not {step!r}")
        if seat not in holder.seats:
            raise ApiError(403, f"this device holds no token for seat {seat}")
        async with self.lock:
            to_move = self.state.current_player()
            if self.state.is_terminal():
                raise ApiError(409, "the game is over; nothing more can be played")
            if to_move != seat:
                raise ApiError(409, f"it is not seat {seat}'s turn; {self._who(to_move)} "
                               "is to move")
            if step is not None and step != self.step:
                raise ApiError(409, f"the game moved on: you saw step {step}, it is at step "
                               f"{self.step}; look again and choose")
            try:
                self._commit(action)
            except IllegalActionError as problem:
                raise ApiError(422, str(problem)) from None
        await self.changed()

    async def start(self) -> None:
        """Resolve pending chance and let bots move (after creation or a restart)."""
        async with self.lock:
            if self.state.is_chance_node():
                self._commit(None)
        await self.changed()

    def _commit(self, action: int | None) -> None:
        """Apply ``action`` then every chance outcome after it, store them, make them current."""
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
        self.hub.store.add_actions(self.id, self.step, moves, returns)
        self.state = state
        self.moves.extend(moves)
        for viewpoint in self.viewpoints:
            self.logs[viewpoint].extend(logs[viewpoint])

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

    def _bot_to_move(self) -> bool:
        return self.state.current_player() in self.agents

    def _schedule_bots(self) -> None:
        if self._bot_to_move() and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.get_running_loop().create_task(self._run_bots())
            self.hub.tasks.add(self.bot_task)
            self.bot_task.add_done_callback(self.hub.tasks.discard)

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                seat = self.state.current_player()
                agent = self.agents.get(seat)
                if agent is None:
                    return
                turn = turn_for(self.state)
                step = self.step
            if self.hub.bot_delay:
                await asyncio.sleep(self.hub.bot_delay)
            action = await loop.run_in_executor(self.hub.pool, _bot_choice, agent, turn)
            async with self.lock:
                if self.step != step:  # someone else moved meanwhile; look again
                    continue
                self._commit(action)
            await self.broadcast()

    # -- what each viewpoint sees ----------------------------------------------------------

    async def changed(self) -> None:
        await self.broadcast()
        self._schedule_bots()

    async def broadcast(self) -> None:
        cache: dict[tuple[int, seating.Holder], dict[str, Any]] = {}
        for watcher in list(self.watchers):
            key = (watcher.viewpoint, watcher.holder)
            if key not in cache:
                cache[key] = {"type": "state", **self.payload(watcher.viewpoint, watcher.holder)}
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
        }
        if holder.host:
            data["invites"] = [{"seat": s.seat, "joined": s.joined,
                                "url": f"/games/{self.id}/join/{s.token}"}
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
                            created=self.created, outcome=_outcome(self.state))
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


class Hub:
    """All live games of one server: loaded lazily from storage, shared by every request."""

    def __init__(self, store: Store, bot_delay: float = 0.0, bot_threads: int = 2) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.pool = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="quarkade-bot")
        self.chance_rng = random.SystemRandom()
        self.games: dict[str, LiveGame] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            stored = self.store.load_game(game_id) if _plausible_id(game_id) else None
            if stored is None:
                raise ApiError(404, f"no game {game_id!r} here; start one from the home page")
            try:
                loaded = LiveGame(self, stored)
            except QuarkadeError as problem:  # its game or a bot is gone, or a move is not
                raise ApiError(409, f"game {game_id} can no longer be played here: "
                               f"{problem}") from None
            live = self.games.setdefault(game_id, loaded)
            await live.start()
        return live

    async def create(self, game: str, options: dict[str, Any],
                     seat_specs: list[str]) -> tuple[LiveGame, str]:
        """A new game from a game name, its options and a choice per seat; returns it and
        its host token."""
        try:
            loaded = load_game(game, **options)
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        seats = seating.parse_seats(game, seat_specs, loaded.num_players)
        host_token = seating.new_token()
        return await self._create(game, dict(loaded.options), seats, host_token), host_token

    async def _create(self, game: str, options: dict[str, Any], seats: list[StoredSeat],
                      host_token: str) -> LiveGame:
        game_id = seating.new_game_id()
        self.store.create_game(game_id, game, options, host_token, seats)
        return await self.get(game_id)

    async def join(self, game_id: str, token: str) -> tuple[LiveGame, int]:
        """The seat an invite token opens; marks it joined."""
        live = await self.get(game_id)
        for index, seat in enumerate(live.seats):
            if seat.token is not None and seat.token == token:
                if not seat.joined:
                    self.store.mark_joined(game_id, seat.seat)
                    live.seats[index] = StoredSeat(seat.seat, seat.kind, seat.agent, seat.name,
                                                   seat.token, True)
                    await live.broadcast()
                return live, seat.seat
        raise ApiError(403, "this invite link is not valid for this game; ask for a new one")

    async def rematch(self, live: LiveGame, holder: seating.Holder) -> LiveGame:
        """The same table again (same seats, same tokens); made once, then shared."""
        if not holder.seats and not holder.host:
            raise ApiError(403, "only someone at the table can ask for a rematch")
        if not live.state.is_terminal():
            raise ApiError(409, "the game is not over yet")
        async with live.lock:
            if live.rematch is None:
                # Same seats, same tokens and host token: every device keeps its place.
                new = await self._create(live.name, live.options, live.seats, live.host_token)
                if self.store.set_rematch(live.id, new.id):
                    live.rematch = new.id
        await live.broadcast()
        assert live.rematch is not None
        return await self.get(live.rematch)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)


def _bot_choice(agent: Agent, turn: Turn) -> int:
    """The bot's move; a bot that fails or answers nonsense is replaced by a random move, so
    a game never hangs on it."""
    rng = random.Random(random.SystemRandom().getrandbits(64))
    try:
        action = agent.act(turn, rng)
    except Exception:
        log.exception("agent %s failed; playing a random move instead", agent.spec)
        return rng.choice(turn.legal_actions)
    if action not in turn.legal_actions:
        log.error("agent %s chose %r, not legal; playing a random move instead",
                  agent.spec, action)
        return rng.choice(turn.legal_actions)
    return action


def _outcome(state: State) -> dict[str, Any] | None:
    outcome = state.outcome()
    return None if outcome is None else outcome.as_json()


def _without_player(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "player"}


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 32 and game_id.isascii() and game_id.replace("-", "").replace(
        "_", "").isalnum()


__all__ = ["Hub", "LiveGame", "Watcher"]
