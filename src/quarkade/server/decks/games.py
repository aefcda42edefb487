"""Which games have a deck builder, and which of their options take a seat's deck: the
games that declare a ``decks`` part (Decoherence)."""

from __future__ import annotations

from functools import cache
from typing import Any

from quarkade.core.registry import game_class, game_parts, list_games


@cache
def deck_games() -> tuple[str, ...]:
    """The games with a deck builder: they declare a ``decks`` part (Decoherence)."""
    return tuple(name for name in list_games() if game_parts(name).decks is not None)


def deck_rules(game: str) -> Any:
    """The game's ``decks`` part (its deck text, presets, builder and test bot)."""
    decks = game_parts(game).decks
    if decks is None:
        raise LookupError(f"{game} has no deck builder")
    return decks


def deck_options(game: str) -> tuple[str, ...]:
    """The options of ``game`` that take a seat's deck (a saved deck may fill them)."""
    decks = game_parts(game).decks
    if decks is None:
        return ()
    return tuple(decks.DECK_OPTION.format(seat=seat)
                 for seat in range(game_class(game).max_players))
