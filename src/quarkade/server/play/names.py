"""The names players read for the seats of a game, and a line on each bot.

A seat a person took shows the person's name; a bot's seat the bot in players' words
("Easy bot", "Hard bot", "Greedy bot": ``agents.registry.bot_title``); a seat that became
a bot's when its person resigned or ran out of time keeps the person's name. A seat
nobody has taken reads "Open seat" or "Invited friend", a hot-seat player (another
person on the creating device) "Player 2". Two seats that would read the same are told
apart by a number after the name ("Easy bot 1", "Easy bot 2"). Seat numbers stay what
records and the API use; these are only what a person reads.

Names are worked out from what is stored, so games stored before they were (their
seats named "seat 1 (easy)") read the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from quarkade.agents.registry import bot_about, bot_title

# The names the server gave seats before it gave them these: "seat 1", "seat 1 (easy)".
STORED_DEFAULT = re.compile(r"seat \d+(?: \(.*\))?")


def seat_names(game: str, seats: Sequence[Any]) -> list[str]:
    """What each seat of a game of ``game`` is called, in seat order (``seats``: stored
    seats, or rows as dicts with the same fields)."""
    names = [_name(game, seat) for seat in seats]
    counts = Counter(names)
    numbered: Counter[str] = Counter()
    shown = []
    for name in names:
        if counts[name] > 1:
            numbered[name] += 1
            shown.append(f"{name} {numbered[name]}")
        else:
            shown.append(name)
    return shown


def seat_about(game: str, seat: Any) -> str | None:
    """A line on how a bot's seat plays (None for a person's)."""
    if _field(seat, "kind") != "bot" or _field(seat, "replaced"):
        return None
    return bot_about(_field(seat, "agent") or "", game)


def _name(game: str, seat: Any) -> str:
    stored = str(_field(seat, "name") or "")
    kind = _field(seat, "kind")
    if _field(seat, "replaced"):  # a person's seat a bot plays now: still theirs
        return stored
    if kind == "bot":
        return bot_title(_field(seat, "agent") or "", game)
    if _field(seat, "player_id") is not None or (stored and not STORED_DEFAULT.fullmatch(stored)):
        return stored
    joined = bool(_field(seat, "joined"))
    if kind == "friend":
        return "Friend" if joined else "Invited friend"
    if kind == "open":
        return "Player" if joined else "Open seat"
    return f"Player {int(_field(seat, 'seat')) + 1}"


def _field(seat: Any, name: str) -> Any:
    return seat.get(name) if isinstance(seat, Mapping) else getattr(seat, name, None)
