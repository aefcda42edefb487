"""The WebSocket protocol of a game page.

The page is sent ``{"type": "state", ..., "log_from": N, "log": [...]}`` (its seat's
table, and the log entries after the first N it holds: all of them on connecting, then
only the new ones) now and after every change, and ``{"type": "chat", "messages": [...]}``
(the newest messages now, with ``"all": true`` and ``"earlier"``, the number of older
ones; then each new one). It may send ``{"type": "act", "action": ID, "step": N}``,
``{"type": "chat", "text": "..."}`` (for the seat it shows, or the device's own seat),
``{"type": "chat_before", "number": N}`` (the messages before number N, answered
``{"type": "chat", "messages": [...], "before": N, "earlier": M}``), ``{"type":
"resign"}`` (its seat gives up), ``{"type": "abort"}``, ``{"type": "claim", "seat": N}``
(a seat abandoned), ``{"type": "rematch"}`` (offer a rematch, or accept the one offered;
``"decline": true`` declines it: the page then shows the offer, and follows the rematch
when it begins) or ``{"type": "ping"}``. The lobby page's socket (``/ws/lobby``) is sent
``{"type": "lobby", "open": [...], "live": [...]}`` now and after every change to a public
game. Anything else (bad JSON, binary frames, huge numbers, deep nesting, too many
messages) is answered ``{"type": "error", "status", "message"}`` and the socket stays
open; only a refused connection is closed (code 4000 + status).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from quarkade.server import inputs
from quarkade.server.errors import ApiError
from quarkade.server.limits import RateLimiter
from quarkade.server.people.lobby import as_seen_by
from quarkade.server.play import endings
from quarkade.server.play.audience import Watcher
from quarkade.server.play.hub import LiveGame
from quarkade.server.play.session import UNAVAILABLE
from quarkade.server.play.views import chat_json
from quarkade.server.storage import Unavailable
from quarkade.server.web.asking import holder_of, site_of

log = logging.getLogger("quarkade.server")

TYPES = "act, chat, chat_before, resign, abort, claim, rematch, ping"


async def live_socket(socket: WebSocket) -> None:
    await socket.accept()
    site = site_of(socket)
    try:
        if not _same_origin(socket):
            raise ApiError(403, "this page comes from another site")
        live = await site.hub.live(socket.path_params["id"])
        holder = await holder_of(socket, live.session)
        viewpoint = holder.viewpoint(socket.query_params.get("seat"),
                                     live.session.state.current_player())
    except ApiError as problem:
        await _error(socket, problem)
        await socket.close(code=4000 + problem.status)
        return
    watcher = Watcher(socket.send_text, viewpoint, holder)
    rate = RateLimiter(site.ctx.limits.socket_messages, site.ctx.clock)
    try:
        await live.audience.greet(watcher)
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                if not rate.allow("socket"):
                    raise ApiError(429, "too many messages; wait a little and try again")
                await _handle(socket, live, watcher, message)
            except ApiError as problem:
                await _error(socket, problem)
            except Unavailable:
                await _error(socket, ApiError(503, UNAVAILABLE))
            except WebSocketDisconnect:
                raise
            except Exception as problem:  # a bug: say so, log it (no secrets), stay open
                log.error("socket message on game %s failed: %s", live.session.id,
                          type(problem).__name__, exc_info=problem)
                await _error(socket, ApiError(500, "something went wrong on the server"))
    except WebSocketDisconnect:
        pass
    finally:
        live.audience.leave(watcher)
        # A player who leaves a finished game lets its rematch offer expire: in a task of
        # its own, since a closed socket's handler may be cancelled.
        site.ctx.tasks.spawn(site.rematches.left(live.session, live.audience,
                                                 watcher.holder))


async def _handle(socket: WebSocket, live: LiveGame, watcher: Watcher,
                  frame: Mapping[str, Any]) -> None:
    site = site_of(socket)
    session = live.session
    limits = site.ctx.limits
    text = frame.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "send text frames holding JSON, such as " + inputs.EXAMPLE)
    if len(text) > limits.frame_bytes:
        raise ApiError(413, f"a message is at most {limits.frame_bytes} bytes")
    message = inputs.parse_json(text, limits.number_digits)
    if not isinstance(message, dict):
        raise ApiError(400, "a message is a JSON object with a 'type', such as "
                       + inputs.EXAMPLE)
    kind = message.get("type")
    if kind == "act":
        if watcher.viewpoint < 0:
            raise ApiError(403, "a spectator cannot move; open a seat's invite link to play")
        await session.act(watcher.holder, watcher.viewpoint, message.get("action"),
                          message.get("step"))
    elif kind == "chat":
        held = watcher.holder.seats
        seat = watcher.viewpoint if watcher.viewpoint in held else min(held, default=-1)
        await site.chat.post(session, watcher.holder, seat, message.get("text"))
    elif kind == "chat_before":
        number = inputs.whole_number(message.get("number"), "number",
                                     "the number of the oldest message the page holds")
        store = site.ctx.store
        older = await store.run(store.chat.before, session.id, max(0, number))
        await socket.send_json({"type": "chat", "before": number,
                                "earlier": older[0].number if older else 0,
                                "messages": [chat_json(m) for m in older]})
    elif kind == "resign":
        if watcher.viewpoint < 0:
            raise ApiError(403, "a spectator has no seat to resign")
        await endings.resign(session, watcher.holder, watcher.viewpoint)
    elif kind == "abort":
        await endings.abort(session, watcher.holder)
    elif kind == "claim":
        seat = inputs.whole_number(message.get("seat"), "seat", "the seat abandoned")
        await endings.claim_abandoned(session, watcher.holder, seat)
    elif kind == "rematch":  # offer or accept; {"decline": true} declines (S-13)
        decline = message.get("decline", False)
        if not isinstance(decline, bool):
            raise ApiError(400, "'decline' is true (decline the rematch offered) or false")
        await site.rematches.answer(session, watcher.holder, accept=not decline)
    elif kind == "ping":
        await socket.send_json({"type": "pong", "step": session.step})
    else:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:37] + "..."
        raise ApiError(400, f"unknown message type {shown}; types: {TYPES}")


async def lobby_socket(socket: WebSocket) -> None:
    """The lobby page: the list now and after every change; the page sends nothing but
    pings (anything else is answered with an error frame)."""
    await socket.accept()
    site = site_of(socket)
    if not _same_origin(socket):
        await _error(socket, ApiError(403, "this page comes from another site"))
        await socket.close(code=4403)
        return
    player = await site.players.current(socket)
    viewer = None if player is None else player.id

    async def send(snapshot: dict[str, Any]) -> None:
        await socket.send_json(as_seen_by(snapshot, viewer))

    site.lobby.watchers.add(send)
    rate = RateLimiter(site.ctx.limits.socket_messages, site.ctx.clock)
    try:
        await send(await site.lobby.snapshot())
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow("socket"):
                await _error(socket, ApiError(429, "too many messages; wait a little"))
            elif message.get("text") == '{"type": "ping"}':
                await socket.send_json({"type": "pong"})
            else:
                await _error(socket, ApiError(400, "the lobby's socket only sends; it takes "
                                              '{"type": "ping"}'))
    except WebSocketDisconnect:
        pass
    except Unavailable:
        await _error(socket, ApiError(503, UNAVAILABLE))
    finally:
        site.lobby.watchers.discard(send)


async def _error(socket: WebSocket, problem: ApiError) -> None:
    if socket.application_state == WebSocketState.CONNECTED:
        await socket.send_json({"type": "error", "status": problem.status,
                                "message": problem.message})


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    if origin is None:
        return True  # not a browser
    host = socket.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host
