"""The analysis board's routes: ``/analysis/card-commons`` (the page, played by
``analysis.js``; ``?game=ID&step=N`` opens a finished game's position after N steps,
``?variant=...&torus=...&moves=...`` a position from moves in the game's notation) and
``POST /api/analysis/card-commons`` (``{"variant", "torus", "moves": [ids], "game"}``: the
board after those moves; with ``"judge": true`` also every legal move judged, in the
worker processes). The board is ``quarkade.server.learn.analysis``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from quarkade.server.errors import ApiError
from quarkade.server.learn.analysis import NAMES, options_of, read_moves
from quarkade.server.play.session import GameSession
from quarkade.server.web.asking import body_of, client_of, me, site_of
from quarkade.server.web.rendering import page, renderer

GAME = "card-commons"


def routes() -> list[Route]:
    return [
        Route(f"/analysis/{GAME}", analysis_page),
        Route(f"/api/analysis/{GAME}", api_analysis, methods=["POST"]),
    ]


async def analysis_page(request: Request) -> Response:
    await me(request, create=True)
    query = request.query_params
    game_id = query.get("game", "")
    if game_id:
        session = await _finished(request, game_id)
        step_text = query.get("step", str(session.step))
        if not (step_text.isascii() and step_text.isdigit()) or int(step_text) > session.step:
            raise ApiError(
                404, f"step {step_text[:20]!r} does not exist; this game has steps 0-{session.step}"
            )
        options = {
            "variant": session.options.get("variant", "classic"),
            "torus": bool(session.options.get("torus", False)),
        }
        history = [action for _, action in session.moves[: int(step_text)]]
        rest = [action for _, action in session.moves[int(step_text) :]]
    else:
        options = options_of(
            query.get("variant", "tutorial"), query.get("torus", "no") in ("yes", "true", "1")
        )
        history = read_moves(options, query.get("moves", ""))
        rest = []
    start: dict[str, Any] = {**options, "moves": history, "rest": rest, "game": game_id or None}
    return page(
        request,
        "analysis.html",
        "Card Commons analysis board",
        start=start,
        game_id=game_id,
        renderer=renderer(GAME),
        script="/static/js/analysis.js",
        wide=True,
    )


async def api_analysis(request: Request) -> Response:
    data = await body_of(request)
    names: list[str] = list(NAMES)
    if data.get("game") is not None:
        if not isinstance(data["game"], str) or not 0 < len(data["game"]) <= 64:
            raise ApiError(400, "'game' should be a game's id from its address")
        session = await _finished(request, data["game"])
        options = {
            "variant": session.options.get("variant", "classic"),
            "torus": bool(session.options.get("torus", False)),
        }
        names = list(session.names)
    else:
        options = options_of(data.get("variant"), data.get("torus", False))
    analysis = site_of(request).analysis
    body = analysis.show(options, data.get("moves"), names)
    body["game"] = data.get("game")
    if data.get("judge") is True:
        player = await me(request)
        body["judged"] = await analysis.judge(
            options, body["moves"], names, client_of(request, player)
        )
    return JSONResponse(body)


async def _finished(request: Request, game_id: str) -> GameSession:
    """A finished Card Commons game (its address is all the replay page asks for either:
    every card of Card Commons is open)."""
    session = await site_of(request).hub.get(game_id)
    if session.name != GAME:
        raise ApiError(404, "the analysis board is for Card Commons games")
    if not session.over:
        raise ApiError(409, "the analysis board opens once the game is over")
    return session
