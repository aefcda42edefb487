"""The puzzle routes: ``/puzzles`` (the page, played by ``puzzles.js``),
``GET /api/puzzles/{number}?step=N`` (a puzzle as its page draws it, at a step of its
solution) and ``POST /api/puzzles/{number}`` (``{"step": N, "move": id or notation}``: the
answer to a move tried). The pool and the answers are ``quarkade.server.learn.puzzles``;
nothing here searches. The page keeps the player's tally (solved, failed) on the device.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from quarkade.server.errors import ApiError
from quarkade.server.web.asking import body_of, me, site_of
from quarkade.server.web.rendering import page, renderer

GAME = "card-commons"


def routes() -> list[Route]:
    return [
        Route("/puzzles", puzzles_page),
        Route("/api/puzzles", api_pool),
        Route("/api/puzzles/{number}", api_puzzle, methods=["GET", "POST"]),
    ]


async def puzzles_page(request: Request) -> Response:
    await me(request, create=True)  # the header names the visitor
    count = len(site_of(request).puzzles.puzzles)
    return page(
        request,
        "puzzles.html",
        "Card Commons puzzles",
        count=count,
        renderer=renderer(GAME),
        script="/static/js/puzzles.js",
        wide=True,
    )


async def api_pool(request: Request) -> Response:
    return JSONResponse({"count": len(site_of(request).puzzles.puzzles)})


async def api_puzzle(request: Request) -> Response:
    pool = site_of(request).puzzles
    number = _number(request.path_params["number"])
    if request.method != "POST":
        text = request.query_params.get("step", "0")
        if not (text.isascii() and text.isdigit()) or len(text) > 4:
            raise ApiError(
                400, f"step={text[:20]!r}: where the puzzle stands, a whole number (0 at its start)"
            )
        return JSONResponse(pool.show(number, int(text)))
    data = await body_of(request)
    return JSONResponse(pool.attempt(number, data.get("step"), data.get("move")))


def _number(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise ApiError(404, f"there is no puzzle {text[:20]!r}; puzzles are numbered from 1")
    return int(text)
