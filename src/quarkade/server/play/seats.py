"""Seats and secrets: who sits where, each seat's secret, invites, and what a device holds.

A seat is ``you`` or ``hotseat`` (played on the device that created the game), ``friend``
(played by whoever first opens its invite link), ``open`` (taken by one click in the
lobby) or ``bot:SPEC`` (played on the server). A seat a person takes remembers the player
(``player_id``): that player holds it on every device they are logged in on.
Every seat a person plays has a secret token, held only by that seat's devices: the
creating device holds its own seats' tokens, the game's host token and the invite codes
of its friend seats; a friend seat's token is made when its invite is spent, so only the
joiner's device ever holds it. The host sees that a seat was joined, never its secret. A
seat's holder may link another device with a one-time code; that device then gets a
secret of its own for the seat. A device proves what it holds with the secrets in its
cookie for that game (scripts: the ``Authorization`` header). The server keeps only each
secret's digest (``quarkade.server.keys``).
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from quarkade.core.protocol import SPECTATOR
from quarkade.server import keys
from quarkade.server.errors import ApiError
from quarkade.server.inputs import small_number
from quarkade.server.play import specs
from quarkade.server.storage import StoredSeat

YOU, HOTSEAT, FRIEND, OPEN, BOT = "you", "hotseat", "friend", "open", "bot"
KINDS = (YOU, HOTSEAT, FRIEND, OPEN, BOT)
PUBLIC, UNLISTED = "public", "unlisted"
VISIBILITIES = (PUBLIC, UNLISTED)
NAME_LENGTH = 100
HOST = -1  # the host's keys are kept as seat -1's


def new_game_id() -> str:
    """128 random bits (at least 126 after the two replacements), 22 characters."""
    return secrets.token_urlsafe(16).replace("-", "x").replace("_", "y")


@dataclass(frozen=True)
class NewSeats:
    """Seats about to be stored (their secrets as digests) and the secrets themselves, for
    the device that made them: each of its seats' tokens, each friend seat's invite."""

    seats: list[StoredSeat]
    tokens: dict[int, str] = field(default_factory=dict)
    invites: dict[int, str] = field(default_factory=dict)


def visibility_of(value: object) -> str:
    if value is None or value == "":
        return UNLISTED
    if value not in VISIBILITIES:
        raise ApiError(400, f"visibility {value!r}: choose public (listed on the home page) "
                       "or unlisted (only people with its address find it)")
    return str(value)


def reveal_of(value: object, seats: Sequence[StoredSeat]) -> bool:
    """Whether to show every hidden card once the game is over: as asked (true/false,
    yes/no, on/off), else yes when a bot plays (nobody then minds seeing its cards)."""
    if value is None or value == "":
        return any(s.kind == BOT for s in seats)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, str) else None
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ApiError(400, f"reveal {shown}: choose true (every hidden card is shown once the "
                   "game is over) or false (they stay hidden)")


def rated_of(value: object, seats: Sequence[StoredSeat]) -> bool:
    """Whether the maker asks for a rated game (RULINGS S-9): as asked (true/false,
    yes/no, on/off, rated/casual), else casual when a bot plays and rated otherwise. It
    is rated only if it is eligible when it begins (S-5)."""
    if value is None or value == "":
        return not any(s.kind == BOT for s in seats)
    if isinstance(value, bool):
        return value
    text = value.strip().lower() if isinstance(value, str) else None
    if text in ("true", "yes", "on", "1", "rated"):
        return True
    if text in ("false", "no", "off", "0", "casual"):
        return False
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise ApiError(400, f"rated {shown}: choose true (a rated game: ratings change, no "
                   "hints) or false (a casual game)")


def parse_seats(game: str, choices: Sequence[object], players: int, now: float,
                invite_seconds: float, player: tuple[str, str] | None = None,
                plugins: Collection[str] = ()) -> NewSeats:
    """Seat choices (``you``, ``hotseat``, ``friend``, ``open``, ``bot:greedy``) as seats
    with secrets (friend seats get an invite code instead, until someone joins; open seats
    wait for the lobby). ``player`` (id, name) is the creator, who sits at ``you``; a
    plug-in bot only if ``plugins`` (the server's allow-list) names it."""
    if len(choices) != players:
        raise ApiError(400, f"{game} with {players} players needs {players} seat choices, "
                       f"got {len(choices)}")
    from quarkade.agents import available_agents

    names = ", ".join(f"bot:{name}" for name in available_agents(game, plugins))
    seats = []
    tokens: dict[int, str] = {}
    invites: dict[int, str] = {}
    for seat, raw in enumerate(choices):
        text = raw.strip() if isinstance(raw, str) else ""
        kind, _, agent = text.partition(":")
        kind = kind.lower()
        if kind not in KINDS or (kind == BOT) != bool(agent.strip()):
            shown = repr(raw) if len(repr(raw)) < 60 else repr(raw)[:57] + "..."
            raise ApiError(400, f"seat {seat}: {shown} is not a seat choice; choose you, "
                           f"hotseat, friend, open or a bot ({names})")
        if kind == BOT:
            try:
                spec = specs.check_spec(game, agent, plugins)
            except ApiError as problem:
                raise ApiError(problem.status, f"seat {seat}: {problem.message}") from None
            seats.append(StoredSeat(seat, BOT, spec, clip_name(f"seat {seat} ({spec})"), None,
                                    True))
        elif kind == FRIEND:
            invites[seat] = keys.new_secret()
            seats.append(StoredSeat(seat, kind, None, f"seat {seat}", None, False,
                                    keys.digest(invites[seat]), now + invite_seconds))
        elif kind == OPEN:
            seats.append(StoredSeat(seat, kind, None, f"seat {seat}", None, False))
        else:
            tokens[seat] = keys.new_secret()
            mine = kind == YOU and player is not None
            seats.append(StoredSeat(seat, kind, None, player[1] if mine and player else
                                    f"seat {seat}", keys.digest(tokens[seat]), True,
                                    player_id=player[0] if mine and player else None))
    if sum(s.kind == YOU for s in seats) > 1:
        raise ApiError(400, "only one seat can be 'you'; make the others hotseat seats "
                       "to play them on this device too")
    return NewSeats(seats, tokens, invites)


def turned(seat: int, players: int) -> int:
    """Where seat ``seat``'s player sits in the rematch: one seat on, so the opener
    alternates (RULINGS S-13)."""
    return (seat + 1) % players


def rematch_seats(seats: Sequence[StoredSeat], offering: Collection[int], now: float,
                  invite_seconds: float) -> list[StoredSeat]:
    """The seats of a rematch: everyone one seat on (``turned``), the same kinds, bots and
    names, and no bot's fault. The seats of ``offering`` (rematch seats) are filled; every
    other person's seat is kept for its player until they accept (a player by their
    ``player_id``, a device by the secret it held before: ``Seating.follow``). A friend
    seat nobody joined gets a new invite, which the host's device is given when it
    follows."""
    players = len(seats)
    fresh = []
    for s in sorted(seats, key=lambda s: turned(s.seat, players)):
        seat = turned(s.seat, players)
        if s.kind == BOT and not s.replaced:  # a plug-in stopped last game starts afresh
            fresh.append(StoredSeat(seat, s.kind, s.agent, s.name, None, True))
        elif s.kind in (FRIEND, OPEN) and not s.joined:
            fresh.append(StoredSeat(seat, s.kind, None, s.name, None, False,
                                    keys.digest(keys.new_secret()) if s.kind == FRIEND
                                    else None,
                                    now + invite_seconds if s.kind == FRIEND else None))
        else:  # the same players (a person a bot replaced comes back), kept for them
            kind = (OPEN if s.player_id else HOTSEAT) if s.kind == BOT else s.kind
            fresh.append(StoredSeat(seat, kind, None, s.name, None, seat in offering,
                                    player_id=s.player_id))
    return fresh


def clip_name(name: str) -> str:
    """A seat's name cut to what its column holds."""
    return name if len(name) <= NAME_LENGTH else name[: NAME_LENGTH - 4] + "...)"


@dataclass(frozen=True)
class Holder:
    """What one device (or script) holds in one game: seats it may play, host rights, and
    the invite codes it knows (the host's device: ``(seat, code)``)."""

    seats: frozenset[int]
    host: bool
    invites: tuple[tuple[int, str], ...] = ()

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


def holder_for(tokens: Iterable[str], seats: Sequence[StoredSeat], host_token: str,
               more: Iterable[tuple[int, str]] = (), player: str | None = None,
               host_player: str | None = None) -> Holder:
    """What a device holds: the seats whose secret it has (a seat's own, or one of the
    ``more`` keys, ``(seat, digest)``), the seats its player sat at (a bot's now if the
    player resigned or ran out of time: none), host rights, and the invites it knows.
    Every secret is compared by its digest."""
    given = {keys.digest(t): t for t in tokens if t}
    extra = {seat for seat, digest in more if digest in given}
    held = frozenset(s.seat for s in seats if s.kind != BOT and (
        (s.token is not None and s.token in given) or s.seat in extra
        or (player is not None and s.player_id == player)))
    host = host_token in given or HOST in extra or (player is not None and
                                                   player == host_player)
    invites = tuple((s.seat, given[s.invite]) for s in seats
                    if s.kind == FRIEND and s.invite is not None and s.invite in given)
    return Holder(held, host, invites)

