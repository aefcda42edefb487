"""Decoherence (seeds 000 and 001): see ``rules`` for the engine, ``text`` for the terminal."""

from quarkade.games.decoherence.rules import DecoherenceGame, DecoherenceState

GAME = DecoherenceGame

__all__ = ["GAME", "DecoherenceGame", "DecoherenceState"]
