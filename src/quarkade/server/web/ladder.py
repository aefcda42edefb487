"""The ladder pages: the latest bot ladder of each game, as ``quarkade ladder`` wrote it in
the server's ladder folder (``quarkade serve --ladder DIR``; ``quarkade.sim.ladder``).

``/ladder`` lists the games and which have a ladder; ``/ladder/{game}`` shows one. The
ladder file is read at each request, so a ladder run while the server is up shows at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, list_games
from quarkade.server.errors import ApiError
from quarkade.server.web.asking import me, site_of
from quarkade.server.web.rendering import page, trusted
from quarkade.sim.ladder import about, html_tables, read_ladder


async def ladder_index(request: Request) -> Response:
    await me(request)  # the header names who is logged in
    folder = site_of(request).ladder_dir
    items = [{"name": name, "title": game_class(name).title,
              "ready": _ladder(folder, name) is not None} for name in list_games()]
    return page(request, "ladder_index.html", "Bot ladders", items=items)


async def ladder_page(request: Request) -> Response:
    name = request.path_params["game"]
    if name not in list_games():
        raise ApiError(404, f"no game named {name!r}; the games are: {', '.join(list_games())}")
    await me(request)
    data = _ladder(site_of(request).ladder_dir, name)
    if data is None:
        raise ApiError(404, f"The bots of {game_class(name).title} have not been ranked on "
                       "this server yet.")
    # The ladder's tables are HTML the simulator made (quarkade.sim.ladder.html_tables).
    return page(request, "ladder.html", f"{game_class(name).title} ladder",
                about=about(data), tables=trusted(html_tables(data)))


def _ladder(folder: Path, game: str) -> dict[str, Any] | None:
    try:
        return read_ladder(folder, game)
    except QuarkadeError as problem:  # a damaged file: say so, never a 500
        raise ApiError(503, f"the {game} ladder cannot be read: {problem}") from None
