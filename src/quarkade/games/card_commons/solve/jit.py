"""numba, for the compiled solver only: the ``solve`` extra (``pip install 'quarkade[solve]'``).

The reference engine never imports this package; the solver's callers (the ``perfect``
bot, ``quarkade solve``) import it when asked to and turn ``SolverUnavailable`` into a
message that names the extra.

Its compiled code is kept on disk in a directory of its own, named after a hash of the
solver's modules and every Quarkade module they import (``quarkade.core.jitcache``): its
kernels inline ``table.py``'s and read the rules' constants, which numba's own check (a
function's own file) would not see change.
"""

from __future__ import annotations

from pathlib import Path

from quarkade.core import jitcache
from quarkade.core.errors import QuarkadeError


class SolverUnavailable(QuarkadeError):
    """numba (the ``solve`` extra) is not installed."""


try:
    import numba
    import numpy
except ModuleNotFoundError as missing:  # pragma: no cover - the dev install has numba
    MISSING: str | None = missing.name
else:
    MISSING = None


def require() -> None:
    """Raise ``SolverUnavailable`` with the install hint when numba is missing."""
    if MISSING is not None:
        raise SolverUnavailable(
            f"the Card Commons solver needs numba ({MISSING} is missing): "
            "pip install 'quarkade[solve]'")


def _roots() -> list[Path]:
    """The solver's modules (those that hold compiled code, and this one)."""
    here = Path(__file__).resolve().parent
    return [here / name for name in ("jit.py", "table.py", "tutorial.py", "classic.py",
                                        "proof.py")]


def cache_dir() -> Path:
    """Where the solver's compiled code is kept (see the module docstring)."""
    return jitcache.cache_dir("solve", _roots())


CACHE_DIR = cache_dir()


def njit(function):
    """``numba.njit`` with the on-disk cache, so a process compiles the solver once."""
    require()
    with jitcache.caching_into(numba.config, CACHE_DIR):
        return numba.njit(cache=True, nogil=True)(function)


def inline(function):
    """A kernel helper, inlined where it is called (no call, no reference counting)."""
    require()
    with jitcache.caching_into(numba.config, CACHE_DIR):
        return numba.njit(inline="always", cache=True, nogil=True)(function)


__all__ = ["CACHE_DIR", "MISSING", "SolverUnavailable", "inline", "njit", "numpy", "require"]
