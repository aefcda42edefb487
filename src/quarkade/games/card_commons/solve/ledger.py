"""A ledger of settled positions, kept in a file: a long solve resumes where it stopped.

The top levels of a long solve are searched move by move in Python (``TutorialSolver.solve``,
or ``split.solve`` with a pool of workers); each position settled there whose search took at
least ``min_nodes`` nodes is written here under its least symmetric image, with the same
entry as the opening book (0: the seat to move loses; ``1 + move + 512 * (discard + 1)``:
it wins with that move in the key's frame) or ``WON`` (it wins, the move not kept). A run
that finds a position in the ledger takes its value instead of searching it again.

The file is JSON, rewritten whole under an exclusive ``flock`` (so two runs on one file add
to it rather than overwrite each other) and moved into place, so a reader never sees half of
it: ``format``, ``variant``, ``torus`` and ``positions`` (hex key -> entry).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

LEDGER_FORMAT = 1
WON = -1  # the seat to move wins; its move is not in the ledger


class Ledger:
    """Settled positions (packed key -> book entry), in memory and, given a path, on disk."""

    def __init__(self, path: Path | None = None, torus: bool = False,
                 min_nodes: int = 1_000_000) -> None:
        self.path = path
        self.torus = torus
        self.min_nodes = min_nodes
        self.positions: dict[int, int] = {}
        if path is not None and path.exists():
            self._read(path.read_text())

    def _read(self, text: str) -> None:
        data = json.loads(text)
        if data.get("format") != LEDGER_FORMAT or data.get("variant") != "tutorial":
            raise ValueError(f"{self.path}: not a Tutorial solver ledger of format "
                             f"{LEDGER_FORMAT}")
        if bool(data.get("torus")) != self.torus:
            field = "torus" if data.get("torus") else "flat field"
            raise ValueError(f"{self.path}: a ledger of the {field}, not this field")
        self.positions.update({int(k, 16): int(v) for k, v in data["positions"].items()})

    def get(self, key: int) -> int | None:
        """The entry for a packed key, or None."""
        return self.positions.get(key)

    def settle(self, key: int, entry: int, nodes: int) -> None:
        """Keep a settled position (on disk when its search took ``min_nodes`` or more)."""
        self.positions[key] = entry
        if nodes >= self.min_nodes:
            self._write({key: entry})

    def remember(self, entries: dict[int, int]) -> None:
        """Keep settled positions in memory only (the book's entries below a worker's)."""
        self.positions.update(entries)

    def _write(self, settled: dict[int, int]) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.with_name(self.path.name + ".lock")
        with open(lock, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            on_disk: dict[int, int] = {}
            if self.path.exists():
                before = dict(self.positions)
                self.positions = {}
                self._read(self.path.read_text())
                on_disk, self.positions = self.positions, before
            on_disk.update(settled)
            data = {"format": LEDGER_FORMAT, "variant": "tutorial", "torus": self.torus,
                    "positions": {f"{k:x}": v for k, v in sorted(on_disk.items())}}
            fresh = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
            fresh.write_text(json.dumps(data, separators=(",", ":")) + "\n")
            os.replace(fresh, self.path)


__all__ = ["LEDGER_FORMAT", "WON", "Ledger"]
