"""Run a plan: play its games on a back end and append their lines, in index order.

Deterministic whatever the back end or number of workers: game ``i`` depends only on the
plan and ``i`` (see ``quarkade.sim.plan``), and lines are written in index order, so the
results file of a run is the same byte for byte. Chunks that finish early wait in memory
until the chunks before them are written.

Ctrl-C (``KeyboardInterrupt``) stops the workers, keeps every line already written (all
whole) and returns with ``interrupted`` set; ``resume`` continues a results file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from quarkade.core.errors import QuarkadeError
from quarkade.sim.backends import chunk_size, chunks_of, run_chunks
from quarkade.sim.plan import Plan
from quarkade.sim.results import Result, check_continues, read_results


@dataclass
class RunOutcome:
    """Every result of the run (earlier ones from a resumed file included)."""

    results: list[Result]
    resumed: int  # games that were already in the file
    played: int  # games played now
    seconds: float
    interrupted: bool

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
) -> RunOutcome:
    """Play every game of ``plan`` not yet in ``out``.

    ``on_progress(done, total)`` is called once before play (``done``: games already in
    ``out``) and after each write.
    """
    results: list[Result] = []
    if out is not None:
        out = Path(out)
        if out.exists() and out.stat().st_size > 0:
            if not resume:
                raise QuarkadeError(f"{out} already exists; add --resume to continue it, or "
                                    "choose another --out")
            results, whole = read_results(out)
            check_continues(out, results, plan)
            if whole < out.stat().st_size:
                with out.open("r+b") as cut:  # drop a line cut off by an earlier stop
                    cut.truncate(whole)
    resumed = len(results)
    ranges = chunks_of(resumed, plan.total, chunk_size(plan.total - resumed, workers))
    waiting: dict[int, list[str]] = {}
    next_index = resumed
    interrupted = False
    started = time.perf_counter()
    chunks = run_chunks(plan, ranges, workers, backend, address)
    if on_progress is not None:
        on_progress(resumed, plan.total)
    with ExitStack() as stack:
        stack.callback(chunks.close)  # stops the workers, however the loop ends
        sink = None if out is None else stack.enter_context(Path(out).open("a", encoding="utf-8"))
        try:
            for start, lines in chunks:
                waiting[start] = lines
                written = 0
                while next_index in waiting:
                    ready = waiting.pop(next_index)
                    if sink is not None:
                        sink.write("".join(ready))
                    results.extend(json.loads(line) for line in ready)
                    next_index += len(ready)
                    written += len(ready)
                if written:
                    if sink is not None:
                        sink.flush()
                    if on_progress is not None:
                        on_progress(next_index, plan.total)
        except KeyboardInterrupt:
            interrupted = True
    seconds = time.perf_counter() - started
    return RunOutcome(results, resumed, next_index - resumed, seconds, interrupted)
