"""The HTML pages: home, the new-game form, rules, the game and replay pages, invite and
device links (with a form for a seat's own options, such as its deck), following a
rematch, downloading a record; the lobby, ``/me``, ``/players/<name>`` and
``/leaderboard/<game>``. Templates are in ``html`` and ``html_people``.

Every page identifies its visitor (a new guest on a first visit: ``players``), so the
header names them."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class
from quarkade.core.words import rules_page
from quarkade.server import html, html_people, inputs
from quarkade.server.common import (
    catalogue,
    check_rate,
    creator_tokens,
    deck_games,
    game_entry,
    hub_of,
    known_game,
    live_of,
    me,
    pictures,
    rematch_tokens,
    renderer,
    reveal_note,
    set_cookie,
    viewpoint_of,
)
from quarkade.server.decks import saved_decks
from quarkade.server.errors import ApiError
from quarkade.server.hub import invited_seat
from quarkade.server.storage import Unavailable


async def home(request: Request) -> Response:
    await me(request, create=True)
    hub = hub_of(request)
    try:
        recent = await hub.store.run(hub.store.recent_games)
    except Unavailable:
        recent = []
    return HTMLResponse(html.home(catalogue(hub.allowed_bots), recent, pictures()))


async def new_game_page(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    player = await me(request, create=True)
    allowed = hub_of(request).allowed_bots
    others = [entry for entry in catalogue(allowed) if entry["name"] != game]
    saved = await saved_decks(request, game)
    if request.method == "GET":
        return HTMLResponse(html.new_game(game_entry(game, allowed), others, saved=saved))
    check_rate(request, "create", "new games")
    form = await request.form(max_files=0, max_fields=100, max_part_size=4096)
    values = {key: str(value)[:200] for key, value in form.multi_items()}
    options = {key.removeprefix("option."): value for key, value in values.items()
               if key.startswith("option.")}
    for key, value in values.items():  # a saved deck chosen wins over the option's text
        if key.startswith("saved.") and value and key.removeprefix("saved.") in options:
            options[key.removeprefix("saved.")] = value
    try:
        players = game_class(game)(**options).num_players
        # A bot written under "More bots" takes the seat instead of the choice.
        specs = [f"bot:{typed}" if (typed := values.get(f"bot{seat}", "").strip())
                 else values.get(f"seat{seat}", "") for seat in range(players)]
        live, host_token = await hub_of(request).create(game, options, specs,
                                                        values.get("visibility"),
                                                        values.get("time_control"), player,
                                                        values.get("reveal"))
    except (ApiError, QuarkadeError) as problem:
        message = problem.message if isinstance(problem, ApiError) else str(problem)
        status = problem.status if isinstance(problem, ApiError) else 400
        return HTMLResponse(html.new_game(game_entry(game, allowed), others, values, message,
                                          saved),
                            status_code=status)
    response = RedirectResponse(f"/games/{live.id}", status_code=303)
    set_cookie(response, live.id, [host_token, *creator_tokens(live)])
    return response


async def rules(request: Request) -> Response:
    await me(request, create=True)
    game = known_game(request.path_params["game"])
    return HTMLResponse(html.rules(game_entry(game, hub_of(request).allowed_bots),
                                   rules_page(game)))


async def game_page(request: Request) -> Response:
    await me(request, create=True)
    live = await live_of(request)
    await viewpoint_of(request, live)  # refuses a seat this device does not hold
    return HTMLResponse(html.game(live.id, live.name, game_class(live.name).title,
                                  renderer(live.name), request.query_params.get("seat", ""),
                                  reveal_note(live)))


async def replay_page(request: Request) -> Response:
    await me(request, create=True)
    live = await live_of(request)
    await viewpoint_of(request, live)
    return HTMLResponse(html.replay(live.id, live.name, game_class(live.name).title,
                                    renderer(live.name), request.query_params.get("seat", "")))


async def join(request: Request) -> Response:
    """An invite link: the first device to open it gets the seat's secret (in its cookie);
    the link is spent. A seat that chooses its own options (a deck) is shown a form first;
    its answer comes back here as a POST."""
    player = await me(request, create=True)
    held = inputs.tokens(request, request.path_params["id"])
    hub = hub_of(request)
    live = await hub.get(request.path_params["id"])
    seat = invited_seat(live, request.path_params["token"])
    chosen = None
    cls = game_class(live.name)
    # A seat that chooses its own options (a deck), or a game that hides cards (its reveal
    # after the game is shown before joining), is shown a form first.
    if seat is not None and live.waiting and (cls.seat_option_names(seat)
                                              or not cls.perfect_information):
        if request.method == "GET":
            return HTMLResponse(html_people.seat_form(
                live, seat, game_entry(live.name), request.url.path,
                await saved_decks(request, live.name), reveal_note(live)))
        chosen = await _seat_choices(request, live.name, seat)
    live, seat, token = await hub.join(live.id, request.path_params["token"], held, player,
                                       chosen)
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*held, *([token] if token else [])])
    return response


async def take(request: Request) -> Response:
    """An open seat taken from the lobby without a script (or with a seat's own options):
    GET shows the form, POST takes the seat."""
    player = await me(request, create=True)
    live = await live_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    if request.method == "GET":
        return HTMLResponse(html_people.seat_form(live, seat, game_entry(live.name),
                                                  request.url.path,
                                                  await saved_decks(request, live.name),
                                                  reveal_note(live)))
    if player is None:
        raise ApiError(429, "too many new players from this address; wait a little")
    chosen = await _seat_choices(request, live.name, seat)
    token = await hub_of(request).take(live, seat, player, chosen)
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*inputs.tokens(request, live.id), token])
    return response


async def _seat_choices(request: Request, game: str, seat: int) -> dict[str, str]:
    form = await request.form(max_files=0, max_fields=20, max_part_size=4096)
    names = game_class(game).seat_option_names(seat)
    chosen = {name: str(form[f"option.{name}"])[:200] for name in names
              if f"option.{name}" in form}
    for name in names:  # a saved deck chosen wins over the option's text
        picked = str(form.get(f"saved.{name}", ""))[:200]
        if picked:
            chosen[name] = picked
    return chosen


async def link(request: Request) -> Response:
    """A device link made by a seat's holder: this device now holds the seat too."""
    held = inputs.tokens(request, request.path_params["id"])
    live, seat, token = await hub_of(request).use_link(request.path_params["id"],
                                                       request.path_params["code"])
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*held, token])
    return response


