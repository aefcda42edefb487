"""Players: a name for everyone, guests first, a password to keep the name.

On a first visit a person is a *guest* with a generated name (``StrangeMuon417``) kept in
a signed session cookie (Starlette's ``SessionMiddleware``, signed with a key kept
outside the database, ``quarkade.server.keys``, so every process agrees). A guest may
change the name (unique whatever its case and by its look, ``names``; 3-20 letters,
digits, ``-`` or ``_``, starting with a letter) and *claim* it with a password (hashed
with argon2-cffi, ``passwords``), then log in with it on another device. Logins and
password changes are limited so that a guesser slows down but the name's owner does not
(``passwords``). Claiming or changing a password logs out the name's other sessions;
logging out ends the session on the server. A seat remembers the
player who sat there (``seats.player_id``), so a player holds their seats on every
device they are logged in on.

Settings per player: ``sound`` (a sound on your turn, off by default) and ``notify`` (a
browser notification when it becomes your turn or a game you watch ends).
"""

from __future__ import annotations

import re
import secrets
from contextvars import ContextVar
from typing import Any

from starlette.requests import HTTPConnection

from quarkade.server import keys
from quarkade.server.clock import Clock
from quarkade.server.errors import ApiError
from quarkade.server.inputs import client_key
from quarkade.server.limits import Limits
from quarkade.server.lookalikes import skeleton
from quarkade.server.people.passwords import Passwords
from quarkade.server.rates import Rates
from quarkade.server.storage import Store, Unavailable
from quarkade.server.storage.players import NameTaken, StoredPlayer

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
NAME_RULE = ("a name is 3 to 20 characters: letters, digits, '-' or '_', starting with a "
             "letter")
RESERVED = ("bot", "seat", "guest", "admin", "me", "anonymous", "spectator")
PASSWORD_RULE = "a password is 8 to 200 characters"
SETTINGS = {"sound": False, "notify": False}  # the defaults
SESSION_COOKIE = "quarkade_session"
SESSION_AGE = 365 * 24 * 3600
KNOWN = 5  # names a device remembers signing in as (their logins are never held back)

ADJECTIVES = ("Strange", "Charmed", "Bare", "Entangled", "Coherent", "Spinning", "Virtual",
              "Quiet", "Bright", "Heavy", "Light", "Polar", "Tunneling", "Superposed")
PARTICLES = ("Quark", "Muon", "Gluon", "Boson", "Photon", "Lepton", "Meson", "Baryon",
             "Pion", "Kaon", "Tau", "Neutrino", "Fermion", "Hadron")

# The player of the request being answered, for the page header (set by ``identify``).
signed_in: ContextVar[StoredPlayer | None] = ContextVar("signed_in", default=None)
# How many of that player's games wait for their move, for the header (set by pages).
turns_waiting: ContextVar[int] = ContextVar("turns_waiting", default=0)


def check_name(raw: Any) -> str:
    """A name someone typed, or ``ApiError(400)`` saying what a name may be."""
    if not isinstance(raw, str):
        raise ApiError(400, f"'name' should be text: {NAME_RULE}")
    name = raw.strip()
    if not NAME.fullmatch(name):
        shown = name if len(name) <= 30 else name[:27] + "..."
        raise ApiError(400, f"{shown!r} is not a name here: {NAME_RULE}")
    if name.lower().startswith(RESERVED):
        raise ApiError(400, f"{name!r}: names may not begin with "
                       f"{', '.join(RESERVED)} (they would look like the site's own words)")
    return name


def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or not 8 <= len(raw) <= 200:
        raise ApiError(400, f"{PASSWORD_RULE}; choose another")
    return raw


def guest_name() -> str:
    """``StrangeMuon417``: a name that passes ``check_name`` (at most 20 characters)."""
    pick = secrets.SystemRandom()
    while True:
        name = f"{pick.choice(ADJECTIVES)}{pick.choice(PARTICLES)}{pick.randrange(100, 1000)}"
        if len(name) <= 20:
            return name


def public(player: StoredPlayer) -> dict[str, Any]:
    """A player as their own pages and scripts see them (never the hash)."""
    return {"id": player.id, "name": player.name, "guest": player.guest,
            "settings": {**SETTINGS, **player.settings}}


