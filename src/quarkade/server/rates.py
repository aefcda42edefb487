"""Rates and backoffs that hold across server processes.

With a broker (``redis://...``) every process counts in Redis, so a client gets the same
allowance whether its requests reach one process or several; with none, the one process
counts in memory. Both read the injected clock (``Clock.time``: seconds every process
agrees on), so tests move time instead of waiting.

- ``allow(bucket, rate, key)``: a token bucket per key (``Limits``' rates), atomic in
  Redis (one Lua script).
- ``backoff(bucket, key)`` / ``failed`` / ``forget``: after a few failures a key waits,
  twice as long after each further one (a password guessed at for one name from one
  address: the guesser slows down, the name's owner elsewhere does not).

A Redis that does not answer is not fatal: the process counts in memory meanwhile (each
process then allows its own share) and says so in its log once.
"""

from __future__ import annotations

import logging
import math
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from quarkade.server.clock import Clock
from quarkade.server.limits import Rate

log = logging.getLogger("quarkade.server")

# The address of the client whose request (or socket) is being answered: set by the web
# layer's guard for each, read where every new game is counted (``Seating``).
requester: ContextVar[str | None] = ContextVar("requester", default=None)

# KEYS[1] = the bucket; ARGV = burst, per second, now, TTL. Returns 1 (allowed) or 0.
BUCKET_SCRIPT = """
local held = redis.call('HMGET', KEYS[1], 't', 'w')
local burst = tonumber(ARGV[1])
local now = tonumber(ARGV[3])
local tokens = tonumber(held[1]) or burst
local when = tonumber(held[2]) or now
if now > when then
  tokens = math.min(burst, tokens + (now - when) * tonumber(ARGV[2]))
  when = now
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'w', tostring(when))
redis.call('EXPIRE', KEYS[1], ARGV[4])
return allowed
"""


@dataclass(frozen=True)
class Backoff:
    """``free`` failures, then a wait of ``first`` seconds doubling up to ``longest``;
    failures are forgotten ``memory`` seconds after the last one."""

    free: int = 3
    first: float = 2.0
    longest: float = 300.0
    memory: float = 3600.0

    def wait(self, failures: int) -> float:
        if failures < self.free:
            return 0.0
        return min(self.longest, self.first * 2 ** (failures - self.free))


class Rates(Protocol):
    async def allow(self, bucket: str, rate: Rate, key: str) -> bool:
        """Spend one of ``key``'s tokens in ``bucket`` (False: none left)."""

    async def backoff(self, bucket: str, key: str) -> float:
        """Seconds ``key`` must still wait in ``bucket`` (0: it may try now)."""

    async def failed(self, bucket: str, key: str, policy: Backoff) -> float:
        """Count a failure of ``key``: the seconds it must wait from now."""

    async def forget(self, bucket: str, key: str) -> None:
        """``key`` succeeded: its failures are forgotten."""

    async def close(self) -> None: ...

    def shared(self) -> bool:
        """Whether the counts are shared with the other processes right now."""


class LocalRates:
    """Counts in this process's memory (one process; or a broker that does not answer)."""

    def __init__(self, clock: Clock, max_keys: int = 100_000) -> None:
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}  # -> (tokens, when)
        self.failures: dict[tuple[str, str], tuple[int, float, float]] = {}  # n, until, last

    async def allow(self, bucket: str, rate: Rate, key: str) -> bool:
        return self.spend(bucket, rate, key)

    def spend(self, bucket: str, rate: Rate, key: str) -> bool:
        if rate.per_second == math.inf:
            return True
        now = self.clock.time()
        tokens, when = self.buckets.get((bucket, key), (rate.burst, now))
        if now > when:
            tokens = min(rate.burst, tokens + (now - when) * rate.per_second)
            when = now
        allowed = tokens >= 1
        if len(self.buckets) >= self.max_keys and (bucket, key) not in self.buckets:
            self.buckets.clear()  # a flood of keys: start afresh rather than grow
        self.buckets[bucket, key] = (tokens - 1 if allowed else tokens, when)
        return allowed

    async def backoff(self, bucket: str, key: str) -> float:
        found = self.failures.get((bucket, key))
        return 0.0 if found is None else max(0.0, found[1] - self.clock.time())

    async def failed(self, bucket: str, key: str, policy: Backoff) -> float:
        now = self.clock.time()
        count, _, last = self.failures.get((bucket, key), (0, now, now))
        if now - last > policy.memory:
            count = 0
        count += 1
        wait = policy.wait(count)
        if len(self.failures) >= self.max_keys and (bucket, key) not in self.failures:
            self.failures = {k: v for k, v in self.failures.items()
                             if now - v[2] <= policy.memory}
        self.failures[bucket, key] = (count, now + wait, now)
        return wait

    async def forget(self, bucket: str, key: str) -> None:
        self.failures.pop((bucket, key), None)

    async def close(self) -> None:
        return None

    def shared(self) -> bool:
        return False


