"""Plug-in bots for the tests, good and bad, and a way to install them as real entry points.

``declare(folder, entries)`` writes what pip leaves in site-packages for a package that
declares plug-in bots (a ``.dist-info`` folder with ``entry_points.txt``); with ``folder``
on ``sys.path`` (or ``PYTHONPATH`` for a subprocess), ``importlib.metadata`` finds them as
it finds any installed package's. The bots live in this module (``tests.rogues``).
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

from quarkade.agents import Agent, Turn

ROGUES = {
    "steady": "tests.rogues:Steady",
    "lowest": "tests.rogues:lowest",
    "raiser": "tests.rogues:Raiser",
    "cheater": "tests.rogues:cheater",
    "dawdler": "tests.rogues:Dawdler",
    "hanger": "tests.rogues:Hanger",
    "catty": "tests.rogues:Catty",
}


def declare(folder: Path, entries: dict[str, str], package: str = "rogues",
            version: str = "0.1") -> Path:
    """``folder`` now holds an installed ``package`` declaring ``entries`` (name -> target)."""
    info = folder / f"{package}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\n"
                                   f"Version: {version}\n", encoding="utf-8")
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[quarkade.agents]\n{lines}", encoding="utf-8")
    return folder


class Clock:
    """A clock the bots below move by hand: time passes only when they say so, for every
    thread, or (``mine_only``) in the moving thread's next reading only, so a caller waiting
    on that thread learns of the time only through what the thread reports."""

    def __init__(self) -> None:
        self.now = 0.0
        self.lock = threading.Lock()
        self.own = threading.local()

    def __call__(self) -> float:
        extra = getattr(self.own, "now", 0.0)
        self.own.now = 0.0
        return self.now + extra

    def advance(self, seconds: float, mine_only: bool = False) -> None:
        if mine_only:
            self.own.now = getattr(self.own, "now", 0.0) + seconds
            return
        with self.lock:
            self.now += seconds


CLOCK = Clock()


class Steady(Agent):
    """A well-behaved plug-in: the lowest legal action, or the highest with ``pick=last``."""

    def __init__(self, pick: str = "first") -> None:
        if pick not in ("first", "last"):
            raise ValueError(f"pick={pick!r}: first or last")
        self.pick = pick
        self.handed: set[type] = set()

    def act(self, turn: Turn, rng: random.Random) -> int:
        self.handed.add(type(turn))
        return turn.legal_actions[0 if self.pick == "first" else -1]


def lowest(turn: Turn, rng: random.Random) -> int:
    """A bot written as a function."""
    return turn.legal_actions[0]


class Raiser:
    """Raises on its ``at``-th move (a plug-in need not subclass Agent)."""

    def __init__(self, at: int = 2) -> None:
        self.at = at
        self.moves = 0

    def act(self, turn: Turn, rng: random.Random) -> int:
        self.moves += 1
        if self.moves >= self.at:
            raise ZeroDivisionError("the bot divided by zero")
        return turn.legal_actions[0]


def cheater(turn: Turn, rng: random.Random) -> int:
    """Answers with an action id that is never legal."""
    return max(turn.legal_actions) + 1000


class Dawdler(Agent):
    """Answers a legal action, but a minute late by ``CLOCK`` (late, not missing: the
    minute passes on its own thread, so the caller learns of it from the answer)."""

    def act(self, turn: Turn, rng: random.Random) -> int:
        CLOCK.advance(60.0, mine_only=True)
        return turn.legal_actions[0]


class Hanger(Agent):
    """Never answers: a busy loop (moving ``CLOCK`` as it spins) until it is stopped."""

    def act(self, turn: Turn, rng: random.Random) -> int:
        while True:
            CLOCK.advance(0.5)


class Catty(Agent):
    """Plays only Dead Cat."""

    games = ("dead-cat",)

    def act(self, turn: Turn, rng: random.Random) -> int:
        return turn.legal_actions[0]


class Quitter(Agent):
    """Takes its whole process down (not in ``ROGUES``: on the web it would end the
    server's bot worker, which the server replaces; in the terminal, the terminal)."""

    def act(self, turn: Turn, rng: random.Random) -> int:
        os._exit(3)
