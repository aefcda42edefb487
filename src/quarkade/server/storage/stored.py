"""What the queries return and raise: plain frozen rows, and the storage errors.

Every query class of ``storage`` returns these, never SQLAlchemy rows, so nothing above
storage depends on the database's types.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import String, Table

from quarkade.core.records import Fault


class StepTaken(Exception):
    """Another move was stored at that step first (here or in another process)."""


class Unavailable(Exception):
    """The database did not answer in time (down, restarting, locked); nothing changed."""


class ValueTooLong(ValueError):
    """A value longer than its column allows (checked before the database sees it)."""


class GameDecided(Exception):
    """The server decided the game meanwhile (a resignation, a flag that fell, an abort):
    nothing was stored."""


@dataclass(frozen=True)
class StoredSeat:
    """A seat as stored. Its secrets are kept as digests (``keys.digest``): ``token`` (the
    secret its devices hold) and ``invite`` (a friend seat's invite code until spent)."""

    seat: int
    kind: str
    agent: str | None
    name: str
    token: str | None
    joined: bool
    invite: str | None = None
    invite_expires: float | None = None
    player_id: str | None = None  # who sat here (issue 15)
    remaining: float | None = None  # a real-time clock's seconds left at its turn's start
    replaced: str | None = None  # why a bot took the seat over (resigned, out of time, ...)
    fault: Fault | None = None  # a plug-in bot stopped at this seat (it plays random)


@dataclass(frozen=True)
class GameTimes:
    """What the server decides about a game beside its moves: when it started, its clock,
    and an ending it ruled (resignation, time, abort); ``None`` fields are not set."""

    time_control: str = "none"
    started: float | None = None
    finished: float | None = None
    turn_started: float | None = None
    deadline: float | None = None
    ending: dict[str, Any] | None = None
    rated: bool = False
    rating_state: str = "none"
    host_player: str | None = None


@dataclass(frozen=True)
class StoredChat:
    """One chat message: its place in the game's chat, who sent it and when."""

    number: int
    seat: int
    name: str
    body: str
    sent: float


@dataclass(frozen=True)
class StoredRematch:
    """The rematch offered after a game, as that game reads it: the new game's id, its
    seats whose players accepted, the seats people play, whether it began, and how the
    offer ended if it never began (``declined`` or ``expired``; None: still offered)."""

    id: str
    accepted: tuple[int, ...]
    people: tuple[int, ...]
    started: bool
    ended: str | None = None
    by: int | None = None  # the rematch seat whose player declined or left


@dataclass(frozen=True)
class StoredGame:
    """A game as stored. ``host_token`` is the digest of the host's secret; ``keys`` the
    digests of the secrets given to more devices (``(seat, digest)``; seat -1: the host);
    ``chat`` the newest messages (``chat_count`` in all); ``owner`` whose CPU work its
    bots are (the scheduler's client)."""

    id: str
    game: str
    options: dict[str, Any]
    host_token: str
    created: str
    seats: list[StoredSeat]
    actions: list[int]
    returns: list[float] | None
    rematch: str | None
    visibility: str = "unlisted"
    reveal: bool = False
    chat: list[StoredChat] = field(default_factory=list)
    times: GameTimes = GameTimes()
    keys: tuple[tuple[int, str], ...] = ()
    chat_count: int = -1  # -1: as many as ``chat`` holds
    owner: str | None = None
    offer: StoredRematch | None = None  # the rematch, as this game reads it


@dataclass(frozen=True)
class StoredDeck:
    id: str
    name: str
    deck: str
    updated: float


@dataclass(frozen=True)
class StoredDeckTest:
    id: str
    owner: str
    game: str
    deck: str
    games: int
    results: dict[str, list[int]]
    state: str
    updated: float


def check_lengths(table: Table, row: dict[str, Any]) -> None:
    """``ValueTooLong`` for a string longer than its column (PostgreSQL would refuse it,
    SQLite would keep it), before the database sees the value."""
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(column.type, String) and column.type.length and isinstance(value, str) \
                and len(value) > column.type.length:
            raise ValueTooLong(f"{column.name} is at most {column.type.length} characters")


def seat_row(game_id: str, s: StoredSeat) -> dict[str, Any]:
    return {"game_id": game_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
            "name": s.name, "token": s.token, "joined": s.joined, "invite": s.invite,
            "invite_expires": s.invite_expires, "player_id": s.player_id,
            "remaining": s.remaining, "replaced": s.replaced,
            "fault": None if s.fault is None else public_fault(s.fault)}


def public_fault(fault: Fault) -> str:
    """A fault as a seat row keeps it: what anyone may read, never its detail."""
    return json.dumps({"agent": fault.agent, "move": fault.move, "kind": fault.kind,
                       "message": fault.message})


def stored_seat(s: Any) -> StoredSeat:
    fault = None if s.fault is None else Fault(s.seat, **json.loads(s.fault))
    return StoredSeat(s.seat, s.kind, s.agent, s.name, s.token, bool(s.joined), s.invite,
                      s.invite_expires, s.player_id, s.remaining, s.replaced, fault)


def stored_rematch(row: Any, seats: Sequence[Any]) -> StoredRematch:
    """A rematch game's row and seats, as the game before it reads them."""
    ending = None if row.ending is None else json.loads(row.ending)
    return StoredRematch(row.id, tuple(s.seat for s in seats if s.joined),
                         tuple(s.seat for s in seats if s.kind != "bot"),
                         row.started is not None,
                         None if ending is None or row.started is not None
                         else ending.get("ending"),
                         None if ending is None else ending.get("seat"))


def stored_game(row: Any, seats: Sequence[Any], actions: list[int],
                chat: list[StoredChat] | None = None, chat_count: int = -1,
                keys: Sequence[Any] = (), offer: StoredRematch | None = None) -> StoredGame:
    times = GameTimes(row.time_control, row.started, row.finished, row.turn_started,
                      row.deadline, None if row.ending is None else json.loads(row.ending),
                      bool(row.rated), row.rating_state, row.host_player)
    return StoredGame(
        id=row.id, game=row.game, options=json.loads(row.options),
        host_token=row.host_token, created=row.created,
        seats=[stored_seat(s) for s in seats], actions=actions,
        returns=None if row.returns is None else json.loads(row.returns),
        rematch=row.rematch, visibility=row.visibility, reveal=bool(row.reveal),
        chat=chat or [], times=times, keys=tuple((k.seat, k.digest) for k in keys),
        chat_count=chat_count, owner=row.owner, offer=offer)
