"""Which games have a deck builder, and which of their options take a seat's deck: the
games whose package has a ``decks`` module with ``builder()`` (Decoherence)."""

from __future__ import annotations

from functools import cache
from typing import Any

from quarkade.core.registry import game_class, game_part, list_games


@cache
def deck_games() -> tuple[str, ...]:
    """The games with a deck builder: their package has a ``decks`` module with
    ``builder()`` (Decoherence)."""
    found = []
    for name in list_games():
        try:
            part = game_part(name, "decks")
        except ModuleNotFoundError:
            continue
        if hasattr(part, "builder"):
            found.append(name)
    return tuple(found)


def deck_rules(game: str) -> Any:
    """The game's ``decks`` module (its deck text, presets, builder and test bot)."""
    return game_part(game, "decks")


def deck_options(game: str) -> tuple[str, ...]:
    """The options of ``game`` that take a seat's deck (a saved deck may fill them)."""
    if game not in deck_games():
        return ()
    pattern = deck_rules(game).DECK_OPTION
    return tuple(pattern.format(seat=seat) for seat in range(game_class(game).max_players))
