"""Seats and secrets: who sits where, each seat's secret, invites, and what a device holds.

A seat is ``you`` or ``hotseat`` (played on the device that created the game), ``friend``
(played by whoever first opens its invite link) or ``bot:SPEC`` (played on the server).
Every seat a person plays has a secret token, held only by that seat's devices: the
creating device holds its own seats' tokens and the game's host token; a friend seat's
token is made when its invite is spent, so only the joiner's device ever holds it. The
host sees that a seat was joined, never its secret. A seat's holder may link another
device with a one-time code. A device proves what it holds with the tokens in its cookie
for that game (or ``token`` query parameters, for scripts).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from quarkade.core.protocol import SPECTATOR
from quarkade.server import bots
from quarkade.server.errors import ApiError
from quarkade.server.inputs import small_number
from quarkade.server.storage import StoredSeat

YOU, HOTSEAT, FRIEND, BOT = "you", "hotseat", "friend", "bot"
KINDS = (YOU, HOTSEAT, FRIEND, BOT)
PUBLIC, UNLISTED = "public", "unlisted"
VISIBILITIES = (PUBLIC, UNLISTED)
COOKIE_PREFIX = "quarkade_"
COOKIE_AGE = 60 * 60 * 24 * 60  # two months
NAME_LENGTH = 100


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_game_id() -> str:
    """128 random bits (at least 126 after the two replacements), 22 characters."""
    return secrets.token_urlsafe(16).replace("-", "x").replace("_", "y")


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def visibility_of(value: object) -> str:
    if value is None or value == "":
        return UNLISTED
    if value not in VISIBILITIES:
        raise ApiError(400, f"visibility {value!r}: choose public (listed on the home page) "
                       "or unlisted (only people with its address find it)")
    return str(value)


def parse_seats(game: str, specs: Sequence[object], players: int, now: float,
                invite_seconds: float, plugins: Collection[str] = ()) -> list[StoredSeat]:
    """Seat choices (``you``, ``hotseat``, ``friend``, ``bot:greedy``) as seats with tokens
    (friend seats get an invite code instead, until someone joins); a plug-in bot only if
    ``plugins`` (the server's allow-list) names it."""
    if len(specs) != players:
        raise ApiError(400, f"{game} with {players} players needs {players} seat choices, "
                       f"got {len(specs)}")
    from quarkade.agents import available_agents

    names = ", ".join(f"bot:{name}" for name in available_agents(game, plugins))
    seats = []
    for seat, raw in enumerate(specs):
        text = raw.strip() if isinstance(raw, str) else ""
        kind, _, agent = text.partition(":")
        kind = kind.lower()
        if kind not in KINDS or (kind == BOT) != bool(agent.strip()):
            shown = repr(raw) if len(repr(raw)) < 60 else repr(raw)[:57] + "..."
            raise ApiError(400, f"seat {seat}: {shown} is not a seat choice; choose you, "
                           f"hotseat, friend or a bot ({names})")
        if kind == BOT:
            try:
                spec = bots.check_spec(game, agent, plugins)
            except ApiError as problem:
                raise ApiError(problem.status, f"seat {seat}: {problem.message}") from None
            seats.append(StoredSeat(seat, BOT, spec, _clip(f"seat {seat} ({spec})"), None,
                                    True))
        elif kind == FRIEND:
            seats.append(StoredSeat(seat, kind, None, f"seat {seat}", new_token(), False,
                                    new_token(), now + invite_seconds))
        else:
            seats.append(StoredSeat(seat, kind, None, f"seat {seat}", new_token(), True))
    if sum(s.kind == YOU for s in seats) > 1:
        raise ApiError(400, "only one seat can be 'you'; make the others hotseat seats "
                       "to play them on this device too")
    return seats


def fresh_seats(seats: Sequence[StoredSeat], now: float, invite_seconds: float
                ) -> list[StoredSeat]:
    """The seats of a rematch: the same kinds, bots and names, every secret new, a new
    invite for a friend seat nobody joined, and no bot's fault."""
    fresh = []
    for s in seats:
        if s.kind == BOT:  # a plug-in stopped in the last game gets a fresh start
            fresh.append(replace(s, fault=None))
        elif s.kind == FRIEND and not s.joined:
            fresh.append(StoredSeat(s.seat, s.kind, None, s.name, new_token(), False,
                                    new_token(), now + invite_seconds))
        else:
            fresh.append(StoredSeat(s.seat, s.kind, None, s.name, new_token(), True))
    return fresh


def _clip(name: str) -> str:
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 4] + "...)"


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
            seat = small_number(text, "seat", "a seat is a number, or 'spectator'")
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
    return (found + [t for t in extra if t])[:32]


def cookie_value(tokens: Iterable[str]) -> str:
    return ".".join(dict.fromkeys(t for t in tokens if t))
