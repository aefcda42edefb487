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
position is rebuilt from them (``LessonRun``). Progress is per device for now: a random id
in the ``quarkade_device`` cookie is the learner (``LearnStore`` is a ``ProgressStore``, so
it can be keyed by player once players have accounts). Hints and reviews use only the
seat's information (``quarkade.learn``); reviews run in one background thread, are cached
with the game, and a review of a hidden-information game is for a seat this device holds.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from quarkade.core.agent import Turn, turn_for
from quarkade.core.errors import QuarkadeError
from quarkade.core.lessons import Lesson, LessonError, LessonRun, Tutorial, tutorial
from quarkade.core.protocol import JSON, SPECTATOR
from quarkade.core.registry import game_class, list_games
from quarkade.core.words import action_label, log_line
from quarkade.learn.hints import hint_for
from quarkade.learn.progress import next_lesson
from quarkade.learn.review import Budget, ReviewError, check_seats, review_game, seats_for
from quarkade.server import inputs, learn_pages
from quarkade.server import seats as seating
from quarkade.server.common import (
    check_rate,
    creator_tokens,
    hub_of,
    known_game,
    live_of,
    renderer,
    set_cookie,
)
from quarkade.server.errors import ApiError
from quarkade.server.learn_store import LearnStore
from quarkade.server.live import LiveGame

T = TypeVar("T")

DEVICE_COOKIE = "quarkade_device"
LESSON_NAMES = ("you", "opponent")
MAX_MOVES = 64  # goal moves a lesson page may send back (the longest lesson has 5)
MAX_KEPT_HINTS = 1000


@dataclass
class ReviewJob:
    """A review being computed: how far it is, and how it ended."""

    total: int = 0
    done: int = 0
    error: str | None = None


@dataclass
class Learning:
    """The learning features' state in one server: their store, a thread for reviews and
    hints, the reviews under way, the last hints, and the review budget."""

    store: LearnStore
    budget: Budget = field(default_factory=Budget)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(
        max_workers=1, thread_name_prefix="quarkade-learn"))
    jobs: dict[tuple[str, str], ReviewJob] = field(default_factory=dict)
    # The last hint of each (game, seat) and the step it is for: asking again at the same
    # step costs nothing.
    hints: dict[tuple[str, int], tuple[int, JSON]] = field(default_factory=dict)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


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
    device, new = _device(request)
    store = _learning(request).store
    rows = []
    for name in list_games():
        course = tutorial(name)
        done = await _db(request, store.completed, device, name)
        following = next_lesson(course, done)
        rows.append({"name": name, "title": game_class(name).title,
                     "done": sum(lesson.key in done for lesson in course.lessons),
                     "lessons": len(course.lessons),
                     "next": following.title if following else None})
    return _with_device(HTMLResponse(learn_pages.home(rows)), device, new)


