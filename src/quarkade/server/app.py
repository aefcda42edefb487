"""The web app: routes, middleware and lifespan, assembled; the logic is in the modules
named beside each route.

- pages (``pages``): ``/``, ``/new/{game}``, ``/rules/{game}``, ``/games/{id}``,
  ``/games/{id}/join/{invite}``, ``/games/{id}/take/{seat}``, ``/games/{id}/link/{code}``,
  ``/games/{id}/rematch``, ``/games/{id}/replay``, ``/games/{id}/record``, ``/lobby``,
  ``/me``, ``/players/{name}``, ``/leaderboard/{game}``, ``/decks/{game}`` (the deck
  builder);
- ladders (``ladder``): ``/ladder``, ``/ladder/{game}``;
- API (``api``): ``/api/games`` (GET the catalogue, POST a new game),
  ``/api/games/{id}``, ``/api/games/{id}/actions``, ``/api/games/{id}/chat``,
  ``/api/games/{id}/join``,
  ``/api/games/{id}/invites/{seat}``, ``/api/games/{id}/seats/{seat}/link``,
  ``/api/games/{id}/seats/{seat}/take``, ``/api/games/{id}/resign``,
  ``/api/games/{id}/abort``, ``/api/games/{id}/claim``, ``/api/games/{id}/rematch``,
  ``/api/games/{id}/steps/{step}``, ``/api/lobby``, ``/api/lobby/quick``, ``/api/me``,
  ``/api/login``, ``/api/logout``, ``/api/leaderboard/{game}``, ``/healthz``, ``/readyz``;
- decks (``decks``): ``/api/decks/{game}`` (GET, POST), ``/api/decks/{game}/{id}``
  (DELETE), ``/api/decks/{game}/tests`` (POST), ``/api/deck-tests/{id}``;
- live (``sockets``): ``/ws/games/{id}?seat=N``, ``/ws/lobby``;
- learning (``learning``): ``/learn``, ``/learn/{game}``, ``/games/{id}/review`` and their
  JSON routes, hints (``/api/games/{id}/hint``);
- puzzles (``puzzles``): ``/puzzles``, ``/api/puzzles``, ``/api/puzzles/{number}``;
- analysis (``analysis``): ``/analysis/card-commons``, ``/api/analysis/card-commons``.

The routes are ``quarkade.server.web``; the parts they reach (``web.site.Site``) share one
``Context``. Who is asking is a player in a signed session cookie (``people.players``).

Bad input is answered 4xx with a JSON or page error and nothing changes; a database that
does not answer is a 503; secrets never reach the log.
"""

from __future__ import annotations

import logging
import math
import random
import secrets
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.learn.review import Budget
from quarkade.server import keys
from quarkade.server.broker import make_broker
from quarkade.server.clock import Clock, SystemClock
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.events import Bus
from quarkade.server.learn.puzzles import POOL, PuzzlePool
from quarkade.server.limits import Limits, without_rates
from quarkade.server.people.players import SESSION_AGE, SESSION_COOKIE
from quarkade.server.play.session import UNAVAILABLE
from quarkade.server.rates import make_rates
from quarkade.server.storage import DEFAULT_URL, Store, Unavailable
from quarkade.server.web import (
    analysis,
    api,
    challenges,
    decks,
    ladder,
    learning,
    pages,
    puzzles,
    sockets,
)
from quarkade.server.web.guard import BodyLimit, Guard, SecurityHeaders, SocketCap
from quarkade.server.web.rendering import STATIC, refusal
from quarkade.server.web.site import Site
from quarkade.server.work.pool import DEFAULT_FACTORY, WorkerPool
from quarkade.server.work.scheduler import Scheduler

log = logging.getLogger("quarkade.server")

__all__ = ["STATIC", "create_app"]


