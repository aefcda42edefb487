"""Card Commons (seed 002): see ``rules`` for the engine, ``text`` for the terminal render."""

from quarkade.games.card_commons.rules import CardCommonsGame, CardCommonsState

GAME = CardCommonsGame

__all__ = ["GAME", "CardCommonsGame", "CardCommonsState"]
