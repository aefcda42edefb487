"""Worker processes for the server's CPU work, each job under a hard deadline.

A job (a bot's move, ``play.botmove``; a hint or a review, ``learn.searches``; a chunk of
a deck test, ``decks.plays``) is a small picklable object of replayable data; a worker
process unpickles it, runs it and answers through a pipe. The worker may say what it is
doing on the way: ``("thinking",)`` when a bot starts its move (after replaying the
game), ``("progress", done, total)``. If the
answer does not come by the deadline the worker is killed and replaced, so a runaway job
can never hold a game, another client's job, or shutdown.

The pool only keeps processes; which job runs when is the scheduler's
(``quarkade.server.work.scheduler``). A job that names a ``key`` (a game and seat) goes to
the worker that last ran that key when it is idle, so a bot keeps what it learned between
its moves.

Worker processes are spawned, not forked (the server holds threads and sockets), and
import neither the web stack nor the database. A new worker readies itself before its
first job: the allowed plug-ins' imports, and with ``warm`` (the server's default) the
compiled search loaded from the disk cache (``agents.warming``: about a second of CPU,
which a process's first hint, review or search bot would otherwise pay on top of its own
time; tests whose servers search nothing leave it off). It then says
``("ready",)``; a job's deadline starts only when its worker is ready (within
``STARTUP_SECONDS``), so a busy machine's slow start never costs a bot its move.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Protocol

log = logging.getLogger("quarkade.server")

DEFAULT_FACTORY = "quarkade.server.play.botmove:server_agent"
# How late past a plug-in's move time its answer may come through the pipe and still be
# read (the worker measures the thinking itself: an answer over the move time is refused).
PIPE_MARGIN = 0.5
KEPT_KEYS = 1000  # keys whose last worker is remembered
STARTUP_SECONDS = 60.0  # how long a new worker may take to be ready (imports, loading)

Progress = Callable[[int, int], None]


def rebuild(game: str, options: dict[str, Any], history: list[int]) -> Any:
    """A game's state from its options and history (a job is replayable data only)."""
    from quarkade.core.registry import load_game

    state = load_game(game, **options).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


class JobFailed(Exception):
    """The job gave no usable answer: the reason (for the log), and for a bot's fault its
    ``kind`` (raised, illegal, time, crashed), ``what`` happened (a sentence naming no
    value the job produced) and the ``detail`` (for the operator only)."""

    def __init__(self, reason: str, kind: str = "raised", what: str = "",
                 detail: str = "") -> None:
        super().__init__(reason)
        self.kind = kind
        self.what = what or reason
        self.detail = detail


class Job(Protocol):
    """What a worker runs: ``run(worker, say)`` in the worker process."""

    @property
    def key(self) -> str | None:
        """The worker that last ran this key is preferred (None: any)."""

    def run(self, worker: WorkerState, say: Callable[..., None]) -> Any: ...

    def think_limit(self) -> float | None:
        """Seconds the job may take once it says it is thinking (None: no limit apart)."""

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        """How the job failed when it took more than ``seconds``."""


@dataclass
class WorkerState:
    """What a worker process keeps between jobs: the agent factory, the allowed plug-in
    bots, and the agents of recent keys (a bot that remembers keeps its memory)."""

    factory: Callable[..., Any]
    plugins: tuple[str, ...]
    agents: OrderedDict[tuple[str, str], Any] = field(default_factory=OrderedDict)