class Players:
    """Who is asking: sessions, guests, names, passwords and logins.

    A session is a signed cookie holding the player and the session's id (``sid``); the
    database keeps the id's SHA-256 (``sessions``), so logging out ends the session on
    the server too. Logging in and out start a new session (a new id, a new form token:
    ``web.forms``), so nothing planted in a visitor's session before outlives either.
    """

    def __init__(self, store: Store, clock: Clock, limits: Limits, rates: Rates) -> None:
        self.store = store
        self.queries = store.players
        self.clock = clock
        self.passwords = Passwords(limits, rates)
        self.rates = rates
        self.limits = limits

    def close(self) -> None:
        self.passwords.close()

    async def current(self, connection: HTTPConnection) -> StoredPlayer | None:
        """The player of this session, or None (no session, or it ended)."""
        session = connection.scope.get("session")
        if not session or not isinstance(session.get("player"), str):
            return None
        sid = session.get("sid")
        try:
            if isinstance(sid, str):
                player = await self.store.run(self.queries.in_session, keys.digest(sid),
                                              session["player"])
            else:  # signed before sessions were kept: valid while its generation is
                player = await self.store.run(self.queries.get, session["player"])
                if player is not None and player.session_gen == session.get("gen", 0):
                    await self._sign_in(connection, player)
                else:
                    player = None
        except Unavailable:
            return None
        if player is None:
            session.clear()
        return player

    async def identify(self, connection: HTTPConnection, create: bool = True
                       ) -> StoredPlayer | None:
        """The player asking; a new guest if there is none and ``create`` (within the
        per-address rate: past it, None)."""
        player = await self.current(connection)
        if player is None and create and await self.rates.allow(
                "guest", self.limits.guests, client_key(connection)):
            player = await self.new_guest()
            await self._sign_in(connection, player)
        signed_in.set(player)
        return player

    async def required(self, connection: HTTPConnection) -> StoredPlayer:
        player = await self.identify(connection)
        if player is None:
            raise ApiError(429, "too many new players from this address; wait a little "
                           "and try again")
        return player

    async def new_guest(self) -> StoredPlayer:
        for _ in range(20):
            name = guest_name()
            try:
                return await self.store.run(self.queries.create, secrets.token_hex(16),
                                            name, skeleton(name), self.clock.time())
            except NameTaken:
                continue
        raise ApiError(503, "could not find a free guest name; try again")

    async def rename(self, player: StoredPlayer, raw: Any) -> StoredPlayer:
        name = check_name(raw)
        if name == player.name:
            return player
        shape = skeleton(name)
        other = await self.store.run(self.queries.looking_like, shape)
        if other is not None and other.lower() != player.name.lower():
            if other.lower() == name.lower():
                raise ApiError(409, f"the name {name!r} is taken; choose another")
            raise ApiError(409, f"{name!r} looks too much like {other!r}, another player's "
                           "name; choose another")
        try:
            await self.store.run(self.queries.rename, player.id, name, shape)
        except NameTaken:
            raise ApiError(409, f"the name {name!r} is taken; choose another") from None
        found = await self.store.run(self.queries.get, player.id)
        assert found is not None
        return found

    async def claim(self, connection: HTTPConnection, player: StoredPlayer, raw: Any
                    ) -> StoredPlayer:
        """Keep the name with a password (or change it): this session stays signed in,
        every other one of this player is logged out."""
        password = check_password(raw)
        address = client_key(connection)
        await self.passwords.may_change(player.id, address)
        hashed = await self.passwords.hash(password, address)
        session = connection.scope["session"]
        sid = session.get("sid")
        generation = await self.store.run(self.queries.set_password, player.id, hashed,
                                          keys.digest(sid) if isinstance(sid, str) else None)
        session["gen"] = generation
        _remember(session, player.name)  # its owner's device: never held back at login
        found = await self.store.run(self.queries.get, player.id)
        assert found is not None
        return found

    async def login(self, connection: HTTPConnection, raw_name: Any, raw_password: Any
                    ) -> StoredPlayer:
        if not isinstance(raw_name, str) or not isinstance(raw_password, str) or \
                len(raw_name) > 40 or len(raw_password) > 200:
            raise ApiError(400, "a login is {\"name\": NAME, \"password\": PASSWORD}")
        name_key = raw_name.strip().lower()
        address = client_key(connection)
        session = connection.scope["session"]
        known = name_key in session.get("known", [])
        await self.passwords.may_try(name_key, address, known)
        player = await self.store.run(self.queries.by_name, raw_name.strip())
        if player is None or player.password is None or \
                not await self.passwords.matches(player.password, raw_password, address):
            await self.passwords.failed(name_key, address, known)
            raise ApiError(403, "that name and password do not match a player who claimed "
                           "the name")
        await self.passwords.succeeded(name_key, address)
        if self.passwords.needs_rehash(player.password):
            await self.store.run(self.queries.rehash, player.id,
                                 await self.passwords.hash(raw_password, address))
        await self._end(connection)
        await self._sign_in(connection, player)
        return player

    async def logout(self, connection: HTTPConnection) -> None:
        """This session ends, on the server too (a copy of its cookie signs nobody in)."""
        await self._end(connection, logout=True)

    async def update_settings(self, player: StoredPlayer, raw: Any) -> StoredPlayer:
        if not isinstance(raw, dict) or not raw or any(
                key not in SETTINGS or not isinstance(value, bool) for key, value in raw.items()):
            raise ApiError(400, "settings are {\"sound\": true|false, \"notify\": true|false}")
        settings = {**SETTINGS, **player.settings, **raw}
        await self.store.run(self.queries.set_settings, player.id, settings)
        found = await self.store.run(self.queries.get, player.id)
        assert found is not None
        return found

    async def _end(self, connection: HTTPConnection, logout: bool = False) -> None:
        """End this session (the names this device signed in as stay remembered); a
        ``logout`` ends its player's cookies from before sessions were kept, too."""
        session = connection.scope["session"]
        sid = session.get("sid")
        player = session.get("player")
        if isinstance(sid, str):
            await self.store.run(self.queries.end_session, keys.digest(sid),
                                 player if logout and isinstance(player, str) else None)
        known = session.get("known", [])
        session.clear()
        if known:
            session["known"] = known

    async def _sign_in(self, connection: HTTPConnection, player: StoredPlayer) -> None:
        """A new session for ``player`` (a new id: the old one, if any, is ended first)."""
        sid = keys.new_secret()
        await self.store.run(self.queries.start_session, keys.digest(sid), player.id,
                             self.clock.time())
        session = connection.scope["session"]
        known = session.get("known")
        session.clear()
        session.update({"player": player.id, "sid": sid, "gen": player.session_gen})
        if known:
            session["known"] = known
        if not player.guest:
            _remember(session, player.name)


def _remember(session: dict[str, Any], name: str) -> None:
    """This device signed in as ``name`` (the last ``KNOWN`` such names are kept)."""
    earlier = [n for n in session.get("known", []) if isinstance(n, str) and n != name.lower()]
    session["known"] = [name.lower(), *earlier][:KNOWN]
