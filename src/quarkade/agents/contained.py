"""Containment for bots the project did not write: a plug-in bot that raises, answers with
an illegal action or overruns its time is stopped, and its seat plays ``random`` from then
on; the game goes on and is flagged (``Fault``).

``ContainedAgent`` wraps the bot. Each move runs in a helper thread of the calling thread
(one per calling thread, a daemon, made again in a forked child), while the caller waits
on the move's deadline: ``move_time`` seconds by ``clock``, an injected clock (tests pass
one they advance by hand, so nothing sleeps). A move that is late is thrown away; a move
that never comes is abandoned when the deadline passes, and the helper thread is stopped
by an exception raised inside it (``BotStopped``, through
``PyThreadState_SetAsyncExc``), which ends any bot running Python code. A bot blocked in C
code that never returns to Python cannot be stopped that way; its thread is left behind
(a daemon: it never keeps the process alive) and the game goes on without it.
"""

from __future__ import annotations

import ctypes
import os
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from quarkade.core.agent import Agent, Turn
from quarkade.core.records import Fault

# How long a bot move may take, in seconds, unless the caller says otherwise.
DEFAULT_MOVE_TIME = 5.0
# How often, in real seconds, a waiting caller looks at its (possibly injected) clock.
POLL = 0.05

Clock = Callable[[], float]


class BotStopped(Exception):
    """Raised inside a bot's thread to stop a move that overran its deadline."""


class ContainedAgent(Agent):
    """``inner`` (anything with ``act(turn, rng)``) under containment; see the module.

    ``faults`` lists what went wrong (at most one: the seat then plays ``random``);
    ``on_fault`` is told at once (the terminal prints it).
    """

    def __init__(self, inner: Any, spec: str, move_time: float = DEFAULT_MOVE_TIME,
                 clock: Clock = time.perf_counter, poll: float = POLL) -> None:
        self.inner = inner
        self.spec = spec
        self.move_time = move_time
        self.clock = clock
        self.poll = poll
        self.moves = 0
        self.faults: list[Fault] = []
        self.on_fault: Callable[[Fault], None] | None = None

    @property
    def stopped(self) -> bool:
        return bool(self.faults)

    def act(self, turn: Turn, rng: random.Random) -> int:
        if self.faults:
            return rng.choice(turn.legal_actions)
        self.moves += 1
        move = run_move(self.inner.act, turn, rng, self.move_time, self.clock, self.poll)
        problem = move.problem(turn.legal_actions, self.move_time)
        if problem is None:
            assert isinstance(move.action, int)
            return move.action
        fault = fault_for(turn.player, self.spec, self.moves, *problem)
        self.faults.append(fault)
        if self.on_fault is not None:
            self.on_fault(fault)
        return rng.choice(turn.legal_actions)


def fault_for(seat: int, spec: str, move: int, kind: str, what: str, detail: str = ""
              ) -> Fault:
    """The fault of bot ``spec`` at ``seat`` on its ``move``-th move: ``what`` happened (the
    rest of a sentence after the bot's name, naming no value the bot produced;
    ``Move.problem``), of ``kind``; ``Fault.sentence`` says it with the seat's name."""
    return Fault(seat, spec, move, kind, what, detail)


def faults_of(agents: Any) -> list[Fault]:
    """Every fault of ``agents`` (those that are contained), by seat."""
    found = [f for agent in agents for f in getattr(agent, "faults", ())]
    return sorted(found, key=lambda f: f.seat)


# -- one move under a deadline ---------------------------------------------------------------


@dataclass
class Move:
    """What came of one move: the answer, the exception, or nothing in time."""

    action: Any = None
    error: BaseException | None = None
    seconds: float = 0.0
    finished: bool = False
    done: threading.Event = field(default_factory=threading.Event)

    def problem(self, legal: list[int], limit: float) -> tuple[str, str, str] | None:
        """``(kind, what happened, detail)`` if the move cannot be played, else None.

        What happened names no value the bot produced: an exception's text or an answer
        may hold what only the bot's seat knows (its hand), so they go in ``detail``, which
        only the operator and offline analysis read (``Fault``)."""
        if not self.finished:
            return "time", f"gave no answer within its {limit:g} s per move (stopped)", ""
        if self.seconds > limit:
            return "time", (f"took {self.seconds:.2f} s, over its {limit:g} s per move "
                            "(the move was not played)"), ""
        if self.error is not None:
            return ("raised", f"raised {type(self.error).__name__}",
                    f"{type(self.error).__name__}: {self.error}")
        action = self.action
        if type(action) is not int or action not in legal:
            shown = repr(action)
            if len(shown) > 60:
                shown = shown[:57] + "..."
            return ("illegal", f"answered something other than one of its {len(legal)} "
                    "legal actions", f"answered {shown}")
        return None


def run_move(act: Callable[[Turn, random.Random], Any], turn: Turn, rng: random.Random,
             limit: float, clock: Clock = time.perf_counter, poll: float = POLL) -> Move:
    """``act(turn, rng)`` in this thread's bot thread, waited for until ``limit`` seconds of
    ``clock`` have passed; a move still running then is stopped and left unfinished."""
    move = Move()
    runner = _runner()
    start = clock()

    def task() -> None:
        try:
            move.action = act(turn, rng)
        except BotStopped:
            return
        except BaseException as problem:  # a bot calling sys.exit() is stopped like any other
            move.error = problem
        move.seconds = clock() - start
        move.finished = True

    runner.submit(task, move.done)
    while not move.done.wait(poll):
        if clock() - start > limit:
            runner.stop()
            break
    return move


class _Runner:
    """A daemon thread that runs the moves handed to it, one at a time."""

    def __init__(self) -> None:
        self.tasks: queue.SimpleQueue[tuple[Callable[[], None], threading.Event]] = \
            queue.SimpleQueue()
        self.pid = os.getpid()
        self.abandoned = False
        self.thread = threading.Thread(target=self._serve, daemon=True,
                                       name="quarkade-contained-bot")
        self.thread.start()

    def submit(self, task: Callable[[], None], done: threading.Event) -> None:
        self.tasks.put((task, done))

    def _serve(self) -> None:
        try:
            while not self.abandoned:
                task, done = self.tasks.get()
                try:
                    task()
                finally:
                    done.set()
        except BotStopped:  # it came just after the bot returned: this thread ends anyway
            pass

    def stop(self) -> None:
        """Stop the move running now and leave this thread for good (a new one takes over)."""
        self.abandoned = True
        _local.runner = None
        ident = self.thread.ident
        if ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                       ctypes.py_object(BotStopped))


_local = threading.local()


def _runner() -> _Runner:
    runner: _Runner | None = getattr(_local, "runner", None)
    if runner is None or runner.pid != os.getpid() or not runner.thread.is_alive():
        runner = _local.runner = _Runner()
    return runner


__all__ = ["DEFAULT_MOVE_TIME", "BotStopped", "ContainedAgent", "Fault", "Move", "fault_for",
           "faults_of", "run_move"]
