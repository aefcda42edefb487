"""Dead Cat (seed 004): see ``rules`` for the engine, ``text`` for the terminal render."""

from quarkade.games.dead_cat.rules import DeadCatGame, DeadCatState

GAME = DeadCatGame

__all__ = ["GAME", "DeadCatGame", "DeadCatState"]
