"""numba, for the compiled solver only: the ``solve`` extra (``pip install 'quarkade[solve]'``).

The reference engine never imports this package; the solver's callers (the ``perfect``
bot, ``quarkade solve``) import it when asked to and turn ``SolverUnavailable`` into a
message that names the extra.
"""

from __future__ import annotations

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


def njit(function):
    """``numba.njit`` with the on-disk cache, so a process compiles the solver once."""
    require()
    return numba.njit(cache=True, nogil=True)(function)


def inline(function):
    """A kernel helper, inlined where it is called (no call, no reference counting)."""
    require()
    return numba.njit(inline="always", cache=True, nogil=True)(function)


__all__ = ["MISSING", "SolverUnavailable", "inline", "njit", "numpy", "require"]
