"""The HTML pages: home, the new-game form, rules, the game and replay pages, invite and
device links, following a rematch, and downloading a record. Templates are in ``html``."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class
from quarkade.core.words import rules_page
from quarkade.server import html, inputs
from quarkade.server.common import (
    catalogue,
    check_rate,
    creator_tokens,
    game_entry,
    hub_of,
    known_game,
    live_of,
    pictures,
    rematch_tokens,
    renderer,
    set_cookie,
    viewpoint_of,
)
from quarkade.server.errors import ApiError
from quarkade.server.storage import Unavailable


async def home(request: Request) -> Response:
    hub = hub_of(request)
    try:
        recent = await hub.store.run(hub.store.recent_games)
    except Unavailable:
        recent = []
    return HTMLResponse(html.home(catalogue(hub.allowed_bots), recent, pictures()))


async def new_game_page(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    allowed = hub_of(request).allowed_bots
    others = [entry for entry in catalogue(allowed) if entry["name"] != game]
    if request.method == "GET":
        return HTMLResponse(html.new_game(game_entry(game, allowed), others))
    check_rate(request, "create", "new games")
    form = await request.form(max_files=0, max_fields=100, max_part_size=4096)
    values = {key: str(value)[:200] for key, value in form.multi_items()}
    options = {key.removeprefix("option."): value for key, value in values.items()
               if key.startswith("option.")}
    try:
        players = game_class(game)(**options).num_players
        specs = [values.get(f"seat{seat}", "") for seat in range(players)]
        live, host_token = await hub_of(request).create(game, options, specs,
                                                        values.get("visibility"))
    except (ApiError, QuarkadeError) as problem:
        message = problem.message if isinstance(problem, ApiError) else str(problem)
        status = problem.status if isinstance(problem, ApiError) else 400
        return HTMLResponse(html.new_game(game_entry(game, allowed), others, values, message),
                            status_code=status)
    response = RedirectResponse(f"/games/{live.id}", status_code=303)
    set_cookie(response, live.id, [host_token, *creator_tokens(live)])
    return response


async def rules(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    return HTMLResponse(html.rules(game_entry(game, hub_of(request).allowed_bots),
                                   rules_page(game)))


async def game_page(request: Request) -> Response:
    live = await live_of(request)
    viewpoint_of(request, live)  # refuses a seat this device does not hold
    return HTMLResponse(html.game(live.id, live.name, game_class(live.name).title,
                                  renderer(live.name), request.query_params.get("seat", "")))


async def replay_page(request: Request) -> Response:
    live = await live_of(request)
    viewpoint_of(request, live)
    return HTMLResponse(html.replay(live.id, live.name, game_class(live.name).title,
                                    renderer(live.name), request.query_params.get("seat", "")))


async def join(request: Request) -> Response:
    """An invite link: the first device to open it gets the seat's secret (in its cookie);
    the link is spent."""
    held = inputs.tokens(request, request.path_params["id"])
    live, seat, token = await hub_of(request).join(request.path_params["id"],
                                                   request.path_params["token"], held)
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*held, *([token] if token else [])])
    return response


async def link(request: Request) -> Response:
    """A device link made by a seat's holder: this device now holds the seat too."""
    held = inputs.tokens(request, request.path_params["id"])
    live, seat, token = await hub_of(request).use_link(request.path_params["id"],
                                                       request.path_params["code"])
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*held, token])
    return response


async def follow_rematch(request: Request) -> Response:
    live = await live_of(request)
    if live.rematch is None:
        raise ApiError(404, "no rematch has been asked for yet")
    new = await hub_of(request).get(live.rematch)
    response = RedirectResponse(f"/games/{new.id}", status_code=303)
    old_tokens = inputs.tokens(request, live.id)
    set_cookie(response, new.id, [*inputs.tokens(request, new.id),
                                  *rematch_tokens(live, new, old_tokens)])
    return response


async def record(request: Request) -> Response:
    live = await live_of(request)
    viewpoint = viewpoint_of(request, live)
    body = json.dumps(live.record_for(viewpoint), indent=1) + "\n"
    who = "spectator" if viewpoint < 0 else f"seat{viewpoint}"
    return Response(body, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{live.name}-{live.id}-{who}.json"'})
