"""The WebSocket protocol of a game page.

The page is sent ``{"type": "state", ...}`` (its seat's payload) now and after every
change, and ``{"type": "chat", "messages": [...]}`` (every message now if there are any,
then each new one); it may send ``{"type": "act", "action": ID, "step": N}``,
``{"type": "chat", "text": "..."}`` (for the seat it shows, or the device's own seat),
``{"type": "resign"}`` (its seat gives up), ``{"type": "abort"}``,
``{"type": "claim", "seat": N}`` (a seat abandoned), ``{"type": "rematch"}`` or
``{"type": "ping"}``. The lobby page's socket (``/ws/lobby``) is sent
``{"type": "lobby", "open": [...], "live": [...]}`` now and after every change to a public
game. Anything else (bad JSON, binary frames, huge numbers, deep
nesting, too many messages) is answered ``{"type": "error", "status", "message"}`` and
the socket stays open; only a refused connection is closed (code 4000 + status).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from quarkade.server import chat as chatting
from quarkade.server import endings, inputs
from quarkade.server.common import holder_of, hub_of
from quarkade.server.errors import ApiError
from quarkade.server.limits import RateLimiter
from quarkade.server.live import UNAVAILABLE, LiveGame, Watcher, chat_json
from quarkade.server.storage import Unavailable

log = logging.getLogger("quarkade.server")


async def live_socket(socket: WebSocket) -> None:
    await socket.accept()
    hub = hub_of(socket)
    try:
        if not _same_origin(socket):
            raise ApiError(403, "this page comes from another site")
        live = await hub.get(socket.path_params["id"])
        holder = await holder_of(socket, live)
        viewpoint = holder.viewpoint(socket.query_params.get("seat"),
                                     live.state.current_player())
    except ApiError as problem:
        await _error(socket, problem)
        await socket.close(code=4000 + problem.status)
        return
    watcher = Watcher(socket.send_json, viewpoint, holder)
    live.watchers.add(watcher)
    rate = RateLimiter(hub.limits.socket_messages, hub.clock)
    try:
        await socket.send_json({"type": "state", "server": hub.process,
                                **live.payload(viewpoint, holder)})
        if live.chat:
            await socket.send_json({"type": "chat", "all": True,
                                    "messages": [chat_json(m) for m in live.chat]})
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
                log.error("socket message on game %s failed: %s", live.id,
                          type(problem).__name__, exc_info=problem)
                await _error(socket, ApiError(500, "something went wrong on the server"))
    except WebSocketDisconnect:
        pass
    finally:
        live.watchers.discard(watcher)


async def _handle(socket: WebSocket, live: LiveGame, watcher: Watcher,
                  frame: Mapping[str, Any]) -> None:
    hub = hub_of(socket)
    text = frame.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "send text frames holding JSON, such as " + inputs.EXAMPLE)
    if len(text) > hub.limits.frame_bytes:
        raise ApiError(413, f"a message is at most {hub.limits.frame_bytes} bytes")
    message = inputs.parse_json(text, hub.limits.number_digits)
    if not isinstance(message, dict):
        raise ApiError(400, "a message is a JSON object with a 'type', such as "
                       + inputs.EXAMPLE)
    kind = message.get("type")
    if kind == "act":
        if watcher.viewpoint < 0:
            raise ApiError(403, "a spectator cannot move; open a seat's invite link to play")
        await live.act(watcher.holder, watcher.viewpoint, message.get("action"),
                       message.get("step"))
    elif kind == "chat":
        held = watcher.holder.seats
        seat = watcher.viewpoint if watcher.viewpoint in held else min(held, default=-1)
        await chatting.post(hub, live, watcher.holder, seat, message.get("text"))
    elif kind == "resign":
        if watcher.viewpoint < 0:
            raise ApiError(403, "a spectator has no seat to resign")
        await endings.resign(live, watcher.holder, watcher.viewpoint)
    elif kind == "abort":
        await endings.abort(live, watcher.holder)
    elif kind == "claim":
        seat = inputs.whole_number(message.get("seat"), "seat", "the seat abandoned")
        await endings.claim_abandoned(live, watcher.holder, seat)
    elif kind == "rematch":
        new = await hub.rematch(live, watcher.holder)
        await socket.send_json({"type": "rematch", "id": new.id,
                                "url": f"/games/{live.id}/rematch"})
    elif kind == "ping":
        await socket.send_json({"type": "pong", "step": live.step})
    else:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:37] + "..."
        raise ApiError(400, f"unknown message type {shown}; types: act, chat, resign, "
                       "abort, claim, rematch, ping")


async def lobby_socket(socket: WebSocket) -> None:
    """The lobby page: the list now and after every change; the page sends nothing but
    pings (anything else is answered with an error frame)."""
    await socket.accept()
    hub = hub_of(socket)
    if not _same_origin(socket):
        await _error(socket, ApiError(403, "this page comes from another site"))
        await socket.close(code=4403)
        return
    send = socket.send_json
    hub.lobby.watchers.add(send)
    rate = RateLimiter(hub.limits.socket_messages, hub.clock)
    try:
        await send(await hub.lobby.snapshot())
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
        hub.lobby.watchers.discard(send)


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