class RedisRates:
    """Counts in Redis, shared by every process using it (keys under the broker's
    channel name, so servers on one Redis with different channels never meet)."""

    def __init__(self, url: str, clock: Clock) -> None:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        self.prefix = (query.pop("channel", None) or ["quarkade"])[0] + ":rate:"
        self.url = urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
        self.clock = clock
        self.local = LocalRates(clock)  # while Redis does not answer
        self.client: Any = None
        self.script: Any = None
        self.working = True

    def _redis(self) -> Any:
        if self.client is None:
            import redis.asyncio as redis

            self.client = redis.from_url(self.url, socket_connect_timeout=2,
                                         socket_timeout=2)
            self.script = self.client.register_script(BUCKET_SCRIPT)
        return self.client

    def _lost(self, problem: Exception) -> None:
        if self.working:
            log.warning("the broker's Redis does not answer (%s): rate limits count in "
                        "this process until it does", type(problem).__name__)
        self.working = False

    def _back(self) -> None:
        if not self.working:
            log.warning("the broker's Redis answers again: rate limits are shared again")
        self.working = True

    async def allow(self, bucket: str, rate: Rate, key: str) -> bool:
        if rate.per_second == math.inf:
            return True
        self._redis()
        ttl = max(1, math.ceil(rate.burst / rate.per_second) + 1)
        try:
            allowed = await self.script(keys=[f"{self.prefix}{bucket}:{key}"],
                                        args=[rate.burst, rate.per_second,
                                              repr(self.clock.time()), ttl])
        except Exception as problem:  # Redis is down: count here meanwhile
            self._lost(problem)
            return self.local.spend(bucket, rate, key)
        self._back()
        return bool(allowed)

    async def backoff(self, bucket: str, key: str) -> float:
        client = self._redis()
        try:
            until = await client.hget(f"{self.prefix}{bucket}:{key}", "until")
        except Exception as problem:
            self._lost(problem)
            return await self.local.backoff(bucket, key)
        self._back()
        return 0.0 if until is None else max(0.0, float(until) - self.clock.time())

    async def failed(self, bucket: str, key: str, policy: Backoff) -> float:
        client = self._redis()
        name = f"{self.prefix}{bucket}:{key}"
        now = self.clock.time()
        try:
            count = int(await client.hincrby(name, "count", 1))
            wait = policy.wait(count)
            await client.hset(name, "until", repr(now + wait))
            await client.expire(name, max(1, math.ceil(policy.memory)))
        except Exception as problem:
            self._lost(problem)
            return await self.local.failed(bucket, key, policy)
        self._back()
        return wait

    async def forget(self, bucket: str, key: str) -> None:
        await self.local.forget(bucket, key)
        try:
            await self._redis().delete(f"{self.prefix}{bucket}:{key}")
        except Exception as problem:
            self._lost(problem)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()

    def shared(self) -> bool:
        return self.working


def make_rates(broker: str | None, clock: Clock) -> Rates:
    """Shared through the broker's Redis when there is one, else this process's own."""
    if broker and broker.split("://", 1)[0].lower() in ("redis", "rediss", "unix"):
        return RedisRates(broker, clock)
    return LocalRates(clock)


__all__ = ["Backoff", "LocalRates", "Rates", "RedisRates", "make_rates", "requester"]
