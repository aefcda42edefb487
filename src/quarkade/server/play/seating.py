"""The way into a game: making it, joining by invite, taking an open seat, renewing an
invite, linking another device, and following a rematch (offered and answered in
``rematch``; each device that was at the table then follows it).

Every secret is handed to its device once and kept as its digest (``keys``): a device
that follows a rematch or spends a device link gets a secret of its own for its seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, load_game
from quarkade.server import keys
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.play import seats as seating
from quarkade.server.play import specs
from quarkade.server.play.clocks import TimeControl
from quarkade.server.play.events import Listed, Updated
from quarkade.server.play.hub import Hub
from quarkade.server.play.session import UNAVAILABLE, GameSession
from quarkade.server.rates import requester
from quarkade.server.storage import StoredSeat, Unavailable, ValueTooLong
from quarkade.server.storage.players import StoredPlayer

LINK_SPENT = ("this device link was used or expired; ask for a new one from a device that "
              "holds the seat")


@dataclass(frozen=True)
class Made:
    """A game just made, with the secrets of the device that made it: the host's, its
    seats' (``tokens``) and its friend seats' invite codes (``invites``)."""

    session: GameSession
    host_token: str
    tokens: dict[int, str] = field(default_factory=dict)
    invites: dict[int, str] = field(default_factory=dict)

    def secrets(self) -> list[str]:
        """Everything the making device keeps in its cookie for the game."""
        return [self.host_token, *self.tokens.values(), *self.invites.values()]


class Seating:
    """Making and joining games in this process (``hub`` holds them)."""

    def __init__(self, ctx: Context, hub: Hub) -> None:
        self.ctx = ctx
        self.hub = hub

    async def create(self, game: str, options: dict[str, Any], seat_specs: list[Any],
                     visibility: Any = None, time_control: Any = None,
                     player: StoredPlayer | None = None, reveal: Any = None,
                     client: str | None = None, rated: Any = None) -> Made:
        """A new game from a game name, its options, a choice per seat, who may find it,
        its time control and whether its hidden cards are shown once it is over (by
        default: when a bot plays); ``player`` (the creator) sits at ``you``; ``client``
        (the scheduler's) owns its bots' CPU work; ``rated``: rated or casual (by
        default casual against bots, RULINGS S-9). A seat's own options (its deck) are
        chosen by whoever takes it."""
        ctx = self.ctx
        try:
            loaded = load_game(game, **options)
        except QuarkadeError as problem:
            raise ApiError(400, str(problem)) from None
        control = TimeControl.parse(time_control)
        made = seating.parse_seats(game, seat_specs, loaded.num_players, ctx.clock.time(),
                                   ctx.limits.invite_seconds,
                                   None if player is None else (player.id, player.name),
                                   ctx.allowed_bots)
        for seat in made.seats:
            if seat.kind == seating.BOT and seat.agent:
                specs.check_plays(loaded, seat.agent)
        if client is not None and any(s.kind == seating.BOT for s in made.seats):
            waiting = ctx.work.waiting(client)
            if waiting >= ctx.limits.jobs_per_client:
                raise ApiError(429, f"your bots are thinking in {waiting} games already; "
                               "wait for them to move before you start another bot game")
        chosen = dict(loaded.options)
        defaults = {o.name: o.default for o in game_class(game).option_specs}
        for s in made.seats:
            if s.kind in (seating.FRIEND, seating.OPEN):
                for name in game_class(game).seat_option_names(s.seat):
                    chosen[name] = load_game(game, **{**chosen, name: defaults[name]}
                                             ).options[name]
        host_token = keys.new_secret()
        session = await self.store_new(game, chosen, made.seats, keys.digest(host_token),
                                     seating.visibility_of(visibility),
                                     seating.reveal_of(reveal, made.seats), control.text,
                                     None if player is None else player.id, client,
                                     seating.rated_of(rated, made.seats))
        if session.visibility == seating.PUBLIC:
            await ctx.events.emit(Listed(session))
        return Made(session, host_token, made.tokens, made.invites)

    async def store_new(self, game: str, options: dict[str, Any], seats: list[StoredSeat],
                      host_token: str, visibility: str, reveal: bool,
                      time_control: str = "none", host_player: str | None = None,
                      owner: str | None = None, rated: bool = False) -> GameSession:
        """Store a new game (its secrets digests already) and load it."""
        ctx = self.ctx
        asker = requester.get()  # every new game passes here: forms, API, rematch, quick play
        if asker is not None and not await ctx.rates.allow("create", ctx.limits.create_games,
                                                           asker):
            raise ApiError(429, "too many new games from this address; wait a little and "
                           "try again")
        store = ctx.store
        game_id = seating.new_game_id()
        try:
            await store.run(store.games.create, game_id, game, options, host_token,
                            seats, visibility, reveal, time_control, host_player, owner,
                            ctx.clock.time() + ctx.limits.lobby_seconds
                            if visibility == seating.PUBLIC else None, rated)
        except ValueTooLong as problem:
            raise ApiError(400, f"a value is too long: {problem}") from None
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "made")) from None
        return await self.hub.get(game_id)

    async def join(self, game_id: str, invite: str, tokens: list[str],
                   player: StoredPlayer | None = None, seat_options: Any = None
                   ) -> tuple[GameSession, int, str | None]:
        """Spend an invite: the seat it opens and the joiner's new secret (None when this
        device holds the seat already, as when the joiner opens the link again).
        ``seat_options`` are the options the seat's player chooses (its deck)."""
        session = await self.hub.get(game_id)
        seat = invited_seat(session, invite)
        if seat is not None:
            token = await self._fill(session, seat, invite, player, seat_options)
            if token is not None:
                return session, seat, token
        friends = {s.seat for s in session.seats if s.kind == seating.FRIEND}
        mine = session.holder(tokens, None if player is None else player.id).seats & friends
        if mine:  # the joiner opening the link again
            return session, min(mine), None
        raise ApiError(403, "this invite link is not valid for this game: it was used or it "
                       "expired. A seat's player can link another device from the game page")

    async def take(self, session: GameSession, seat: int, player: StoredPlayer,
                   seat_options: Any = None) -> str:
        """Take open seat ``seat`` from the lobby for ``player``; returns its secret."""
        found = [s for s in session.seats if s.seat == seat]
        if not found or found[0].kind != seating.OPEN:
            raise ApiError(404, f"seat {seat} of this game is not an open seat")
        if found[0].joined:
            raise ApiError(409, f"seat {seat} was taken; look for another in the lobby")
        if any(s.player_id == player.id for s in session.seats):
            raise ApiError(409, "you already sit at this table")
        token = await self._fill(session, seat, None, player, seat_options)
        if token is None:
            raise ApiError(409, f"seat {seat} was taken; look for another in the lobby")
        return token

    async def _fill(self, session: GameSession, seat: int, invite: str | None,
                    player: StoredPlayer | None, seat_options: Any) -> str | None:
        """Fill a seat (by invite, or open), with its own options; begin the game if it
        was the last seat. The seat's new secret, or None if someone was first."""
        ctx = self.ctx
        chosen = seat_choices(session, seat, seat_options)
        token = keys.new_secret()
        store = ctx.store
        try:
            joined = await store.run(
                store.seats.join, session.id, seat,
                None if invite is None else keys.digest(invite), keys.digest(token),
                ctx.clock.time(), None if player is None else player.id,
                None if player is None else player.name, chosen)
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "changed")) from None
        await session.refresh()
        if not joined:
            return None
        await session.start()  # begins if every seat is filled now
        await ctx.events.emit(Updated(session))
        if session.visibility == seating.PUBLIC:
            await ctx.events.emit(Listed(session))
        return token

    async def renew_invite(self, session: GameSession, holder: seating.Holder,
                           seat: int) -> str:
        if not holder.host:
            raise ApiError(403, "only the device that made the game can renew its invites")
        found = [s for s in session.seats if s.seat == seat and s.kind == seating.FRIEND]
        if not found or found[0].joined:
            raise ApiError(409, f"seat {seat} is not a friend seat waiting for its player")
        invite = keys.new_secret()
        expires = self.ctx.clock.time() + self.ctx.limits.invite_seconds
        store = self.ctx.store
        await store.run(store.seats.renew_invite, session.id, seat, keys.digest(invite),
                        expires)
        await session.updated()
        return invite

    async def link(self, session: GameSession, holder: seating.Holder, seat: int) -> str:
        """A one-time code that gives another device ``seat`` (asked by its holder)."""
        if seat not in holder.seats:
            raise ApiError(403, f"only a device holding seat {seat} can link another device")
        code = keys.new_secret()
        store = self.ctx.store
        await store.run(store.seats.set_link, session.id, seat, keys.digest(code),
                        self.ctx.clock.time() + self.ctx.limits.link_seconds)
        return code

    async def link_seat(self, session: GameSession, code: str) -> int:
        """The seat a device link gives (spending nothing: a preview of the link)."""
        store = self.ctx.store
        seat = await store.run(store.seats.link_seat, session.id, keys.digest(code),
                               self.ctx.clock.time())
        if seat is None:
            raise ApiError(403, LINK_SPENT)
        return seat

    async def use_link(self, game_id: str, code: str) -> tuple[GameSession, int, str]:
        """Spend a device link: this device's own new secret for the seat."""
        session = await self.hub.get(game_id)
        token = keys.new_secret()
        store = self.ctx.store
        seat = await store.run(store.seats.use_link, game_id, keys.digest(code),
                               keys.digest(token), self.ctx.clock.time(),
                               self.ctx.limits.keys_per_seat)
        if seat is None:
            raise ApiError(403, LINK_SPENT)
        await session.updated()
        return session, seat, token

    async def follow(self, old: GameSession, new: GameSession, tokens: list[str],
                     held_new: list[str]) -> list[str]:
        """The rematch's secrets for what this device held in the old game (``tokens``):
        a secret of its own for the seat each seat it held turned into (its players sit
        one seat on: ``seats.turned``), and host rights (with the invites of the friend
        seats still to join) if it was the host. Nothing else; nothing more for what it
        holds in the rematch already (``held_new``)."""
        holder = old.holder(tokens)  # the device's own tokens (a player holds seats anyway)
        have = new.holder(held_new)
        person_seats = {s.seat for s in new.seats if s.kind != seating.BOT}
        players = len(new.seats)
        turn = seating.turned if _turned(old, new) else (lambda seat, _players: seat)
        turned = {turn(seat, players) for seat in holder.seats}
        mine = {seat: keys.new_secret() for seat in turned & person_seats
                if seat not in have.seats}
        host = keys.new_secret() if holder.host and not have.host else None
        more = [(seat, keys.digest(token)) for seat, token in mine.items()]
        if host is not None:
            more.append((seating.HOST, keys.digest(host)))
        store = self.ctx.store
        if more:
            await store.run(store.seats.add_keys, new.id, more, self.ctx.limits.keys_per_seat)
        invites = []
        if holder.host and not have.invites:
            for s in new.seats:
                if s.kind == seating.FRIEND and not s.joined:
                    invite = keys.new_secret()
                    await store.run(store.seats.renew_invite, new.id, s.seat,
                                    keys.digest(invite), self.ctx.clock.time() +
                                    self.ctx.limits.invite_seconds)
                    invites.append(invite)
        if more or invites:
            await new.updated()
        return [*([host] if host else []), *mine.values(), *invites]