async def learn_game_page(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    device, new = _device(request)
    page = learn_pages.course(name, game_class(name).title, renderer(name))
    return _with_device(HTMLResponse(page), device, new)


async def api_course(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    device, new = _device(request)
    course = tutorial(name)
    learning = _learning(request)
    final = await _final_game(request, learning, device, course)
    done = await _db(request, learning.store.completed, device, name)
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
    device, new = _device(request)
    course = tutorial(name)
    lesson = _lesson(course, request.path_params["key"])
    if lesson.final:
        body: JSON = {"lesson": _lesson_head(course, lesson), "final": True}
        return _with_device(JSONResponse(body), device, new)
    if request.method == "GET":
        moves = _moves_query(request.query_params.get("moves", ""))
        run = _run(course, lesson, moves)
        return _with_device(JSONResponse({"lesson": _lesson_payload(course, run)}), device, new)
    data = await _json_body(request)
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
        await _db(request, _learning(request).store.complete, device, name, lesson.key)
    body = {"feedback": feedback.as_json(), "lesson": _lesson_payload(course, run)}
    return _with_device(JSONResponse(body), device, new)


async def api_final(request: Request) -> Response:
    """Start the tutorial's last lesson: a real game, this device against ``easy``."""
    name = known_game(request.path_params["game"])
    check_rate(request, "create", "new games")
    device, new = _device(request)
    course = tutorial(name)
    final = next(lesson for lesson in course.lessons if lesson.final)
    players = game_class(name)(**final.options).num_players
    specs = [seating.YOU if seat == final.seat else "bot:easy" for seat in range(players)]
    live, host_token = await hub_of(request).create(name, dict(final.options), specs)
    await _db(request, _learning(request).store.set_final_game, device, name, live.id)
    response = JSONResponse({"id": live.id, "url": f"/games/{live.id}"}, status_code=201)
    set_cookie(response, live.id, [host_token, *creator_tokens(live)])
    return _with_device(response, device, new)


async def api_reset(request: Request) -> Response:
    name = known_game(request.path_params["game"])
    device, new = _device(request)
    await _db(request, _learning(request).store.reset, device, name)
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
    if len(parts) > MAX_MOVES or not all(part.strip().isdigit() for part in parts):
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
    names = [LESSON_NAMES[0] if s == seat else LESSON_NAMES[1] if n == 2 else f"seat {s}"
             for s in range(n)]
    view = state.view(seat)
    goals = set(run.goal_actions())
    moves = []
    for action in run.moves():
        text = state.action_string_for(seat, action)
        label = " ".join(action_label(name, view, text, names).split())
        moves.append({"id": action, "text": text, "label": label, "goal": action in goals})
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


async def _final_game(request: Request, learning: Learning, device: str,
                      course: Tutorial) -> JSON | None:
    """The device's final-lesson game, if any; once it is over the lesson is done."""
    game_id = await _db(request, learning.store.final_game, device, course.game)
    if game_id is None:
        return None
    try:
        live = await hub_of(request).get(game_id)
    except ApiError:
        return None
    over = live.state.is_terminal()
    if over:
        final = next(lesson for lesson in course.lessons if lesson.final)
        await _db(request, learning.store.complete, device, course.game, final.key)
    return {"id": live.id, "url": f"/games/{live.id}", "over": over}


# -- hints ------------------------------------------------------------------------------


async def api_hint(request: Request) -> Response:
    live = await live_of(request)
    holder = live.holder(_tokens(request, live.id))
    seat = holder.viewpoint(request.query_params.get("seat"), live.state.current_player())
    if seat == SPECTATOR:
        raise ApiError(403, "hints are for a seat this device holds; a spectator gets none")
    if not _has_bots(live):
        raise ApiError(409, "hints are offered only in games against bots")
    state = live.state
    if state.is_terminal() or state.current_player() != seat:
        raise ApiError(409, f"a hint is for the seat to move; it is not seat {seat}'s turn")
    learning = _learning(request)
    step = live.step
    asked = learning.hints.get((live.id, seat))
    if asked is not None and asked[0] == step:  # asked again at this step: the same hint
        hinted = await _db(request, learning.store.hinted, live.id)
        return JSONResponse({**asked[1], "hinted": hinted})
    turn = turn_for(state)
    history = [action for _, action in live.moves]
    loop = asyncio.get_running_loop()
    found = await loop.run_in_executor(learning.pool, lambda: hint_for(
        turn, random.Random(), past_turns=_past_turns(live.game, history, seat)))
    await _db(request, learning.store.mark_hinted, live.id, seat)
    labels = {move.action: _label(live, turn, move.text) for move in found.moves}
    body = found.as_json()
    for move in body["moves"]:
        move["label"] = labels[move["id"]]
    body["bot_move"]["label"] = labels[found.bot_move]
    learning.hints.pop((live.id, seat), None)
    learning.hints[(live.id, seat)] = (step, body)
    while len(learning.hints) > MAX_KEPT_HINTS:  # the oldest go first
        learning.hints.pop(next(iter(learning.hints)))
    return JSONResponse({**body, "hinted": await _db(request, learning.store.hinted, live.id)})


def _past_turns(game: Any, history: list[int], seat: int) -> Iterator[Turn]:
    """The seat's earlier turns of the game, rebuilt from its history (read only by a bot
    that remembers, such as Dead Cat's sleuth)."""
    state = game.new_initial_state()
    for action in history:
        if state.current_player() == seat:
            yield turn_for(state)
        state.apply_action(action)


async def api_coach(request: Request) -> Response:
    """What the game page may offer this device: a hint button, a review, a tutorial."""
    live = await live_of(request)
    holder = live.holder(_tokens(request, live.id))
    viewpoint = holder.viewpoint(request.query_params.get("seat"),
                                 live.state.current_player())
    learning = _learning(request)
    device = request.cookies.get(DEVICE_COOKIE, "")
    tutorial_url = None
    if device and await _db(request, learning.store.final_game, device, live.name) == live.id:
        tutorial_url = f"/learn/{live.name}#final"
    reviewable = live.game.perfect_information or viewpoint != SPECTATOR
    return JSONResponse({
        "hints": viewpoint != SPECTATOR and _has_bots(live),
        "hinted": await _db(request, learning.store.hinted, live.id),
        "review": f"/games/{live.id}/review" + ("" if viewpoint == SPECTATOR else
                                                 f"?seat={viewpoint}") if reviewable else None,
        "tutorial": tutorial_url,
    })


def _has_bots(live: LiveGame) -> bool:
    return any(s.kind == seating.BOT for s in live.seats)


def _label(live: LiveGame, turn: Turn, text: str) -> str:
    try:
        return " ".join(action_label(live.name, turn.view, text, live.names).split())
    except QuarkadeError:
        return text


# -- reviews ----------------------------------------------------------------------------


async def review_page(request: Request) -> Response:
    live = await live_of(request)
    viewpoint = _review_viewpoint(request, live)
    return HTMLResponse(learn_pages.review(live.id, live.name, game_class(live.name).title,
                                           "" if viewpoint == SPECTATOR else str(viewpoint)))


async def api_review(request: Request) -> Response:
    """GET: the review's state (``none``, ``running`` with progress, ``done`` with the
    review, ``failed``); POST: start it unless it is done or under way."""
    live = await live_of(request)
    viewpoint = _review_viewpoint(request, live)
    if not live.state.is_terminal():
        raise ApiError(409, "this game is not finished: a review needs a finished game")
    seats = seats_for(live.game, viewpoint) if live.game.perfect_information else \
        check_seats(live.game, viewpoint, [viewpoint])
    key = "all" if live.game.perfect_information else str(viewpoint)
    learning = _learning(request)
    cached = await _db(request, learning.store.review, live.id, key)
    job = learning.jobs.get((live.id, key))
    if cached is None and request.method == "POST" and (job is None or job.error):
        job = learning.jobs[(live.id, key)] = ReviewJob()
        history = [action for _, action in live.moves]
        learning.pool.submit(_run_review, learning, live, history, seats, viewpoint, key, job)
    hinted = await _db(request, learning.store.hinted, live.id)
    if cached is not None:
        return JSONResponse({"state": "done", "review": cached, "hinted": hinted})
    if job is None:
        return JSONResponse({"state": "none", "hinted": hinted})
    if job.error:
        return JSONResponse({"state": "failed", "error": job.error, "hinted": hinted})
    return JSONResponse({"state": "running", "done": job.done, "total": job.total,
                         "hinted": hinted})


def _run_review(learning: Learning, live: LiveGame, history: list[int], seats: list[int],
                viewpoint: int, key: str, job: ReviewJob) -> None:
    """The review, in the learning thread; cached with the game once done."""

    def progress(done: int, total: int) -> None:
        job.done, job.total = done, total

    try:
        found = review_game(live.game, history, seats, viewer=viewpoint, names=live.names,
                            budget=learning.budget, seed=live.id, progress=progress)
        learning.store.save_review(live.id, key, found.as_json())
    except Exception as problem:  # shown on the page; the next POST tries again
        job.error = f"the review could not be made: {problem}"
        return
    learning.jobs.pop((live.id, key), None)


def _review_viewpoint(request: Request, live: LiveGame) -> int:
    holder = live.holder(_tokens(request, live.id))
    viewpoint = holder.viewpoint(request.query_params.get("seat"), live.state.current_player())
    if not live.game.perfect_information and viewpoint == SPECTATOR:
        raise ApiError(403, f"{game_class(live.name).title} hides cards, so a review is for "
                       "a seat this device holds, and a spectator has none")
    try:
        seats_for(live.game, viewpoint)
    except ReviewError as problem:
        raise ApiError(403, str(problem)) from None
    return viewpoint


# -- helpers ----------------------------------------------------------------------------


def _learning(connection: HTTPConnection) -> Learning:
    learning: Learning = connection.app.state.learning
    return learning


async def _db(request: Request, query: Callable[..., T], *args: Any) -> T:
    """A learning query on the store's thread pool (off the event loop)."""
    return await hub_of(request).store.run(query, *args)


def _tokens(connection: HTTPConnection, game_id: str) -> list[str]:
    return inputs.tokens(connection, game_id)


def _device(connection: HTTPConnection) -> tuple[str, bool]:
    """This device's learner id, and whether it is new (then the response sets it)."""
    found = connection.cookies.get(DEVICE_COOKIE, "")
    if 16 <= len(found) <= 64 and found.replace("-", "").replace("_", "").isalnum():
        return found, False
    return seating.new_token(), True


def _with_device(response: Response, device: str, new: bool) -> Response:
    if new:
        response.set_cookie(DEVICE_COOKIE, device, max_age=seating.COOKIE_AGE, path="/",
                            httponly=True, samesite="lax")
    return response


async def _json_body(request: Request) -> dict[str, Any]:
    limits = hub_of(request).limits
    return await inputs.json_body(request, limits.body_bytes, limits.number_digits)
