"""The JSON API: the catalogue, making games, what a seat sees, moves, chat, joining by
invite or from the lobby, renewing invites, linking another device, resigning, aborting,
claiming an abandoned seat, rematches, replay steps, the lobby and quick play, the player
(name, password, login, settings), ratings, and health."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from quarkade.core.registry import list_games
from quarkade.server import chat as chatting
from quarkade.server import endings, inputs
from quarkade.server import seats as seating
from quarkade.server.common import (
    catalogue,
    check_rate,
    creator_tokens,
    holder_of,
    hub_of,
    known_game,
    live_of,
    me,
    players_of,
    rematch_tokens,
    set_cookie,
    viewpoint_of,
)
from quarkade.server.errors import ApiError
from quarkade.server.live import chat_json
from quarkade.server.players import public
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
    player = await me(request)  # a script without a session plays anonymous seats
    live, host_token = await hub_of(request).create(game, options, specs,
                                                    body.get("visibility"),
                                                    body.get("time_control"), player,
                                                    body.get("reveal"))
    tokens = {s.seat: s.token for s in live.seats if s.kind in (seating.YOU, seating.HOTSEAT)}
    response = JSONResponse({
        "id": live.id, "url": f"/games/{live.id}", "host_token": host_token, "tokens": tokens,
        "visibility": live.visibility, "time_control": live.control.text,
        "reveal": live.reveal,
        "invites": [{"seat": s.seat, "url": f"/games/{live.id}/join/{s.invite}"}
                    for s in live.seats if s.kind == seating.FRIEND and s.invite]},
        status_code=201)
    set_cookie(response, live.id, [host_token, *creator_tokens(live)])
    return response


async def game(request: Request) -> Response:
    live = await live_of(request)
    holder = await holder_of(request, live)
    viewpoint = holder.viewpoint(request.query_params.get("seat"), live.state.current_player())
    return JSONResponse(live.payload(viewpoint, holder))


async def act(request: Request) -> Response:
    check_rate(request, "moves", "moves")
    live = await live_of(request)
    body = await body_of(request)
    holder = await holder_of(request, live)
    if "action" not in body or "seat" not in body:
        raise ApiError(400, "a move is {\"seat\": N, \"action\": ID, \"step\": N}; "
                       "'seat', 'action' and 'step' are required")
    await live.act(holder, body["seat"], body["action"], body.get("step"))
    return JSONResponse(live.payload(body["seat"], holder))


async def chat(request: Request) -> Response:
    """GET: the game's chat (anyone who may open the game reads it); POST
    ``{"seat": N, "text": "..."}``: a message for a seat this device holds."""
    live = await live_of(request)
    if request.method == "GET":
        return JSONResponse({"messages": [chat_json(m) for m in live.chat]})
    body = await body_of(request)
    holder = await holder_of(request, live)
    if "seat" not in body or "text" not in body:
        raise ApiError(400, "a chat message is {\"seat\": N, \"text\": \"...\"}; 'seat' "
                       "and 'text' are required")
    message = await chatting.post(hub_of(request), live, holder, body["seat"], body["text"])
    return JSONResponse(chat_json(message), status_code=201)


async def join(request: Request) -> Response:
    """Spend an invite code (``{"invite": CODE, "options": {...}}``, the options the seat
    chooses itself, such as its deck): the seat and its new secret."""
    body = await body_of(request)
    invite = body.get("invite")
    if not isinstance(invite, str) or not 0 < len(invite) <= 64:
        raise ApiError(400, "a join is {\"invite\": CODE}, the last part of the invite link")
    held = inputs.tokens(request, request.path_params["id"])
    player = await me(request)
    live, seat, token = await hub_of(request).join(request.path_params["id"], invite, held,
                                                   player, body.get("options"))
    response = JSONResponse({"seat": seat, "token": token, "url": f"/games/{live.id}?seat={seat}"})
    set_cookie(response, live.id, [*held, *([token] if token else [])])
    return response


async def renew_invite(request: Request) -> Response:
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = await holder_of(request, live)
    invite = await hub_of(request).renew_invite(live, holder, seat)
    return JSONResponse({"seat": seat, "url": f"/games/{live.id}/join/{invite}"})


async def link(request: Request) -> Response:
    """A one-time address that gives another device this seat (asked by its holder)."""
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = await holder_of(request, live)
    code = await hub_of(request).link(live, holder, seat)
    return JSONResponse({"seat": seat, "url": f"/games/{live.id}/link/{code}",
                         "seconds": hub_of(request).limits.link_seconds})


async def rematch(request: Request) -> Response:
    live = await live_of(request)
    tokens = inputs.tokens(request, live.id)
    new = await hub_of(request).rematch(live, await holder_of(request, live))
    response = JSONResponse({"id": new.id, "url": f"/games/{new.id}"})
    set_cookie(response, new.id, rematch_tokens(live, new, tokens))
    return response


async def step(request: Request) -> Response:
    live = await live_of(request)
    viewpoint = await viewpoint_of(request, live)
    number = inputs.small_number(request.path_params["step"], "step",
                                 f"a step is a whole number from 0 to {live.step}")
    return JSONResponse(live.step_view(viewpoint, number))


async def take(request: Request) -> Response:
    """Take an open seat from the lobby (``{"options": {...}}``: the seat's own choices)."""
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    body = await body_of(request)
    player = await players_of(request).required(request)
    token = await hub_of(request).take(live, seat, player, body.get("options"))
    response = JSONResponse({"seat": seat, "url": f"/games/{live.id}?seat={seat}"})
    set_cookie(response, live.id, [*inputs.tokens(request, live.id), token])
    return response


async def resign(request: Request) -> Response:
    """``{"seat": N}``: that seat gives up (two players: it loses; more: a bot plays on)."""
    live = await live_of(request)
    body = await body_of(request)
    seat = inputs.whole_number(body.get("seat"), "seat", "the seat that resigns")
    await endings.resign(live, await holder_of(request, live), seat)
    return JSONResponse(live.payload(seat, await holder_of(request, live)))


async def abort(request: Request) -> Response:
    live = await live_of(request)
    await endings.abort(live, await holder_of(request, live))
    return JSONResponse({"outcome": live.outcome()})


async def claim(request: Request) -> Response:
    """``{"seat": N}``: claim that seat abandoned (no clock, no move for seven days)."""
    live = await live_of(request)
    body = await body_of(request)
    seat = inputs.whole_number(body.get("seat"), "seat", "the seat abandoned")
    await endings.claim_abandoned(live, await holder_of(request, live), seat)
    return JSONResponse({"outcome": live.outcome(), "seats": [
        {"seat": s.seat, "kind": s.kind, "replaced": s.replaced} for s in live.seats]})


async def lobby(request: Request) -> Response:
    return JSONResponse(await hub_of(request).lobby.snapshot())


async def quick_play(request: Request) -> Response:
    """``{"game", "players", "time_control", "deck"}``: a seat in the closest open game,
    or a new game waiting for others (``deck``, optional: the player's own deck, in a game
    with a deck builder)."""
    check_rate(request, "create", "new games")
    body = await body_of(request)
    player = await players_of(request).required(request)
    live, seat, token = await hub_of(request).lobby.quick(
        player, body.get("game"), body.get("players"), body.get("time_control"),
        body.get("deck"))
    response = JSONResponse({"id": live.id, "seat": seat, "waiting": live.waiting,
                             "url": f"/games/{live.id}?seat={seat}"})
    set_cookie(response, live.id, [*inputs.tokens(request, live.id), *([token] if token
                                                                        else [])])
    return response


async def player_me(request: Request) -> Response:
    """GET: who this device plays as (a guest is made on a first visit). POST
    ``{"name"}``, ``{"password"}`` or ``{"settings": {...}}``: change them."""
    players = players_of(request)
    player = await players.required(request)
    if request.method == "POST":
        body = await body_of(request)
        known = {"name", "password", "settings"}
        if not body or set(body) - known:
            raise ApiError(400, "send one or more of 'name', 'password' and 'settings'")
        if "name" in body:
            before = player.name
            player = await players.rename(player, body["name"])
            if player.name != before:
                await hub_of(request).renamed(player.id)
        if "settings" in body:
            player = await players.update_settings(player, body["settings"])
        if "password" in body:
            player = await players.claim(request, player, body["password"])
    return JSONResponse(public(player))


async def login(request: Request) -> Response:
    body = await body_of(request)
    player = await players_of(request).login(request, body.get("name"), body.get("password"))
    return JSONResponse(public(player))


async def logout(request: Request) -> Response:
    players_of(request).logout(request)
    return JSONResponse({"ok": True})


async def leaderboard(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    from quarkade.server.pages import player_count

    count = player_count(request, game)
    return JSONResponse({"game": game, "players": count, "ratings": [
        {key: value for key, value in entry.items() if key != "order"}
        for entry in await hub_of(request).ratings.leaderboard(game, count)]})


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
