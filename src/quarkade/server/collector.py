"""The garbage collector of a server process, kept from stopping its event loop for long.

CPython finds reference cycles by walking every object it tracks, and its oldest generation
holds everything a process keeps: its games in memory with their states and logs, its
sockets. A full collection in a process holding thousands of games so stops the event loop
(and every page of that process) for hundreds of milliseconds, again and again under load.
So a server process freezes (``gc.freeze``: never walked again) what it made when it
started (modules, the app), and after each full collection what survived it: the next
one walks only what came since. Every ``THAW_SECONDS`` the frozen objects are put back
once, so that cycles among them (a game that left memory, say) are still collected, in one
long walk then. Objects that lose their last reference are freed at once, frozen or not.
Only ``quarkade serve``'s processes do this (``start``); tests and embedders keep the
collector as it is.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

THAW_SECONDS = 600.0


class Collector:
    """A ``gc.callbacks`` entry: freezes what a full collection leaves, thaws it all once
    every ``thaw_seconds`` (by ``clock``)."""

    def __init__(self, thaw_seconds: float = THAW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.thaw_seconds = thaw_seconds
        self.clock = clock
        self.thawed = clock()

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self.clock()
        if now - self.thawed >= self.thaw_seconds:
            gc.unfreeze()  # the next full collection walks everything once
            self.thawed = now
        else:
            gc.freeze()


def start(thaw_seconds: float = THAW_SECONDS) -> Collector:
    """Freeze what the process made so far and keep freezing (see the module)."""
    gc.collect()
    gc.freeze()
    collector = Collector(thaw_seconds)
    gc.callbacks.append(collector)
    return collector