def create_app(db: str = DEFAULT_URL, bot_delay: float = 0.0, broker: str | None = None,
               clock: Clock | None = None, limits: Limits | None = None,
               agent_factory: str = DEFAULT_FACTORY, busy_timeout: float = 5.0,
               rate_limits: bool = True, session_secret: str | None = None,
               allow_bots: Collection[str] = (), move_time: float = DEFAULT_MOVE_TIME,
               ladder_dir: str | Path = "ladder", review_budget: Budget | None = None,
               chance_seed: int | None = None, secret_file: str | Path | None = None,
               puzzle_pool: str | Path | None = None,
               warm_workers: bool = False) -> Starlette:
    """The ASGI app over the database ``db`` (a SQLAlchemy URL or a SQLite file path).

    ``broker`` (``redis://...``) connects several server processes; ``bot_delay`` is a
    pause in seconds before each bot move, so a person can follow; ``clock``, ``limits``
    and ``agent_factory`` (``module:function`` making an agent from a spec) are for tests
    and operators; ``busy_timeout`` is how long a database call may wait for a lock;
    ``rate_limits=False`` lifts the per-client rates (benchmarks, trusted networks);
    ``session_secret`` signs session cookies (default: the key in ``QUARKADE_SECRET``,
    else the one in ``secret_file``, made once: ``keys.key_file`` says where; never in
    the database). ``allow_bots`` names the plug-in bots seats may use (none by default: a
    plug-in runs its code on the server, in the worker processes); each of their moves
    gets ``move_time`` seconds of thinking (at most the bot deadline of ``limits``).
    ``ladder_dir`` is where ``quarkade ladder`` writes the ladders the ``/ladder`` pages
    show. ``review_budget`` is the search time of a game's review (tests shorten it).
    ``chance_seed`` makes the deals and other chance outcomes repeatable (tests only: by
    default they come from the system's secure source). ``puzzle_pool`` is the pool file the
    ``/puzzles`` page serves (``quarkade puzzles card-commons --pool FILE`` writes one; by
    default the pool shipped with the server). ``warm_workers``: each worker
    process loads the compiled search when it starts (``quarkade serve``; tests that ask
    for no search leave it off, saving each worker a second of CPU).
    """
    clock = clock or SystemClock()
    limits = limits or Limits()
    if not rate_limits:
        limits = without_rates(limits)
    if not (math.isfinite(move_time) and move_time > 0):
        raise ValueError(f"move_time={move_time!r}: a number of seconds above 0")
    store = Store(db, busy_timeout=busy_timeout)
    allowed = frozenset(allow_bots)
    work = Scheduler(WorkerPool(agent_factory, sorted(allowed), warm_workers), limits.workers,
                     limits.reserve_workers, limits.jobs_per_client)
    process = secrets.token_hex(6)
    ctx = Context(store, clock, limits, make_broker(broker, process), work, Bus(),
                  random.SystemRandom() if chance_seed is None else random.Random(chance_seed),
                  process, allowed, min(move_time, limits.bot_seconds),
                  bot_delay, rates=make_rates(broker, clock))
    pool = PuzzlePool(POOL if puzzle_pool is None else Path(puzzle_pool))
    site = Site.build(ctx, review_budget or Budget(), Path(ladder_dir), pool)
    path = Path(secret_file) if secret_file is not None else keys.key_file(store.url)
    session_key = session_secret or keys.session_key(path, store.players.old_session_key)
    store.players.forget_session_key()  # kept outside the database from now on

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await site.open()
        yield
        await site.close()

    routes = [
        Route("/", pages.home),
        Route("/new/{game}", pages.new_game_page, methods=["GET", "POST"]),
        Route("/rules/{game}", pages.rules),
        Route("/games/{id}", pages.game_page),
        Route("/games/{id}/join/{token}", pages.join, methods=["GET", "POST"]),
        Route("/games/{id}/take/{seat}", pages.take, methods=["GET", "POST"]),
        Route("/games/{id}/link/{code}", pages.link, methods=["GET", "POST"]),
        Route("/games/{id}/rematch", pages.follow_rematch),
        Route("/games/{id}/replay", pages.replay_page),
        Route("/games/{id}/record", pages.record),
        Route("/decks/{game}", decks.builder_page, methods=["GET", "POST"]),
        Route("/lobby", pages.lobby_page),
        Route("/lobby/quick", pages.quick_play, methods=["POST"]),
        Route("/me", pages.me_page, methods=["GET", "POST"]),
        Route("/players/{name}", pages.player_page),
        Route("/players/{name}/challenge", challenges.challenge, methods=["POST"]),
        Route("/games/{id}/challenge", challenges.answer, methods=["POST"]),
        Route("/leaderboard/{game}", pages.leaderboard_page),
        Route("/ladder", ladder.ladder_index),
        Route("/ladder/{game}", ladder.ladder_page),
        Route("/api/games", api.games, methods=["GET", "POST"]),
        Route("/api/games/{id}", api.game),
        Route("/api/games/{id}/actions", api.act, methods=["POST"]),
        Route("/api/games/{id}/chat", api.chat, methods=["GET", "POST"]),
        Route("/api/games/{id}/join", api.join, methods=["POST"]),
        Route("/api/games/{id}/invites/{seat}", api.renew_invite, methods=["POST"]),
        Route("/api/games/{id}/seats/{seat}/link", api.link, methods=["POST"]),
        Route("/api/games/{id}/seats/{seat}/take", api.take, methods=["POST"]),
        Route("/api/games/{id}/resign", api.resign, methods=["POST"]),
        Route("/api/games/{id}/abort", api.abort, methods=["POST"]),
        Route("/api/games/{id}/claim", api.claim, methods=["POST"]),
        Route("/api/games/{id}/rematch", api.rematch, methods=["POST"]),
        Route("/api/games/{id}/steps/{step}", api.step),
        Route("/api/lobby", api.lobby),
        Route("/api/lobby/quick", api.quick_play, methods=["POST"]),
        Route("/api/me", api.player_me, methods=["GET", "POST"]),
        Route("/api/me/turns", api.my_turns),
        Route("/api/login", api.login, methods=["POST"]),
        Route("/api/logout", api.logout, methods=["POST"]),
        Route("/api/leaderboard/{game}", api.leaderboard),
        Route("/api/decks/{game}", decks.decks, methods=["GET", "POST"]),
        Route("/api/decks/{game}/tests", decks.start_test, methods=["POST"]),
        Route("/api/decks/{game}/{id}", decks.delete_deck, methods=["DELETE"]),
        Route("/api/deck-tests/{id}", decks.test_progress),
        Route("/healthz", api.health),
        Route("/readyz", api.ready),
        WebSocketRoute("/ws/games/{id}", sockets.live_socket),
        WebSocketRoute("/ws/lobby", sockets.lobby_socket),
        *learning.routes(),
        *puzzles.routes(),
        *analysis.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: _api_error, HTTPException: _http_error, Unavailable: _unavailable,
        Exception: _server_error})
    app.state.site = site
    app.state.store = store  # for tests and tools: the database
    app.add_middleware(SessionMiddleware, secret_key=session_key,
                       session_cookie=SESSION_COOKIE, max_age=SESSION_AGE, same_site="lax")
    app.add_middleware(BodyLimit, limit=limits.body_bytes)
    app.add_middleware(SocketCap, per_address=limits.sockets_per_address,
                       overall=limits.sockets)
    app.add_middleware(Guard)
    app.add_middleware(SecurityHeaders)
    return app


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return refusal(request, exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: "there is no page here", 405: "this address does not take that method"
               }.get(exc.status_code, str(exc.detail))
    return refusal(request, exc.status_code, message)


async def _unavailable(request: Request, exc: Exception) -> Response:
    return refusal(request, 503, UNAVAILABLE)


async def _server_error(request: Request, exc: Exception) -> Response:
    # The route, never the path: a path may hold an invite code or a game id.
    route = request.scope.get("route")
    log.error("unexpected error on %s %s: %s", request.method,
              getattr(route, "path", "?"), type(exc).__name__, exc_info=exc)
    return refusal(request, 500, "something went wrong on the server")
