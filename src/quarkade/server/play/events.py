"""What a game session emits (``session.GameSession``), for whoever listens (the hub
wires them): each event names the session it comes from.

The events are generic in the session's type, so this module needs nothing of the
session's: listeners read ``Moved[GameSession]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from quarkade.server.messages import ClockStamp
from quarkade.server.storage import StoredChat

S = TypeVar("S")


@dataclass(frozen=True)
class Moved(Generic[S]):
    """This process stored moves (``(player, action)`` from step ``first`` on, chance
    included) with the ``clock`` stored beside them."""

    session: S
    first: int
    moves: tuple[tuple[int, int], ...]
    clock: ClockStamp


@dataclass(frozen=True)
class Changed(Generic[S]):
    """What the game's pages show changed (a move here or heard, a reload, a ruling)."""

    session: S


@dataclass(frozen=True)
class Updated(Generic[S]):
    """This process stored a change other than moves or chat (a join, an invite, a
    rematch, a stopped bot, a game unrated): the other processes reload the game."""

    session: S


@dataclass(frozen=True)
class Ruled(Generic[S]):
    """The server decided something (a resignation, a flag, an abort, a seat abandoned)."""

    session: S


@dataclass(frozen=True)
class Chatted(Generic[S]):
    """New chat messages came in; ``number`` is set when this process stored one."""

    session: S
    messages: tuple[StoredChat, ...]
    number: int | None = None


@dataclass(frozen=True)
class Listed(Generic[S]):
    """A public game was made, filled, begun or ended: the lobby's lists changed."""

    session: S


@dataclass(frozen=True)
class Finished(Generic[S]):
    """The game is over and rated, its ratings not yet applied."""

    session: S


@dataclass(frozen=True)
class Overdue(Generic[S]):
    """A move found the mover's deadline passed: the deadlines should be looked at now."""

    session: S


@dataclass(frozen=True)
class Lost(Generic[S]):
    """The stored game does not replay on this copy (never with one history): this copy
    must leave memory, and the next request loads the game afresh."""

    session: S
