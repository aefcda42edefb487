"""The worker pool's new processes: each loads the compiled search before its first job, so
a process's first hint pays only its own search (it paid about a second of CPU more,
many seconds on a busy machine: the Dead Cat hint panel test timed out on it), and a job's
deadline starts only once its worker is ready."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from quarkade.server.work.pool import JobFailed, WorkerPool, WorkerState

pytest.importorskip("numba")  # the compiled search is the quarkade[fast] extra's


@dataclass(frozen=True)
class LoadedSearch:
    """Answers how many compiled forms the search has in this worker, touching nothing."""

    key: str | None = None

    def run(self, worker: WorkerState, say: Callable[..., None]) -> int:
        from quarkade.agents import compiled_search

        return len(compiled_search.search.signatures)

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"no answer within {seconds:g} s", "time")


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    from quarkade.agents import compiled_search, warming

    compiled_search.warm_up()  # on disk and marked, as ``quarkade compile`` leaves it
    warming.mark_ready()
    workers = WorkerPool(warm=True)
    yield workers
    workers.close()


def test_a_new_worker_has_the_compiled_search_loaded_before_its_first_job(pool):
    assert pool.run(LoadedSearch(), deadline=60.0) >= 1


def test_a_jobs_deadline_starts_when_its_worker_is_ready_not_while_it_starts(pool):
    other = WorkerPool(warm=True)  # how long a worker takes to start and load, here and now
    began = time.perf_counter()
    try:
        other.warm(1)
        ready = time.perf_counter() - began
    finally:
        other.close()
    # The job itself takes a few milliseconds of a start's second or more of CPU: a
    # quarter of a start is ample for it, and far too short if the start counted.
    assert pool.run(LoadedSearch(), deadline=ready / 4) >= 1
    assert pool.run(LoadedSearch(), deadline=ready / 4) >= 1
    assert len(pool.pids()) == 1  # the same worker, kept


def test_a_worker_made_ahead_is_ready_and_loaded_when_taken(pool):
    pool.warm(1)
    (pid,) = pool.pids()
    assert pool.run(LoadedSearch(), deadline=60.0) >= 1
    assert pool.pids() == [pid]
