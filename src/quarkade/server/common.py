"""What the page, API and socket routes share: the hub, the players, the game asked for,
what a device holds, the catalogue (options in words), cookies, rate limits."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from quarkade.agents import available_agents
from quarkade.agents.registry import agent_summary, builtin_agents
from quarkade.core.registry import game_class, game_parts, list_games
from quarkade.server import inputs
from quarkade.server import seats as seating
from quarkade.server.errors import ApiError
from quarkade.server.hub import Hub
from quarkade.server.limits import RateLimiter
from quarkade.server.live import LiveGame
from quarkade.server.players import Players
from quarkade.server.storage.players import StoredPlayer

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def hub_of(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def players_of(connection: HTTPConnection) -> Players:
    found: Players = connection.app.state.players
    return found


async def me(connection: HTTPConnection, create: bool = False) -> StoredPlayer | None:
    """The player asking (a new guest when ``create`` and there is none)."""
    return await players_of(connection).identify(connection, create)


async def holder_of(connection: HTTPConnection, live: LiveGame) -> seating.Holder:
    """What this device holds in ``live``: its tokens' seats and its player's seats."""
    player = await players_of(connection).current(connection)
    return live.holder(inputs.tokens(connection, live.id), None if player is None
                       else player.id)


def limiter(connection: HTTPConnection, name: str) -> RateLimiter:
    found: RateLimiter = connection.app.state.limiters[name]
    return found


def check_rate(connection: HTTPConnection, name: str, what: str) -> None:
    if not limiter(connection, name).allow(inputs.client_key(connection)):
        raise ApiError(429, f"too many {what} from this address; wait a little and try again")


async def live_of(request: Request) -> LiveGame:
    return await hub_of(request).get(request.path_params["id"])


def known_game(name: str) -> str:
    if name not in list_games():
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ApiError(404, f"no game named {shown!r}; the games are: {', '.join(list_games())}")
    return name


async def viewpoint_of(request: Request, live: LiveGame) -> int:
    holder = await holder_of(request, live)
    return holder.viewpoint(request.query_params.get("seat"), live.state.current_player())


def creator_tokens(live: LiveGame) -> list[str]:
    return [s.token for s in live.seats
            if s.token and s.kind in (seating.YOU, seating.HOTSEAT)]


def set_cookie(response: Response, game_id: str, tokens: list[str]) -> None:
    response.set_cookie(seating.cookie_name(game_id), seating.cookie_value(tokens),
                        max_age=seating.COOKIE_AGE, path="/", httponly=True, samesite="lax")


def catalogue(plugins: Collection[str] = ()) -> list[dict[str, Any]]:
    return [game_entry(name, plugins) for name in list_games()]


def game_entry(name: str, plugins: Collection[str] = ()) -> dict[str, Any]:
    """A game as the new-game form and the home page describe it (with the plug-in bots
    among ``plugins``, the server's allow-list)."""
    cls = game_class(name)
    agents = available_agents(name, plugins)
    return {
        "name": name, "title": cls.title, "summary": cls.summary,
        "min_players": cls.min_players, "max_players": cls.max_players,
        "options": [{"name": o.name, "default": o.default, "help": option_help(o.help),
                     "label": option_label(o.name), "kind": o.kind.__name__,
                     "minimum": o.minimum, "maximum": o.maximum,
                     "choices": list(o.choices), "allowed": o.allowed(),
                     "seat": _seat_of_option(cls, o.name),
                     "deck": o.name in deck_options(name)}
                    for o in cls.option_specs],
        "agents": agents,
        "seat_kinds": [seating.YOU, seating.OPEN, seating.FRIEND, seating.HOTSEAT,
                       *(f"bot:{agent}" for agent in agents)],
        "visibilities": list(seating.VISIBILITIES),
        "deck_builder": name in deck_games(),
        "presets": list(decks.PRESETS) if (decks := game_parts(name).decks) else [],
        "hides": not cls.perfect_information,
        "more_bots": more_bots(name),
    }


def more_bots(game: str) -> list[dict[str, Any]]:
    """The built-in bots of ``game`` whose spec may set parameters, each with what it does
    and its parameters as this server allows them (the "More bots" of the new-game form):
    all read from the bots' own declarations (``Agent.parameters``)."""
    found = []
    for name, agent in sorted(builtin_agents(game).items()):
        if not agent.parameters:
            continue
        found.append({"name": name, "about": agent_summary(agent), "parameters": [
            {"name": option.name, "default": option.default, "help": option.help,
             "allowed": option.on_server().allowed()}
            for option in agent.parameters]})
    return found


RULING_ID = re.compile(r"\s*\((?:see )?[A-Z]{1,3}-\d+\)|;?\s*see [A-Z]{1,3}-\d+")


def option_help(text: str) -> str:
    """An option's help as players read it: without the rulings' ids (those are for
    developers, in docs/RULINGS.md)."""
    return RULING_ID.sub("", text).strip()


def option_label(name: str) -> str:
    """An option's name in words: ``max_turns`` -> ``Max turns``, ``deck1`` -> ``Deck of
    seat 1``."""
    found = re.fullmatch(r"([a-z_]+?)(\d+)", name)
    if found:
        return f"{found.group(1).replace('_', ' ').capitalize()} of seat {found.group(2)}"
    return name.replace("_", " ").capitalize()


def describe_options(game: str, options: dict[str, Any]) -> list[str]:
    """The options that differ from the defaults, in words (``Goal: 8``); a seat's own
    options (a deck) are never shown, since they may be secret."""
    cls = game_class(game)
    described = []
    for option in cls.option_specs:
        if option.name == "players" or _seat_of_option(cls, option.name) is not None:
            continue
        value = options.get(option.name, option.default)
        if value != option.default:
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            described.append(f"{option_label(option.name)}: {shown}")
    return described


def _seat_of_option(cls: Any, name: str) -> int | None:
    for seat in range(cls.max_players):
        if name in cls.seat_option_names(seat):
            return seat
    return None


def deck_options(game: str) -> tuple[str, ...]:
    """The options of ``game`` that take a seat's deck (a saved deck may fill them)."""
    decks = game_parts(game).decks
    if decks is None:
        return ()
    return tuple(decks.DECK_OPTION.format(seat=seat)
                 for seat in range(game_class(game).max_players))


@cache
def deck_games() -> tuple[str, ...]:
    """The games with a deck builder: they declare a ``decks`` part (Decoherence)."""
    return tuple(name for name in list_games() if game_parts(name).decks is not None)


def renderer(game: str) -> str:
    return f"/static/games/{game}.js" if (STATIC / "games" / f"{game}.js").is_file() else ""


def pictures() -> dict[str, str]:
    return {name: f"/static/games/{name}.svg" if (STATIC / "games" / f"{name}.svg").is_file()
            else "/static/games/table.svg" for name in list_games()}


def rematch_tokens(old: LiveGame, new: LiveGame, tokens: list[str]) -> list[str]:
    """The rematch's secrets for what this device held in the old game: each held seat's
    new token, and the new host token for the old host. Nothing else."""
    holder = old.holder(tokens)  # the device's own tokens (a player holds seats anyway)
    found = [s.token for s in new.seats if s.seat in holder.seats and s.token]
    return [*(([new.host_token]) if holder.host else []), *found]


def reveal_note(live: LiveGame) -> str:
    """What the table agreed about hidden cards after the game, in words (every seat is
    shown it, on the game page and before taking a seat); empty when nothing is hidden."""
    if live.game.perfect_information:
        return ""
    if live.revealing:
        return "The game is over: every hidden card is shown, as the table chose."
    if live.reveal:
        return "Every hidden card will be shown to everyone once the game is over."
    return "Hidden cards stay hidden after the game."
