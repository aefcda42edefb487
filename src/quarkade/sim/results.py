"""Results files: one JSON line per game, in game-index order (see ``quarkade.sim.play``).

Lines are only ever appended whole, in order, so a file cut short (a stopped run, a full
disk, a killed machine) is still a valid file up to its last whole line, and ``--resume``
continues it from there.
"""

from __future__ import annotations

import json
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
    try:
        data = Path(path).read_bytes()
    except OSError as problem:
        raise QuarkadeError(f"cannot read {path}: {problem.strerror}") from None
    whole = data[: data.rfind(b"\n") + 1]
    results: list[Result] = []
    for number, raw in enumerate(whole.splitlines(), start=1):
        try:
            result = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise QuarkadeError(f"{path}, line {number}: not a result line (JSON)") from None
        if not isinstance(result, dict) or not {"index", "game", "seats", "winners",
                                                "length"} <= result.keys():
            raise QuarkadeError(f"{path}, line {number}: not a quarkade result line "
                                "(needs index, game, seats, winners, length)")
        results.append(result)
    return results, len(whole)


def check_continues(path: str | Path, results: list[Result], plan: Plan) -> None:
    """Refuse to resume ``path`` unless its lines are games ``0..n-1`` of ``plan``."""
    if len(results) > plan.total:
        raise QuarkadeError(f"{path} already holds {len(results)} games, more than this run's "
                            f"{plan.total}; ask for at least that many games")
    for number, result in enumerate(results):
        expected = {"index": number, "game": plan.game, "options": plan.options,
                    "run_seed": plan.seed, "seats": plan.seats(number)}
        for key, value in expected.items():
            if result.get(key) != value:
                raise QuarkadeError(
                    f"{path}, line {number + 1}: {key} is {result.get(key)!r} but this run "
                    f"has {value!r}; --resume needs the same game, options, agents, games per "
                    "matchup and seed (or write to another --out)")
