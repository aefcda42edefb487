"""Time, injected: rate limits, invite expiry and bot-turn claims read a ``Clock``, so a
test moves time forward instead of waiting for it."""

from __future__ import annotations

import time
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
    """A clock that moves only when told (tests)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now