async def follow_rematch(request: Request) -> Response:
    live = await live_of(request)
    if live.rematch is None:
        raise ApiError(404, "no rematch has been asked for yet")
    new = await hub_of(request).get(live.rematch)
    response = RedirectResponse(f"/games/{new.id}", status_code=303)
    old_tokens = inputs.tokens(request, live.id)
    set_cookie(response, new.id, [*inputs.tokens(request, new.id),
                                  *rematch_tokens(live, new, old_tokens)])
    return response


async def record(request: Request) -> Response:
    live = await live_of(request)
    viewpoint = await viewpoint_of(request, live)
    body = json.dumps(live.record_for(viewpoint), indent=1) + "\n"
    who = "spectator" if viewpoint < 0 else f"seat{viewpoint}"
    return Response(body, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{live.name}-{live.id}-{who}.json"'})


# -- players ----------------------------------------------------------------------------


def player_count(request: Request, game: str) -> int:
    """The player count asked for (``?players=N``), else the game's smallest."""
    cls = game_class(game)
    asked = request.query_params.get("players")
    if asked is None or asked == "":
        return cls.min_players
    count = inputs.small_number(asked, "players", f"{cls.title} has {cls.min_players} to "
                                f"{cls.max_players} players")
    if not cls.min_players <= count <= cls.max_players:
        raise ApiError(400, f"{cls.title} has {cls.min_players} to {cls.max_players} players")
    return count


async def lobby_page(request: Request) -> Response:
    player = await me(request, create=True)
    snapshot = await hub_of(request).lobby.snapshot()
    saved = {game: await saved_decks(request, game) for game in deck_games()}
    return HTMLResponse(html_people.lobby(catalogue(hub_of(request).allowed_bots), snapshot,
                                          player, saved))


async def quick_play(request: Request) -> Response:
    """Quick play from the lobby's form without a script: to the seat found or opened."""
    check_rate(request, "create", "new games")
    player = await request.app.state.players.required(request)
    form = await request.form(max_files=0, max_fields=10, max_part_size=1024)
    live, seat, token = await hub_of(request).lobby.quick(
        player, str(form.get("game", "")), str(form.get("players", "")) or None,
        str(form.get("time_control", "")), str(form.get("deck", ""))[:400])
    response = RedirectResponse(f"/games/{live.id}?seat={seat}", status_code=303)
    set_cookie(response, live.id, [*inputs.tokens(request, live.id), *([token] if token
                                                                        else [])])
    return response


async def me_page(request: Request) -> Response:
    """``/me``: my games and standing; the forms for my name, password, login and
    settings (each posts back here)."""
    players = request.app.state.players
    player = await players.required(request)
    problem, status = "", 200
    if request.method == "POST":
        form = await request.form(max_files=0, max_fields=20, max_part_size=4096)
        action = str(form.get("action", ""))
        try:
            if action == "name":
                player = await players.rename(player, str(form.get("name", "")))
                await hub_of(request).renamed(player.id)
            elif action == "password":
                player = await players.claim(request, player, str(form.get("password", "")))
            elif action == "login":
                player = await players.login(request, str(form.get("name", "")),
                                             str(form.get("password", "")))
            elif action == "logout":
                players.logout(request)
                return RedirectResponse("/", status_code=303)
            elif action == "settings":
                player = await players.update_settings(player, {
                    key: form.get(key) == "on" for key in ("sound", "notify")})
            else:
                raise ApiError(400, "choose what to change: name, password, login, logout "
                               "or settings")
        except ApiError as refused:
            problem, status = refused.message, refused.status
        else:
            return RedirectResponse("/me", status_code=303)
    games = await _games_of(request, player.id, public_only=False)
    hub = hub_of(request)
    return HTMLResponse(html_people.player_page(
        player, games, await hub.ratings.of_player(player.id),
        await hub.ratings.history(player.id), own=True, error=problem), status_code=status)


async def player_page(request: Request) -> Response:
    """``/players/<name>``: a player's public games and standing."""
    await me(request, create=True)
    players = request.app.state.players
    name = request.path_params["name"]
    found = None if len(name) > 40 else await players.store.run(players.queries.by_name,
                                                                 name)
    if found is None:
        shown = name if len(name) <= 30 else name[:27] + "..."
        raise ApiError(404, f"no player named {shown!r}")
    games = await _games_of(request, found.id, public_only=True)
    hub = hub_of(request)
    history = [entry for entry in await hub.ratings.history(found.id)]
    return HTMLResponse(html_people.player_page(
        found, games, await hub.ratings.of_player(found.id), history, own=False))


async def _games_of(request: Request, player_id: str, public_only: bool) -> list[dict]:
    players = request.app.state.players
    games = await players.store.run(players.queries.games_of, player_id, public_only)
    hub = hub_of(request)
    for entry in games:  # whose turn, from the games this process holds or loads
        entry["to_move"] = None
        if entry["finished"] is None and entry["started"] is not None:
            try:
                live = await hub.get(entry["id"])
            except ApiError:
                continue
            to_move = live.state.current_player()
            entry["to_move"] = to_move if to_move >= 0 and not live.over else None
    return games


async def leaderboard_page(request: Request) -> Response:
    await me(request, create=True)
    game = known_game(request.path_params["game"])
    count = player_count(request, game)
    board = await hub_of(request).ratings.leaderboard(game, count)
    return HTMLResponse(html_people.leaderboard(game_entry(game), count, board, catalogue()))
