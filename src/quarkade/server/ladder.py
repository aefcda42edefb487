"""The ladder pages: the latest bot ladder of each game, as ``quarkade ladder`` wrote it in
the server's ladder folder (``quarkade serve --ladder DIR``; ``quarkade.sim.ladder``).

``/ladder`` lists the games and which have a ladder; ``/ladder/{game}`` shows one. The
ladder file is read at each request, so a ladder run while the server is up shows at once.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, list_games
from quarkade.server.errors import ApiError
from quarkade.server.html import layout
from quarkade.sim.ladder import about, html_tables, read_ladder


async def ladder_index(request: Request) -> Response:
    folder = _folder(request)
    items = []
    for name in list_games():
        title = escape(game_class(name).title)
        if _ladder(folder, name) is None:
            items.append(f'<li>{title} <span class="muted">(no ladder yet: '
                         f'<code>quarkade ladder {escape(name)}</code>)</span></li>')
        else:
            items.append(f'<li><a href="/ladder/{escape(name)}">{title}</a></li>')
    body = ("<h1>Bot ladders</h1><p>Where every bot and level stands, game by game and per "
            "player count, from games between them on the simulator.</p>"
            f'<ul class="ladders">{"".join(items)}</ul>')
    return HTMLResponse(layout("Bot ladders", body))


async def ladder_page(request: Request) -> Response:
    name = request.path_params["game"]
    if name not in list_games():
        raise ApiError(404, f"no game named {name!r}; the games are: {', '.join(list_games())}")
    data = _ladder(_folder(request), name)
    if data is None:
        raise ApiError(404, f"no ladder for {name} yet; the server's operator makes one with "
                       f"quarkade ladder {name}")
    title = f"{game_class(name).title} ladder"
    body = (f'<h1>{escape(title)}</h1><p class="muted">{escape(about(data))}</p>'
            f'<div class="ladder">{html_tables(data)}</div>'
            '<p><a href="/ladder">Every ladder</a></p>')
    return HTMLResponse(layout(title, body))


def _folder(request: Request) -> Path:
    folder: Path = request.app.state.ladder_dir
    return folder


def _ladder(folder: Path, game: str) -> dict[str, Any] | None:
    try:
        return read_ladder(folder, game)
    except QuarkadeError as problem:  # a damaged file: say so, never a 500
        raise ApiError(503, f"the {game} ladder cannot be read: {problem}") from None
