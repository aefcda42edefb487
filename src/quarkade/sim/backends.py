"""Back ends: where the chunks of a plan are played.

Each back end is a generator of ``Chunk`` s (``quarkade.sim.play``) in whatever order
they finish; the runner puts them back in index order. Closing the generator (as the runner does on
Ctrl-C) stops the work still running.

- ``local`` with one worker plays in this process; with more, a pool of forked processes
  whose workers ignore Ctrl-C, so that only this process decides how to stop.
- ``ray`` sends chunks to a Ray cluster as tasks: to ``address`` (``HOST:PORT``) if
  given, else to the Ray instance this process already started, else to a new local one.
  At most a few chunks per CPU of the cluster are in flight at once.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator, Sequence
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.sim.plan import Plan
from quarkade.sim.play import Chunk, play_chunk

BACKENDS = ("local", "ray")

Chunks = Generator[Chunk, None, None]
# The ranges to play and how: (plan, engine, whether to keep the lines).
Job = tuple[Plan, str, bool]


def chunks_of(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` cut into ranges of ``size`` games (the last may be shorter)."""
    return [(low, min(low + size, stop)) for low in range(start, stop, size)]


def chunk_size(remaining: int, workers: int, engine: str = "reference") -> int:
    """Chunks small enough to balance the workers and show progress, large enough that
    sending them costs little: about 16 per worker, 1 to 100 games each (a compiled
    engine's chunks: about 8 per worker, up to 50,000 games, some 50 ms of play)."""
    if engine == "compiled":
        return max(1, min(50_000, remaining // max(1, workers * 8)))
    return max(1, min(100, remaining // max(1, workers * 16)))


def run_local(job: Job, ranges: Sequence[tuple[int, int]], workers: int) -> Chunks:
    plan, engine, lines = job
    if workers <= 1 or len(ranges) <= 1:
        return (play_chunk(plan, start, stop, engine, lines) for start, stop in ranges)
    # The pool is made now, before the caller starts any thread (a progress display):
    # forked workers then inherit no lock held by another thread. Fork, not spawn, so a
    # worker starts at once, without importing the caller's main module again.
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_ctrl_c)
    return _pooled(pool, job, ranges)


def _pooled(pool: Any, job: Job, ranges: Sequence[tuple[int, int]]) -> Chunks:
    try:
        yield from pool.imap_unordered(_play_range, [(*job, start, stop)
                                                     for start, stop in ranges])
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_range(task: tuple[Plan, str, bool, int, int]) -> Chunk:
    plan, engine, lines, start, stop = task
    return play_chunk(plan, start, stop, engine, lines)


def ray_module() -> Any:
    """The ``ray`` package, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise QuarkadeError("--backend ray needs Ray: pip install 'quarkade[ray]'") from None
    return ray


def run_ray(job: Job, ranges: Sequence[tuple[int, int]], address: str | None) -> Chunks:
    plan, engine, lines = job
    ray = ray_module()
    if address is not None:
        if ray.is_initialized():
            ray.shutdown()
        ray.init(address=address, log_to_driver=False)
    elif not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_chunk)
    limit = max(2, int(ray.cluster_resources().get("CPU", 1)) * 4)
    pending = list(ranges)
    pending.reverse()
    running: list[Any] = []
    try:
        while pending or running:
            while pending and len(running) < limit:
                start, stop = pending.pop()
                running.append(remote.remote(plan, start, stop, engine, lines))
            done, running = ray.wait(running, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in running:
            ray.cancel(ref, force=True)


def run_chunks(job: Job, ranges: Sequence[tuple[int, int]], workers: int,
               backend: str = "local", address: str | None = None) -> Chunks:
    """The chunks of ``ranges``, played on ``backend``, in the order they finish."""
    if backend == "local":
        if address is not None:
            raise QuarkadeError("--address goes with --backend ray (the Ray cluster's "
                                "HOST:PORT)")
        return run_local(job, ranges, workers)
    if backend == "ray":
        return run_ray(job, ranges, address)
    raise QuarkadeError(f"--backend {backend!r}: the back ends are {', '.join(BACKENDS)}")


class LocalPool:
    """Worker processes for tasks that must keep state between calls (a solver's table):
    ``workers`` spawned processes, each given one task at a time."""

    def __init__(self, workers: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        self._executor = ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_ignore_ctrl_c)

    def submit(self, function: Any, *args: Any) -> Any:
        return self._executor.submit(function, *args)

    def wait(self, handles: list[Any]) -> tuple[list[Any], list[Any]]:
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as wait_for

        done, pending = wait_for(handles, return_when=FIRST_COMPLETED)
        return list(done), list(pending)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self, handle: Any) -> None:
        handle.cancel()  # a task already running finishes; its answer is not read

    def close(self) -> None:
        """Stop the workers, those still searching too."""
        for process in list(getattr(self._executor, "_processes", {}).values()):
            process.terminate()
        self._executor.shutdown(wait=True, cancel_futures=True)


class RayPool:
    """The same on a Ray cluster: each task a Ray task, as many in flight as the cluster
    has CPUs (``address``: ``HOST:PORT`` of a cluster; else the Ray instance this process
    started, or a new local one)."""

    def __init__(self, address: str | None = None) -> None:
        self._ray = ray = ray_module()
        if address is not None:
            if ray.is_initialized():
                ray.shutdown()
            ray.init(address=address, log_to_driver=False)
        elif not ray.is_initialized():
            ray.init(include_dashboard=False, log_to_driver=False)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: dict[Any, Any] = {}

    def submit(self, function: Any, *args: Any) -> Any:
        if function not in self._remote:
            self._remote[function] = self._ray.remote(num_cpus=1)(function)
        return self._remote[function].remote(*args)

    def wait(self, handles: list[Any]) -> tuple[list[Any], list[Any]]:
        done, pending = self._ray.wait(handles, num_returns=1)
        return list(done), list(pending)

    def result(self, handle: Any) -> Any:
        return self._ray.get(handle)

    def cancel(self, handle: Any) -> None:
        """Drop a task whose answer is no longer wanted; one already running finishes, as
        in :class:`LocalPool`. ``ray.cancel`` is not used: on a running task it raises
        KeyboardInterrupt wherever the task is, and one caught inside numba's loading of its
        compiled code left that worker unable to load any more (every later task there
        failed with StopIteration). Nearly every task in flight is running (no more are
        submitted than the cluster has CPUs), so little would be saved by it anyway."""

    def close(self) -> None:
        """Nothing to stop: the cluster belongs to whoever started it."""
