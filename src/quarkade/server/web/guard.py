"""What every request must be before a route sees it (pure ASGI middleware, outermost
first in ``create_app``):

- ``Guard``: names the client whose allowances a request spends (``rates.requester``);
  refuses an address or query holding control characters (NUL among them: PostgreSQL
  keeps no NUL in text); and lets only our own pages change anything: a state-changing
  request (POST, PUT, PATCH, DELETE) whose ``Origin`` (or, without one, ``Referer``)
  names another site is refused, and the JSON routes (``/api/``) take a body only as
  ``Content-Type: application/json``, which no page of another site can send without the
  browser asking us first (a cross-site form or ``text/plain`` post is refused; scripts
  and bots, which send no ``Origin``, keep working; a post with no body and no type, such
  as a script's ``abort``, carries nothing a form could). Forms carry a token besides
  (``forms``).
- ``SocketCap``: a WebSocket past ``Limits.sockets_per_address`` open from one address
  (429), or ``Limits.sockets`` in the process (503), is accepted only to be told why and
  closed (code 4000 + status), so idle sockets never use up the process's files.
- ``BodyLimit``: a body over the limit is refused while it is read (413), never after.
- ``SecurityHeaders``: the content security policy and friends on every response; behind
  TLS (``https``, as the trusted proxy says), HSTS, and every cookie ``Secure``.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from quarkade.server.errors import ApiError
from quarkade.server.rates import requester
from quarkade.server.web.rendering import refusal

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_ONLY = "send JSON, with 'Content-Type: application/json'"
OTHER_SITE = ("this request comes from a page of another site; changes are made only from "
              "this site's own pages")
CONTROL = frozenset(chr(c) for c in (*range(32), 127))

# Nothing is loaded from anywhere but this server; no inline script. Our pages send their
# address to this site only (never to another): an Origin (and Referer) on our own posts
# is what tells them from another site's.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
     b"form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1"): value.decode("latin-1")
            for name, value in scope.get("headers", [])}


def _site(address: str) -> str | None:
    """The host (and port) an Origin or Referer names (None: none, or not a web address)."""
    try:
        parts = urlsplit(address)
    except ValueError:
        return None
    return parts.netloc.lower() if parts.scheme in ("http", "https") and parts.netloc \
        else None


def problem_with(scope: Scope) -> ApiError | None:
    """Why this request is refused before any route sees it (None: it is not)."""
    path = scope.get("path", "")
    if any(c in CONTROL for c in path) or b"%00" in scope.get("query_string", b"").lower() \
            or any(b < 32 or b == 127 for b in scope.get("query_string", b"")):
        return ApiError(400, "addresses hold no control characters (such as NUL); "
                        "check the link")
    if scope["type"] != "http" or scope.get("method") not in UNSAFE:
        return None
    headers = _headers(scope)
    host = headers.get("host", "").lower()
    origin = headers.get("origin")
    if origin is not None:
        if _site(origin) != host:
            return ApiError(403, OTHER_SITE)
    elif "referer" in headers and _site(headers["referer"]) != host:
        return ApiError(403, OTHER_SITE)
    if path.startswith("/api/"):  # a body (any a form could send) must be JSON
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if kind != "application/json" and (kind or has_body):
            return ApiError(415, f"this address takes JSON only: {JSON_ONLY}")
    return None


class Guard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        requester.set(client[0] if client else "unknown")
        refused = problem_with(scope)
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4000 + refused.status})
        else:
            response = refusal(Request(scope, receive), refused.status, refused.message)
            await response(scope, receive, send)


class SocketCap:
    """Counts the open WebSockets, per client address and in all (see the module)."""

    def __init__(self, app: ASGIApp, per_address: int, overall: int) -> None:
        self.app = app
        self.per_address = per_address
        self.overall = overall
        self.open: dict[str, int] = {}
        self.total = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if self.open.get(address, 0) >= self.per_address:
            await _refuse(send, ApiError(429, f"{self.per_address} live pages are open from "
                                         "your address already; close some and reload"))
            return
        if self.total >= self.overall:
            await _refuse(send, ApiError(503, "the server has as many live pages open as it "
                                         "can take; reload in a minute"))
            return
        self.open[address] = self.open.get(address, 0) + 1
        self.total += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.total -= 1
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]


async def _refuse(send: Send, refused: ApiError) -> None:
    """Accept a socket only to say why it is refused, then close it (4000 + status)."""
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(
        {"type": "error", "status": refused.status, "message": refused.message})})
    await send({"type": "websocket.close", "code": 4000 + refused.status})


class BodyLimit:
    """Refuses a request body over ``limit`` bytes while it is read (413), never after."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise ApiError(413, f"the request body is over {self.limit} bytes")
            return message

        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and len(value) < 15 and \
                    int(value) > self.limit:
                response = JSONResponse({"error": f"the request body is over {self.limit} "
                                         "bytes", "status": 413}, status_code=413)
                await response(scope, receive, send)
                return
        await self.app(scope, counted, send)


class SecurityHeaders:
    """The content security policy and friends on every HTTP response; over https, HSTS
    and ``Secure`` on every cookie set."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *SECURITY_HEADERS]
                if secure:
                    headers = [(name, _secure(value) if name == b"set-cookie" else value)
                               for name, value in headers] + [HSTS]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _secure(cookie: bytes) -> bytes:
    attributes = [part.strip().lower() for part in cookie.split(b";")[1:]]
    return cookie if b"secure" in attributes else cookie + b"; Secure"


__all__ = ["BodyLimit", "Guard", "SecurityHeaders", "SocketCap", "problem_with"]
