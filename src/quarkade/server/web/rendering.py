"""The pages' HTML: Jinja2 templates (``templates/``) through Starlette's
``Jinja2Templates``, every value escaped unless a template is told otherwise (only HTML
the server itself made: a rules page rendered from Markdown with HTML off, a ladder's
tables). Every page names its player in the header (``players.signed_in``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.templating import Jinja2Templates

from quarkade.core.registry import game_class, list_games
from quarkade.server.people.players import signed_in, turns_waiting
from quarkade.server.web import forms
from quarkade.sim.ladder import LADDER_FILE

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
TIME_CONTROLS = (("none", "no clock"), ("1+0", "1 min"), ("3+2", "3 min + 2 s"),
                 ("5+5", "5 min + 5 s"), ("10+5", "10 min + 5 s"), ("30+20", "30 min + 20 s"),
                 ("corr:1", "1 day per move"), ("corr:3", "3 days per move"),
                 ("corr:7", "7 days per move"))
KIND_LABELS = {"you": "me", "open": "open (anyone, from the lobby)",
               "friend": "invite a friend (a link)",
               "hotseat": "hot-seat (another person on this device)"}
STATUS_WORDS = {400: "Bad request", 403: "Not yours", 404: "Not found", 405: "Not allowed",
                409: "Conflict", 413: "Too large", 422: "Not legal", 429: "Too many requests",
                503: "Try again"}


def _players(game: Mapping[str, Any]) -> str:
    low, high = game["min_players"], game["max_players"]
    return f"{low}-{high} players" if high > low else f"{low} players"


def _kind_label(kind: str) -> str:
    if kind.startswith("bot:"):
        return f"bot: {kind[4:]}"
    return KIND_LABELS.get(kind, kind)


def _result(game: Mapping[str, Any], seat: int) -> str:
    """How a finished game went for ``seat``, in words."""
    outcome = game.get("outcome") or {}
    result = outcome.get("result")
    ending = outcome.get("ending", "")
    if result == "aborted":
        return "aborted"
    if result == "draw" or not outcome:
        return "draw"
    won = seat in outcome.get("winners", [])
    if ending in ("resigned", "out of time", "abandoned"):  # the server's ruling
        return f"won (the other side {ending})" if won else f"lost ({ending})"
    return "won" if won else "lost"


def _game_title(name: str) -> str:
    """A game's title for players ("Card Commons"), never its slug ("card-commons")."""
    return game_class(name).title if name in list_games() else name


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent /
                                                           "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters.update(
        players=_players, kind_label=_kind_label, result=_result, game_title=_game_title,
        percent=lambda rate: f"{100 * rate:.1f}%",
        iso=lambda seconds: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)),
        day=lambda seconds: time.strftime("%Y-%m-%d", time.gmtime(seconds)))
    return env


def _has_ladder(request: Request) -> bool:
    """Whether any game has a bot ladder on this server: the menu shows Ladder only then
    (an empty page is no use to a player)."""
    site = getattr(request.app.state, "site", None)
    folder = getattr(site, "ladder_dir", None)
    return folder is not None and any((folder / name / LADDER_FILE).is_file()
                                      for name in list_games())


templates = Jinja2Templates(env=_environment(), context_processors=[
    lambda request: {"me": signed_in.get(), "your_turns": turns_waiting.get(),
                     "ladders": _has_ladder(request),
                     "csrf": forms.token(request)}])


def page(request: Request, template: str, title: str, code: int = 200, /,
         **values: Any) -> HTMLResponse:
    """The page of ``template`` (its ``<title>`` is ``title``), given ``values``."""
    return templates.TemplateResponse(request, template, {"page": title, "script": "",
                                                          "wide": False, **values},
                                      status_code=code)


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    word = STATUS_WORDS.get(status, "Error")
    return page(request, "error.html", word, status, status=status, word=word,
                message=message)


def wants_json(request: Request) -> bool:
    """An API or health address, or a client that asks for JSON first."""
    return request.url.path.startswith(("/api/", "/healthz", "/readyz")) or \
        "application/json" in request.headers.get("accept", "").split(",")[0]


def refusal(request: Request, status: int, message: str) -> Response:
    """A refusal as the asker reads it: JSON for the API and scripts, else a page."""
    if wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return error_page(request, status, message)


def trusted(html: str) -> Markup:
    """HTML the server made itself, to put in a page as it is."""
    return Markup(html)  # only the server's own HTML comes here


def renderer(game: str) -> str:
    return f"/static/games/{game}.js" if (STATIC / "games" / f"{game}.js").is_file() else ""


def pictures() -> dict[str, str]:
    return {name: f"/static/games/{name}.svg" if (STATIC / "games" / f"{name}.svg").is_file()
            else "/static/games/table.svg" for name in list_games()}
