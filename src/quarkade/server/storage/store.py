"""The database behind the server: one engine, a thread pool, and a query class per table
group (``games``, ``seats``, ``chat``, ``decks``, ``players``, ``ratings``, ``lobby``,
``learning``).

Every query blocks; the server calls them through ``Store.run``, on a thread pool off the
event loop, which turns a database that is down, locked or too slow into ``Unavailable``
(the server answers 503 and changes nothing): ``await store.run(store.games.load, id)``.
Moves go through ``Store.add_actions``: those that arrive while the moves before them are
being stored go together, in one transaction on one thread (``GameQueries.add_many``), so
a busy server pays the hop to a thread and the commit once for many moves. A connection
is not tested before each use; one the database dropped (a restart) fails its query,
which is then run once more on a new connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from quarkade.server.storage import migrate
from quarkade.server.storage.chat import ChatQueries
from quarkade.server.storage.decks import DeckQueries
from quarkade.server.storage.games import GameQueries
from quarkade.server.storage.learning import LearnQueries
from quarkade.server.storage.lobby import LobbyQueries
from quarkade.server.storage.players import PlayerQueries
from quarkade.server.storage.ratings import RatingQueries
from quarkade.server.storage.seats import SeatQueries
from quarkade.server.storage.stored import Unavailable

log = logging.getLogger("quarkade.server")

DEFAULT_URL = "sqlite:///quarkade.db"
THREADS = 8  # queries at once; the pool keeps as many connections open
MOVE_BATCHES = THREADS // 2  # batches of moves stored at once (more wait, then go together)
T = TypeVar("T")


def database_url(text: str) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as it is, anything else a SQLite file path."""
    if "://" in text:
        return text
    from pathlib import Path

    return f"sqlite:///{Path(text).expanduser().resolve()}"


def shown_url(url: str) -> str:
    """The URL as it may be printed: never its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url.split("@", 1)[-1] if "@" in url else url


class Store:
    """The database: its engine, the thread pool its queries run on, and the queries."""

    def __init__(self, url: str = DEFAULT_URL, busy_timeout: float = 5.0,
                 upgrade: bool = True) -> None:
        self.url = database_url(url)
        parsed: URL = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        # A connection per query thread stays open: beyond the pool, each busy moment would
        # open a new one (a new PostgreSQL process) and close it again.
        options: dict[str, Any] = {"hide_parameters": True, "pool_size": THREADS}
        if self.dialect == "sqlite":
            options["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout}
        elif self.dialect == "postgresql":
            millis = int(busy_timeout * 1000)
            options["connect_args"] = {
                "connect_timeout": max(1, int(busy_timeout)),
                "options": f"-c statement_timeout={millis * 2} -c lock_timeout={millis}"}
            options["pool_timeout"] = busy_timeout
        self.engine: Engine = create_engine(self.url, **options)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="quarkade-db")
        self.moves: list[tuple[tuple[Any, ...], asyncio.Future[Any]]] = []  # to store
        self.storing = 0  # tasks storing batches of moves
        self.tasks: set[asyncio.Task[None]] = set()
        if upgrade:
            migrate.upgrade(self.engine)
        self.games = GameQueries(self.engine)
        self.seats = SeatQueries(self.engine)
        self.chat = ChatQueries(self.engine)
        self.decks = DeckQueries(self.engine)
        self.players = PlayerQueries(self.engine)
        self.ratings = RatingQueries(self.engine)
        self.lobby = LobbyQueries(self.engine)
        self.learning = LearnQueries(self.engine)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        self.engine.dispose()

    async def run(self, query: Callable[..., T], *args: Any) -> T:
        """``query(*args)`` on the thread pool; ``Unavailable`` if the database failed."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, _again_if_dropped, query, args)
        except (OperationalError, InterfaceError, PoolTimeout) as problem:
            raise _unavailable(problem) from None

    async def add_actions(self, *args: Any) -> list[dict[str, Any]] | None:
        """``GameQueries.add_actions(*args)``, stored with the other moves that came in
        meanwhile (see the module): the same answers and errors, ``Unavailable`` too."""
        if args[7:8] and args[7] is not None:  # a rating: alone (it writes players' rows)
            return await self.run(self.games.add_actions, *args)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self.moves.append((args, answer))
        if self.storing < MOVE_BATCHES:
            self.storing += 1  # (its task counts itself out as it finds nothing waiting)
            task = loop.create_task(self._store_moves())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await answer

    async def _store_moves(self) -> None:
        """Store the moves waiting, batch after batch, until none waits."""
        loop = asyncio.get_running_loop()
        while True:
            if not self.moves:
                self.storing -= 1
                return
            batch, self.moves = self.moves, []
            try:
                answers = await loop.run_in_executor(
                    self.pool, _again_if_dropped, self.games.add_many,
                    ([args for args, _ in batch],))
            except (OperationalError, InterfaceError, PoolTimeout) as problem:
                down = _unavailable(problem)
                answers = [Unavailable(*down.args) for _ in batch]
            except Exception as problem:  # a bug: every move of the batch says so
                answers = [problem] * len(batch)
            for (_, answer), found in zip(batch, answers, strict=True):
                if answer.done():
                    continue
                if isinstance(found, Exception):
                    answer.set_exception(found)
                else:
                    answer.set_result(found)


def _again_if_dropped(query: Callable[..., T], args: tuple[Any, ...]) -> T:
    """``query(*args)``, once more if the database had dropped the connection it took
    (the pool then opens a new one): no connection is tested before use."""
    try:
        return query(*args)
    except DBAPIError as problem:
        if not problem.connection_invalidated:
            raise
        log.info("a database connection was dropped; trying again on a new one")
        return query(*args)


def _unavailable(problem: Exception) -> Unavailable:
    orig = getattr(problem, "orig", None)
    log.warning("database unavailable: %s", type(orig or problem).__name__)
    return Unavailable(str(type(problem).__name__))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets pages read while a move is written, and several processes share the file;
    # secure_delete overwrites what a change leaves behind, so a replaced value is gone
    # from the file, not just unlinked.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA secure_delete=ON")
    cursor.close()
