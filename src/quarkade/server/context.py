"""What every part of the server shares, made once by ``create_app``: the database, the
time, the limits, the broker to the other processes, the workers, the event bus, the
random source of chance, and who this process is.

It is frozen: a part is handed the context, never the hub, so nothing reaches through one
domain into another. (The objects it holds keep their own state: the database its
connections, the bus its listeners.)
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from quarkade.server.broker import Broker
from quarkade.server.clock import Clock
from quarkade.server.events import Bus
from quarkade.server.limits import Limits
from quarkade.server.storage import Store
from quarkade.server.work.scheduler import Scheduler


class Tasks:
    """The background tasks of this process (bot loops, lobby sends, reloads), so that
    stopping the server ends them all; ``stopping`` is set first."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()
        self.stopping = False

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self.running.add(task)
        task.add_done_callback(self.running.discard)
        return task

    async def close(self) -> None:
        self.stopping = True
        for task in list(self.running):
            task.cancel()
        if self.running:
            await asyncio.gather(*self.running, return_exceptions=True)


@dataclass(frozen=True)
class Context:
    store: Store
    clock: Clock
    limits: Limits
    broker: Broker
    work: Scheduler
    events: Bus
    rng: random.Random  # deals and dice (the system's secure source, unless a test seeds it)
    process: str  # this process, in bot claims and broker messages
    allowed_bots: frozenset[str] = frozenset()  # the plug-in bots seats may use
    move_time: float = 5.0  # seconds a plug-in bot may think per move
    bot_delay: float = 0.0  # a pause before each bot move, so people can follow
    tasks: Tasks = field(default_factory=Tasks)
