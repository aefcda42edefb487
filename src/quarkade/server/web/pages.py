"""The HTML pages: home, the new-game form, rules, the game and replay pages, invite and
device links (with a form for a seat's own options, such as its deck), following a
rematch, downloading a record; the lobby, ``/me``, ``/players/<name>`` and
``/leaderboard/<game>``. Templates are in ``templates/`` (``rendering``).

Every page identifies its visitor (a new guest on a first visit: ``players``), so the
header names them."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from markdown_it import MarkdownIt
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class
from quarkade.core.words import rules_page
from quarkade.server import inputs
from quarkade.server.catalogue import catalogue, game_entry, known_game
from quarkade.server.decks.games import deck_games
from quarkade.server.decks.saved import saved
from quarkade.server.errors import ApiError
from quarkade.server.people.lobby import as_seen_by
from quarkade.server.people.players import NAME_RULE, PASSWORD_RULE
from quarkade.server.people.quick import quick
from quarkade.server.play.names import seat_names
from quarkade.server.play.rated import eligible
from quarkade.server.play.seating import invited_seat
from quarkade.server.play.session import GameSession
from quarkade.server.play.views import record_for
from quarkade.server.storage import Unavailable
from quarkade.server.web import forms
from quarkade.server.web.asking import (
    client_of,
    count_turns,
    exchange,
    me,
    session_of,
    set_cookie,
    site_of,
    tokens,
    viewpoint_of,
)
from quarkade.server.web.rendering import TIME_CONTROLS, page, pictures, renderer, trusted


async def home(request: Request) -> Response:
    await me(request, create=True)
    site = site_of(request)
    store = site.ctx.store
    try:
        recent = await store.run(store.games.recent)
    except Unavailable:
        recent = []
    return page(request, "home.html", "Games", games=catalogue(site.ctx.allowed_bots),
                recent=recent, pictures=pictures(),
                # The dates of recent games are shown in the viewer's locale by a script.
                script="/static/js/times.js" if recent else "")


async def new_game_page(request: Request) -> Response:
    game = known_game(request.path_params["game"])
    player = await me(request, create=True)
    site = site_of(request)
    allowed = site.ctx.allowed_bots
    entry = game_entry(game, allowed)
    others = [other for other in catalogue(allowed) if other["name"] != game]
    decks = await saved(site.ctx, None if player is None else player.id, game)

    def form(values: dict[str, str], error: str = "", status: int = 200) -> Response:
        return page(request, "new_game.html", f"New {entry['title']} game", status,
                    game=entry, others=others, values=values, error=error, saved=decks,
                    time_controls=TIME_CONTROLS, script="/static/js/newgame.js")

    if request.method != "POST":
        return form({})
    posted = await forms.posted(request, max_fields=100)
    values = {key: str(value)[:200] for key, value in posted.multi_items()}
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
        made = await site.seating.create(game, options, specs, values.get("visibility"),
                                         values.get("time_control"), player,
                                         values.get("reveal"),
                                         client=client_of(request, player),
                                         rated=values.get("rated"))
    except (ApiError, QuarkadeError) as problem:
        return form(values, *forms.refusal(problem))
    response = RedirectResponse(f"/games/{made.session.id}", status_code=303)
    set_cookie(response, made.session.id, made.secrets())
    return response


async def rules(request: Request) -> Response:
    await me(request, create=True)
    game = known_game(request.path_params["game"])
    entry = game_entry(game, site_of(request).ctx.allowed_bots)
    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(
        rules_page(game, players=True))
    return page(request, "rules.html", f"{entry['title']} rules", game=entry,
                rules=trusted(rendered))


async def game_page(request: Request) -> Response:
    await me(request, create=True)
    session = await session_of(request)
    swapped = exchange(request, session)
    if swapped is not None:
        return swapped
    seat, way_in = request.query_params.get("seat", ""), None
    try:
        await viewpoint_of(request, session)
    except ApiError as refused:  # a seat this device does not hold: watch, and a way in
        if refused.status != 403:
            raise
        way_in = await ways_in(session, inputs.small_number(seat, "seat",
                                                            "a seat is a number"))
        seat = "spectator"
    title = game_class(session.name).title
    return page(request, "game.html", title, game_id=session.id, name=session.name,
                title=title, renderer=renderer(session.name), seat=seat, way_in=way_in,
                reveal_note=reveal_note(session), script="/static/js/game.js", wide=True)


async def ways_in(session: GameSession, seat: int) -> dict[str, Any]:
    """How a device that holds no token for ``seat`` may come to play it: take it (an open
    seat), log in as the player who sat there (one who claimed the name), or open a device
    link from a device that holds it (its invite link, while nobody has joined)."""
    found = next((s for s in session.seats if s.seat == seat), None)
    name = session.names[seat] if found is not None else None
    if found is None or session.over:
        return {"name": name, "how": "watch"}
    if found.kind == "open" and not found.joined:
        return {"name": name, "how": "take", "url": f"/games/{session.id}/take/{seat}"}
    store = session.ctx.store
    sitter = None if found.player_id is None else await store.run(store.players.get,
                                                                  found.player_id)
    if sitter is not None and not sitter.guest:
        return {"name": name, "how": "login"}
    if found.kind == "friend" and not found.joined:
        return {"name": name, "how": "invite"}
    return {"name": name, "how": "link"}


async def replay_page(request: Request) -> Response:
    await me(request, create=True)
    session = await session_of(request)
    swapped = exchange(request, session)
    if swapped is not None:
        return swapped
    seat = request.query_params.get("seat", "")
    try:
        await viewpoint_of(request, session)
    except ApiError as refused:  # a seat this device does not hold: the spectator's replay
        if refused.status != 403:
            raise
        seat = "spectator"
    title = game_class(session.name).title
    return page(request, "replay.html", f"{title} replay", game_id=session.id,
                name=session.name, title=title, renderer=renderer(session.name),
                seat=seat, script="/static/js/replay.js", wide=True,
                analysable=session.name == "card-commons")


async def seat_form(request: Request, session: GameSession, seat: int,
                    choose: bool = True) -> Response:
    """Taking a seat: the options that seat chooses itself (its deck, or one of the
    player's saved decks; ``choose``), what the table chose about hidden cards after the
    game, and the button that takes it (a POST back to the same address)."""
    player = await me(request)
    entry = game_entry(session.name)
    decks = await saved(site_of(request).ctx, None if player is None else player.id,
                        session.name) if choose else []
    others = [name for at, name in enumerate(session.names) if at != seat]
    return page(request, "seat_form.html", "Take a seat", seat=seat, game=entry,
                action=request.url.path, saved=decks, reveal_note=reveal_note(session),
                choose=choose, others=others, clock=session.control.label,
                rated=await rated_mark(session, seat, player),
                script="/static/js/newgame.js" if decks or entry["presets"] else "")


async def rated_mark(session: GameSession, seat: int, player: Any) -> str:
    """Whether the game would be rated with this player at ``seat``, in a sentence (the
    rule is ``play.rated``, decided when the game begins)."""
    if player is None or player.guest:
        return "Not rated: claim your name with a password (on your page) to play rated games."
    store = session.ctx.store
    seats = [replace(s, player_id=player.id) if s.seat == seat else s for s in session.seats]

    async def stored(player_id: str) -> Any:
        return await store.run(store.players.get, player_id)

    if await eligible(seats, stored):
        return "Rated: the result changes your rating."
    return ("Not rated: rated games need every player to have a claimed name, and any bot "
            "to be a level (easy, medium or hard).")


async def join(request: Request) -> Response:
    """An invite link. Opening it (GET) changes nothing: it shows the seat, what it
    chooses (a deck) and what the table chose about hidden cards, with a button; the
    POST of that form takes the seat (the first device gets its secret, in its cookie)
    and spends the link. So a chat app's preview or a prefetcher leaves the seat to the
    friend. A device that took the seat already is sent to the game."""
    player = await me(request, create=True)
    held = tokens(request, request.path_params["id"])
    site = site_of(request)
    session = await site.hub.get(request.path_params["id"])
    seat = invited_seat(session, request.path_params["token"], site.ctx.clock.time())
    chosen = None
    waiting = session.waiting  # a seat chooses its options before the game begins only
    if request.method != "POST":
        if seat is not None:
            return await seat_form(request, session, seat, choose=waiting)
    else:
        chosen = await _seat_choices(request, session.name, seat if waiting else None)
    # With no valid invite this spends nothing: the joiner's own seat, or a refusal.
    session, seat, token = await site.seating.join(session.id, request.path_params["token"],
                                                   held, player, chosen)
    response = RedirectResponse(f"/games/{session.id}?seat={seat}", status_code=303)
    set_cookie(response, session.id, [*held, *([token] if token else [])])
    return response


async def take(request: Request) -> Response:
    """An open seat taken from the lobby without a script (or with a seat's own options):
    GET shows the form, POST takes the seat."""
    player = await me(request, create=True)
    session = await session_of(request)
    seat = inputs.small_number(request.path_params["seat"], "seat", "a seat is a number")
    if request.method != "POST":
        return await seat_form(request, session, seat)
    if player is None:
        raise ApiError(429, "too many new players from this address; wait a little")
    chosen = await _seat_choices(request, session.name, seat)
    token = await site_of(request).seating.take(session, seat, player, chosen)
    response = RedirectResponse(f"/games/{session.id}?seat={seat}", status_code=303)
    set_cookie(response, session.id, [*tokens(request, session.id), token])
    return response


async def _seat_choices(request: Request, game: str, seat: int | None) -> dict[str, str]:
    """The posted take-seat form (its token checked): the options ``seat`` chooses."""
    form = await forms.posted(request, max_fields=20)
    names = game_class(game).seat_option_names(seat) if seat is not None else ()
    chosen = {name: str(form[f"option.{name}"])[:200] for name in names
              if f"option.{name}" in form}
    for name in names:  # a saved deck chosen wins over the option's text
        picked = str(form.get(f"saved.{name}", ""))[:200]
        if picked:
            chosen[name] = picked
    return chosen


async def link(request: Request) -> Response:
    """A device link made by a seat's holder. Opening it shows the seat and a button
    (nothing is spent); its POST gives this device the seat too."""
    session = await session_of(request)
    site = site_of(request)
    if request.method != "POST":
        await me(request, create=True)
        seat = await site.seating.link_seat(session, request.path_params["code"])
        return await seat_form(request, session, seat, choose=False)
    await forms.posted(request, max_fields=5)
    held = tokens(request, session.id)
    session, seat, token = await site.seating.use_link(session.id,
                                                       request.path_params["code"])
    response = RedirectResponse(f"/games/{session.id}?seat={seat}", status_code=303)
    set_cookie(response, session.id, [*held, token])
    return response


async def follow_rematch(request: Request) -> Response:
    session = await session_of(request)
    if session.offer is None:
        raise ApiError(404, "no rematch has been asked for yet")
    site = site_of(request)
    new = await site.hub.get(session.offer.id)
    response = RedirectResponse(f"/games/{new.id}", status_code=303)
    held = tokens(request, new.id)
    followed = await site.seating.follow(session, new, tokens(request, session.id), held)
    set_cookie(response, new.id, [*held, *followed])
    return response


async def record(request: Request) -> Response:
    session = await session_of(request)
    swapped = exchange(request, session)
    if swapped is not None:
        return swapped
    viewpoint = await viewpoint_of(request, session)
    body = json.dumps(record_for(session, viewpoint), indent=1) + "\n"
    who = "spectator" if viewpoint < 0 else f"seat{viewpoint}"
    return Response(body, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{session.name}-{session.id}-{who}.json"'})


def reveal_note(session: GameSession) -> str:
    """What the table agreed about hidden cards after the game, in words (every seat is
    shown it, on the game page and before taking a seat); empty when nothing is hidden."""
    if session.game.perfect_information:
        return ""
    if session.revealing:
        return "The game is over: every hidden card is shown, as the table chose."
    if session.reveal:
        return "Every hidden card will be shown to everyone once the game is over."
    return "Hidden cards stay hidden after the game."


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
    site = site_of(request)
    owner = None if player is None else player.id
    snapshot = as_seen_by(await site.lobby.snapshot(), owner)
    decks = {game: await saved(site.ctx, owner, game) for game in deck_games()}
    return page(request, "lobby.html", "Lobby", games=catalogue(site.ctx.allowed_bots),
                snapshot=snapshot, player=player, saved=decks, time_controls=TIME_CONTROLS,
                script="/static/js/lobby.js")


async def quick_play(request: Request) -> Response:
    """Quick play from the lobby's form without a script: to the seat found or opened."""
    site = site_of(request)
    player = await site.players.required(request)
    form = await forms.posted(request, max_fields=30, max_part_size=1024)
    game = str(form.get("game", ""))  # the form has players and a deck for every game
    session, seat, token = await quick(
        site.ctx, site.hub, site.seating, site.ratings, player, game,
        str(form.get(f"players.{game}", form.get("players", ""))) or None,
        str(form.get("time_control", "")),
        str(form.get(f"deck.{game}", form.get("deck", "")))[:400])
    response = RedirectResponse(f"/games/{session.id}?seat={seat}", status_code=303)
    set_cookie(response, session.id, [*tokens(request, session.id),
                                      *([token] if token else [])])
    return response


async def me_page(request: Request) -> Response:
    """``/me``: my games and standing; the forms for my name, password, login and
    settings (each posts back here)."""
    site = site_of(request)
    players = site.players
    player = await players.required(request)
    problem, status = "", 200
    if request.method == "POST":
        form = await forms.posted(request, max_fields=20)
        action = str(form.get("action", ""))
        done = "claimed" if action == "password" and player.guest else action
        try:
            if action == "name":
                player = await players.rename(player, str(form.get("name", "")))
                await site.hub.renamed(player.id)
            elif action == "password":
                password = str(form.get("password", ""))
                if str(form.get("password_again", "")) != password:
                    raise ApiError(400, "The two passwords differ: type the same password in "
                                   "both boxes.")
                player = await players.claim(request, player, password)
            elif action == "login":
                player = await players.login(request, str(form.get("name", "")),
                                             str(form.get("password", "")))
            elif action == "logout":
                if player.guest and form.get("lose") != "yes":
                    raise ApiError(400, f"You are a guest: logging out loses the name "
                                   f"{player.name} and its games. Claim the name with a "
                                   "password first, or tick the box to log out anyway.")
                await players.logout(request)
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
            return RedirectResponse(f"/me?done={done}", status_code=303)
    done = DONE.get(request.query_params.get("done", ""), "")
    await count_turns(request, player)
    return await _player_page(request, player, own=True, error=problem, status=status,
                              done=done.format(name=player.name))


# What /me says after a change it made (``?done=``).
DONE = {"name": "Your name is now {name}.",
        "claimed": "The name {name} is yours: log in with it and your password on any device, "
                   "and play rated games.",
        "password": "Your password is changed; your other devices are logged out.",
        "login": "You are logged in as {name}.",
        "settings": "Your alerts are saved."}


async def player_page(request: Request) -> Response:
    """``/players/<name>``: a player's public games and standing."""
    await me(request, create=True)
    site = site_of(request)
    name = request.path_params["name"]
    store = site.ctx.store
    found = None if len(name) > 40 else await store.run(store.players.by_name, name)
    if found is None:
        shown = name if len(name) <= 30 else name[:27] + "..."
        raise ApiError(404, f"no player named {shown!r}")
    return await _player_page(request, found, own=False)


async def _player_page(request: Request, player: Any, own: bool, error: str = "",
                       status: int = 200, done: str = "") -> Response:
    site = site_of(request)
    games = await _games_of(request, player.id, public_only=not own)
    in_play = [g for g in games if g["finished"] is None and g["started"] is not None]
    in_play.sort(key=lambda g: g.get("to_move") not in g["mine"])  # my turn first
    waiting = [g for g in games if g["started"] is None and g["finished"] is None]
    finished = [g for g in games if g["finished"] is not None]
    return page(request, "player.html", "You" if own else player.name, status,
                player=player, own=own, error=error, done=done, in_play=in_play + waiting,
                finished=finished, ratings=await site.ratings.of_player(player.id),
                history=await site.ratings.history(player.id),
                win_rates=_win_rates(finished), name_rule=NAME_RULE,
                settings={"sound": False, "notify": False, **player.settings},
                password_rule=PASSWORD_RULE, games=catalogue(site.ctx.allowed_bots),
                time_controls=TIME_CONTROLS,
                # The rating history's dates are shown in the viewer's locale by a script.
                script="/static/js/times.js")


def _win_rates(finished: list[dict[str, Any]]) -> list[tuple[str, int, int, int]]:
    tally: dict[str, list[int]] = {}
    for g in finished:
        outcome = g.get("outcome") or {}
        if outcome.get("result") == "aborted":
            continue
        played = tally.setdefault(g["game"], [0, 0])
        played[1] += 1
        played[0] += g["mine"][0] in outcome.get("winners", [])
    return [(game, won, played, round(100 * won / played))
            for game, (won, played) in sorted(tally.items())]


async def _games_of(request: Request, player_id: str, public_only: bool) -> list[dict]:
    site = site_of(request)
    store = site.ctx.store
    games = await store.run(store.players.games_of, player_id, public_only)
    for entry in games:  # whose turn, from the games this process holds or loads
        for seat, name in zip(entry["seats"], seat_names(entry["game"], entry["seats"]),
                              strict=True):
            seat["name"] = name
        entry["to_move"] = None
        if entry["finished"] is None and entry["started"] is not None:
            try:
                session = await site.hub.get(entry["id"])
            except ApiError:
                continue
            to_move = session.state.current_player()
            entry["to_move"] = to_move if to_move >= 0 and not session.over else None
    return games


async def leaderboard_page(request: Request) -> Response:
    await me(request, create=True)
    game = known_game(request.path_params["game"])
    count = player_count(request, game)
    entry = game_entry(game)
    board = await site_of(request).ratings.leaderboard(game, count)
    return page(request, "leaderboard.html", f"{entry['title']} leaderboard", game=entry,
                players=count, board=board, games=catalogue())
