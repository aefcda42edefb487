"""The slots of a Decoherence state that the rules' helpers read and write.

``sentences.py`` (resolving a sentence) and ``knowledge.py`` (what a seat can work out
about hidden cards, and the worlds drawn from it) work on ``rules.DecoherenceState``, the
one implementation of ``StateSlots``; they name this protocol rather than the class, so
that they need not import ``rules.py``, which imports them. The layouts are described in
``rules.DecoherenceState`` (word counts per seat, chains) and ``table`` (the table).
"""

from __future__ import annotations

from typing import Protocol


class DecklistOptions(Protocol):
    """The one option of the game the helpers read."""

    @property
    def open_decklists(self) -> bool:
        """Whether every seat's decklist is public (D-21)."""


class StateSlots(Protocol):
    """What ``sentences`` and ``knowledge`` use of a state (see the module docstring)."""

    @property
    def game(self) -> DecklistOptions:
        """The game, for its options."""

    _active: int
    _chains: list[int]
    _decklists: list[int]
    _decks: list[int]
    _discards: list[int]
    _events: list
    _facts: list | None
    _flows: list[tuple[int, ...]]
    _hands: list[int]
    _id_words: list[int]
    _ids: list[int]
    _leak_up: int
    _no_leak: bool
    _pending: tuple[int, int, int, int, int] | None
    _phase: int
    _proofs: tuple
    _table: list[int]
    _targets: tuple[int, ...]
    _verve: list[int]

    def _hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds."""

    def _check_verve(self) -> bool:
        """End the game if a seat's verve is gone (D-26); True if it ended."""
