"""The pages' forms: a token that only our own pages know, and text without control
characters.

Every form a page shows carries ``csrf``, a random token kept in the visitor's signed
session (made at the first page that shows a form; a new one at every login and logout,
when the session rotates). A posted form without this session's token is refused (403),
so another site cannot post a form in a visitor's name even where a browser sends no
``Origin`` (``guard`` checks that first). Our own few lines rather than a library: the
session is already signed and server-side revocable (``people.players``), so a token in it
is all a double-submit cookie library would add.
"""

from __future__ import annotations

import re
import secrets

from starlette.datastructures import FormData
from starlette.requests import HTTPConnection, Request

from quarkade.core.errors import QuarkadeError
from quarkade.server.errors import ApiError

FIELD = "csrf"
STALE = ("this form is out of date (it was shown before you logged in or out, or on "
         "another site); open the page again and send it from there")


def token(connection: HTTPConnection) -> str:
    """This session's form token (made now if it has none; empty without a session)."""
    session = connection.scope.get("session")
    if session is None:
        return ""
    found = session.get(FIELD)
    if not isinstance(found, str):
        found = session[FIELD] = secrets.token_urlsafe(18)
    return found


async def posted(request: Request, max_fields: int, max_part_size: int = 4096) -> FormData:
    """The posted form, if it carries this session's token and no control characters;
    else ``ApiError`` (403, 400)."""
    form = await request.form(max_files=0, max_fields=max_fields,
                              max_part_size=max_part_size)
    expected = (request.scope.get("session") or {}).get(FIELD)
    given = form.get(FIELD)
    if not isinstance(expected, str) or not isinstance(given, str) or \
            not secrets.compare_digest(given.encode(), expected.encode()):
        raise ApiError(403, STALE)
    for _, value in form.multi_items():
        if isinstance(value, str) and any((ord(c) < 32 and c not in "\t\n\r") or c == "\x7f"
                                          for c in value):
            raise ApiError(400, "a form holds no control characters (such as NUL); type "
                           "plain text")
    return form


__all__ = ["FIELD", "posted", "token"]


SEAT_FIRST = re.compile(r"^seat (\d+): ")


def refusal(problem: ApiError | QuarkadeError) -> tuple[str, int]:
    """A refused form's message and status, in the form's words: it counts players from 1
    where the API counts seats from 0 ("seat 1: ..." -> "Player 2: ...")."""
    message = problem.message if isinstance(problem, ApiError) else str(problem)
    status = problem.status if isinstance(problem, ApiError) else 400
    return SEAT_FIRST.sub(lambda seat: f"Player {int(seat[1]) + 1}: ", message), status
