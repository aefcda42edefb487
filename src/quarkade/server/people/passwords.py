"""Passwords: hashed off the event loop, a bounded number at once, and guessed at slowly.

Hashing is argon2 (argon2-cffi), deliberately slow, so it is what an attacker would spend:

- at most ``Limits.hashing`` hashes run or wait in a process at once, and one per
  address; one more is refused at once (503, "try again in a moment") rather than
  queued, so a flood of password changes never keeps a real login waiting behind it;
- a password change spends one of the player's ``Limits.password_changes`` and one of
  the address's;
- a login spends one of the address's ``Limits.logins``; a wrong password slows down the
  guesser, not the name: its failures are counted per (name, address), and after
  ``GUESSER.free`` of them that pair waits, twice as long after each further one. A
  name guessed at from many addresses waits as a whole only after ``NAME.free`` failures
  an hour, and even then not for a device that signed in as that name before (its
  session remembers it), so a stranger cannot lock the owner out.

Every count is shared by the server processes when they have a broker (``rates``).
"""

from __future__ import annotations

import asyncio
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from quarkade.server.errors import ApiError
from quarkade.server.limits import Limits
from quarkade.server.rates import Backoff, Rates

GUESSER = Backoff(free=3, first=2.0, longest=300.0, memory=3600.0)  # per (name, address)
NAME = Backoff(free=100, first=2.0, longest=300.0, memory=3600.0)  # per name, from anywhere
BUSY = "the server is busy checking passwords; try again in a moment"


def _in(seconds: float) -> str:
    whole = max(1, math.ceil(seconds))
    return f"{whole} second{'s' if whole != 1 else ''}"


class Passwords:
    """The hashing of one process, and the allowances of logins and password changes."""

    def __init__(self, limits: Limits, rates: Rates) -> None:
        self.limits = limits
        self.rates = rates
        self.hasher = PasswordHasher()
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="quarkade-hash")
        self.admitted: dict[str, int] = {}  # hashes running or waiting now, by address

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    async def hash(self, password: str, address: str) -> str:
        found: str = await self._run(address, self.hasher.hash, password)
        return found

    async def matches(self, stored: str, password: str, address: str) -> bool:
        try:
            await self._run(address, self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False
        return True

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)

    async def may_change(self, player_id: str, address: str) -> None:
        """A password change by ``player_id`` from ``address``, or ``ApiError(429)``."""
        rate = self.limits.password_changes
        if not await self.rates.allow("password", rate, f"player:{player_id}") or \
                not await self.rates.allow("password", rate, f"address:{address}"):
            raise ApiError(429, "too many password changes; wait a few minutes and try "
                           "again")

    async def may_try(self, name_key: str, address: str, known: bool) -> None:
        """A login as ``name_key`` from ``address`` (``known``: this device signed in as
        it before), or ``ApiError(429)`` saying how long to wait."""
        if not await self.rates.allow("login", self.limits.logins, address):
            raise ApiError(429, "too many logins from this address; wait a minute and try "
                           "again")
        if known:
            return
        wait = await self.rates.backoff("guess", f"{name_key}|{address}")
        if wait > 0:
            raise ApiError(429, "too many wrong passwords for this name from here; try "
                           f"again in {_in(wait)}")
        wait = await self.rates.backoff("name", name_key)
        if wait > 0:
            raise ApiError(429, "this name has had many wrong passwords from many places; "
                           f"try again in {_in(wait)}, or from a device you logged in on "
                           "before")

    async def failed(self, name_key: str, address: str, known: bool) -> None:
        """A wrong password: the guesser (and, from an unknown device, the name) waits."""
        if known:
            return
        await self.rates.failed("guess", f"{name_key}|{address}", GUESSER)
        await self.rates.failed("name", name_key, NAME)

    async def succeeded(self, name_key: str, address: str) -> None:
        await self.rates.forget("guess", f"{name_key}|{address}")

    async def _run(self, address: str, work: Any, *args: Any) -> Any:
        admitted = self.admitted
        if sum(admitted.values()) >= self.limits.hashing or address in admitted:
            raise ApiError(503, BUSY)
        admitted[address] = 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
        finally:
            del admitted[address]


__all__ = ["GUESSER", "NAME", "Passwords"]
