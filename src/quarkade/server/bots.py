"""Bots on the server: the specs a web client may ask for, and bot moves computed in a
small pool of worker processes, each move under a hard deadline.

A spec from the web is checked against per-parameter bounds (finite numbers, a cap on
search time and iterations, known parameters only) before any game is made. A move is
computed in a worker process from the game's options and history (the worker replays it
and hands the agent the turn, so the agent sees only its seat's view): if the worker does
not answer by the deadline it is killed and replaced, and a failing or nonsensical bot is
answered with ``None``; the caller then plays a simple legal move and says so in the log.
A runaway bot can therefore never hold a game, another game's bot, or shutdown.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import math
import multiprocessing
import random
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from quarkade.agents.registry import LEVEL_NAMES, parse_spec
from quarkade.core.errors import QuarkadeError
from quarkade.server.errors import ApiError

log = logging.getLogger("quarkade.server")

MAX_SPEC = 100  # characters
# The parameters a spec from the web may set, and their bounds (inclusive).
NUMBER_BOUNDS: dict[str, tuple[float, float]] = {
    "iterations": (0, 20_000), "time": (0, 5.0), "c": (0, 10.0), "rollout_depth": (0, 1000),
    "endgame": (0, 1), "reply": (0, 1), "cells": (0, 9), "nodes": (1, 200_000),
    "depth": (1, 3),
}
TEXT_CHOICES: dict[str, tuple[str, ...]] = {
    "rollout": ("random", "greedy"),
    "models": ("greedy", "bayes", "random", "greedy+bayes", "greedy+random", "bayes+random",
               "greedy+bayes+random"),
}
DEFAULT_FACTORY = "quarkade.agents:make_agent"


def check_spec(game: str, spec: str) -> str:
    """``spec`` (as typed after ``bot:``) if the web may ask for it, else ``ApiError(400)``."""
    spec = spec.strip()
    if len(spec) > MAX_SPEC:
        raise ApiError(400, f"a bot spec is at most {MAX_SPEC} characters")
    try:
        name, params = parse_spec(spec)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    allowed = _parameters(game, name)
    for key, value in params.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ApiError(400, f"bot {name!r} takes no parameter {key!r} here; "
                           f"parameters: {names}")
        if key in NUMBER_BOUNDS:
            low, high = NUMBER_BOUNDS[key]
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number) or not low <= number <= high:
                raise ApiError(400, f"bot {name!r}: {key}={value!r} should be a number from "
                               f"{low:g} to {high:g} on this server")
        elif value not in TEXT_CHOICES[key]:
            raise ApiError(400, f"bot {name!r}: {key}={value!r}; choose one of "
                           f"{', '.join(TEXT_CHOICES[key])}")
    from quarkade.agents import make_agent

    try:
        make_agent(spec, game)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    return spec


def _parameters(game: str, name: str) -> list[str]:
    """The bounded parameters agent ``name`` takes (an unknown name is left to make_agent)."""
    import inspect

    from quarkade.agents.registry import game_agents

    factory = game_agents(game).get(name)
    if factory is None or name in LEVEL_NAMES:
        return []
    accepted = inspect.signature(factory).parameters
    return [key for key in accepted if key in NUMBER_BOUNDS or key in TEXT_CHOICES]


@dataclass(frozen=True)
class BotJob:
    """What a worker needs to compute one move: no state object, only replayable data."""

    key: str  # the game and seat, so a worker can keep the agent between moves
    game: str
    options: dict[str, Any]
    history: list[int]
    spec: str


class BotFailed(Exception):
    """The bot gave no usable move: the reason, for the log."""


class BotPool:
    """``workers`` processes computing bot moves; ``choose`` waits at most ``deadline``."""

    def __init__(self, workers: int = 2, deadline: float = 15.0,
                 factory: str = DEFAULT_FACTORY) -> None:
        self.deadline = deadline
        self.factory = factory
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
        return _Worker(self.context, self.factory)

    def close(self) -> None:
        self.closed = True
        for worker in [*self.idle, *self.busy]:
            worker.stop()
        self.idle.clear()
        self.threads.shutdown(wait=True, cancel_futures=True)


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, context: Any, factory: str) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, factory),
                                       name="quarkade-bot", daemon=False)
        self.process.start()
        child.close()
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.process.is_alive()

    def ask(self, job: BotJob, deadline: float) -> int:
        with self.lock:
            try:
                self.connection.send(job)
                if not self.connection.poll(deadline):
                    raise BotFailed(f"no move within its {deadline:g} s deadline")
                kind, value = self.connection.recv()
            except (EOFError, OSError, BrokenPipeError):
                raise BotFailed("its worker process stopped") from None
        if kind != "move":
            raise BotFailed(value)
        return int(value)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.connection.close()


def _serve(connection: Connection, factory_path: str) -> None:
    """A worker's life: read a job, answer ``("move", id)`` or ``("error", reason)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    module, _, name = factory_path.partition(":")
    factory: Callable[[str, str], Any] = getattr(importlib.import_module(module), name)
    from quarkade.core.agent import turn_for
    from quarkade.core.registry import load_game

    agents: OrderedDict[tuple[str, str], Any] = OrderedDict()
    while True:
        try:
            job: BotJob = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return  # the server went away
        try:
            state = load_game(job.game, **job.options).new_initial_state()
            for action in job.history:
                state.apply_action(action)
            agent = agents.pop((job.key, job.spec), None) or factory(job.spec, job.game)
            agents[(job.key, job.spec)] = agent
            if len(agents) > 64:
                agents.popitem(last=False)
            legal = state.legal_actions()
            rng = random.Random(random.SystemRandom().getrandbits(64))
            action = agent.act(turn_for(state), rng)
            answer = ("move", action) if action in legal else (
                "error", f"it chose {action!r}, which is not a legal action")
        except BaseException as problem:  # a bot may raise anything; the worker lives on
            answer = ("error", f"it raised {type(problem).__name__}: {problem}"[:300])
        try:
            connection.send(answer)
        except (OSError, BrokenPipeError):
            return
