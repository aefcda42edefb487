"""A ledger of settled positions, kept in a file: a long solve resumes where it stopped, and
several worker processes share one solve.

The top levels of a long solve are searched move by move in Python (``TutorialSolver.solve``);
each position settled there whose search took at least ``min_nodes`` nodes is written here
under its least symmetric image, with the same entry as the opening book (0: the seat to
move loses; ``1 + move + 512 * (discard + 1)``: it wins with that move in the key's frame)
or ``WON`` (it wins, the move not kept). A run that finds a position in the ledger takes its
value instead of searching it again.

Workers also *claim* the position they are about to search, so that the others pick
another one first; a claim is only a hint (a worker that has nothing unclaimed left searches
a claimed position as well), and the claim of a process that is gone is ignored.

The file is JSON, rewritten whole under an exclusive ``flock`` and moved into place, so a
reader never sees half of it: ``format``, ``variant``, ``torus``, ``positions`` (hex key ->
entry) and ``claims`` (hex key -> process id).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

LEDGER_FORMAT = 1
WON = -1  # the seat to move wins; its move is not in the ledger


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process
        return True
    return True


class Ledger:
    """Settled positions (packed key -> book entry), in memory and, given a path, on disk."""

    def __init__(self, path: Path | None = None, torus: bool = False,
                 min_nodes: int = 1_000_000) -> None:
        self.path = path
        self.torus = torus
        self.min_nodes = min_nodes
        self.positions: dict[int, int] = {}
        self.claims: dict[int, int] = {}
        self._stamp: tuple[int, int] | None = None
        self.refresh()

    # -- reading ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read what other processes wrote since the last read (cheap when nothing did)."""
        if self.path is None or not self.path.exists():
            return
        stat = self.path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp == self._stamp:
            return
        self._read(self.path.read_text())
        self._stamp = stamp

    def _read(self, text: str) -> None:
        data = json.loads(text)
        if data.get("format") != LEDGER_FORMAT or data.get("variant") != "tutorial":
            raise ValueError(f"{self.path}: not a Tutorial solver ledger of format "
                             f"{LEDGER_FORMAT}")
        if bool(data.get("torus")) != self.torus:
            field = "torus" if data.get("torus") else "flat field"
            raise ValueError(f"{self.path}: a ledger of the {field}, not this field")
        self.positions.update({int(k, 16): int(v) for k, v in data["positions"].items()})
        self.claims = {int(k, 16): int(v) for k, v in data.get("claims", {}).items()}

    def get(self, key: int) -> int | None:
        """The entry for a packed key, or None."""
        return self.positions.get(key)

    def claimed_by_other(self, key: int) -> bool:
        """Whether another live worker said it is searching this position."""
        pid = self.claims.get(key)
        return pid is not None and pid != os.getpid() and _alive(pid)

    # -- writing ----------------------------------------------------------------------------

    def settle(self, key: int, entry: int, nodes: int) -> None:
        """Keep a settled position (on disk when its search took ``min_nodes`` or more)."""
        self.positions[key] = entry
        if nodes >= self.min_nodes or key in self.claims:
            self._write(settled={key: entry}, release=key)

    def claim(self, key: int) -> None:
        """Tell the other workers this process is searching the position now."""
        self.claims[key] = os.getpid()
        self._write(claim=key)

    def release(self) -> None:
        """Drop this process's claims (a search left because the ledger settled it above)."""
        if any(pid == os.getpid() for pid in self.claims.values()):
            self._write(release_all=True)

    def _write(self, settled: dict[int, int] | None = None, claim: int | None = None,
               release: int | None = None, release_all: bool = False) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.with_name(self.path.name + ".lock")
        with open(lock, "a") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            if self.path.exists():
                self._read(self.path.read_text())
            if settled:
                self.positions.update(settled)
            if release is not None and self.claims.get(release) == os.getpid():
                del self.claims[release]
            if release_all:
                self.claims = {k: v for k, v in self.claims.items() if v != os.getpid()}
            if claim is not None:
                self.claims[claim] = os.getpid()
            self.claims = {k: v for k, v in self.claims.items() if _alive(v)}
            data = {"format": LEDGER_FORMAT, "variant": "tutorial", "torus": self.torus,
                    "positions": {f"{k:x}": v for k, v in sorted(self.positions.items())},
                    "claims": {f"{k:x}": v for k, v in sorted(self.claims.items())}}
            fresh = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
            fresh.write_text(json.dumps(data, separators=(",", ":")) + "\n")
            os.replace(fresh, self.path)
            stat = self.path.stat()
            self._stamp = (stat.st_mtime_ns, stat.st_size)


__all__ = ["LEDGER_FORMAT", "WON", "Ledger"]
