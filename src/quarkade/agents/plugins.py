"""Plug-in bots: agents that other packages install, found through the entry-point group
``quarkade.agents`` (``importlib.metadata``). docs/AGENTS.md shows how to write one.

A package declares its bot in its ``pyproject.toml``::

    [project.entry-points."quarkade.agents"]
    mybot = "mybot.bot:MyBot"

The entry point's name is the bot's name in agent specs (``mybot``, ``mybot:depth=3``).
The object it names is either

- a class whose instances have ``act(turn, rng) -> action`` (usually a
  ``quarkade.agents.Agent`` subclass); its constructor's keyword arguments are the spec's
  parameters, as for the built-in bots; or
- a function ``act(turn, rng) -> action`` (a bot with no parameters).

Either may carry ``games``, a tuple of the game names it plays (every game without it).
A plug-in gets exactly what a built-in bot gets, a ``Turn``: its seat's view, never the
state. Every plug-in bot is played under containment (``quarkade.agents.contained``).

Nothing is imported until it is asked for, and then only the plug-ins named: the web
server imports only those its operator allows (``quarkade serve --allow-bots``), since
importing a package runs its code. A plug-in that cannot be imported, has a bad name or
names an unknown game is left out, and ``problems`` says why.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import random
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from quarkade.core.agent import Agent, Turn
from quarkade.core.registry import list_games

GROUP = "quarkade.agents"
NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")


@dataclass(frozen=True)
class PluginBot:
    """One installed plug-in bot: where it comes from and, once loaded, how to make it."""

    name: str
    target: str  # "module:attribute"
    package: str  # "name version" of the distribution that declares it
    factory: Callable[..., Any] | None = None  # None when it cannot be used
    games: tuple[str, ...] | None = None  # None: every game
    problem: str | None = None

    def plays(self, game: str) -> bool:
        return self.factory is not None and (self.games is None or game in self.games)

    def describe(self) -> str:
        return f"plug-in {self.name!r} ({self.target}, from {self.package})"


class FunctionAgent(Agent):
    """A bot written as a function ``act(turn, rng) -> action``."""

    def __init__(self, act: Callable[[Turn, random.Random], int]) -> None:
        self.function = act

    def act(self, turn: Turn, rng: random.Random) -> int:
        return self.function(turn, rng)


def declared() -> dict[str, PluginBot]:
    """Every plug-in bot installed, by name, without importing any (the first package to
    declare a name keeps it; a second is a problem)."""
    return dict(_found()[0])


def installed(allowed: Collection[str] | None = None) -> dict[str, PluginBot]:
    """The plug-in bots named in ``allowed`` (every one when None), each loaded."""
    return {name: _load(bot) for name, bot in _found()[0].items()
            if allowed is None or name in allowed}


def problems(allowed: Collection[str] | None = None) -> list[str]:
    """Why each unusable plug-in (among ``allowed``) is left out, one sentence each."""
    found = [f"{bot.describe()}: {bot.problem}" for bot in installed(allowed).values()
             if bot.problem]
    return [*_found()[1], *found]


def refresh() -> None:
    """Forget what was found, so packages installed since are seen (for tests and tools)."""
    _found.cache_clear()
    _load.cache_clear()
    importlib.invalidate_caches()


@functools.cache
def _found() -> tuple[dict[str, PluginBot], tuple[str, ...]]:
    """The declared bots by name, and the declarations left out for a name already taken."""
    bots: dict[str, PluginBot] = {}
    clashes: list[str] = []
    for point in importlib.metadata.entry_points(group=GROUP):
        dist = point.dist
        package = f"{dist.name} {dist.version}" if dist is not None else "an unknown package"
        bot = PluginBot(point.name, point.value, package)
        if point.name in bots:
            clashes.append(f"{bot.describe()}: the name is taken by "
                           f"{bots[point.name].describe()}; this one is left out")
            continue
        if not NAME.match(point.name):
            bot = _broken(bot, "a bot's name is lower-case letters, digits, - and _, "
                               "starting with a letter")
        bots[point.name] = bot
    return bots, tuple(clashes)


@functools.cache
def _load(bot: PluginBot) -> PluginBot:
    if bot.problem is not None:
        return bot
    module_name, _, attribute = bot.target.partition(":")
    try:
        target: Any = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.strip().split(".")):
            target = getattr(target, part)
    except Exception as problem:  # a broken plug-in must not break the command
        return _broken(bot, f"cannot be loaded: {type(problem).__name__}: {problem}")
    games = getattr(target, "games", None)
    if games is not None:
        if isinstance(games, str) or not all(isinstance(g, str) for g in games):
            return _broken(bot, f"games should be a tuple of game names, not {games!r}")
        unknown = [g for g in games if g not in list_games()]
        if unknown:
            return _broken(bot, f"games names {', '.join(map(repr, unknown))}; the games "
                                f"are {', '.join(list_games())}")
        games = tuple(games)
    if inspect.isclass(target):
        if not callable(getattr(target, "act", None)):
            return _broken(bot, "a bot class needs an act(turn, rng) method")
        factory: Callable[..., Any] = target
    elif callable(target):
        function = target
        factory = functools.partial(FunctionAgent, function)
    else:
        return _broken(bot, f"names {type(target).__name__} object; a bot is a class with "
                            "act(turn, rng), or a function act(turn, rng)")
    return PluginBot(bot.name, bot.target, bot.package, factory, games)


def _broken(bot: PluginBot, problem: str) -> PluginBot:
    return PluginBot(bot.name, bot.target, bot.package, problem=problem)


def parameters(factory: Callable[..., Any]) -> list[str]:
    """The spec parameters a plug-in's factory takes (none for a function bot)."""
    if isinstance(factory, functools.partial):
        return []
    return list(inspect.signature(factory).parameters)


__all__ = ["GROUP", "FunctionAgent", "PluginBot", "declared", "installed", "parameters",
           "problems", "refresh"]
