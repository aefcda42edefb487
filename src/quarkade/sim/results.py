"""Results files: one JSON line per game, in game-index order (see ``quarkade.sim.play``).

Lines are only ever appended whole, in order, so a file cut short (a stopped run, a full
disk, a killed machine) is still a valid file up to its last whole line, and ``--resume``
continues it from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.sim.plan import Plan

Result = dict[str, Any]


def read_results(path: str | Path) -> tuple[list[Result], int]:
    """The results in ``path`` and the byte length of its whole lines.

    A last line without its newline (a write that was cut off) is left out; any other bad
    line is an error naming it.
    """
    results = list(iter_results(path))
    return results, whole_length(path)


def iter_results(path: str | Path) -> Iterator[Result]:
    """The results in ``path``, one at a time (a file of millions of games never sits in
    memory whole); as ``read_results``, a cut-off last line is left out."""
    try:
        with Path(path).open("rb") as lines:
            for number, raw in enumerate(lines, start=1):
                if not raw.endswith(b"\n"):
                    return
                yield _result(path, number, raw)
    except OSError as problem:
        raise QuarkadeError(f"cannot read {path}: {problem.strerror}") from None


def whole_length(path: str | Path) -> int:
    """The byte length of the whole lines of ``path``."""
    with Path(path).open("rb") as data:
        size = data.seek(0, 2)
        position = size
        while position > 0:  # back to the last newline, a block at a time
            step = min(65536, position)
            data.seek(position - step)
            block = data.read(step)
            found = block.rfind(b"\n")
            if found >= 0:
                return position - step + found + 1
            position -= step
    return 0


def _result(path: str | Path, number: int, raw: bytes) -> Result:
    try:
        result = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise QuarkadeError(f"{path}, line {number}: not a result line (JSON)") from None
    if not isinstance(result, dict) or not {"index", "game", "seats", "winners",
                                            "length"} <= result.keys():
        raise QuarkadeError(f"{path}, line {number}: not a quarkade result line "
                            "(needs index, game, seats, winners, length)")
    return result


def engine_of(result: Result) -> str:
    """The engine that played a result line (lines without the key are the reference's)."""
    return str(result.get("engine", "reference"))


def check_continues(path: str | Path, results: list[Result], plan: Plan,
                    engine: str = "reference") -> None:
    """Refuse to resume ``path`` unless its lines are games ``0..n-1`` of ``plan``."""
    if len(results) > plan.total:
        raise QuarkadeError(f"{path} already holds {len(results)} games, more than this run's "
                            f"{plan.total}; ask for at least that many games")
    for number, result in enumerate(results):
        check_line(path, number, result, plan, engine)


def check_line(path: str | Path, number: int, result: Result, plan: Plan,
               engine: str = "reference") -> None:
    """Refuse line ``number`` (from 0) of ``path`` unless it is game ``number`` of ``plan``
    played by ``engine``."""
    if engine_of(result) != engine:
        raise QuarkadeError(f"{path}, line {number + 1}: played by the {engine_of(result)} "
                            f"engine; --resume it with --engine {engine_of(result)} (or write "
                            "to another --out)")
    expected = {"index": number, "game": plan.game, "options": plan.options,
                "run_seed": plan.seed, "seats": plan.seats(number)}
    for key, value in expected.items():
        if result.get(key) != value:
            raise QuarkadeError(
                f"{path}, line {number + 1}: {key} is {result.get(key)!r} but this run "
                f"has {value!r}; --resume needs the same game, options, agents, games per "
                "matchup and seed (or write to another --out)")
