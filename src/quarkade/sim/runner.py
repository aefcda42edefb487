"""Run a plan: play its games on a back end, count them and append their lines, in order.

Deterministic whatever the back end or number of workers: game ``i`` depends only on the
plan, the engine and ``i`` (see ``quarkade.sim.plan`` and ``quarkade.sim.engines``), and
lines are written in index order, so the results file of a run is the same byte for
byte. Chunks that finish early wait in memory until the chunks before them are written.

The summary streams: each chunk arrives with its tally (``quarkade.sim.tally``), merged
into the run's as its lines are written. ``keep_results`` (the default, as the Python API
always did) also keeps every result in ``RunOutcome.results``; with ``keep_results=False``
(what ``quarkade simulate``, ``sweep`` and the benchmarks pass) memory stays flat in the
number of games.

Ctrl-C (``KeyboardInterrupt``) stops the workers, keeps every line already written (all
whole) and returns with ``interrupted`` set; ``resume`` continues a results file. Writing
a chunk and counting it happen together (a Ctrl-C that arrives in between waits until
both are done), so the tally always holds exactly the games in the file.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.sim.backends import chunk_size, chunks_of, run_chunks
from quarkade.sim.engines import COMPILED, choose_engine, prepare
from quarkade.sim.plan import Plan
from quarkade.sim.play import Chunk
from quarkade.sim.results import Result, check_line, engine_of, iter_results, whole_length
from quarkade.sim.tally import Tally


@dataclass
class RunOutcome:
    """The run's tally (earlier games from a resumed file included) and how it went."""

    tally: Tally
    resumed: int  # games that were already in the file
    played: int  # games played now
    seconds: float
    interrupted: bool
    engine: str = "reference"
    results: list[Result] = field(default_factory=list)  # with keep_results only

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def run_plan(
    plan: Plan,
    out: str | Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    resume: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
    engine: str = "reference",
    keep_results: bool = True,
) -> RunOutcome:
    """Play every game of ``plan`` not yet in ``out``, on ``engine`` (``reference``,
    ``compiled`` or ``auto``; with ``resume``, ``auto`` takes the file's engine).

    ``on_progress(done, total)`` is called once before play (``done``: games already in
    ``out``) and after each write.
    """
    tally = Tally()
    results: list[Result] = []
    resumed = 0
    if out is not None:
        out = Path(out)
        if out.exists() and out.stat().st_size > 0:
            if not resume:
                raise QuarkadeError(f"{out} already exists; add --resume to continue it, or "
                                    "choose another --out")
            engine = _resumed_engine(out, engine)
            lines = iter_results(out)
            for number, result in enumerate(lines):
                if number >= plan.total:
                    held = number + 1 + sum(1 for _ in lines)
                    raise QuarkadeError(f"{out} already holds {held} games, more than this "
                                        f"run's {plan.total}; ask for at least that many games")
                check_line(out, number, result, plan, engine)
                tally.add(result)
                if keep_results:
                    results.append(result)
                resumed += 1
            whole = whole_length(out)
            if whole < out.stat().st_size:
                with out.open("r+b") as cut:  # drop a line cut off by an earlier stop
                    cut.truncate(whole)
    engine = choose_engine(plan, engine)
    if engine == COMPILED and resumed < plan.total:
        prepare(plan)  # compiled (or loaded) once here, before any worker is forked
    ranges = chunks_of(resumed, plan.total, chunk_size(plan.total - resumed, workers, engine))
    waiting: dict[int, Chunk] = {}
    next_index = resumed
    interrupted = False
    started = time.perf_counter()
    keep_lines = out is not None or keep_results
    chunks = run_chunks((plan, engine, keep_lines), ranges, workers, backend, address)
    if on_progress is not None:
        on_progress(resumed, plan.total)
    with ExitStack() as stack:
        stack.callback(chunks.close)  # stops the workers, however the loop ends
        sink = None if out is None else stack.enter_context(Path(out).open("a", encoding="utf-8"))
        try:
            for chunk in chunks:
                waiting[chunk.start] = chunk
                written = 0
                while next_index in waiting:
                    ready = waiting.pop(next_index)
                    with _ctrl_c_deferred():
                        if sink is not None and ready.lines is not None:
                            sink.write("".join(ready.lines))
                            sink.flush()
                        tally.merge(ready.tally)
                        next_index += ready.count
                    if keep_results and ready.lines is not None:
                        results.extend(json.loads(line) for line in ready.lines)
                    written += ready.count
                if written and on_progress is not None:
                    on_progress(next_index, plan.total)
        except KeyboardInterrupt:
            interrupted = True
    seconds = time.perf_counter() - started
    return RunOutcome(tally, resumed, next_index - resumed, seconds, interrupted, engine,
                      results)


def _resumed_engine(out: Path, engine: str) -> str:
    """The engine that played ``out`` (``auto`` follows the file)."""
    for result in iter_results(out):
        return engine_of(result) if engine == "auto" else engine
    return engine


@contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives inside the block until the block is done (only the main
    thread receives signals; elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda *args: pressed.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt
