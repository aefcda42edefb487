"""The CPU work of every client, in worker processes, fair per client.

Bot moves, hints, reviews and deck tests are jobs (``jobs``) run by a ``WorkerPool``; this
scheduler decides which runs when:

- **Per client.** Every job belongs to a client: the player who asked (or whose game's
  bots move), else the address a script asked from. Each client's jobs wait in its own
  queue, in order; a client's jobs queue behind its own, never in front of everyone's.
- **Fair.** ``slots`` jobs run at once, taken round the clients that have jobs waiting,
  the client running the fewest first. ``reserve`` more slots serve only clients running
  nothing, so one client whose jobs fill every slot (six games of its heaviest bots, say)
  never makes another wait for them: the other's job starts at once.
- **Bounded.** A client may have ``per_client`` jobs waiting; past that ``submit`` raises
  ``Busy`` (the routes answer 429), except for work that is bounded already (a game's
  bots: one move at a time per game).
- **Merged.** Jobs with the same ``key`` (a hint for one game, step and seat; a review of
  one game for one viewer) are computed once while one is under way: later askers wait
  for the same answer, and take no place in any queue.
- **Budgeted.** Each job has a deadline in seconds, which the pool enforces by killing its
  worker; the caller gets ``JobFailed``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from quarkade.server.work.pool import Job, JobFailed, Progress, WorkerPool

log = logging.getLogger("quarkade.server")


class Busy(Exception):
    """The client has as many jobs waiting as it may; nothing was queued."""

    def __init__(self, waiting: int) -> None:
        super().__init__(f"{waiting} jobs waiting")
        self.waiting = waiting


@dataclass
class _Entry:
    job: Job
    client: str
    kind: str
    deadline: float
    key: Hashable | None
    progress: Progress | None
    future: asyncio.Future[Any] = field(repr=False)


class Scheduler:
    """Jobs of many clients on ``slots`` (+ ``reserve``) worker processes; see the module."""

    def __init__(self, pool: WorkerPool, slots: int = 2, reserve: int = 1,
                 per_client: int = 8) -> None:
        self.pool = pool
        self.slots = max(1, slots)
        self.reserve = max(0, reserve)
        self.per_client = per_client
        self.queues: dict[str, deque[_Entry]] = {}
        self.rotation: list[str] = []  # clients with jobs waiting, the next first
        self.running: Counter[str] = Counter()
        self.merging: dict[Hashable, asyncio.Future[Any]] = {}
        self.threads = ThreadPoolExecutor(max_workers=self.slots + self.reserve + 1,
                                          thread_name_prefix="quarkade-work")
        self.started: Counter[str] = Counter()  # jobs started, by kind (for the operator)
        # The latest jobs' comings and goings, in order: (what, kind, client), what being
        # "start" or "end" (for the operator, and tests that check the order of things).
        self.record: deque[tuple[str, str, str]] = deque(maxlen=1000)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    async def submit(self, job: Job, client: str, kind: str, deadline: float,
                     key: Hashable | None = None, progress: Progress | None = None,
                     bounded: bool = True) -> Any:
        """The job's answer, computed when its turn comes; ``Busy`` if ``client`` has too
        many jobs waiting (``bounded``); ``JobFailed`` if it fails or overruns."""
        future = self.enqueue(job, client, kind, deadline, key, progress, bounded)
        return await asyncio.shield(future)

    def enqueue(self, job: Job, client: str, kind: str, deadline: float,
                key: Hashable | None = None, progress: Progress | None = None,
                bounded: bool = True) -> asyncio.Future[Any]:
        """Queue the job (``Busy`` at once if ``client`` has too many waiting); the future
        of its answer (one already under way, for a ``key`` being computed)."""
        if self.closed:
            raise JobFailed("the server is stopping", "crashed")
        if key is not None and key in self.merging:
            return self.merging[key]
        waiting = self.queues.get(client)
        if bounded and waiting is not None and len(waiting) >= self.per_client:
            raise Busy(len(waiting))
        loop = asyncio.get_running_loop()
        entry = _Entry(job, client, kind, deadline, key, progress, loop.create_future())
        if key is not None:
            self.merging[key] = entry.future
            entry.future.add_done_callback(lambda _: self.merging.pop(key, None))
        self.queues.setdefault(client, deque()).append(entry)
        if client not in self.rotation:
            self.rotation.append(client)
        self._dispatch()
        return entry.future

    def waiting(self, client: str) -> int:
        return len(self.queues.get(client, ()))

    def busy(self) -> int:
        return sum(self.running.values())

    def _dispatch(self) -> None:
        while not self.closed:
            entry = self._next()
            if entry is None:
                return
            self.running[entry.client] += 1
            self.started[entry.kind] += 1
            self.record.append(("start", entry.kind, entry.client))
            task = asyncio.get_running_loop().create_task(self._run(entry))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            if self.busy() == self.slots and self.reserve:
                # Every fair slot is taken: have the reserve's worker ready for whoever
                # comes next, so its first job does not wait for a process to start.
                warm = asyncio.get_running_loop().run_in_executor(
                    self.threads, self.pool.warm, self.reserve)
                warm.add_done_callback(_quiet)

    def _next(self) -> _Entry | None:
        busy = self.busy()
        if busy >= self.slots + self.reserve:
            return None
        ready = [c for c in self.rotation if self.queues.get(c)]
        if busy >= self.slots:  # the reserve: only for a client running nothing
            ready = [c for c in ready if not self.running[c]]
        if not ready:
            return None
        order = {client: place for place, client in enumerate(self.rotation)}
        client = min(ready, key=lambda c: (self.running[c], order[c]))
        queue = self.queues[client]
        entry = queue.popleft()
        self.rotation.remove(client)
        if queue:
            self.rotation.append(client)
        else:
            del self.queues[client]
        return entry

    async def _run(self, entry: _Entry) -> None:
        loop = asyncio.get_running_loop()
        try:
            answer = await loop.run_in_executor(self.threads, self.pool.run, entry.job,
                                                entry.deadline, entry.progress)
        except BaseException as problem:
            if not entry.future.done():
                entry.future.set_exception(problem)
                entry.future.exception()  # retrieved: the waiters re-raise it themselves
            if isinstance(problem, asyncio.CancelledError):
                raise
        else:
            if not entry.future.done():
                entry.future.set_result(answer)
        finally:
            self.record.append(("end", entry.kind, entry.client))
            self.running[entry.client] -= 1
            if not self.running[entry.client]:
                del self.running[entry.client]
            self._dispatch()

    async def close(self) -> None:
        """Refuse new jobs, fail the waiting ones, stop the workers (so the running ones
        fail at once) and wait for their threads."""
        self.closed = True
        for queue in self.queues.values():
            for entry in queue:
                if not entry.future.done():
                    entry.future.set_exception(JobFailed("the server is stopping",
                                                         "crashed"))
                    entry.future.exception()
        self.queues.clear()
        self.rotation.clear()
        self.pool.close()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        self.threads.shutdown(wait=True, cancel_futures=True)


def _quiet(future: Any) -> None:
    problem = future.exception()
    if problem is not None:
        log.warning("a worker could not be started ahead (%s)", type(problem).__name__)


__all__ = ["Busy", "JobFailed", "Scheduler"]
