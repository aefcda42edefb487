"""How a game ended, in the one form every page, list and record shows: the rules'
outcome, or the server's ruling (docs/RULINGS.md, S-1 to S-4) in its place."""

from __future__ import annotations

from typing import Any

from quarkade.core.protocol import State, shared_returns

RESIGNED, OUT_OF_TIME, ABANDONED, ABORTED = "resigned", "out of time", "abandoned", "aborted"


def outcome_of(state: State) -> dict[str, Any] | None:
    """The rules' outcome of ``state`` as JSON (None: not over)."""
    outcome = state.outcome()
    return None if outcome is None else outcome.as_json()


def returns_of(ending: dict[str, Any], players: int) -> list[float] | None:
    """The returns of a game the server decided (none for an abort)."""
    if ending.get("result") == ABORTED:
        return None
    return shared_returns(ending.get("winners", []), players)
