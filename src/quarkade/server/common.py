"""What the page, API and socket routes share: the hub, the game asked for, the catalogue,
cookies, rate limits."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from quarkade.agents import available_agents
from quarkade.core.registry import game_class, list_games
from quarkade.server import inputs
from quarkade.server import seats as seating
from quarkade.server.errors import ApiError
from quarkade.server.hub import Hub
from quarkade.server.limits import RateLimiter
from quarkade.server.live import LiveGame

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


def hub_of(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


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


def viewpoint_of(request: Request, live: LiveGame) -> int:
    holder = live.holder(inputs.tokens(request, live.id))
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
        "options": [{"name": o.name, "default": o.default, "help": o.help,
                     "kind": o.kind.__name__, "minimum": o.minimum, "maximum": o.maximum,
                     "choices": list(o.choices), "allowed": o.allowed()}
                    for o in cls.option_specs],
        "agents": agents,
        "seat_kinds": [seating.YOU, seating.HOTSEAT, seating.FRIEND,
                       *(f"bot:{agent}" for agent in agents)],
        "visibilities": list(seating.VISIBILITIES),
    }


def renderer(game: str) -> str:
    return f"/static/games/{game}.js" if (STATIC / "games" / f"{game}.js").is_file() else ""


def pictures() -> dict[str, str]:
    return {name: f"/static/games/{name}.svg" if (STATIC / "games" / f"{name}.svg").is_file()
            else "/static/games/table.svg" for name in list_games()}


def rematch_tokens(old: LiveGame, new: LiveGame, tokens: list[str]) -> list[str]:
    """The rematch's secrets for what this device held in the old game: each held seat's
    new token, and the new host token for the old host. Nothing else."""
    holder = old.holder(tokens)
    found = [s.token for s in new.seats if s.seat in holder.seats and s.token]
    return [*(([new.host_token]) if holder.host else []), *found]
