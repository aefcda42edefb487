"""The broker's messages, typed: what one server process tells the others, and the one
place their wire format (JSON objects on one Redis channel) is written and read.

A process that stored a change to a game publishes ``Moves`` (the ``(player, action)``
pairs stored from step ``first`` on, chance included, and the clock stored with them:
the others play them on their copies), ``ChatAdded`` (the number of a chat message
stored) or ``Reload`` (anything else: a join, an invite, a rematch, a ruling, a stopped
bot); ``LobbyChanged`` and ``Renamed`` are for every lobby page and every game where a
player sits. ``Resync`` never travels: the broker hands it over after a lost connection.

On the wire, a process's messages go out in batches, each one Redis message: the sending
process's id, a newline, and the JSON list of the messages (``to_wire``). Every process
hears every batch, its own too; it drops its own by that first line, before reading any
JSON (``from_wire``).

A message holds no view, log line, chat text or secret; its action ids are the
database's, chance outcomes (deals) included, so the broker is kept as private as the
database. ``decode`` never raises: a message that is not well formed is ``None`` (not
ours: ignored) or ``Reload`` (a game's message whose moves or clock cannot be read: the
receiver reloads the game from the database, which holds the truth).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_MOVES = 10_000  # moves one message may carry (more: the receiver reloads)
# What a move stores of the clock beside it, as a message carries it: the game's fields
# and each seat's time left. Nothing here is secret.
CLOCK_FIELDS: dict[str, tuple[type, ...]] = {
    "turn_started": (float, type(None)), "deadline": (float, type(None)),
    "finished": (float, type(None)), "rating_state": (str,)}


@dataclass(frozen=True)
class ClockStamp:
    """The clock a move stored: the game's ``CLOCK_FIELDS`` and each seat's time left."""

    game: dict[str, Any] = field(default_factory=dict)
    seats: dict[int, float | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Moves:
    """Moves stored by ``origin``: play them if they follow this copy's step ``first``."""

    game: str
    step: int
    origin: str
    first: int
    moves: tuple[tuple[int, int], ...]
    clock: ClockStamp


@dataclass(frozen=True)
class Reload:
    """Something else about the game changed: read it again from the database."""

    game: str
    step: int
    origin: str


@dataclass(frozen=True)
class ChatAdded:
    """Chat message ``number`` of the game was stored: read the chat from there."""

    game: str
    step: int
    origin: str
    number: int


@dataclass(frozen=True)
class LobbyChanged:
    """A public game was made, filled, begun or ended: every lobby page looks again."""

    origin: str


@dataclass(frozen=True)
class Renamed:
    """A player took a new name: the games where they sit show it."""

    player: str
    origin: str


@dataclass(frozen=True)
class Resync:
    """The broker's connection was lost and is back: messages may have been missed."""


GameMessage = Moves | Reload | ChatAdded
Message = Moves | Reload | ChatAdded | LobbyChanged | Renamed | Resync


def encode(message: Message) -> dict[str, Any]:
    """The message as it travels (a JSON object)."""
    if isinstance(message, LobbyChanged):
        return {"type": "lobby", "origin": message.origin}
    if isinstance(message, Renamed):
        return {"type": "renamed", "player": message.player, "origin": message.origin}
    if isinstance(message, Resync):
        return {"type": "resync"}
    data: dict[str, Any] = {"game": message.game, "step": message.step,
                            "origin": message.origin}
    if isinstance(message, Moves):
        data["from"] = message.first
        data["moves"] = [list(pair) for pair in message.moves]
        data["clock"] = {"game": dict(message.clock.game),
                         "seats": {str(seat): left for seat, left in message.clock.seats.items()}}
    elif isinstance(message, ChatAdded):
        data["chat"] = message.number
    return data


def to_wire(origin: str, batch: Sequence[Message]) -> str:
    """``batch`` (sent by the process ``origin``) as one Redis message (see the module)."""
    return f"{origin}\n{json.dumps([encode(m) for m in batch], separators=(',', ':'))}"


def from_wire(raw: bytes | str, own: str) -> list[Message]:
    """The messages of one Redis message, in order: none if the process ``own`` sent it
    (it knows them) or it is not ours; a message not well formed is left out or a
    ``Reload`` (``decode``)."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    origin, newline, body = text.partition("\n")
    if not newline or origin == own:
        return []
    try:
        data = json.loads(body)
    except ValueError:
        return []
    found = [decode(item) for item in data] if isinstance(data, list) else []
    return [message for message in found if message is not None]


def decode(data: Any) -> Message | None:
    """The message ``data`` holds; None if it is not one of ours (see the module)."""
    if not isinstance(data, dict):
        return None
    kind = data.get("type")
    origin = data.get("origin")
    if kind == "resync":
        return Resync()
    if not isinstance(origin, str):
        return None
    if kind == "lobby":
        return LobbyChanged(origin)
    if kind == "renamed":
        player = data.get("player")
        return Renamed(player, origin) if isinstance(player, str) else None
    game, step = data.get("game"), data.get("step")
    if kind is not None or not isinstance(game, str) or type(step) is not int:
        return None
    if type(data.get("chat")) is int:
        return ChatAdded(game, step, origin, data["chat"])
    moves = _moves(data.get("moves"))
    first = data.get("from")
    clock = _clock(data.get("clock"))
    if moves is None or type(first) is not int or clock is None:
        return Reload(game, step, origin)
    return Moves(game, step, origin, first, moves, clock)


def _moves(raw: Any) -> tuple[tuple[int, int], ...] | None:
    if not isinstance(raw, list) or not raw or len(raw) > MAX_MOVES:
        return None
    pairs = []
    for pair in raw:
        if not (isinstance(pair, list) and len(pair) == 2 and
                all(type(number) is int for number in pair)):
            return None
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _clock(raw: Any) -> ClockStamp | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("game"), dict) or \
            not isinstance(raw.get("seats"), dict):
        return None
    game = {}
    for key, value in raw["game"].items():
        if key not in CLOCK_FIELDS:
            return None
        if type(value) is int:  # JSON may write a whole float as an int
            value = float(value)
        if not isinstance(value, CLOCK_FIELDS[key]):
            return None
        game[key] = value
    seats: dict[int, float | None] = {}
    for seat, value in raw["seats"].items():
        if not (isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) < 4) or \
                not (value is None or type(value) in (int, float)):
            return None
        seats[int(seat)] = None if value is None else float(value)
    return ClockStamp(game, seats)
