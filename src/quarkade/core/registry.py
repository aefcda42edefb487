"""The games Quarkade knows, by name, loaded lazily so that importing one game is cheap.

Each name maps to a game package, whose ``__init__.py`` declares the game's parts
(``PARTS``, a ``quarkade.core.parts.GameParts``); ``game_parts`` is how every face finds
them.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType
from typing import Any

from quarkade.core.errors import GameOptionError, QuarkadeError
from quarkade.core.parts import GameParts, GamePartsError
from quarkade.core.protocol import Game

# name -> package. A new game needs one line here, and its package declares its parts.
_GAMES: dict[str, str] = {
    "card-commons": "quarkade.games.card_commons",
    "dead-cat": "quarkade.games.dead_cat",
    "decoherence": "quarkade.games.decoherence",
    "hadronize": "quarkade.games.hadronize",
}
_PARTS: dict[str, GameParts] = {}


def list_games() -> list[str]:
    """The names of the games built so far, sorted."""
    return sorted(_GAMES)


def register_game(name: str, package: str) -> None:
    """Make game ``name`` known, its parts declared in ``package`` (read on first use)."""
    if name in _GAMES and _GAMES[name] != package:
        raise GamePartsError(f"there is already a game named {name!r} ({_GAMES[name]})")
    _GAMES[name] = package
    _PARTS.pop(name, None)


def game_parts(name: str) -> GameParts:
    """What game ``name``'s package provides (its ``PARTS``), checked when the package was
    imported; an unknown name is refused with the list of games."""
    found = _PARTS.get(name)
    if found is not None:
        return found
    try:
        package = _GAMES[name]
    except (KeyError, TypeError):
        raise GameOptionError(
            f"no game named {name!r}; the games are: {', '.join(list_games())}"
        ) from None
    declared = vars(importlib.import_module(package)).get("PARTS")
    if not isinstance(declared, GameParts):
        raise GamePartsError(f"the package {package} of game {name!r} declares no PARTS "
                             "(a quarkade.core.parts.GameParts)")
    if declared.name != name:
        raise GamePartsError(f"the package {package} declares the parts of "
                             f"{declared.name!r}, not of {name!r}")
    _PARTS[name] = declared
    return declared


def game_class(name: str) -> type[Game]:
    """The ``Game`` subclass registered under ``name``."""
    return game_parts(name).rules


def game_package(name: str) -> str:
    """The package holding game ``name`` (its parts and ``rules.md``)."""
    return game_parts(name).package


def game_part(name: str, part: str) -> Any:
    """One of the module parts game ``name`` declares (``"text"``, ``"decks"``,
    ``"lessons"``...); ``GamePartsError`` when it declares no such part."""
    parts = game_parts(name)
    if part in ("lessons", "compiled"):
        return parts.load(part)
    modules: dict[str, object] = {"notation": parts.notation, "text": parts.text,
                                  "encode": parts.encode, "decks": parts.decks,
                                  "lessons": parts.lessons, "compiled": parts.compiled}
    found = modules.get(part)
    if found is None:
        declared = ", ".join(key for key, value in modules.items() if value is not None)
        raise GamePartsError(f"{name} has no {part} part; its module parts are: {declared}")
    return found


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` (``players=`` is an option of every game)."""
    return game_class(name)(**options)


INSTALL_FAST = "pip install 'quarkade[fast]'"


@cache
def has_numba() -> bool:
    """Whether numba is installed, so the compiled engines and solvers can run (asked
    once per process; nothing is imported)."""
    return importlib.util.find_spec("numba") is not None


def has_compiled_engine(name: str) -> bool:
    """Whether game ``name`` has a compiled engine (its ``compiled`` part), whether or not
    numba is installed to run it."""
    return game_parts(name).compiled is not None


def compiled_engine(name: str) -> ModuleType:
    """Game ``name``'s compiled engine (its ``compiled`` part, run by numba); a
    ``QuarkadeError`` says when the game has none or numba is missing."""
    if not has_compiled_engine(name):
        raise QuarkadeError(f"{name} has no compiled engine; use the reference engine")
    if not has_numba():
        raise QuarkadeError(f"the compiled engines need numba: {INSTALL_FAST}")
    return game_parts(name).load("compiled")
