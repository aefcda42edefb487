"""Fan-out between server processes: after a process stores a change to a game, every
other process holding that game in memory hears of it. What the messages say, and their
wire format, is ``quarkade.server.messages``; this module only carries them.

One interface, two back ends: ``LocalBroker`` (one process: nothing to tell anyone) and
``RedisBroker`` (Redis pub/sub through redis-py's asyncio client, one channel for all
games). Why Redis and not PostgreSQL LISTEN/NOTIFY is in docs/ARCHITECTURE.md.

Messages published while one is on its way go out together, in order, as one Redis
message holding their list, so a busy process pays Redis's round trip once per batch,
not once per move; a process drops its own batches unread (``messages.from_wire``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from quarkade.server.messages import Message, Resync, from_wire, to_wire

log = logging.getLogger("quarkade.server")

Deliver = Callable[[Message], Awaitable[None]]


class Broker(Protocol):
    async def start(self, deliver: Deliver) -> None:
        """Begin delivering other processes' messages to ``deliver``."""

    async def publish(self, message: Message) -> None:
        """Tell every other process (never raises: the database already has the change)."""

    async def close(self) -> None: ...

    def healthy(self) -> bool: ...


class LocalBroker:
    """One process: the process that made a change tells its own pages directly."""

    async def start(self, deliver: Deliver) -> None:
        return None

    async def publish(self, message: Message) -> None:
        return None

    async def close(self) -> None:
        return None

    def healthy(self) -> bool:
        return True


class RedisBroker:
    """Redis pub/sub on one channel (``?channel=NAME`` in the URL; default ``quarkade``)."""

    def __init__(self, url: str, origin: str) -> None:
        self.origin = origin  # this process: its batches are dropped when heard back
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        self.channel = (query.pop("channel", None) or ["quarkade"])[0]
        self.url = urlunsplit(parts._replace(query=urlencode(query, doseq=True)))
        self.client: Any = None
        self.sender: Any = None  # one connection for publishing (no pool to pass through)
        self.task: asyncio.Task[None] | None = None
        self.connected = False
        self.outbox: list[tuple[Message, asyncio.Future[None]]] = []  # to send, in order
        self.sending: asyncio.Task[None] | None = None

    async def start(self, deliver: Deliver) -> None:
        import redis.asyncio as redis

        self.client = redis.from_url(self.url, socket_connect_timeout=5,
                                     health_check_interval=15)
        self.sender = redis.from_url(self.url, socket_connect_timeout=5,
                                     health_check_interval=15, single_connection_client=True)
        ready = asyncio.get_running_loop().create_future()
        self.task = asyncio.get_running_loop().create_task(self._listen(deliver, ready))
        try:
            async with asyncio.timeout(10):  # (not wait_for: see play/clocks.py)
                await asyncio.shield(ready)
        except TimeoutError:
            log.warning("the broker at %s is not answering yet; retrying", self._shown())

    async def _listen(self, deliver: Deliver, ready: asyncio.Future[None]) -> None:
        pause = 0.1
        first = True
        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                self.connected = True
                pause = 0.1
                if not ready.done():
                    ready.set_result(None)
                if not first:
                    await deliver(Resync())
                first = False
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    for heard in from_wire(message["data"], self.origin):
                        await deliver(heard)
            except asyncio.CancelledError:
                raise
            except Exception as problem:  # the broker went away: retry, then resync
                self.connected = False
                first = False
                log.warning("broker connection lost (%s); reconnecting",
                            type(problem).__name__)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)

    async def publish(self, message: Message) -> None:
        """Returns once ``message`` was sent (with those queued beside it) or failed."""
        loop = asyncio.get_running_loop()
        sent = loop.create_future()
        self.outbox.append((message, sent))
        if self.sending is None or self.sending.done():
            self.sending = loop.create_task(self._send())
        await asyncio.shield(sent)

    async def _send(self) -> None:
        while self.outbox:
            batch, self.outbox = self.outbox, []
            try:
                await self.sender.publish(self.channel,
                                          to_wire(self.origin, [m for m, _ in batch]))
            except Exception as problem:
                log.warning("could not publish to the broker (%s)", type(problem).__name__)
            finally:
                for _, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.sending is not None:
            await asyncio.gather(self.sending, return_exceptions=True)
        for client in (self.client, self.sender):
            if client is not None:
                await client.aclose()

    def healthy(self) -> bool:
        return self.connected

    def _shown(self) -> str:
        parts = urlsplit(self.url)
        host = parts.hostname or ""
        return f"{parts.scheme}://{host}:{parts.port or 6379}"


def make_broker(url: str | None, origin: str) -> Broker:
    """The broker at ``url`` (``redis://host:port/0``), or the local one for none;
    ``origin`` is this process's id (``Context.process``)."""
    if not url:
        return LocalBroker()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("redis", "rediss", "unix"):
        return RedisBroker(url, origin)
    raise ValueError("a broker URL looks like redis://127.0.0.1:6379/0 (Redis pub/sub)")
