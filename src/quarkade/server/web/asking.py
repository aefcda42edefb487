"""Who is asking, and what for: what the page, API and socket routes share (the site, the
player, the game asked for and what this device holds in it, cookies, rates).

A device proves what it holds in a game with the secrets in that game's cookie
(``quarkade_<game id>``, HttpOnly), or a script with ``Authorization: Bearer
SECRET[.SECRET...]``. No secret is taken from an address: an address ends up in
histories, Referer headers and proxy logs. (A page opened with ``?token=`` is the one
exception: it is answered with a redirect to the same address without it, and the cookie
holds the secret from then on, ``exchange``.)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response

from quarkade.server import inputs
from quarkade.server.errors import ApiError
from quarkade.server.people.players import turns_waiting
from quarkade.server.play import seats as seating
from quarkade.server.play.session import GameSession
from quarkade.server.storage import Unavailable
from quarkade.server.storage.players import StoredPlayer
from quarkade.server.web.site import Site

COOKIE_PREFIX = "quarkade_"
COOKIE_AGE = 60 * 60 * 24 * 60  # two months
MOST_SECRETS = 32  # secrets one device keeps for one game
SECRET = re.compile(r"[A-Za-z0-9_-]{1,64}")
NOT_IN_ADDRESS = ("secrets are not taken from the address (it ends up in histories and "
                  "logs): send them in the game's cookie, or as 'Authorization: Bearer "
                  "SECRET'")


def site_of(connection: HTTPConnection) -> Site:
    found: Site = connection.app.state.site
    return found


async def me(connection: HTTPConnection, create: bool = False) -> StoredPlayer | None:
    """The player asking (a new guest when ``create`` and there is none). For a page (not
    the API) it also counts the player's games waiting for their move, which the header
    shows."""
    player = await site_of(connection).players.identify(connection, create)
    if not connection.url.path.startswith("/api/"):
        await count_turns(connection, player)
    return player


async def count_turns(connection: HTTPConnection, player: StoredPlayer | None) -> None:
    """Count ``player``'s games waiting for their move, for the page's header (one
    query: each move stores whose turn it is)."""
    if player is None:
        turns_waiting.set(0)
        return
    with contextlib.suppress(Unavailable):  # the header goes without the count
        turns_waiting.set(await turns_of(connection, player))


async def turns_of(connection: HTTPConnection, player: StoredPlayer) -> int:
    """How many of ``player``'s games wait for their move (one query)."""
    store = site_of(connection).ctx.store
    return await store.run(store.players.turns_waiting, player.id)


def client_of(connection: HTTPConnection, player: StoredPlayer | None) -> str:
    """Whose CPU work this request is (the worker scheduler's client): the player, else
    the address."""
    if player is not None:
        return f"player:{player.id}"
    return f"address:{inputs.client_key(connection)}"


def cookie_name(game_id: str) -> str:
    return COOKIE_PREFIX + game_id


def cookie_value(tokens: Iterable[str]) -> str:
    """The secrets as a cookie holds them (only what could be one of ours: URL-safe
    letters, digits, ``-`` and ``_``)."""
    return ".".join(dict.fromkeys(t for t in tokens if SECRET.fullmatch(t)))


def tokens(connection: HTTPConnection, game_id: str) -> list[str]:
    """The secrets this device holds for ``game_id``: its cookie's and its bearer's."""
    if "token" in connection.query_params:
        raise ApiError(400, NOT_IN_ADDRESS)
    found = (connection.cookies.get(cookie_name(game_id)) or "").split(".")
    header = connection.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer":
        found += value.strip().split(".")
    return [t for t in found if t][:MOST_SECRETS]


async def holder_of(connection: HTTPConnection, session: GameSession) -> seating.Holder:
    """What this device holds in ``session``: its secrets' seats and its player's seats."""
    player = await site_of(connection).players.current(connection)
    return session.holder(tokens(connection, session.id),
                          None if player is None else player.id)


RATES = {"moves": "http_moves", "deck tests": "deck_tests"}  # Limits' rate for each


async def check_rate(connection: HTTPConnection, name: str, what: str) -> None:
    """Spend one of this address's ``name`` allowance (shared by every process), or 429."""
    ctx = site_of(connection).ctx
    rate = getattr(ctx.limits, RATES[name])
    if not await ctx.rates.allow(name, rate, inputs.client_key(connection)):
        raise ApiError(429, f"too many {what} from this address; wait a little and try again")


async def session_of(request: Request) -> GameSession:
    return await site_of(request).hub.get(request.path_params["id"])


async def viewpoint_of(request: Request, session: GameSession) -> int:
    holder = await holder_of(request, session)
    return holder.viewpoint(request.query_params.get("seat"), session.state.current_player())


def set_cookie(response: Response, game_id: str, secrets: Iterable[str]) -> None:
    response.set_cookie(cookie_name(game_id), cookie_value(secrets),
                        max_age=COOKIE_AGE, path="/", httponly=True, samesite="lax")


def exchange(request: Request, session: GameSession) -> Response | None:
    """A page of ``session`` asked with ``?token=SECRET``: the same page without it, the
    secret kept in the game's cookie instead (None: nothing to exchange)."""
    given = request.query_params.getlist("token")
    if not given:
        return None
    game_id = session.id
    rest = [(key, value) for key, value in request.query_params.multi_items()
            if key != "token"]
    clean = request.url.path + (f"?{urlencode(rest)}" if rest else "")
    response = RedirectResponse(clean, status_code=303)
    held = (request.cookies.get(cookie_name(game_id)) or "").split(".")
    set_cookie(response, game_id, [*held, *given][:MOST_SECRETS])
    response.headers["cache-control"] = "no-store"
    return response


async def body_of(request: Request, optional: bool = False) -> dict[str, Any]:
    """The request's JSON object (``optional``: an empty body reads ``{}``)."""
    limits = site_of(request).ctx.limits
    return await inputs.json_body(request, limits.body_bytes, limits.number_digits,
                                  optional)
