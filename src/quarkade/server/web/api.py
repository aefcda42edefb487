"""The JSON API: the catalogue, making games, what a seat sees, moves, chat, joining by
invite or from the lobby, renewing invites, linking another device, resigning, aborting,
claiming an abandoned seat, rematches, replay steps, the lobby and quick play, the player
(name, password, login, settings), ratings, and health.

A script proves what it holds with ``Authorization: Bearer SECRET[.SECRET...]`` (or the
game's cookie), never with the address (``asking``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from quarkade.core.registry import list_games
from quarkade.server import inputs
from quarkade.server.catalogue import catalogue, known_game
from quarkade.server.errors import ApiError
from quarkade.server.people.lobby import as_seen_by
from quarkade.server.people.players import public
from quarkade.server.people.quick import quick
from quarkade.server.play import endings
from quarkade.server.play.offers import rematch_view
from quarkade.server.play.views import chat_json, payload, step_view
from quarkade.server.storage import Unavailable
from quarkade.server.storage.chat import CHAT_TAIL
from quarkade.server.web.asking import (
    body_of,
    check_rate,
    client_of,
    holder_of,
    me,
    session_of,
    set_cookie,
    site_of,
    tokens,
    turns_of,
    viewpoint_of,
)
from quarkade.server.web.pages import player_count


async def games(request: Request) -> Response:
    site = site_of(request)
    if request.method != "POST":
        return JSONResponse({"games": catalogue(site.ctx.allowed_bots)})
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
    made = await site.seating.create(game, options, specs, body.get("visibility"),
                                     body.get("time_control"), player, body.get("reveal"),
                                     client=client_of(request, player),
                                     rated=body.get("rated"))
    session = made.session
    response = JSONResponse({
        "id": session.id, "url": f"/games/{session.id}", "host_token": made.host_token,
        "tokens": {str(seat): token for seat, token in made.tokens.items()},
        "visibility": session.visibility, "time_control": session.control.text,
        "reveal": session.reveal, "rated": session.times.rated,
        "invites": [{"seat": seat, "url": f"/games/{session.id}/join/{code}"}
                    for seat, code in made.invites.items()]},
        status_code=201)
    set_cookie(response, session.id, made.secrets())
    return response


async def game(request: Request) -> Response:
    session = await session_of(request)
    holder = await holder_of(request, session)
    viewpoint = holder.viewpoint(request.query_params.get("seat"),
                                 session.state.current_player())
    return JSONResponse(payload(session, viewpoint, holder))


async def act(request: Request) -> Response:
    await check_rate(request, "moves", "moves")
    session = await session_of(request)
    body = await body_of(request)
    holder = await holder_of(request, session)
    if "action" not in body or "seat" not in body:
        raise ApiError(400, "a move is {\"seat\": N, \"action\": ID, \"step\": N}; "
                       "'seat', 'action' and 'step' are required")
    await session.act(holder, body["seat"], body["action"], body.get("step"))
    return JSONResponse(payload(session, body["seat"], holder))


async def chat(request: Request) -> Response:
    """GET: the game's newest chat (``?before=N``: the messages before number N), which
    anyone who may open the game reads; POST ``{"seat": N, "text": "..."}``: a message
    for a seat this device holds."""
    session = await session_of(request)
    site = site_of(request)
    if request.method != "POST":
        before = request.query_params.get("before")
        if before is None:
            messages = list(session.chat)
        else:
            number = inputs.small_number(before, "before", "the number of a message")
            store = site.ctx.store
            messages = await store.run(store.chat.before, session.id, number)
        earlier = messages[0].number if messages else 0
        return JSONResponse({"messages": [chat_json(m) for m in messages],
                             "earlier": earlier, "page": CHAT_TAIL})
    body = await body_of(request)
    holder = await holder_of(request, session)
    if "seat" not in body or "text" not in body:
        raise ApiError(400, "a chat message is {\"seat\": N, \"text\": \"...\"}; 'seat' "
                       "and 'text' are required")
    message = await site.chat.post(session, holder, body["seat"], body["text"])
    return JSONResponse(chat_json(message), status_code=201)


async def join(request: Request) -> Response:
    """Spend an invite code (``{"invite": CODE, "options": {...}}``, the options the seat
    chooses itself, such as its deck): the seat and its new secret."""
    body = await body_of(request)
    invite = body.get("invite")
    if not isinstance(invite, str) or not 0 < len(invite) <= 64:
        raise ApiError(400, "a join is {\"invite\": CODE}, the last part of the invite link")
    held = tokens(request, request.path_params["id"])
    player = await me(request)
    session, seat, token = await site_of(request).seating.join(
        request.path_params["id"], invite, held, player, body.get("options"))
    response = JSONResponse({"seat": seat, "token": token,
                             "url": f"/games/{session.id}?seat={seat}"})
    set_cookie(response, session.id, [*held, *([token] if token else [])])
    return response


async def renew_invite(request: Request) -> Response:
    session = await session_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = await holder_of(request, session)
    invite = await site_of(request).seating.renew_invite(session, holder, seat)
    response = JSONResponse({"seat": seat, "url": f"/games/{session.id}/join/{invite}"})
    # The host's device keeps the code, so its page shows the link (the server cannot).
    set_cookie(response, session.id, [*tokens(request, session.id), invite])
    return response


async def link(request: Request) -> Response:
    """A one-time address that gives another device this seat (asked by its holder)."""
    session = await session_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    holder = await holder_of(request, session)
    site = site_of(request)
    code = await site.seating.link(session, holder, seat)
    return JSONResponse({"seat": seat, "url": f"/games/{session.id}/link/{code}",
                         "seconds": site.ctx.limits.link_seconds})


async def rematch(request: Request) -> Response:
    """Offer a rematch, or accept the one offered (``{}``), or decline it
    (``{"decline": true}``): RULINGS S-13. The rematch's address and the offer as the
    finished game's pages show it; this device's secrets for its seats there go in its
    cookie (``GET /games/<id>/rematch`` follows it as a page)."""
    session = await session_of(request)
    body = await body_of(request, optional=True)
    decline = body.get("decline", False)
    if not isinstance(decline, bool):
        raise ApiError(400, "'decline' is true (decline the rematch offered) or false")
    held = tokens(request, session.id)
    site = site_of(request)
    new = await site.rematches.answer(session, await holder_of(request, session),
                                      accept=not decline)
    offer = rematch_view(session)
    if new is None:
        return JSONResponse({"rematch": offer})
    mine = tokens(request, new.id)
    followed = await site.seating.follow(session, new, held, mine)
    response = JSONResponse({"id": new.id, "url": f"/games/{new.id}", "rematch": offer})
    set_cookie(response, new.id, [*mine, *followed])
    return response


async def step(request: Request) -> Response:
    session = await session_of(request)
    viewpoint = await viewpoint_of(request, session)
    number = inputs.small_number(request.path_params["step"], "step",
                                 f"a step is a whole number from 0 to {session.step}")
    return JSONResponse(step_view(session, viewpoint, number))


async def take(request: Request) -> Response:
    """Take an open seat from the lobby (``{"options": {...}}``: the seat's own choices)."""
    session = await session_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    body = await body_of(request)
    site = site_of(request)
    player = await site.players.required(request)
    token = await site.seating.take(session, seat, player, body.get("options"))
    response = JSONResponse({"seat": seat, "url": f"/games/{session.id}?seat={seat}"})
    set_cookie(response, session.id, [*tokens(request, session.id), token])
    return response


async def resign(request: Request) -> Response:
    """``{"seat": N}``: that seat gives up (two players: it loses; more: a bot plays on)."""
    session = await session_of(request)
    body = await body_of(request)
    seat = inputs.whole_number(body.get("seat"), "seat", "the seat that resigns")
    await endings.resign(session, await holder_of(request, session), seat)
    return JSONResponse(payload(session, seat, await holder_of(request, session)))


async def abort(request: Request) -> Response:
    session = await session_of(request)
    await endings.abort(session, await holder_of(request, session))
    return JSONResponse({"outcome": session.outcome()})


async def claim(request: Request) -> Response:
    """``{"seat": N}``: claim that seat abandoned (no clock, no move for seven days)."""
    session = await session_of(request)
    body = await body_of(request)
    seat = inputs.whole_number(body.get("seat"), "seat", "the seat abandoned")
    await endings.claim_abandoned(session, await holder_of(request, session), seat)
    return JSONResponse({"outcome": session.outcome(), "seats": [
        {"seat": s.seat, "kind": s.kind, "replaced": s.replaced} for s in session.seats]})


async def lobby(request: Request) -> Response:
    site = site_of(request)
    player = await site.players.current(request)
    return JSONResponse(as_seen_by(await site.lobby.snapshot(),
                                   None if player is None else player.id))


async def quick_play(request: Request) -> Response:
    """``{"game", "players", "time_control", "deck"}``: a seat in the closest open game,
    or a new game waiting for others (``deck``, optional: the player's own deck, in a game
    with a deck builder)."""
    body = await body_of(request)
    site = site_of(request)
    player = await site.players.required(request)
    session, seat, token = await quick(
        site.ctx, site.hub, site.seating, site.ratings, player, body.get("game"),
        body.get("players"), body.get("time_control"), body.get("deck"))
    response = JSONResponse({"id": session.id, "seat": seat, "waiting": session.waiting,
                             "url": f"/games/{session.id}?seat={seat}"})
    set_cookie(response, session.id, [*tokens(request, session.id),
                                      *([token] if token else [])])
    return response


async def player_me(request: Request) -> Response:
    """GET: who this device plays as (a guest is made on a first visit). POST
    ``{"name"}``, ``{"password"}`` or ``{"settings": {...}}``: change them."""
    site = site_of(request)
    players = site.players
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
                await site.hub.renamed(player.id)
        if "settings" in body:
            player = await players.update_settings(player, body["settings"])
        if "password" in body:
            player = await players.claim(request, player, body["password"])
    return JSONResponse(public(player))


async def my_turns(request: Request) -> Response:
    """GET: how many games wait for this device's player (the header's "Your move in N
    games"; 0 for a device that plays as no one yet, which is not made a guest for it)."""
    site = site_of(request)
    player = await site.players.identify(request, create=False)
    if player is None:
        return JSONResponse({"your_turns": 0})
    return JSONResponse({"your_turns": await turns_of(request, player)})


async def login(request: Request) -> Response:
    body = await body_of(request)
    player = await site_of(request).players.login(request, body.get("name"),
                                                  body.get("password"))
    return JSONResponse(public(player))


async def logout(request: Request) -> Response:
    await site_of(request).players.logout(request)
    return JSONResponse({"ok": True})


async def leaderboard(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    count = player_count(request, game)
    return JSONResponse({"game": game, "players": count, "ratings": [
        {key: value for key, value in entry.items() if key != "order"}
        for entry in await site_of(request).ratings.leaderboard(game, count)]})


async def health(request: Request) -> Response:
    """Liveness, for a process supervisor: 200 whenever this process answers (what it
    holds besides); a database or broker that is down does not make it fail."""
    site = site_of(request)
    ctx = site.ctx
    return JSONResponse({"ok": True, "process": ctx.process,
                         "games_in_memory": len(site.hub.games),
                         "workers": {"running": ctx.work.busy(),
                                     "started": dict(ctx.work.started)}})


async def ready(request: Request) -> Response:
    """Readiness, for a load balancer: 200 while this process can serve games, that is
    while its database answers (503 otherwise). A broker that does not answer is reported
    (``"broker": "degraded"``: moves go on, other processes' pages hear of them late, and
    limits count in each process) but is not fatal, since every process would report it
    at once and the balancer would drop the whole site."""
    ctx = site_of(request).ctx
    try:
        await ctx.store.run(ctx.store.games.ping)
        database = "ok"
    except Unavailable:
        database = "unavailable"
    broker = "ok" if ctx.broker.healthy() else "degraded"
    ok = database == "ok"
    return JSONResponse({"ok": ok, "database": database, "broker": broker,
                         "limits_shared": ctx.rates.shared(), "process": ctx.process},
                        status_code=200 if ok else 503)

