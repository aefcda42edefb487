"""The JSON API: the catalogue, making games, what a seat sees, moves, joining by invite,
renewing invites, linking another device, rematches, replay steps, and health."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from quarkade.core.registry import list_games
from quarkade.server import inputs
from quarkade.server import seats as seating
from quarkade.server.common import (
    catalogue,
    check_rate,
    creator_tokens,
    hub_of,
    known_game,
    live_of,
    rematch_tokens,
    set_cookie,
    viewpoint_of,
)
from quarkade.server.errors import ApiError
from quarkade.server.storage import Unavailable


async def body_of(request: Request) -> dict[str, Any]:
    limits = hub_of(request).limits
    return await inputs.json_body(request, limits.body_bytes, limits.number_digits)


async def games(request: Request) -> Response:
    if request.method == "GET":
        return JSONResponse({"games": catalogue(hub_of(request).allowed_bots)})
    check_rate(request, "create", "new games")
    body = await body_of(request)
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
    known_game(game)
    live, host_token = await hub_of(request).create(game, options, specs,
                                                    body.get("visibility"))
    tokens = {s.seat: s.token for s in live.seats if s.kind in (seating.YOU, seating.HOTSEAT)}
    response = JSONResponse({
        "id": live.id, "url": f"/games/{live.id}", "host_token": host_token, "tokens": tokens,
        "visibility": live.visibility,
        "invites": [{"seat": s.seat, "url": f"/games/{live.id}/join/{s.invite}"}
                    for s in live.seats if s.kind == seating.FRIEND and s.invite]},
        status_code=201)
    set_cookie(response, live.id, [host_token, *creator_tokens(live)])
    return response


async def game(request: Request) -> Response:
    live = await live_of(request)
    holder = live.holder(inputs.tokens(request, live.id))
    viewpoint = holder.viewpoint(request.query_params.get("seat"), live.state.current_player())
    return JSONResponse(live.payload(viewpoint, holder))


async def act(request: Request) -> Response:
    check_rate(request, "moves", "moves")
    live = await live_of(request)
    body = await body_of(request)
    holder = live.holder(inputs.tokens(request, live.id))
    if "action" not in body or "seat" not in body:
        raise ApiError(400, "a move is {\"seat\": N, \"action\": ID, \"step\": N}; "
                       "'seat', 'action' and 'step' are required")
    await live.act(holder, body["seat"], body["action"], body.get("step"))
    return JSONResponse(live.payload(body["seat"], holder))


async def join(request: Request) -> Response:
    """Spend an invite code (``{"invite": CODE}``): the seat and its new secret."""
    body = await body_of(request)
    invite = body.get("invite")
    if not isinstance(invite, str) or not 0 < len(invite) <= 64:
        raise ApiError(400, "a join is {\"invite\": CODE}, the last part of the invite link")
    held = inputs.tokens(request, request.path_params["id"])
    live, seat, token = await hub_of(request).join(request.path_params["id"], invite, held)
    response = JSONResponse({"seat": seat, "token": token, "url": f"/games/{live.id}?seat={seat}"})
    set_cookie(response, live.id, [*held, *([token] if token else [])])
    return response


async def renew_invite(request: Request) -> Response:
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = live.holder(inputs.tokens(request, live.id))
    invite = await hub_of(request).renew_invite(live, holder, seat)
    return JSONResponse({"seat": seat, "url": f"/games/{live.id}/join/{invite}"})


async def link(request: Request) -> Response:
    """A one-time address that gives another device this seat (asked by its holder)."""
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = live.holder(inputs.tokens(request, live.id))
    code = await hub_of(request).link(live, holder, seat)
    return JSONResponse({"seat": seat, "url": f"/games/{live.id}/link/{code}",
                         "seconds": hub_of(request).limits.link_seconds})


async def rematch(request: Request) -> Response:
    live = await live_of(request)
    tokens = inputs.tokens(request, live.id)
    new = await hub_of(request).rematch(live, live.holder(tokens))
    response = JSONResponse({"id": new.id, "url": f"/games/{new.id}"})
    set_cookie(response, new.id, rematch_tokens(live, new, tokens))
    return response


async def step(request: Request) -> Response:
    live = await live_of(request)
    viewpoint = viewpoint_of(request, live)
    number = inputs.small_number(request.path_params["step"], "step",
                                 f"a step is a whole number from 0 to {live.step}")
    return JSONResponse(live.step_view(viewpoint, number))


async def health(request: Request) -> Response:
    """For a load balancer: 200 when this process, its database and its broker answer."""
    hub = hub_of(request)
    try:
        await hub.store.run(hub.store.ping)
        database = "ok"
    except Unavailable:
        database = "unavailable"
    broker = "ok" if hub.broker.healthy() else "unavailable"
    ok = database == "ok" and broker == "ok"
    return JSONResponse({"ok": ok, "database": database, "broker": broker,
                         "process": hub.process, "games_in_memory": len(hub.games)},
                        status_code=200 if ok else 503)
