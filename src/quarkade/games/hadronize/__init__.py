"""Hadronize (seed 003): see ``rules`` for the engine, ``text`` for the terminal render."""

from quarkade.games.hadronize.rules import HadronizeGame, HadronizeState

GAME = HadronizeGame

__all__ = ["GAME", "HadronizeGame", "HadronizeState"]
