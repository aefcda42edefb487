"""Seats and secrets: who sits where, the secret token of each seat, and what a device holds.

A seat is ``you`` or ``hotseat`` (played on the device that created the game), ``friend``
(played by whoever opens its invite link) or ``bot:SPEC`` (played on the server by the agent
that ``quarkade.agents.make_agent`` makes from SPEC). Every seat a person plays has a secret
token; the creating device also holds the game's host token, which shows the invite links.
A device proves what it holds with the tokens in its cookie for that game (or ``token``
query parameters, for scripts), and only a seat's token acts or reads for that seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from quarkade.agents import available_agents, make_agent
from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import SPECTATOR
from quarkade.server.errors import ApiError
from quarkade.server.storage import StoredSeat

YOU, HOTSEAT, FRIEND, BOT = "you", "hotseat", "friend", "bot"
KINDS = (YOU, HOTSEAT, FRIEND, BOT)
COOKIE_PREFIX = "quarkade_"
COOKIE_AGE = 60 * 60 * 24 * 60  # two months


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def parse_seats(game: str, specs: Sequence[str], players: int,
                plugins: Collection[str] = ()) -> list[StoredSeat]:
    """Seat choices (``you``, ``hotseat``, ``friend``, ``bot:greedy``) as seats with tokens;
    a plug-in bot only if ``plugins`` (the server's allow-list) names it."""
    if len(specs) != players:
        raise ApiError(400, f"{game} with {players} players needs {players} seat choices, "
                       f"got {len(specs)}")
    bots = ", ".join(f"bot:{name}" for name in available_agents(game, plugins))
    seats = []
    for seat, raw in enumerate(specs):
        text = raw.strip() if isinstance(raw, str) else ""
        kind, _, agent = text.partition(":")
        kind = kind.lower()
        if kind not in KINDS or (kind == BOT) != bool(agent.strip()):
            raise ApiError(400, f"seat {seat}: {raw!r} is not a seat choice; choose you, "
                           f"hotseat, friend or a bot ({bots})")
        if kind == BOT:
            try:
                make_agent(agent, game, plugins=plugins)
            except QuarkadeError as problem:
                raise ApiError(400, f"seat {seat}: {problem}") from None
            seats.append(StoredSeat(seat, BOT, agent.strip(), f"seat {seat} ({agent.strip()})",
                                    None, True))
        else:
            seats.append(StoredSeat(seat, kind, None, f"seat {seat}", new_token(),
                                    kind != FRIEND))
    if sum(s.kind == YOU for s in seats) > 1:
        raise ApiError(400, "only one seat can be 'you'; make the others hotseat seats "
                       "to play them on this device too")
    return seats


@dataclass(frozen=True)
class Holder:
    """What one device (or script) holds in one game: seats it may play, and host rights."""

    seats: frozenset[int]
    host: bool

    def viewpoint(self, asked: str | None, to_move: int) -> int:
        """The seat whose view to show: the one asked for (if held), else the held seat to
        move, else the lowest held seat, else the spectator's view."""
        if asked is not None and asked.strip() != "":
            text = asked.strip().lower()
            if text in ("spectator", str(SPECTATOR)):
                return SPECTATOR
            if not text.isdigit():
                raise ApiError(400, f"seat={asked!r}: a seat is a number, or 'spectator'")
            seat = int(text)
            if seat not in self.seats:
                held = ", ".join(map(str, sorted(self.seats))) or "none"
                raise ApiError(403, f"this device holds no token for seat {seat} "
                               f"(it holds: {held}); open that seat's invite link")
            return seat
        if to_move in self.seats:
            return to_move
        return min(self.seats) if self.seats else SPECTATOR


def holder_for(tokens: Iterable[str], seats: Sequence[StoredSeat], host_token: str) -> Holder:
    given = {t for t in tokens if t}
    held = frozenset(s.seat for s in seats if s.token is not None and s.token in given)
    return Holder(held, host_token in given)


def tokens_in(cookie_value: str | None, extra: Iterable[str] = ()) -> list[str]:
    """The tokens in a game's cookie (dot-separated) plus any given another way."""
    found = [t for t in (cookie_value or "").split(".") if t]
    return found + [t for t in extra if t]


def cookie_value(tokens: Iterable[str]) -> str:
    return ".".join(dict.fromkeys(t for t in tokens if t))
