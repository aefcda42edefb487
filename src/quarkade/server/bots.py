"""Bots on the server: the specs a web client may ask for, and bot moves computed in a
small pool of worker processes, each move under a hard deadline.

A spec from the web is checked against per-parameter bounds (finite numbers, a cap on
search time and iterations, known parameters only) before any game is made. A move is
computed in a worker process from the game's options and history (the worker replays it
and hands the agent the turn, so the agent sees only its seat's view): if the worker does
not answer by the deadline it is killed and replaced, and a failing or nonsensical bot is
answered with ``BotFailed``; the caller then plays a simple legal move and says so in the
log. A runaway bot can therefore never hold a game, another game's bot, or shutdown.

Plug-in bots (``quarkade.agents.plugins``) play only if the operator allows them by name
(``plugins``, from ``quarkade serve --allow-bots``): the catalogue, the spec check and the
worker processes see those and no other, and no other is even imported. A plug-in's spec
may set the parameters its own constructor takes (finite numbers or short words; the
deadline bounds what they cost), and its code runs only in the workers: each of its moves
has ``move_time`` seconds of thinking (``BotJob.move_time``), cut off hard, and
``BotFailed`` says what went wrong in the words of ``quarkade.agents.contained`` (raised,
illegal, time, or crashed), so the caller can stop the bot and flag the game.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import logging
import math
import multiprocessing
import random
import re
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from quarkade.agents.learned import named_checkpoints
from quarkade.agents.registry import (
    LEVEL_NAMES,
    agent_factory,
    builtin_agents,
    is_plugin,
    make_agent,
    parse_spec,
)
from quarkade.core.errors import QuarkadeError
from quarkade.server.errors import ApiError

log = logging.getLogger("quarkade.server")

MAX_SPEC = 100  # characters
# The parameters a spec from the web may set, and their bounds (inclusive).
NUMBER_BOUNDS: dict[str, tuple[float, float]] = {
    "iterations": (0, 20_000), "time": (0, 5.0), "c": (0, 10.0), "rollout_depth": (0, 1000),
    "endgame": (0, 1), "candidates": (0, 1), "reply": (0, 1), "cells": (0, 9),
    "nodes": (1, 200_000),
    "depth": (1, 3),
    "simulations": (0, 256),  # learned (issue 30)
}
TEXT_CHOICES: dict[str, tuple[str, ...]] = {
    "rollout": ("random", "greedy"),
    # learned:name=NAME plays a checkpoint the operator named (QUARKADE_LEARNED, read when
    # the server starts); a client never names a file: learned takes no path= here.
    "name": tuple(named_checkpoints()),
    "models": ("greedy", "bayes", "random", "greedy+bayes", "greedy+random", "bayes+random",
               "greedy+bayes+random"),
}
DEFAULT_FACTORY = "quarkade.server.bots:server_agent"
PLUGIN_WORD = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")
# How late past a plug-in's move time its answer may come through the pipe and still be
# read (the worker measures the thinking itself: an answer over the move time is refused).
PIPE_MARGIN = 0.5


def check_spec(game: str, spec: str, plugins: Collection[str] = ()) -> str:
    """``spec`` (as typed after ``bot:``) if the web may ask for it, else ``ApiError(400)``;
    ``plugins`` names the plug-in bots this server allows."""
    spec = spec.strip()
    if len(spec) > MAX_SPEC:
        raise ApiError(400, f"a bot spec is at most {MAX_SPEC} characters")
    try:
        name, params = parse_spec(spec)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    if is_plugin(spec, game):
        return _check_plugin_spec(game, spec, name, params, plugins)
    allowed = _parameters(game, name)
    for key, value in params.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ApiError(400, f"bot {name!r} takes no parameter {key!r} here; "
                           f"parameters: {names}")
        if key in NUMBER_BOUNDS:
            low, high = NUMBER_BOUNDS[key]
            number = _finite(value)
            if number is None or not low <= number <= high:
                raise ApiError(400, f"bot {name!r}: {key}={value!r} should be a number from "
                               f"{low:g} to {high:g} on this server")
        elif value not in TEXT_CHOICES[key]:
            raise ApiError(400, f"bot {name!r}: {key}={value!r}; choose one of "
                           f"{', '.join(TEXT_CHOICES[key])}")
    try:
        make_agent(spec, game, plugins=plugins)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    return spec


def _check_plugin_spec(game: str, spec: str, name: str, params: dict[str, str],
                       plugins: Collection[str]) -> str:
    """A plug-in's spec: allowed here, for this game, with parameters its constructor takes
    (checked without running any of its code: that runs only in the workers)."""
    try:
        agent_factory(spec, game, plugins)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    for key, value in params.items():
        if _finite(value) is None and (not PLUGIN_WORD.match(value) or
                                       value.lower() in ("nan", "inf", "infinity")):
            raise ApiError(400, f"bot {name!r}: {key}={value!r}; a plug-in's parameter is "
                           "a finite number or a word (letters, digits, - and _)")
    return spec


def _finite(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _parameters(game: str, name: str) -> list[str]:
    """The bounded parameters built-in agent ``name`` takes (an unknown name is left to
    make_agent)."""
    factory = builtin_agents(game).get(name)
    if factory is None or name in LEVEL_NAMES:
        return []
    accepted = inspect.signature(factory).parameters
    return [key for key in accepted if key in NUMBER_BOUNDS or key in TEXT_CHOICES]


def server_agent(spec: str, game: str, plugins: Collection[str] = ()) -> Any:
    """The default ``agent_factory`` of the workers: the agent for ``spec``, a plug-in bare
    (the worker's deadline contains it)."""
    return make_agent(spec, game, plugins=plugins, contained=False)


@dataclass(frozen=True)
class BotJob:
    """What a worker needs to compute one move: no state object, only replayable data.

    ``move_time`` (a plug-in's) is how long the agent may think, apart from the replay."""

    key: str  # the game and seat, so a worker can keep the agent between moves
    game: str
    options: dict[str, Any]
    history: list[int]
    spec: str
    move_time: float | None = None


class BotFailed(Exception):
    """The bot gave no usable move: the reason (for the log), and for a plug-in's fault
    its ``kind`` (raised, illegal, time, crashed), ``what`` happened (a sentence naming no
    value the bot produced) and the ``detail`` (for the operator only)."""

    def __init__(self, reason: str, kind: str = "raised", what: str = "",
                 detail: str = "") -> None:
        super().__init__(reason)
        self.kind = kind
        self.what = what or reason
        self.detail = detail


class BotPool:
    """``workers`` processes computing bot moves; ``choose`` waits at most ``deadline``."""

    def __init__(self, workers: int = 2, deadline: float = 15.0,
                 factory: str = DEFAULT_FACTORY, plugins: Collection[str] = ()) -> None:
        self.deadline = deadline
        self.factory = factory
        self.plugins = tuple(plugins)  # the allowed plug-ins, for the workers
        self.context = multiprocessing.get_context("spawn")
        self.slots = asyncio.Semaphore(workers)
        self.idle: list[_Worker] = []
        self.busy: set[_Worker] = set()
        self.last: dict[str, _Worker] = {}  # key -> the worker that last moved it
        self.threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="quarkade-bot")
        self.closed = False

    async def choose(self, job: BotJob) -> int:
        """The bot's action id; ``BotFailed`` (with the reason) when it has none in time."""
        async with self.slots:
            if self.closed:
                raise BotFailed("the server is stopping")
            worker = self._take(job.key)
            self.busy.add(worker)
            loop = asyncio.get_running_loop()
            try:
                answer = await loop.run_in_executor(self.threads, worker.ask, job,
                                                    self.deadline)
            except BotFailed:
                worker.stop()
                raise
            finally:
                self.busy.discard(worker)
            if worker.alive():
                self.idle.append(worker)
                self.last[job.key] = worker
                if len(self.last) > 1000:
                    self.last.pop(next(iter(self.last)))
            return answer

    def _take(self, key: str) -> _Worker:
        preferred = self.last.get(key)
        if preferred in self.idle:
            self.idle.remove(preferred)
            return preferred
        while self.idle:
            worker = self.idle.pop()
            if worker.alive():
                return worker
        return _Worker(self.context, self.factory, self.plugins)

    def close(self) -> None:
        self.closed = True
        for worker in [*self.idle, *self.busy]:
            worker.stop()
        self.idle.clear()
        self.threads.shutdown(wait=True, cancel_futures=True)


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, context: Any, factory: str, plugins: tuple[str, ...]) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, factory, plugins),
                                       name="quarkade-bot", daemon=False)
        self.process.start()
        child.close()
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.process.is_alive()

    def ask(self, job: BotJob, deadline: float) -> int:
        """The worker's move for ``job``: it says when the agent starts thinking (after the
        replay, and a new worker's start), and the whole move gets ``deadline`` seconds, of
        which the thinking gets at most ``job.move_time`` (and a margin for the pipe)."""
        start = time.monotonic()
        with self.lock:
            try:
                self.connection.send(job)
                if not self.connection.poll(deadline):
                    raise BotFailed(f"no move within its {deadline:g} s deadline", "time",
                                    f"did not start its move within the server's {deadline:g}"
                                    " s (stopped)")
                message = self.connection.recv()
                if message[0] == "thinking":
                    left = max(0.0, deadline - (time.monotonic() - start))
                    limit = left if job.move_time is None else \
                        min(left, job.move_time + PIPE_MARGIN)
                    if not self.connection.poll(limit):
                        allowed = deadline if job.move_time is None else job.move_time
                        raise BotFailed(f"no move within its {allowed:g} s deadline", "time",
                                        f"gave no answer within its {allowed:g} s per move "
                                        "(stopped)")
                    message = self.connection.recv()
            except (EOFError, OSError, BrokenPipeError):
                raise BotFailed("its worker process stopped", "crashed",
                                "stopped its worker process") from None
        if message[0] != "move":
            _, reason, kind, what, detail = message
            raise BotFailed(reason, kind, what, detail)
        return int(message[1])

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


