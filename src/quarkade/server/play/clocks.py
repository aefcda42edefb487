"""The games' clocks (time itself is ``quarkade.server.clock``, injected).

A game's *time control* (``TimeControl``) is ``none``, real-time (``5+3``: five minutes
each, three seconds added after each of your turns, Fischer increment: once per turn
however many actions it takes, RULINGS S-7) or correspondence (``corr:3``: three days for
each move). A seat's first move has a shorter deadline in real-time (``first_move``
seconds, 30 by default; correspondence: its move time): a game where a person never makes
a first move ends aborted and unrated (RULINGS S-8, ``endings.flag``). The server keeps
the clocks: when a seat's turn begins it stores ``turn_started`` and the ``deadline``
(epoch seconds) by which that seat must move, and each real-time seat's ``remaining``
time. Deadlines are stored, so they survive a restart and expire with no page open:
``DeadlineWatcher`` wakes at the earliest stored deadline (and every ``sweep`` seconds,
for deadlines other processes set) and hands each expired game to the hub, which claims
the expiry in the database once (see ``Store.decide``). What running out does is
``endings.py`` (docs/RULINGS.md, S-1).
Bots have no clock; neither does chance.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from quarkade.core.protocol import State
from quarkade.server.clock import Clock, ManualClock
from quarkade.server.errors import ApiError
from quarkade.server.messages import CLOCK_FIELDS, ClockStamp
from quarkade.server.play.outcomes import outcome_of
from quarkade.server.storage import GameTimes, StoredSeat

log = logging.getLogger("quarkade.server")

NONE, REALTIME, CORRESPONDENCE = "none", "realtime", "correspondence"
DAY = 24 * 3600.0
CORRESPONDENCE_DAYS = (1, 3, 7)
FIRST_MOVE_SECONDS = 30.0  # real-time: a seat's first move, or the game is aborted (S-8)
MINUTES = (1, 180)  # a real-time clock's starting minutes, inclusive
INCREMENT = (0, 60)  # seconds added after each move, inclusive
ALLOWED = ("the time control is 'none', real-time as 'MINUTES+SECONDS' (minutes 1-180 each, "
           "0-60 seconds added per move, such as 5+3) or correspondence as 'corr:DAYS' "
           "(1, 3 or 7 days per move)")
REALTIME_TEXT = re.compile(r"([0-9]{1,3})\+([0-9]{1,2})")
CORRESPONDENCE_TEXT = re.compile(r"corr:([0-9])")


@dataclass(frozen=True)
class TimeControl:
    """How long each seat may think: ``kind`` none, realtime or correspondence."""

    kind: str = NONE
    initial: float = 0.0  # real-time: seconds each seat starts with
    increment: float = 0.0  # real-time: seconds added after each of the seat's turns
    per_move: float = 0.0  # correspondence: seconds for each move

    @classmethod
    def parse(cls, raw: Any) -> TimeControl:
        """``none``, ``5+3`` or ``corr:3`` (as stored and as typed), else ``ApiError(400)``."""
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("", NONE)):
            return cls()
        if not isinstance(raw, str):
            raise ApiError(400, ALLOWED)
        text = raw.strip().lower().replace(" ", "")
        found = REALTIME_TEXT.fullmatch(text)
        if found:
            minutes, seconds = int(found.group(1)), int(found.group(2))
            if MINUTES[0] <= minutes <= MINUTES[1] and INCREMENT[0] <= seconds <= INCREMENT[1]:
                return cls(REALTIME, minutes * 60.0, float(seconds))
        found = CORRESPONDENCE_TEXT.fullmatch(text)
        if found and int(found.group(1)) in CORRESPONDENCE_DAYS:
            return cls(CORRESPONDENCE, per_move=int(found.group(1)) * DAY)
        shown = raw if len(raw) <= 30 else raw[:27] + "..."
        raise ApiError(400, f"{shown!r}: {ALLOWED}")

    @property
    def text(self) -> str:
        if self.kind == REALTIME:
            return f"{int(self.initial // 60)}+{int(self.increment)}"
        if self.kind == CORRESPONDENCE:
            return f"corr:{int(self.per_move // DAY)}"
        return NONE

    @property
    def label(self) -> str:
        if self.kind == REALTIME:
            return f"{int(self.initial // 60)} min + {int(self.increment)} s"
        if self.kind == CORRESPONDENCE:
            days = int(self.per_move // DAY)
            return f"{days} day{'s' if days > 1 else ''} per move"
        return "no clock"

    def starting(self) -> float | None:
        """What a real-time seat starts with (None: this control keeps no bank)."""
        return self.initial if self.kind == REALTIME else None

    def spent(self, remaining: float | None, thought: float, turn_over: bool = True
              ) -> float | None:
        """A real-time seat's time after an action it thought ``thought`` seconds about;
        the increment is added once, when its turn is over (RULINGS S-7)."""
        if self.kind != REALTIME or remaining is None:
            return remaining
        return max(0.0, remaining - thought) + (self.increment if turn_over else 0.0)

    def deadline(self, now: float, remaining: float | None, first_move: float | None = None
                 ) -> float | None:
        """When a seat whose turn begins ``now`` runs out (None: no clock); a seat yet to
        make its first move has at most ``first_move`` seconds in real-time (S-8)."""
        if self.kind == REALTIME:
            left = self.initial if remaining is None else remaining
            return now + (left if first_move is None else min(left, first_move))
        if self.kind == CORRESPONDENCE:
            return now + self.per_move
        return None


def clock_view(control: TimeControl, remaining: Sequence[float | None], running: int | None,
               turn_started: float | None, deadline: float | None, now: float
               ) -> dict[str, Any]:
    """The clocks as a page shows them, at ``now``: each seat's time left (real-time), the
    seat whose clock runs and its seconds left (the page counts down from there)."""
    left = None if deadline is None else max(0.0, deadline - now)
    shown: list[float | None] = list(remaining)
    if control.kind == REALTIME and running is not None and left is not None:
        shown[running] = left
    return {"control": control.text, "label": control.label, "kind": control.kind,
            "remaining": [None if r is None else round(r, 1) for r in shown],
            "running": running if left is not None else None,
            "left": None if left is None else round(left, 1),
            "turn_started": turn_started}


def clock_after(control: TimeControl, times: GameTimes, seats: Sequence[StoredSeat],
                people: set[int], state: State, mover: int | None, now: float,
                moved: Collection[int] = (), first_move: float = FIRST_MOVE_SECONDS
                ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """What a move stores of the clock, made at ``now`` by ``mover`` (None: chance alone)
    and reaching ``state``: the mover's time spent (real-time; its increment only if its
    turn is over), whose turn begins now and its deadline (for the game; shorter for a
    seat not in ``moved``, the seats that made a move already), and each seat's time
    left that changed."""
    changed: dict[int, dict[str, Any]] = {}
    to_move = state.current_player()
    if mover is not None and mover in people and times.turn_started is not None:
        spent = control.spent(seats[mover].remaining, now - times.turn_started,
                              turn_over=to_move != mover)
        if spent != seats[mover].remaining:
            changed[mover] = {"remaining": spent}
    game: dict[str, Any] = {"turn_started": now, "deadline": None,
                            "to_move": to_move if to_move >= 0 else None}
    if state.is_terminal():
        game.update(finished=now, outcome=outcome_of(state),
                    rating_state="pending" if times.rated else "none")
    elif to_move in people:
        remaining = changed.get(to_move, {}).get("remaining", seats[to_move].remaining)
        first = to_move not in moved and to_move != mover
        game["deadline"] = control.deadline(now, remaining, first_move if first else None)
    return game, changed


def clock_at_start(control: TimeControl, times: GameTimes, seats: Sequence[StoredSeat],
                   people: set[int], state: State, now: float,
                   first_move: float = FIRST_MOVE_SECONDS
                   ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """What a game's beginning at ``now`` stores of the clock: when it started, each
    person's full time, and (a person to move first) that seat's turn and deadline."""
    full = control.starting()
    changed = {s: {"remaining": full} for s in people} if full is not None else {}
    game: dict[str, Any] = {"started": now}
    if not state.is_chance_node():  # a person may be first: their clock starts
        filled = [replace(s, remaining=full) for s in seats]
        game.update(clock_after(control, times, filled, people, state, None, now, (),
                                first_move)[0])
    return game, changed


def time_left(control: TimeControl, times: GameTimes, seat: StoredSeat, running: bool,
              now: float) -> float | None:
    """A real-time seat's time left at ``now`` (its clock runs if ``running``): what a
    game the server ends stores, so the clocks stop at their final values."""
    if control.kind != REALTIME or seat.remaining is None:
        return seat.remaining
    if running and times.turn_started is not None:
        return max(0.0, seat.remaining - (now - times.turn_started))
    return seat.remaining


def clock_stamp(game: dict[str, Any], seats: dict[int, dict[str, Any]]) -> ClockStamp:
    """What a move stored of the clock (``clock_after``), as a message carries it."""
    return ClockStamp({key: value for key, value in game.items() if key in CLOCK_FIELDS},
                      {seat: values["remaining"] for seat, values in seats.items()})


class DeadlineWatcher:
    """Wakes at the earliest stored deadline (or every ``sweep`` seconds) and hands each
    expired game to ``expire(game_id, deadline)``."""

    def __init__(self, clock: Clock, expired: Callable[[float], Awaitable[list[tuple[str,
                 float]]]], next_deadline: Callable[[], Awaitable[float | None]],
                 expire: Callable[[str, float], Awaitable[None]], sweep: float = 5.0) -> None:
        self.clock = clock
        self.expired = expired
        self.next_deadline = next_deadline
        self.expire = expire
        self.sweep = sweep
        self.event: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()
        if isinstance(self.clock, ManualClock):
            self.clock.listeners.append(self.wake)
        self.task = self.loop.create_task(self._run())

    def wake(self) -> None:
        """Look again now (a deadline was set, or the clock moved); from any thread."""
        if self.loop is not None and self.event is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self.loop.call_soon_threadsafe(self.event.set)

    async def close(self) -> None:
        if isinstance(self.clock, ManualClock) and self.wake in self.clock.listeners:
            self.clock.listeners.remove(self.wake)
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _run(self) -> None:
        assert self.event is not None
        while True:
            self.event.clear()
            wait = self.sweep
            try:
                for game_id, deadline in await self.expired(self.clock.time()):
                    try:
                        await self.expire(game_id, deadline)
                    except Exception as problem:  # one game's trouble never stops the rest
                        log.error("game %s: applying its deadline failed (%s)", game_id,
                                  type(problem).__name__, exc_info=problem)
                upcoming = await self.next_deadline()
                now = self.clock.time()
                if upcoming is not None and upcoming > now:  # one past now: tried above
                    wait = min(wait, upcoming - now)
            except asyncio.CancelledError:
                raise
            except Exception as problem:  # the database is away: look again soon
                log.warning("deadlines could not be read (%s)", type(problem).__name__)
            # (asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that
            # lands as the event is set, and the shutdown waited for ever)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(wait, 0.01)):
                    await self.event.wait()
