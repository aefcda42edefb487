"""The web app: pages, the JSON API and the live WebSocket, generic over every registered game.

Routes (``{id}`` is a game's id):

- pages: ``/`` (the games), ``/new/{game}`` (the new-game form), ``/rules/{game}``,
  ``/games/{id}`` (the game page), ``/games/{id}/join/{token}`` (an invite link),
  ``/games/{id}/rematch`` (follow to the rematch), ``/games/{id}/replay``,
  ``/games/{id}/record`` (download the record as this device's seat may read it),
  ``/ladder`` and ``/ladder/{game}`` (the bot ladders, ``server/ladder.py``);
- API: ``GET /api/games`` (the catalogue), ``POST /api/games`` (create),
  ``GET /api/games/{id}`` (what a seat sees), ``POST /api/games/{id}/actions``,
  ``POST /api/games/{id}/rematch``, ``GET /api/games/{id}/steps/{step}`` (replay);
- live: ``/ws/games/{id}?seat=N``, sent the seat's payload after every change.

A device proves which seats it holds by the tokens in its cookie ``quarkade_{id}`` (or
``token`` query parameters). Bad input is answered 4xx with a JSON or page error, and
nothing changes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from quarkade.agents import available_agents
from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, list_games
from quarkade.core.words import rules_page
from quarkade.server import pages
from quarkade.server import seats as seating
from quarkade.server.errors import ApiError
from quarkade.server.ladder import ladder_index, ladder_page
from quarkade.server.live import Hub, LiveGame, Watcher
from quarkade.server.storage import DEFAULT_URL, Store

log = logging.getLogger("quarkade.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
MAX_BODY = 64 * 1024
# Nothing is loaded from anywhere but this server; no inline script.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def create_app(db: str = DEFAULT_URL, bot_delay: float = 0.0,
               allow_bots: Collection[str] = (), move_time: float = DEFAULT_MOVE_TIME,
               ladder_dir: str | Path = "ladder") -> Starlette:
    """The ASGI app over the database at ``db`` (a SQLAlchemy URL).

    ``bot_delay`` is a pause in seconds before each bot move, so a person can follow.
    ``allow_bots`` names the plug-in bots seats may use (none by default: a plug-in runs
    its code on the server); each of their moves gets ``move_time`` seconds.
    ``ladder_dir`` is where ``quarkade ladder`` writes the ladders the ``/ladder`` pages show.
    """
    store = Store(db)
    hub = Hub(store, bot_delay=bot_delay, allowed_bots=frozenset(allow_bots),
              move_time=move_time)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await hub.close()
        store.close()

    routes = [
        Route("/", home),
        Route("/new/{game}", new_game_page, methods=["GET", "POST"]),
        Route("/rules/{game}", rules),
        Route("/games/{id}", game_page),
        Route("/games/{id}/join/{token}", join),
        Route("/games/{id}/rematch", follow_rematch),
        Route("/games/{id}/replay", replay_page),
        Route("/games/{id}/record", record),
        Route("/ladder", ladder_index),
        Route("/ladder/{game}", ladder_page),
        Route("/api/games", api_games, methods=["GET", "POST"]),
        Route("/api/games/{id}", api_game),
        Route("/api/games/{id}/actions", api_act, methods=["POST"]),
        Route("/api/games/{id}/rematch", api_rematch, methods=["POST"]),
        Route("/api/games/{id}/steps/{step}", api_step),
        WebSocketRoute("/ws/games/{id}", live_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: _api_error, HTTPException: _http_error, Exception: _server_error})
    app.state.hub = hub
    app.state.store = store
    app.state.ladder_dir = Path(ladder_dir)
    app.add_middleware(SecurityHeaders)
    return app


# -- pages ------------------------------------------------------------------------------


async def home(request: Request) -> Response:
    hub = _hub(request)
    return HTMLResponse(pages.home(catalogue(hub.allowed_bots), hub.store.recent_games(),
                                   _pictures()))


async def new_game_page(request: Request) -> Response:
    game = _known_game(request.path_params["game"])
    allowed = _hub(request).allowed_bots
    others = [entry for entry in catalogue(allowed) if entry["name"] != game]
    if request.method == "GET":
        return HTMLResponse(pages.new_game(game_entry(game, allowed), others))
    form = await request.form()
    values = {key: str(value) for key, value in form.multi_items()}
    options = {key.removeprefix("option."): value for key, value in values.items()
               if key.startswith("option.")}
    try:
        players = game_class(game)(**options).num_players
        specs = [values.get(f"seat{seat}", "") for seat in range(players)]
        live, host_token = await _hub(request).create(game, options, specs)
    except (ApiError, QuarkadeError) as problem:
        message = problem.message if isinstance(problem, ApiError) else str(problem)
        return HTMLResponse(pages.new_game(game_entry(game, allowed), others, values, message),
                            status_code=400)
    response = RedirectResponse(f"/games/{live.id}", status_code=303)
    _set_cookie(response, live.id, [host_token, *_creator_tokens(live)])
    return response


async def rules(request: Request) -> Response:
    game = _known_game(request.path_params["game"])
    return HTMLResponse(pages.rules(game_entry(game, _hub(request).allowed_bots),
                                    rules_page(game)))


async def game_page(request: Request) -> Response:
    live = await _live(request)
    _viewpoint(request, live)  # refuses a seat this device does not hold
    return HTMLResponse(pages.game(live.id, live.name, game_class(live.name).title,
                                   _renderer(live.name), request.query_params.get("seat", "")))


async def replay_page(request: Request) -> Response:
    live = await _live(request)
    _viewpoint(request, live)
    return HTMLResponse(pages.replay(live.id, live.name, game_class(live.name).title,
                                     _renderer(live.name), request.query_params.get("seat", "")))


async def join(request: Request) -> Response:
    hub = _hub(request)
    live, seat = await hub.join(request.path_params["id"], request.path_params["token"])
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    _set_cookie(response, live.id, [*_tokens(request, live.id), request.path_params["token"]])
    return response


async def follow_rematch(request: Request) -> Response:
    live = await _live(request)
    if live.rematch is None:
        raise ApiError(404, "no rematch has been asked for yet")
    response = RedirectResponse(f"/games/{live.rematch}", status_code=303)
    _set_cookie(response, live.rematch, _tokens(request, live.id))
    return response


async def record(request: Request) -> Response:
    live = await _live(request)
    viewpoint = _viewpoint(request, live)
    body = json.dumps(live.record_for(viewpoint), indent=1) + "\n"
    who = "spectator" if viewpoint < 0 else f"seat{viewpoint}"
    return Response(body, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{live.name}-{live.id}-{who}.json"'})


# -- API --------------------------------------------------------------------------------


def catalogue(plugins: Collection[str] = ()) -> list[dict[str, Any]]:
    return [game_entry(name, plugins) for name in list_games()]


def game_entry(name: str, plugins: Collection[str] = ()) -> dict[str, Any]:
    """A game as the new-game form and the home page describe it (with the plug-in bots
    among ``plugins``, the server's allow-list)."""
    cls = game_class(name)
    return {
        "name": name, "title": cls.title, "summary": cls.summary,
        "min_players": cls.min_players, "max_players": cls.max_players,
        "options": [{"name": o.name, "default": o.default, "help": o.help,
                     "kind": o.kind.__name__, "minimum": o.minimum, "maximum": o.maximum,
                     "choices": list(o.choices), "allowed": o.allowed()}
                    for o in cls.option_specs],
        "agents": available_agents(name, plugins),
        "seat_kinds": [seating.YOU, seating.HOTSEAT, seating.FRIEND,
                       *(f"bot:{agent}" for agent in available_agents(name, plugins))],
    }


async def api_games(request: Request) -> Response:
    if request.method == "GET":
        return JSONResponse({"games": catalogue(_hub(request).allowed_bots)})
    body = await _json_body(request)
    game = body.get("game")
    options = body.get("options", {})
    specs = body.get("seats")
    if not isinstance(game, str):
        raise ApiError(400, f"'game' should name a game: one of {', '.join(list_games())}")
    if not isinstance(options, dict):
        raise ApiError(400, "'options' should be an object of option names and values")
    if not isinstance(specs, list):
        raise ApiError(400, "'seats' should be a list with a choice per seat: you, hotseat, "
                       "friend or bot:NAME")
    _known_game(game)
    live, host_token = await _hub(request).create(game, options, specs)
    tokens = {s.seat: s.token for s in live.seats if s.kind in (seating.YOU, seating.HOTSEAT)}
    response = JSONResponse({
        "id": live.id, "url": f"/games/{live.id}", "host_token": host_token, "tokens": tokens,
        "invites": [{"seat": s.seat, "url": f"/games/{live.id}/join/{s.token}"}
                    for s in live.seats if s.kind == seating.FRIEND]}, status_code=201)
    _set_cookie(response, live.id, [host_token, *_creator_tokens(live)])
    return response


async def api_game(request: Request) -> Response:
    live = await _live(request)
    holder = live.holder(_tokens(request, live.id))
    viewpoint = holder.viewpoint(request.query_params.get("seat"), live.state.current_player())
    return JSONResponse(live.payload(viewpoint, holder))


async def api_act(request: Request) -> Response:
    live = await _live(request)
    body = await _json_body(request)
    holder = live.holder(_tokens(request, live.id))
    if "action" not in body or "seat" not in body:
        raise ApiError(400, "a move is {\"seat\": N, \"action\": ID, \"step\": N}; "
                       "'seat' and 'action' are required")
    await live.act(holder, body["seat"], body["action"], body.get("step"))
    return JSONResponse(live.payload(body["seat"], holder))


async def api_rematch(request: Request) -> Response:
    live = await _live(request)
    holder = live.holder(_tokens(request, live.id))
    new = await _hub(request).rematch(live, holder)
    response = JSONResponse({"id": new.id, "url": f"/games/{new.id}"})
    _set_cookie(response, new.id, _tokens(request, live.id))
    return response


async def api_step(request: Request) -> Response:
    live = await _live(request)
    viewpoint = _viewpoint(request, live)
    text = request.path_params["step"]
    if not text.isdigit():
        raise ApiError(400, f"step {text!r} should be a whole number from 0 to {live.step}")
    return JSONResponse(live.step_view(viewpoint, int(text)))


# -- live -------------------------------------------------------------------------------


async def live_socket(socket: WebSocket) -> None:
    """One page's live connection: it is sent its seat's payload now and after every change,
    and may send ``{"type": "act", "action": ID, "step": N}`` or ``{"type": "rematch"}``."""
    await socket.accept()
    try:
        if not _same_origin(socket):
            raise ApiError(403, "this page comes from another site")
        live = await _hub(socket).get(socket.path_params["id"])
        holder = live.holder(_tokens(socket, live.id))
        viewpoint = holder.viewpoint(socket.query_params.get("seat"),
                                     live.state.current_player())
    except ApiError as problem:
        await socket.send_json({"type": "error", "status": problem.status,
                                "message": problem.message})
        await socket.close(code=4000 + problem.status)
        return
    watcher = Watcher(socket.send_json, viewpoint, holder)
    live.watchers.add(watcher)
    try:
        await socket.send_json({"type": "state", **live.payload(viewpoint, holder)})
        while True:
            text = await socket.receive_text()
            try:
                await _handle_message(socket, live, watcher, text)
            except ApiError as problem:
                await socket.send_json({"type": "error", "status": problem.status,
                                        "message": problem.message})
    except WebSocketDisconnect:
        pass
    finally:
        live.watchers.discard(watcher)


async def _handle_message(socket: WebSocket, live: LiveGame, watcher: Watcher,
                          text: str) -> None:
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        raise ApiError(400, "a message is a JSON object such as "
                       "{\"type\": \"act\", \"action\": 21, \"step\": 40}") from None
    if not isinstance(message, dict):
        raise ApiError(400, "a message is a JSON object with a 'type'")
    kind = message.get("type")
    if kind == "act":
        if watcher.viewpoint < 0:
            raise ApiError(403, "a spectator cannot move; open a seat's invite link to play")
        await live.act(watcher.holder, watcher.viewpoint, message.get("action"),
                       message.get("step"))
    elif kind == "rematch":
        new = await _hub(socket).rematch(live, watcher.holder)
        await socket.send_json({"type": "rematch", "id": new.id,
                                "url": f"/games/{live.id}/rematch"})
    elif kind == "ping":
        await socket.send_json({"type": "pong", "step": live.step})
    else:
        raise ApiError(400, f"unknown message type {kind!r}; types: act, rematch, ping")


# -- helpers ----------------------------------------------------------------------------


def _hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


async def _live(request: Request) -> LiveGame:
    return await _hub(request).get(request.path_params["id"])


def _known_game(name: str) -> str:
    if name not in list_games():
        raise ApiError(404, f"no game named {name!r}; the games are: {', '.join(list_games())}")
    return name


def _tokens(connection: HTTPConnection, game_id: str) -> list[str]:
    return seating.tokens_in(connection.cookies.get(seating.cookie_name(game_id)),
                             connection.query_params.getlist("token"))


def _viewpoint(request: Request, live: LiveGame) -> int:
    holder = live.holder(_tokens(request, live.id))
    return holder.viewpoint(request.query_params.get("seat"), live.state.current_player())


def _creator_tokens(live: LiveGame) -> list[str]:
    return [s.token for s in live.seats
            if s.token and s.kind in (seating.YOU, seating.HOTSEAT)]


def _set_cookie(response: Response, game_id: str, tokens: list[str]) -> None:
    response.set_cookie(seating.cookie_name(game_id), seating.cookie_value(tokens),
                        max_age=seating.COOKIE_AGE, path="/", httponly=True, samesite="lax")


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, f"the request body is over {MAX_BODY} bytes")
    try:
        body = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(400, "the request body should be JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the request body should be a JSON object")
    return body


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    if origin is None:
        return True  # not a browser
    host = socket.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


def _renderer(game: str) -> str:
    return f"/static/games/{game}.js" if (STATIC / "games" / f"{game}.js").is_file() else ""


def _pictures() -> dict[str, str]:
    return {name: f"/static/games/{name}.svg" if (STATIC / "games" / f"{name}.svg").is_file()
            else "/static/games/table.svg" for name in list_games()}


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", "").split(",")[0]


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(request, exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "there is no page here", 405: "this address does not take that method"
               }.get(exc.status_code, str(exc.detail))
    return _error(request, exc.status_code, message)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    return _error(request, 500, "something went wrong on the server")


def _error(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return HTMLResponse(pages.error(status, message), status_code=status)


class SecurityHeaders:
    """Adds the content security policy and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
