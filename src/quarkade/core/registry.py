"""The games Quarkade knows, by name, loaded lazily so that importing one game is cheap."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any

from quarkade.core.errors import GameOptionError, QuarkadeError
from quarkade.core.protocol import Game

# name -> "module:GameClass". A new game needs one line here (and its rules, view, renderer).
_GAMES: dict[str, str] = {
    "card-commons": "quarkade.games.card_commons.rules:CardCommonsGame",
    "dead-cat": "quarkade.games.dead_cat.rules:DeadCatGame",
    "decoherence": "quarkade.games.decoherence.rules:DecoherenceGame",
    "hadronize": "quarkade.games.hadronize.rules:HadronizeGame",
}


def list_games() -> list[str]:
    """The names of the games built so far, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The ``Game`` subclass registered under ``name``."""
    try:
        target = _GAMES[name]
    except (KeyError, TypeError):
        raise GameOptionError(
            f"no game named {name!r}; the games are: {', '.join(list_games())}"
        ) from None
    module_name, _, class_name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def game_package(name: str) -> str:
    """The package holding game ``name`` (its ``text``, ``bots`` and ``rules.md``)."""
    game_class(name)  # refuses unknown names with the list of games
    return _GAMES[name].partition(":")[0].rpartition(".")[0]


def game_part(name: str, part: str) -> Any:
    """A module of game ``name``'s package, such as ``"text"`` or ``"bots"``."""
    return importlib.import_module(f"{game_package(name)}.{part}")


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
    """Whether game ``name`` has a compiled engine (``compiled.py`` beside its rules),
    whether or not numba is installed to run it."""
    return importlib.util.find_spec(f"{game_package(name)}.compiled") is not None


def compiled_engine(name: str) -> Any:
    """Game ``name``'s compiled engine (its ``compiled`` module, run by numba); a
    ``QuarkadeError`` says when the game has none or numba is missing."""
    if not has_compiled_engine(name):
        raise QuarkadeError(f"{name} has no compiled engine; use the reference engine")
    if not has_numba():
        raise QuarkadeError(f"the compiled engines need numba: {INSTALL_FAST}")
    return game_part(name, "compiled")
