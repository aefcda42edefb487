"""A game's optional analysis hook: what the simulator asks of ``games/<pkg>/analysis.py``.

The module is optional, and so is each of its functions; every one takes the final
state of a finished game and returns plain JSON-ready data:

``key_events(state) -> dict``
    Facts about the game stored in its result line under ``"events"`` (counts, the
    largest swing, how it ended). Free-form; the simulator only stores them.
``game_tags(state) -> dict[str, str | int]``
    Categories of the whole game, such as ``{"players": 3}``. The summary breaks games
    down by each tag: games, draws, the first mover's win rate and the mean length.
``seat_tags(state) -> list[dict[str, str | int | list]]``
    Categories of each seat, such as ``{"deck": "north"}`` or ``{"sentences": ["A", "B"]}``
    (a list tags the seat with each value). The summary gives the win rate of the seats
    holding each value, with its interval.
``running_score(state) -> list[float]``
    Each seat's standing in any state of the game (not only the final one). With it the
    simulator replays each game and counts lead changes and when the winner took the
    lead for good.

A game's ``analysis`` module must not import the simulator (games sit below ``sim``);
it may replay ``state.history()`` on ``state.game.new_initial_state()`` when it needs
what happened along the way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from quarkade.core.protocol import State
from quarkade.core.registry import game_package


@dataclass(frozen=True)
class GameAnalysis:
    """The hook functions a game provides (``None`` for each it leaves out)."""

    key_events: Callable[[State], dict[str, Any]] | None = None
    game_tags: Callable[[State], dict[str, Any]] | None = None
    seat_tags: Callable[[State], list[dict[str, Any]]] | None = None
    running_score: Callable[[State], list[float]] | None = None


@cache
def game_analysis(game: str) -> GameAnalysis:
    """The analysis hook of ``game`` (all ``None`` when it has no ``analysis`` module)."""
    module = _analysis_module(game)
    if module is None:
        return GameAnalysis()
    return GameAnalysis(**{name: getattr(module, name, None)
                           for name in ("key_events", "game_tags", "seat_tags",
                                        "running_score")})


def _analysis_module(game: str) -> ModuleType | None:
    name = f"{game_package(game)}.analysis"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name == name:
            return None
        raise

