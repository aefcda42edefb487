"""Time, injected: what the server reads instead of ``time.time()``.

Rate limits, invite expiry, bot-turn claims, game clocks and the worker scheduler read a
``Clock``, so a test moves time forward instead of waiting for it (``ManualClock``; its
``advance`` tells whoever listens, such as the deadline watcher, at once).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for intervals)."""

    def time(self) -> float:
        """Seconds since the epoch (for what is stored and shared between processes)."""


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told (tests). ``advance`` tells whoever listens (the
    deadline watcher), from any thread."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start
        self.listeners: list[Callable[[], None]] = []
        self.lock = threading.Lock()

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds
            listeners = list(self.listeners)
        for listener in listeners:
            listener()

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now
