"""The compiled search loaded ahead: a process that will search (a server worker) loads it
from the disk cache before it is asked anything, so that its first hint, review or search
bot pays only its own time.

``quarkade compile`` compiles the search into the disk cache (``compiled_search.warm_up``)
and then marks that cache as holding it (``mark_ready``). ``load_if_ready`` loads the
search only where the mark is (about a second of CPU, numba's import included); it never
compiles, which takes minutes. The mark sits in the cache's own directory, whose name
changes with the compiled code, so a change to that code leaves no stale mark.

This module is not compiled, so it is no part of the cache's key (``core/jit.py``).
"""

from __future__ import annotations

from pathlib import Path

READY = "search.ready"


def _mark() -> Path:
    from quarkade.core import jit

    return jit.CACHE_DIR / READY


def mark_ready() -> None:
    """Record that the compiled search is in the disk cache (after ``warm_up``)."""
    mark = _mark()
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.write_text("the compiled search is in this cache (quarkade compile)\n")


def load_if_ready() -> bool:
    """Load the compiled search where ``mark_ready`` found it in the cache (numba
    installed); whether it was loaded."""
    from quarkade.core.registry import has_numba

    if not has_numba() or not _mark().exists():
        return False
    from quarkade.agents import compiled_search

    compiled_search.warm_up()
    return True


__all__ = ["READY", "load_if_ready", "mark_ready"]
