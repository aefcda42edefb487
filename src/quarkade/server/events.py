"""A small event bus: a domain announces what happened, and whoever cares listens.

A game session emits events (``quarkade.server.play.session``: moved, ruled, finished,
chatted, ...); the hub wires the listeners (the pages and bots of the game, the other
processes through the broker, the lobby, ratings, the deadline watcher), so no domain
reaches into another. Listeners are coroutines, called in the order they were added, one
after the other; an event nobody listens to is dropped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

E = TypeVar("E")
Listener = Callable[[Any], Awaitable[None]]


class Bus:
    """Listeners by event class."""

    def __init__(self) -> None:
        self.listeners: dict[type, list[Listener]] = {}

    def on(self, kind: type[E], listener: Callable[[E], Awaitable[None]]) -> None:
        """Call ``listener(event)`` for every event of class ``kind``."""
        self.listeners.setdefault(kind, []).append(listener)

    async def emit(self, event: object) -> None:
        for listener in list(self.listeners.get(type(event), ())):
            await listener(event)
