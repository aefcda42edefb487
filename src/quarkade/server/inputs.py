"""Reading what a client sends, within bounds: bodies counted while they are read, JSON
whose numbers and nesting are bounded and whose text holds no NUL, small whole numbers in
paths and queries (ASCII digits only), and short texts (chat, deck names) folded, with
bidi controls and invisible characters dropped (so nobody's words can be turned around or
hidden in someone else's). Anything else is an ``ApiError`` saying what is allowed."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from starlette.requests import HTTPConnection, Request

from quarkade.server.errors import ApiError

DIGITS = re.compile(r"[0-9]{1,9}")
# Characters that show nothing (or turn the text around them) though they are not
# control characters: format characters (Cf: bidi embeddings, overrides and isolates,
# zero-width spaces and joiners, the soft hyphen, the byte order mark) and the other
# default-ignorable code points (Hangul fillers, variation selectors, the combining
# grapheme joiner).
INVISIBLE = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0,
                       *range(0x180B, 0x1810), *range(0xFE00, 0xFE10),
                       *range(0xE0100, 0xE01F0)})
EXAMPLE = '{"type": "act", "action": 21, "step": 40}'


def small_number(text: str, name: str, allowed: str) -> int:
    """A whole number of at most nine ASCII digits (no signs, no other scripts' digits)."""
    if not DIGITS.fullmatch(text):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise ApiError(400, f"{name}={shown!r}: {allowed}")
    return int(text)


def whole_number(value: Any, name: str, meaning: str) -> int:
    """A JSON whole number (not a bool) in the range of a 32-bit int."""
    if isinstance(value, bool) or not isinstance(value, int) or not -2**31 <= value < 2**31:
        shown = repr(value)
        raise ApiError(400, f"{name} should be {meaning}, not "
                       f"{shown if len(shown) <= 40 else shown[:37] + '...'}")
    return value


def parse_json(raw: str | bytes, digits: int = 18, what: str = "a message",
               example: str = EXAMPLE) -> Any:
    """JSON, refusing numbers over ``digits`` digits and nesting too deep to read."""

    def bounded_int(text: str) -> int:
        if len(text.lstrip("-")) > digits:
            raise ValueError("long number")
        return int(text)

    try:
        parsed = json.loads(raw, parse_int=bounded_int)
    except RecursionError:
        raise ApiError(400, "the JSON is nested too deeply") from None
    except ValueError as problem:  # JSONDecodeError, UnicodeDecodeError, long numbers
        if str(problem) == "long number":
            raise ApiError(400, f"numbers in a request have at most {digits} digits"
                           ) from None
        raise ApiError(400, f"{what} should be JSON: a JSON object such as {example}") from None
    if _holds_nul(parsed):
        raise ApiError(400, f"{what} holds a NUL character (\\u0000); text here is plain "
                       "text")
    return parsed


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_holds_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_nul(key) or _holds_nul(item) for key, item in value.items())
    return False


async def json_body(request: Request, limit: int, digits: int = 18, optional: bool = False
                    ) -> dict[str, Any]:
    """The request's JSON object, read at most ``limit`` bytes (413 past it, before the
    rest is read); an empty body reads ``{}`` when ``optional``."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and len(declared) < 12 and int(declared) > limit:
        raise ApiError(413, f"the request body is over {limit} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request body is over {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks) or (b"{}" if optional else b"null")
    body = parse_json(raw, digits, "the request body", '{"seat": 0, "action": 21, "step": 40}')
    if not isinstance(body, dict):
        raise ApiError(400, "the request body should be a JSON object")
    return body


def visible(text: str) -> str:
    """``text`` without its bidi controls and invisible characters."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf"
                   and ord(c) not in INVISIBLE)


def fold_text(text: str, limit: int, what: str) -> str:
    """``text`` with its whitespace folded to single spaces and its invisible characters
    dropped (``visible``): 1 to ``limit`` characters and no control characters, else
    ``ApiError(400)`` saying so (chat messages, deck names)."""
    folded = " ".join(visible(text).split())
    if not folded:
        raise ApiError(400, f"{what} is empty; write 1 to {limit} characters")
    if len(folded) > limit:
        raise ApiError(400, f"{what} is at most {limit} characters; this one has "
                       f"{len(folded)}")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in folded):
        raise ApiError(400, f"{what} holds no control characters; write plain text")
    return folded


def client_key(connection: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, uvicorn puts the real one here)."""
    return connection.client.host if connection.client else "unknown"