def _turned(old: GameSession, new: GameSession) -> bool:
    """Whether ``new``, the rematch of ``old``, seats its players one seat on (RULINGS
    S-13: every rematch offered since); a rematch made before kept their seats, and its
    seats' names then match the old game's seat for seat."""
    players = len(new.seats)
    if len(old.seats) != players:
        return True
    before = [s.name for s in old.seats]
    same = [s.name for s in new.seats] == before
    moved = all(new.seats[seating.turned(seat, players)].name == before[seat]
                for seat in range(players))
    return moved or not same


def invited_seat(session: GameSession, invite: str, now: float | None = None) -> int | None:
    """The friend seat whose unspent invite is ``invite`` (and, given ``now``, unexpired)."""
    for seat in session.seats:
        if seat.kind == seating.FRIEND and keys.same(invite, seat.invite) and (
                now is None or seat.invite_expires is None or seat.invite_expires > now):
            return seat.seat
    return None


def seat_choices(session: GameSession, seat: int, raw: Any) -> dict[str, Any]:
    """The options seat ``seat`` chose, checked (400 naming what is allowed)."""
    names = game_class(session.name).seat_option_names(seat)
    if raw is None or raw == {}:
        return {}
    if not isinstance(raw, dict):
        raise ApiError(400, "a seat's options are an object of option names and values")
    if not session.waiting:
        raise ApiError(409, "the game has begun: its options are fixed")
    unknown = sorted(set(raw) - set(names))
    if unknown:
        allowed = ", ".join(names) or "none"
        raise ApiError(400, f"seat {seat} chooses no option {unknown[0]!r}; it chooses: "
                       f"{allowed}")
    try:
        loaded = load_game(session.name, **{**session.options, **raw})
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    return {name: loaded.options[name] for name in raw}


__all__ = ["Made", "Seating", "invited_seat", "seat_choices"]
