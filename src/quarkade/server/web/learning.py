"""The learning routes: tutorials, hints and reviews on the web.

- ``/learn`` (every game's tutorial and this device's progress), ``/learn/{game}`` (the
  lessons, played on the page by ``learn.js``);
- ``GET /api/learn/{game}`` (lessons and progress), ``GET|POST
  /api/learn/{game}/lessons/{key}`` (a lesson's position after the goal moves made so far;
  a move to try), ``POST /api/learn/{game}/final`` (start the last lesson, a real game
  against ``easy``), ``POST /api/learn/{game}/reset``;
- ``POST /api/games/{id}/hint?seat=N`` (a hint for the held seat to move, in a game with a
  bot; the game is then flagged, never to be rated), ``GET /api/games/{id}/coach?seat=N``
  (what the game page offers: hints, a review, the way back to a tutorial);
- ``/games/{id}/review`` (the review page), ``GET|POST /api/games/{id}/review?seat=N``
  (its state and progress; start it).

A lesson keeps no state on the server: the page sends the goal moves made so far and the
position is rebuilt from them (``LessonRun``). Progress is the player's (``player:<id>``,
so it follows a player who logs in on another device); without a signed-in player it is
the device's, a random id in the ``quarkade_device`` cookie, and what a device learned
before a player signed in on it passes to that player (``LearnQueries.adopt``); the
database keeps a device's id as its digest only. Hints and reviews are
``quarkade.server.learn`` (computed in the worker processes, fair per client, merged).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from quarkade.core.lessons import Lesson, LessonError, LessonRun, Tutorial, tutorial
from quarkade.core.protocol import JSON, SPECTATOR
from quarkade.core.registry import game_class, list_games
from quarkade.core.words import log_line, move_words
from quarkade.learn.progress import next_lesson
from quarkade.server import keys
from quarkade.server.catalogue import known_game
from quarkade.server.errors import ApiError
from quarkade.server.learn.hints import has_bots
from quarkade.server.play import seats as seating
from quarkade.server.web.asking import (
    COOKIE_AGE,
    body_of,
    client_of,
    exchange,
    holder_of,
    me,
    session_of,
    set_cookie,
    site_of,
)
from quarkade.server.web.rendering import page, renderer

DEVICE_COOKIE = "quarkade_device"
PLAYER_LEARNER = "player:"  # a signed-in player's learner key: this and the player's id
LESSON_NAMES = ("you", "opponent")
MAX_MOVES = 64  # goal moves a lesson page may send back (the longest lesson has 5)


def routes() -> list[Route]:
    return [
        Route("/learn", learn_home),
        Route("/learn/{game}", learn_game_page),
        Route("/api/learn/{game}", api_course),
        Route("/api/learn/{game}/lessons/{key}", api_lesson, methods=["GET", "POST"]),
        Route("/api/learn/{game}/final", api_final, methods=["POST"]),
        Route("/api/learn/{game}/reset", api_reset, methods=["POST"]),
        Route("/api/games/{id}/hint", api_hint, methods=["POST"]),
        Route("/api/games/{id}/coach", api_coach),
        Route("/games/{id}/review", review_page),
        Route("/api/games/{id}/review", api_review, methods=["GET", "POST"]),
    ]


# -- tutorials --------------------------------------------------------------------------


async def learn_home(request: Request) -> Response:
    learner, device, new = await _learner(request, create=True)
    store = site_of(request).ctx.store.learning
    rows = []
    for name in list_games():
        course = tutorial(name)
        done = await _db(request, store.completed, learner, name)
        following = next_lesson(course, done)
        rows.append({"name": name, "title": game_class(name).title,
                     "done": sum(lesson.key in done for lesson in course.lessons),
                     "lessons": len(course.lessons),
                     "next": following.title if following else None})
    return _with_device(page(request, "learn_home.html", "Learn", rows=rows), device, new)


async def learn_game_page(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    _, device, new = await _learner(request, create=True)
    title = game_class(name).title
    shown = page(request, "learn_course.html", f"Learn {title}", name=name, title=title,
                 renderer=renderer(name), script="/static/js/learn.js", wide=True)
    return _with_device(shown, device, new)


async def api_course(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    learner, device, new = await _learner(request)
    course = tutorial(name)
    final = await _final_game(request, learner, course)
    done = await _db(request, _store(request).completed, learner, name)
    following = next_lesson(course, done)
    body = {
        "game": name, "title": game_class(name).title,
        "lessons": [{"key": lesson.key, "title": lesson.title, "final": lesson.final,
                     "done": lesson.key in done,
                     "teaches": [_rule(course, rule_id) for rule_id in lesson.teaches]}
                    for lesson in course.lessons],
        "next": following.key if following else None,
        "final_game": final,
    }
    return _with_device(JSONResponse(body), device, new)


async def api_lesson(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    learner, device, new = await _learner(request)
    course = tutorial(name)
    lesson = _lesson(course, request.path_params["key"])
    if lesson.final:
        body: JSON = {"lesson": _lesson_head(course, lesson), "final": True}
        return _with_device(JSONResponse(body), device, new)
    if request.method != "POST":
        moves = _moves_query(request.query_params.get("moves", ""))
        run = _run(course, lesson, moves)
        return _with_device(JSONResponse({"lesson": _lesson_payload(course, run)}), device, new)
    data = await body_of(request)
    moves = data.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(
            isinstance(m, int) and not isinstance(m, bool) for m in moves):
        raise ApiError(400, "'moves' should be the list of goal moves made so far (action ids)")
    move = data.get("move")
    if isinstance(move, bool) or not isinstance(move, int | str) or (
            isinstance(move, str) and not 0 < len(move) <= 200):
        raise ApiError(400, "'move' should be an action id, or a move's notation "
                       "(at most 200 characters)")
    run = _run(course, lesson, moves)
    if run.finished:
        raise ApiError(409, "this lesson is complete; take the next one")
    feedback = run.attempt(move)
    if feedback.finished:
        await _db(request, _store(request).complete, learner, name, lesson.key)
    body = {"feedback": feedback.as_json(), "lesson": _lesson_payload(course, run)}
    return _with_device(JSONResponse(body), device, new)


async def api_final(request: Request) -> Response:
    """Start the tutorial's last lesson: a real game, the learner against ``easy``."""
    name = known_game(request.path_params["game"])
    learner, device, new = await _learner(request)
    course = tutorial(name)
    final = next(lesson for lesson in course.lessons if lesson.final)
    players = game_class(name)(**final.options).num_players
    specs = [seating.YOU if seat == final.seat else "bot:easy" for seat in range(players)]
    player = await me(request)
    made = await site_of(request).seating.create(name, dict(final.options), specs,
                                                 player=player,
                                                 client=client_of(request, player))
    game_id = made.session.id
    await _db(request, _store(request).set_final_game, learner, name, game_id)
    response = JSONResponse({"id": game_id, "url": f"/games/{game_id}"}, status_code=201)
    set_cookie(response, game_id, made.secrets())
    return _with_device(response, device, new)