class WorkerPool:
    """Worker processes, made when first needed and kept while they live."""

    def __init__(self, factory: str = DEFAULT_FACTORY, plugins: Collection[str] = (),
                 warm: bool = False) -> None:
        self.factory = factory
        self.warm_search = warm  # each worker loads the compiled search when it starts
        self.plugins = tuple(plugins)  # the allowed plug-ins, for the workers
        self.context = multiprocessing.get_context("spawn")
        self.lock = threading.Lock()
        self.idle: list[_Worker] = []
        self.busy: set[_Worker] = set()
        self.last: OrderedDict[str, _Worker] = OrderedDict()  # key -> its last worker
        self.closed = False

    def run(self, job: Job, deadline: float, progress: Progress | None = None) -> Any:
        """The job's answer (blocking: call from a thread); ``JobFailed`` when it has none
        within ``deadline`` seconds (the worker is then killed)."""
        worker = self._take(job.key)
        try:
            answer = worker.ask(job, deadline, progress)
        except JobFailed:
            worker.stop()
            raise
        finally:
            with self.lock:
                self.busy.discard(worker)
        with self.lock:
            if worker.alive() and not self.closed:
                self.idle.append(worker)
                if job.key is not None:
                    self.last[job.key] = worker
                    self.last.move_to_end(job.key)
                    while len(self.last) > KEPT_KEYS:
                        self.last.popitem(last=False)
            else:
                worker.stop()
        return answer

    def warm(self, count: int) -> None:
        """Have ``count`` idle workers ready (blocking: spawning takes a while)."""
        while True:
            with self.lock:
                if self.closed or len(self.idle) >= count:
                    return
            worker = _Worker(self.context, self.factory, self.plugins, self.warm_search)
            try:
                worker.wait_ready()
            except JobFailed:
                worker.stop()
                raise
            with self.lock:
                if self.closed:
                    worker.stop()
                    return
                self.idle.append(worker)

    def _take(self, key: str | None) -> _Worker:
        with self.lock:
            if self.closed:
                raise JobFailed("the server is stopping", "crashed")
            preferred = self.last.get(key) if key is not None else None
            if preferred in self.idle:
                self.idle.remove(preferred)
                self.busy.add(preferred)
                return preferred
            while self.idle:
                worker = self.idle.pop()
                if worker.alive():
                    self.busy.add(worker)
                    return worker
        worker = _Worker(self.context, self.factory, self.plugins, self.warm_search)
        with self.lock:
            self.busy.add(worker)
        return worker

    def pids(self) -> list[int]:
        """The worker processes (their ids), idle or busy."""
        with self.lock:
            return [w.process.pid for w in [*self.idle, *self.busy] if w.process.pid]

    def close(self) -> None:
        """Stop every worker, those computing now too (their callers get ``JobFailed``,
        and close the pipe themselves: it is theirs while they read it)."""
        with self.lock:
            self.closed = True
            idle, busy = list(self.idle), list(self.busy)
            self.idle.clear()
        for worker in idle:
            worker.stop()
        for worker in busy:
            worker.kill()


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, context: Any, factory: str, plugins: tuple[str, ...],
                 warm: bool = False) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, factory, plugins, warm),
                                       name="quarkade-worker", daemon=False)
        self.process.start()
        child.close()
        self.lock = threading.Lock()  # one job at a time
        self.stopping = threading.Lock()
        self.stopped = False
        self.ready = False

    def alive(self) -> bool:
        return self.process.is_alive()

    def wait_ready(self) -> None:
        """Wait for the worker's ``("ready",)`` (once; ``JobFailed`` if it does not come
        within ``STARTUP_SECONDS`` or the process stops)."""
        if self.ready:
            return
        try:
            if not self.connection.poll(STARTUP_SECONDS):
                raise JobFailed(f"its worker process was not ready within {STARTUP_SECONDS:g} s",
                                "crashed", "stopped its worker process")
            message = self.connection.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise JobFailed("its worker process stopped", "crashed",
                            "stopped its worker process") from None
        if message[0] != "ready":  # pragma: no cover (the worker's first word is ready)
            raise JobFailed(f"its worker process said {message[0]!r} first", "crashed",
                            "stopped its worker process")
        self.ready = True

    def ask(self, job: Job, deadline: float, progress: Progress | None) -> Any:
        """Send ``job`` and wait for its answer: ``deadline`` seconds in all, of which the
        thinking gets at most ``job.think_limit()`` (and a margin for the pipe)."""
        thinking = False
        with self.lock:
            self.wait_ready()  # a new worker's start is not the job's time
            start = time.monotonic()
            end = start + deadline
            try:
                self.connection.send(job)
                while True:
                    left = end - time.monotonic()
                    if not self.connection.poll(max(0.0, left)):
                        allowed = job.think_limit() if thinking else None
                        raise job.overran(allowed if allowed is not None else deadline,
                                          thinking)
                    message = self.connection.recv()
                    if message[0] == "thinking":
                        thinking = True
                        limit = job.think_limit()
                        if limit is not None:
                            end = min(end, time.monotonic() + limit + PIPE_MARGIN)
                    elif message[0] == "progress":
                        if progress is not None:
                            progress(message[1], message[2])
                    elif message[0] == "done":
                        return message[1]
                    else:
                        _, reason, kind, what, detail = message
                        raise JobFailed(reason, kind, what, detail)
            except (EOFError, OSError, BrokenPipeError):
                raise JobFailed("its worker process stopped", "crashed",
                                "stopped its worker process") from None

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()

    def stop(self) -> None:
        """Kill the worker and close its pipe (once, whoever asks first)."""
        with self.stopping:
            if self.stopped:
                return
            self.stopped = True
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


def _warm_compiled() -> None:
    """Load the compiled search from the disk cache where ``quarkade compile`` put it
    (``agents.warming``; nothing is compiled here: that takes minutes)."""
    from quarkade.agents import warming

    try:
        warming.load_if_ready()
    except Exception:  # a worker that could not load it loads it at its first search
        log.warning("a worker could not load the compiled search ahead", exc_info=True)


def _serve(connection: Connection, factory_path: str, plugins: tuple[str, ...],
           warm: bool = False) -> None:
    """A worker's life: read a job, run it, answer ``("done", answer)`` or ``("error",
    reason, kind, what, detail)``; say ``("thinking",)`` or ``("progress", done, total)``
    on the way when the job does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    module, _, name = factory_path.partition(":")
    factory: Callable[..., Any] = getattr(importlib.import_module(module), name)
    from quarkade.agents import plugins as plugin_bots

    if plugins:  # the allowed plug-ins' imports, before any deadline
        plugin_bots.installed(plugins)
    if warm:
        _warm_compiled()
    worker = WorkerState(factory, plugins)
    try:
        connection.send(("ready",))
    except (OSError, BrokenPipeError):
        return
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return  # the server went away
        try:
            answer: tuple[Any, ...] = ("done", job.run(worker, lambda *said:
                                                       connection.send(said)))
        except JobFailed as failed:
            answer = ("error", str(failed)[:300], failed.kind, failed.what,
                      failed.detail[:300])
        except BaseException as problem:  # a job may raise anything; the worker lives on
            answer = ("error", f"it raised {type(problem).__name__}: {problem}"[:300],
                      "raised", f"raised {type(problem).__name__}", "")
        try:
            connection.send(answer)
        except (OSError, BrokenPipeError):
            return
