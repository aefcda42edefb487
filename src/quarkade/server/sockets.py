"""The WebSocket protocol of a game page.

The page is sent ``{"type": "state", ...}`` (its seat's payload) now and after every
change, and may send ``{"type": "act", "action": ID, "step": N}``, ``{"type": "rematch"}``
or ``{"type": "ping"}``. Anything else (bad JSON, binary frames, huge numbers, deep
nesting, too many messages) is answered ``{"type": "error", "status", "message"}`` and
the socket stays open; only a refused connection is closed (code 4000 + status).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from quarkade.server import inputs
from quarkade.server.common import hub_of
from quarkade.server.errors import ApiError
from quarkade.server.limits import RateLimiter
from quarkade.server.live import UNAVAILABLE, LiveGame, Watcher
from quarkade.server.storage import Unavailable

log = logging.getLogger("quarkade.server")


async def live_socket(socket: WebSocket) -> None:
    await socket.accept()
    hub = hub_of(socket)
    try:
        if not _same_origin(socket):
            raise ApiError(403, "this page comes from another site")
        live = await hub.get(socket.path_params["id"])
        holder = live.holder(inputs.tokens(socket, live.id))
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
    elif kind == "rematch":
        new = await hub.rematch(live, watcher.holder)
        await socket.send_json({"type": "rematch", "id": new.id,
                                "url": f"/games/{live.id}/rematch"})
    elif kind == "ping":
        await socket.send_json({"type": "pong", "step": live.step})
    else:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:37] + "..."
        raise ApiError(400, f"unknown message type {shown}; types: act, rematch, ping")


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
