"""Players: a name for everyone, guests first, a password to keep the name.

On a first visit a person is a *guest* with a generated name (``StrangeMuon417``) kept in
a signed session cookie (Starlette's ``SessionMiddleware``, signed with a key kept
outside the database, ``quarkade.server.keys``, so every process agrees). A guest may
change the name (unique whatever its case, 3-20 letters, digits, ``-`` or ``_``,
starting with a letter) and *claim* it with a password (hashed with argon2-cffi), then
log in with it on another device. Logging in is rate-limited per address and per name.
Claiming or changing a password logs out the name's other sessions. A seat remembers the
player who sat there (``seats.player_id``), so a player holds their seats on every
device they are logged in on.

Settings per player: ``sound`` (a sound on your turn, off by default) and ``notify`` (a
browser notification when it becomes your turn or a game you watch ends).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection

from quarkade.server.clock import Clock
from quarkade.server.errors import ApiError
from quarkade.server.inputs import client_key
from quarkade.server.limits import Limits, RateLimiter
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

ADJECTIVES = ("Strange", "Charmed", "Bare", "Entangled", "Coherent", "Spinning", "Virtual",
              "Quiet", "Bright", "Heavy", "Light", "Polar", "Tunneling", "Superposed")
PARTICLES = ("Quark", "Muon", "Gluon", "Boson", "Photon", "Lepton", "Meson", "Baryon",
             "Pion", "Kaon", "Tau", "Neutrino", "Fermion", "Hadron")

# The player of the request being answered, for the page header (set by ``identify``).
signed_in: ContextVar[StoredPlayer | None] = ContextVar("signed_in", default=None)


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
    """Who is asking: sessions, guests, names, passwords and logins."""

    def __init__(self, store: Store, clock: Clock, limits: Limits) -> None:
        self.store = store
        self.queries = store.players
        self.clock = clock
        self.hasher = PasswordHasher()
        self.hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="quarkade-hash")
        self.login_by_address = RateLimiter(limits.logins, clock)
        self.login_by_name = RateLimiter(limits.logins, clock)
        self.guests = RateLimiter(limits.guests, clock)

    def close(self) -> None:
        self.hashing.shutdown(wait=True)

    async def current(self, connection: HTTPConnection) -> StoredPlayer | None:
        """The player of this session, or None (no session, or logged out elsewhere)."""
        session = connection.scope.get("session")
        if not session or not isinstance(session.get("player"), str):
            return None
        try:
            player = await self.store.run(self.queries.get, session["player"])
        except Unavailable:
            return None
        if player is None or player.session_gen != session.get("gen", 0):
            session.clear()
            return None
        return player

    async def identify(self, connection: HTTPConnection, create: bool = True
                       ) -> StoredPlayer | None:
        """The player asking; a new guest if there is none and ``create`` (within the
        per-address rate: past it, None)."""
        player = await self.current(connection)
        if player is None and create and self.guests.allow(client_key(connection)):
            player = await self.new_guest()
            self._sign_in(connection, player)
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
            try:
                return await self.store.run(self.queries.create, secrets.token_hex(16),
                                            guest_name(), self.clock.time())
            except NameTaken:
                continue
        raise ApiError(503, "could not find a free guest name; try again")

    async def rename(self, player: StoredPlayer, raw: Any) -> StoredPlayer:
        name = check_name(raw)
        if name == player.name:
            return player
        try:
            await self.store.run(self.queries.rename, player.id, name)
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
        hashed = await self._run(self.hasher.hash, password)
        generation = await self.store.run(self.queries.set_password, player.id, hashed)
        connection.scope["session"]["gen"] = generation
        found = await self.store.run(self.queries.get, player.id)
        assert found is not None
        return found

    async def login(self, connection: HTTPConnection, raw_name: Any, raw_password: Any
                    ) -> StoredPlayer:
        if not isinstance(raw_name, str) or not isinstance(raw_password, str) or \
                len(raw_name) > 40 or len(raw_password) > 200:
            raise ApiError(400, "a login is {\"name\": NAME, \"password\": PASSWORD}")
        if not self.login_by_address.allow(client_key(connection)) or \
                not self.login_by_name.allow(raw_name.strip().lower()):
            raise ApiError(429, "too many logins tried; wait a minute and try again")
        player = await self.store.run(self.queries.by_name, raw_name.strip())
        refused = ApiError(403, "that name and password do not match a player who claimed "
                           "the name")
        if player is None or player.password is None:
            raise refused
        try:
            await self._run(self.hasher.verify, player.password, raw_password)
        except (VerificationError, InvalidHashError):
            raise refused from None
        if self.hasher.check_needs_rehash(player.password):
            await self.store.run(self.queries.rehash, player.id,
                                 await self._run(self.hasher.hash, raw_password))
        self._sign_in(connection, player)
        return player

    def logout(self, connection: HTTPConnection) -> None:
        connection.scope["session"].clear()

    async def update_settings(self, player: StoredPlayer, raw: Any) -> StoredPlayer:
        if not isinstance(raw, dict) or not raw or any(
                key not in SETTINGS or not isinstance(value, bool) for key, value in raw.items()):
            raise ApiError(400, "settings are {\"sound\": true|false, \"notify\": true|false}")
        settings = {**SETTINGS, **player.settings, **raw}
        await self.store.run(self.queries.set_settings, player.id, settings)
        found = await self.store.run(self.queries.get, player.id)
        assert found is not None
        return found

    def _sign_in(self, connection: HTTPConnection, player: StoredPlayer) -> None:
        session = connection.scope["session"]
        session.clear()
        session.update({"player": player.id, "gen": player.session_gen})

    async def _run(self, work: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.hashing, work, *args)