def _serve(connection: Connection, factory_path: str, plugins: tuple[str, ...]) -> None:
    """A worker's life: read a job, say ``("thinking",)`` when the agent starts, answer
    ``("move", id)`` or ``("error", reason, kind, what, detail)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    module, _, name = factory_path.partition(":")
    factory: Callable[..., Any] = getattr(importlib.import_module(module), name)
    from quarkade.agents import plugins as plugin_bots
    from quarkade.agents.contained import Move
    from quarkade.core.agent import turn_for
    from quarkade.core.registry import load_game

    if plugins:  # the allowed plug-ins' imports, before any deadline
        plugin_bots.installed(plugins)
    agents: OrderedDict[tuple[str, str], Any] = OrderedDict()
    while True:
        try:
            job: BotJob = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return  # the server went away
        move = Move()
        try:
            state = load_game(job.game, **job.options).new_initial_state()
            for action in job.history:
                state.apply_action(action)
            agent = agents.pop((job.key, job.spec), None) or factory(job.spec, job.game,
                                                                     plugins)
            agents[(job.key, job.spec)] = agent
            if len(agents) > 64:
                agents.popitem(last=False)
            legal = state.legal_actions()
            turn = turn_for(state)
            rng = random.Random(random.SystemRandom().getrandbits(64))
            connection.send(("thinking",))
            started = time.perf_counter()
            move.action = agent.act(turn, rng)
            move.seconds = time.perf_counter() - started
        except BaseException as problem:  # a bot may raise anything; the worker lives on
            move.error = problem
            legal = []
        move.finished = True
        answer = _answer(move, legal, job.move_time)
        try:
            connection.send(answer)
        except (OSError, BrokenPipeError):
            return


def _answer(move: Any, legal: list[int], move_time: float | None) -> tuple[Any, ...]:
    problem = move.problem(legal, math.inf if move_time is None else move_time)
    if problem is None:
        return ("move", move.action)
    kind, what, detail = problem
    if move.error is not None:
        reason = f"it raised {type(move.error).__name__}: {move.error}"
    elif kind == "illegal":
        reason = f"it chose {move.action!r}, which is not a legal action"
    else:
        reason = f"it {what}"
    return ("error", reason[:300], kind, what, detail[:300])
