"""Challenges (issue 25): on a player's public page a signed-in player challenges them to
a two-player game (the game, its clock, rated or casual, as the new-game form offers).
The game is made at once, unlisted, with the challenger in the first seat and the second
kept for the challenged player (``SeatQueries.keep``: no one else may take it, the lobby
never lists it). The challenged player finds it on /me, counted in the header's
your-move count, and takes the seat (the game begins) or declines (the game ends
aborted, never begun, its ``ending`` ``declined``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from quarkade.core.registry import list_games
from quarkade.server.errors import ApiError
from quarkade.server.play.events import Updated
from quarkade.server.storage import Unavailable
from quarkade.server.web import forms
from quarkade.server.web.asking import client_of, set_cookie, site_of

CHALLENGED = 1  # the challenged player's seat; the challenger opens


async def challenge(request: Request) -> Response:
    """``POST /players/<name>/challenge``: make the game, the seat kept for them."""
    site = site_of(request)
    player = await site.players.required(request)
    form = await forms.posted(request, max_fields=10)
    store = site.ctx.store
    name = request.path_params["name"]
    found = None if len(name) > 40 else await store.run(store.players.by_name, name)
    if found is None:
        raise ApiError(404, "no player by that name to challenge")
    if found.id == player.id:
        raise ApiError(400, "you cannot challenge yourself; pick another player's page")
    game = str(form.get("game", ""))
    if game not in list_games():
        raise ApiError(400, "choose one of the games in the list to challenge with")
    made = await site.seating.create(game, {}, ["you", "open"], "unlisted",
                                     str(form.get("time_control", "")) or None, player,
                                     client=client_of(request, player),
                                     rated=str(form.get("rated", "")) or None)
    if not await store.run(store.seats.keep, made.session.id, CHALLENGED, found.id,
                           found.name):
        raise ApiError(409, "the seat was taken before it could be kept; challenge again")
    await made.session.refresh()
    await site.ctx.events.emit(Updated(made.session))
    response = RedirectResponse(f"/games/{made.session.id}", status_code=303)
    set_cookie(response, made.session.id, made.secrets())
    return response


async def answer(request: Request) -> Response:
    """``POST /games/<id>/challenge``: the challenged player takes the kept seat
    (``action=accept``: the game begins) or declines (it ends, never begun)."""
    site = site_of(request)
    player = await site.players.required(request)
    form = await forms.posted(request, max_fields=5)
    accept = str(form.get("action", "")) == "accept"
    session = await site.hub.get(request.path_params["id"])
    async with session.lock:
        await session.catch_up()
        kept = [s.seat for s in session.seats
                if s.player_id == player.id and not s.joined]
        if not kept or session.over or not session.waiting:
            raise ApiError(409, "this challenge is not waiting for your answer any more")
        store = site.ctx.store
        try:
            if accept:
                await store.run(store.seats.accept, session.id, kept)
                await session.catch_up()
            else:
                ending = {"result": "aborted", "winners": [], "ending": "declined",
                          "seat": min(kept)}
                await session.decide({"ending": ending, "finished": site.ctx.clock.time(),
                                      "deadline": None, "rating_state": "none"}, {})
        except Unavailable:
            raise ApiError(503, "the game could not be changed just now; try again") from None
    if accept:
        await session.start()
        await site.ctx.events.emit(Updated(session))
        return RedirectResponse(f"/games/{session.id}?seat={min(kept)}", status_code=303)
    await session.ruled()
    return RedirectResponse("/me", status_code=303)


__all__ = ["CHALLENGED", "answer", "challenge"]