async def api_reset(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    learner, device, new = await _learner(request)
    await _db(request, _store(request).reset, learner, name)
    return _with_device(JSONResponse({"game": name, "reset": True}), device, new)


def _run(course: Tutorial, lesson: Lesson, moves: list[int]) -> LessonRun:
    try:
        return LessonRun(course, lesson, moves)
    except LessonError as problem:
        raise ApiError(400, f"{problem}; start the lesson again") from None


def _lesson(course: Tutorial, key: str) -> Lesson:
    try:
        return course.lesson(key)
    except LessonError as problem:
        raise ApiError(404, str(problem)) from None


def _moves_query(text: str) -> list[int]:
    parts = [part for part in text.split(",") if part.strip()]
    digits = all(part.strip().isascii() and part.strip().isdigit() for part in parts)
    if len(parts) > MAX_MOVES or not digits:
        raise ApiError(400, f"moves={text[:40]!r}: the goal moves made so far, as action ids "
                       "separated by commas")
    return [int(part) for part in parts]


def _rule(course: Tutorial, rule_id: str) -> JSON:
    rule = course.rule(rule_id)
    return {"id": rule.id, "name": rule.name, "text": rule.text}


def _lesson_head(course: Tutorial, lesson: Lesson) -> JSON:
    return {"key": lesson.key, "title": lesson.title, "intro": lesson.intro,
            "number": course.lessons.index(lesson) + 1, "of": len(course.lessons),
            "teaches": [_rule(course, rule_id) for rule_id in lesson.teaches]}


def _lesson_payload(course: Tutorial, run: LessonRun) -> JSON:
    """The lesson as its page draws it: the task, and a ``table`` shaped like a game page's
    payload, so the game's own renderer draws it (the moves to try, goal ones marked)."""
    state, seat, name = run.state, run.seat, course.game
    n = state.game.num_players
    others = [s for s in range(n) if s != seat]  # "opponent", or "opponent A", "B", ...
    names = [LESSON_NAMES[0] if s == seat else LESSON_NAMES[1] if n == 2
             else f"{LESSON_NAMES[1]} {chr(65 + others.index(s))}" for s in range(n)]
    view = state.view(seat)
    goals = set(run.goal_actions())
    legal = set(state.legal_actions())
    moves = []
    for action in run.moves():  # a trap the rules forbid is offered to try, but not lit
        text = state.action_string_for(seat, action)
        label = move_words(name, view, text, names)
        moves.append({"id": action, "text": text, "label": label, "goal": action in goals,
                      "allowed": action in legal})
    to_move = state.current_player()
    outcome = state.outcome()
    step = len(state.history())
    table = {
        "id": f"lesson-{name}-{run.lesson.key}", "step": step, "view": view,
        "viewpoint": seat, "held": [seat], "to_move": to_move if to_move >= 0 else None,
        "seats": [{"seat": s, "name": names[s], "kind": "you" if s == seat else "bot",
                   "joined": True} for s in range(n)],
        "legal": moves, "over": state.is_terminal(),
        "winners": list(outcome.winners) if outcome else [],
        "outcome": outcome.as_json() if outcome else None,
        "log": [{"step": step - len(run.events) + i + 1, "player": event.player,
                 "text": event.text, "line": log_line(name, event.view, event.player,
                                                      event.text, names)}
                for i, event in enumerate(run.events)],
    }
    task = run.task
    return {**_lesson_head(course, run.lesson), "task": None if task is None else task.say,
            "task_number": run.index + 1, "tasks": len(run.lesson.tasks),
            "finished": run.finished, "chosen": list(run.chosen), "table": table}


async def _final_game(request: Request, learner: str, course: Tutorial) -> JSON | None:
    """The learner's final-lesson game, if any; once it is played to its end the lesson is
    done (a game resigned or aborted is over but taught nothing: start another)."""
    game_id = await _db(request, _store(request).final_game, learner, course.game)
    if game_id is None:
        return None
    try:
        session = await site_of(request).hub.get(game_id)
    except ApiError:
        return None
    if session.state.is_terminal():
        final = next(lesson for lesson in course.lessons if lesson.final)
        await _db(request, _store(request).complete, learner, course.game, final.key)
    return {"id": session.id, "url": f"/games/{session.id}", "over": session.over}


# -- hints and reviews (``quarkade.server.learn``) -------------------------------------------


async def api_hint(request: Request) -> Response:
    session = await session_of(request)
    holder = await holder_of(request, session)
    seat = holder.viewpoint(request.query_params.get("seat"), session.state.current_player())
    player = await me(request)
    return JSONResponse(await site_of(request).hints.hint(session, seat,
                                                          client_of(request, player)))


async def api_coach(request: Request) -> Response:
    """What the game page may offer this device: a hint button, a review, a tutorial."""
    session = await session_of(request)
    holder = await holder_of(request, session)
    viewpoint = holder.viewpoint(request.query_params.get("seat"),
                                 session.state.current_player())
    learner = await _known_learner(request)
    tutorial_url = None
    if learner and await _db(request, _store(request).final_game, learner,
                             session.name) == session.id:
        tutorial_url = f"/learn/{session.name}#final"
    reviewable = (session.game.perfect_information or viewpoint != SPECTATOR) and (
        bool(holder.seats) or session.visibility == seating.PUBLIC) and \
        (not session.over or bool(session.movers()))  # ended before anyone moved: none
    return JSONResponse({
        "hints": viewpoint != SPECTATOR and has_bots(session) and not session.over
        and not session.times.rated,
        "hinted": await _db(request, _store(request).hinted, session.id),
        "review": f"/games/{session.id}/review" + ("" if viewpoint == SPECTATOR else
                                                    f"?seat={viewpoint}")
        if reviewable else None,
        "tutorial": tutorial_url,
    })


async def review_page(request: Request) -> Response:
    session = await session_of(request)
    swapped = exchange(request, session)
    if swapped is not None:
        return swapped
    await me(request)  # the header names who is logged in
    holder = await holder_of(request, session)
    viewpoint = site_of(request).reviews.viewpoint(session, holder,
                                                   request.query_params.get("seat"))
    title = game_class(session.name).title
    return page(request, "review.html", f"{title} review", game_id=session.id,
                name=session.name, title=title,
                seat="" if viewpoint == SPECTATOR else str(viewpoint),
                script="/static/js/review.js", wide=True)


async def api_review(request: Request) -> Response:
    """GET: the review's state (``none``, ``running`` with progress, ``done`` with the
    review, ``failed``); POST: start it unless it is done or under way."""
    session = await session_of(request)
    holder = await holder_of(request, session)
    reviews = site_of(request).reviews
    viewpoint = reviews.viewpoint(session, holder, request.query_params.get("seat"))
    player = await me(request)
    return JSONResponse(await reviews.state(session, holder, viewpoint,
                                            client_of(request, player),
                                            request.method == "POST"))


# -- helpers ----------------------------------------------------------------------------


def _store(connection: HTTPConnection) -> Any:
    return site_of(connection).ctx.store.learning


async def _db(request: Request, query: Any, *args: Any) -> Any:
    """A learning query on the store's thread pool (off the event loop)."""
    return await site_of(request).ctx.store.run(query, *args)


async def _learner(request: Request, create: bool = False) -> tuple[str, str, bool]:
    """Whose progress this is: the signed-in player's (a new guest's on a page, with
    ``create``), else this device's (by its id's digest); then the device id and whether
    it is new (the response then sets it). A device's progress passes to the first player
    signed in on it."""
    device, new = _device(request)
    player = await me(request, create=create)
    if player is None:
        return keys.digest(device), device, new
    learner = PLAYER_LEARNER + player.id
    if not new:
        await _db(request, _store(request).adopt, keys.digest(device), learner)
    return learner, device, new


async def _known_learner(request: Request) -> str | None:
    """The learner asking, if there is one already (a player, else a device)."""
    player = await me(request)
    if player is not None:
        return PLAYER_LEARNER + player.id
    device, new = _device(request)
    return None if new else keys.digest(device)


def _device(connection: HTTPConnection) -> tuple[str, bool]:
    """This device's learner id, and whether it is new (then the response sets it)."""
    found = connection.cookies.get(DEVICE_COOKIE, "")
    if 16 <= len(found) <= 64 and found.replace("-", "").replace("_", "").isalnum():
        return found, False
    return keys.new_secret(), True


def _with_device(response: Response, device: str, new: bool) -> Response:
    if new:
        response.set_cookie(DEVICE_COOKIE, device, max_age=COOKIE_AGE, path="/",
                            httponly=True, samesite="lax")
    return response
