"""The bot specs a web client may ask for: a spec is checked against per-parameter bounds
(finite numbers, a cap on search time and iterations, known parameters only) before any
game is made. Whatever a spec asks for, a bot's move costs at most the thinking budget the
worker scheduler gives it (``quarkade.server.work``); these bounds only keep specs sane.

Plug-in bots (``quarkade.agents.plugins``) play only if the operator allows them by name
(``plugins``, from ``quarkade serve --allow-bots``): the catalogue, the spec check and the
worker processes see those and no other, and no other is even imported. A plug-in's spec
may set the parameters its own constructor takes (finite numbers or short words), checked
here without running any of its code.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Collection
from typing import Any

from quarkade.agents.registry import (
    agent_factory,
    agent_parameters,
    builtin_agents,
    is_plugin,
    make_agent,
    parse_spec,
)
from quarkade.core.errors import GameOptionError, QuarkadeError
from quarkade.core.options import Option
from quarkade.server.errors import ApiError

log = logging.getLogger("quarkade.server")

MAX_SPEC = 100  # characters
PLUGIN_WORD = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")


def check_spec(game: str, spec: str, plugins: Collection[str] = ()) -> str:
    """``spec`` (as typed after ``bot:``) if the web may ask for it, else ``ApiError(400)``;
    ``plugins`` names the plug-in bots this server allows."""
    spec = spec.strip()
    if len(spec) > MAX_SPEC:
        raise ApiError(400, f"a bot spec is at most {MAX_SPEC} characters")
    try:
        name, params = parse_spec(spec)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    if is_plugin(spec, game):
        return _check_plugin_spec(game, spec, name, params, plugins)
    declared = {option.name: option.on_server() for option in _parameters(game, name)
                if not option.local_only}
    for key, value in params.items():
        if key not in declared:
            names = ", ".join(declared) or "none"
            raise ApiError(400, f"bot {name!r} takes no parameter {key!r}; "
                           f"parameters: {names}")
        try:
            declared[key].coerce(f"bot {name!r}", value, "parameter")
        except GameOptionError as problem:
            raise ApiError(400, f"{problem} on this server") from None
    try:
        make_agent(spec, game, plugins=plugins)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    return spec


def check_plays(game: Any, spec: str) -> None:
    """``ApiError(400)`` if the bot of ``spec`` cannot play ``game`` (a reference Game with
    its options): a learned bot's network plays only the options it was trained for."""
    name, params = parse_spec(spec)
    if name != "learned" or not params.get("name"):
        return
    from quarkade.agents.learned import named_for, option_words, untrained

    trained = dict(named_for(game.name)).get(params["name"])
    if trained is None:
        return  # check_spec has answered for a name no checkpoint of this game has
    differs = untrained(trained, game.options)
    if differs:  # "was trained for variant tutorial and torus off"
        raise ApiError(400, f"Learned bot ({params['name']}) was trained for "
                       f"{option_words(differs)} and plays only such games: choose those "
                       "options, or another bot")


def _check_plugin_spec(game: str, spec: str, name: str, params: dict[str, str],
                       plugins: Collection[str]) -> str:
    """A plug-in's spec: allowed here, for this game, with parameters its constructor takes
    (checked without running any of its code: that runs only in the workers)."""
    try:
        agent_factory(spec, game, plugins)
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    for key, value in params.items():
        if _finite(value) is None and (not PLUGIN_WORD.match(value) or
                                       value.lower() in ("nan", "inf", "infinity")):
            raise ApiError(400, f"bot {name!r}: {key}={value!r}; a plug-in's parameter is "
                           "a finite number or a word (letters, digits, - and _)")
    return spec


def _finite(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _parameters(game: str, name: str) -> tuple[Option, ...]:
    """The parameters built-in agent ``name`` declares (none for a level; an unknown name
    is left to make_agent)."""
    if name not in builtin_agents(game):
        return ()
    return agent_parameters(game, name)
