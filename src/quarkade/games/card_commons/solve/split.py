"""The Tutorial solve split into tasks: the positions two plies below a root, searched by a
pool of workers (local processes or a Ray cluster), with the ledger kept by the driver.

A root is won when some move of its mover leaves every reply won for the mover again, so
the driver lays out the root's moves (each discard its own move, images once) and each
move's replies, and asks the pool for the value of each such *top-level position*, in the
order the search would try them: every reply of the first move, then of the next, and so
on, with as many positions in flight as the pool has workers. A reply that wins for its
seat refutes its move (the move's other positions are then dropped); a move with every
reply answered wins the root, and the solve stops. Each settled position goes into the
ledger (on disk when it has a file), so a stopped run resumes, and positions the ledger
already holds are not sent again.

A worker keeps one solver per process, so its table serves every task it is given. With
each result it returns the book's entries for the two plies below its position (searched
with that warm table), which the driver keeps in memory for the book.

The pool is anything with ``submit(function, *args) -> handle``, ``wait(handles) ->
(finished, unfinished)``, ``result(handle)`` and ``cancel(handle)``:
``quarkade.sim.backends`` has one of local processes and one of Ray tasks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from quarkade.games.card_commons.solve.tutorial import (
    LOSS,
    WIN,
    Position,
    Result,
    TutorialSolver,
)

BOOK_PLIES = 2  # the book's plies a worker returns below its top-level position


class Pool(Protocol):
    workers: int

    def submit(self, function: Callable[..., Any], *args: Any) -> Any: ...

    def wait(self, handles: list[Any]) -> tuple[list[Any], list[Any]]: ...

    def result(self, handle: Any) -> Any: ...

    def cancel(self, handle: Any) -> None: ...


_solvers: dict[tuple[bool, int], TutorialSolver] = {}


@dataclass
class Searched:
    """What a worker found for one top-level position."""

    value: int  # for the seat to move there
    move: tuple[int, int] | None  # a winning (move, discard) when it wins
    nodes: int
    seconds: float  # the worker's CPU time
    entries: dict[int, int] = field(default_factory=dict)  # book entries below it


def solution(solver: TutorialSolver, roots: list[Position], plies: int,
             budget: int = 0) -> dict[int, int]:
    """Book entries for every position within ``plies`` plies of the roots that best play
    on the winning side can reach (see book.py's docstring); positions the table has
    lost are searched again. ValueError if a search needs more than ``budget`` nodes."""
    positions: dict[int, int] = {}

    def walk(position: Position, depth: int) -> None:
        key = solver.packed(position)
        if key in positions or depth >= plies:
            return
        value, winner = solver.best_move(position, budget=budget)
        if value not in (WIN, LOSS):
            raise ValueError(f"a book position needs more than {budget:,} nodes")
        positions[key] = solver.entry(position, value, winner)
        if winner is not None:
            move, discard = winner
            child = position.after(move, discard)
            for reply, reply_discard in solver.moves(child):
                walk(child.after(reply, reply_discard), depth + 2)
        else:
            for reply, reply_discard in solver.moves(position):
                walk(position.after(reply, reply_discard), depth + 1)

    for root in roots:
        walk(root, 0)
    return positions



def search(torus: bool, table_bits: int, cells: tuple[int, ...], mover: int, other: int,
           plies: int = BOOK_PLIES) -> Searched:
    """A task: the value of one position, its winning move, and the book below it (run in
    a worker; the process keeps its solver, and so its table, for the next task)."""
    key = (torus, table_bits)
    if key not in _solvers:
        _solvers[key] = TutorialSolver(torus=torus, table_bits=table_bits)
    solver = _solvers[key]
    start, before = time.process_time(), int(solver.stats[0])
    value, move = solver.best_move(Position(cells, mover, other))
    entries = solution(solver, [Position(cells, mover, other)], plies) if plies else {}
    return Searched(value, move, int(solver.stats[0]) - before,
                    time.process_time() - start, entries)


@dataclass
class _Move:
    move: tuple[int, int]
    child: Position
    key: int
    replies: list[tuple[tuple[int, int], Position, int]]
    answered: set[int] = field(default_factory=set)  # indices of replies that failed
    refuted_by: tuple[int, int] | None = None


def solve(solver: TutorialSolver, root: Position, pool: Pool,
          progress: Callable[[str], None] | None = None) -> Result:
    """The root's value (and a winning move) with its top-level positions searched by
    ``pool``; ``solver`` lays them out and keeps the ledger. Nodes and seconds are the
    workers' (CPU seconds, summed), the driver's own layout not counted."""
    start = time.perf_counter()
    known = solver.known(root)
    if known is not None and (known[0] == LOSS or known[1] is not None):
        return Result(known[0], 0, 0, 0.0, known[1])
    moves = _lay_out(solver, root)
    for item in moves:
        if not item.replies:  # the opponent has no reply: won at once
            return _won(solver, root, item, 0, start)
    nodes = 0
    running: dict[Any, tuple[int, int]] = {}
    queue = [(i, j) for i, item in enumerate(moves) for j in range(len(item.replies))]
    queue.reverse()
    try:
        while True:
            for item in moves:
                if item.refuted_by is None and len(item.answered) == len(item.replies):
                    return _won(solver, root, item, nodes, start)
            if all(item.refuted_by is not None for item in moves):
                solver.ledger.settle(solver.packed(root), solver.entry(root, LOSS, None),
                                     nodes)
                return Result(LOSS, nodes, 0, time.perf_counter() - start)
            while queue and len(running) < pool.workers:
                i, j = queue.pop()
                item = moves[i]
                if item.refuted_by is not None:
                    continue
                _, after, _ = item.replies[j]
                settled = solver.known(after)
                if settled is not None:
                    _heard(item, j, settled[0])
                    continue
                handle = pool.submit(search, solver.torus, solver.table.bits, after.cells,
                                     after.mover, after.other)
                running[handle] = (i, j)
            if not running:
                if queue:
                    continue
                raise AssertionError("a top-level position was neither searched nor known")
            finished, _ = pool.wait(list(running))
            for handle in finished:
                if handle not in running:  # dropped with its refuted move just now
                    continue
                i, j = running.pop(handle)
                found: Searched = pool.result(handle)
                nodes += found.nodes
                item = moves[i]
                _, after, key = item.replies[j]
                solver.ledger.remember(found.entries)
                solver.ledger.settle(key, solver.entry(after, found.value, found.move),
                                     found.nodes)
                if progress is not None:
                    outcome = "refutes it" if found.value == LOSS else "is answered"
                    progress(f"move {i + 1}/{len(moves)}, reply {j + 1}/{len(item.replies)}"
                             f" {outcome} ({found.nodes:,} nodes, {found.seconds:.1f} s)")
                _heard(item, j, found.value)
                if item.refuted_by is not None:
                    solver.ledger.settle(item.key, solver.entry(item.child, WIN,
                                                                item.refuted_by), 0)
                    for other, (k, _) in list(running.items()):
                        if k == i:
                            pool.cancel(other)
                            del running[other]
    finally:
        for handle in running:
            pool.cancel(handle)


def _lay_out(solver: TutorialSolver, root: Position) -> list[_Move]:
    """The root's moves in the search's order (images once), each with its replies."""
    moves: list[_Move] = []
    seen: set[int] = set()
    for move in solver.ordered_moves(root):
        child = root.after(*move)
        key = solver.packed(child)
        if key in seen:
            continue
        seen.add(key)
        replies = []
        for reply in solver.ordered_moves(child):
            after = child.after(*reply)
            replies.append((reply, after, solver.packed(after)))
        moves.append(_Move(move, child, key, replies))
    return moves


def _heard(item: _Move, index: int, value: int) -> None:
    """A reply's position settled: ``value`` is for the root's mover, to move there."""
    if value == LOSS:
        if item.refuted_by is None:
            item.refuted_by = item.replies[index][0]
    else:
        item.answered.add(index)


def _won(solver: TutorialSolver, root: Position, item: _Move, nodes: int,
         start: float) -> Result:
    solver.ledger.settle(item.key, solver.entry(item.child, LOSS, None), 0)
    solver.ledger.settle(solver.packed(root), solver.entry(root, WIN, item.move), nodes)
    return Result(WIN, nodes, 0, time.perf_counter() - start, item.move)


__all__ = ["BOOK_PLIES", "Pool", "Searched", "search", "solution", "solve"]
