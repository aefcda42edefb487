"""Queries: games, seats, every action id, invites and bot-turn claims.

The stored history of action ids is the game: replaying it on a new initial state rebuilds
the position, so a restarted server, or another server process, picks every game up where
it stopped. The ``(game_id, step)`` key serializes moves: of two processes storing a move
at the same step, one succeeds and the other gets ``StepTaken``.

Every method here is blocking; the server calls them through ``Store.run``, on a thread
pool off the event loop, which turns a database that is down, locked or too slow into
``Unavailable`` (the server answers 503 and changes nothing).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import String, Table, create_engine, delete, event, insert, select, update
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from quarkade.core.records import Fault
from quarkade.server.storage import migrate
from quarkade.server.storage.tables import (
    actions_table,
    bot_claims_table,
    games_table,
    seats_table,
)

log = logging.getLogger("quarkade.server")

DEFAULT_URL = "sqlite:///quarkade.db"
T = TypeVar("T")


class StepTaken(Exception):
    """Another move was stored at that step first (here or in another process)."""


class Unavailable(Exception):
    """The database did not answer in time (down, restarting, locked); nothing changed."""


class ValueTooLong(ValueError):
    """A value longer than its column allows (checked before the database sees it)."""


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    kind: str
    agent: str | None
    name: str
    token: str | None
    joined: bool
    invite: str | None = None
    invite_expires: float | None = None
    fault: Fault | None = None  # a plug-in bot stopped at this seat (it plays random)


@dataclass(frozen=True)
class StoredGame:
    id: str
    game: str
    options: dict[str, Any]
    host_token: str
    created: str
    seats: list[StoredSeat]
    actions: list[int]
    returns: list[float] | None
    rematch: str | None
    visibility: str = "unlisted"


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
    """The database behind the server: one engine, short transactions, a thread pool."""

    def __init__(self, url: str = DEFAULT_URL, busy_timeout: float = 5.0,
                 upgrade: bool = True) -> None:
        self.url = database_url(url)
        parsed: URL = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        options: dict[str, Any] = {"hide_parameters": True, "pool_pre_ping": True}
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
        self.pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="quarkade-db")
        if upgrade:
            migrate.upgrade(self.engine)

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        self.engine.dispose()

    async def run(self, query: Callable[..., T], *args: Any) -> T:
        """``query(*args)`` on the thread pool; ``Unavailable`` if the database failed."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, query, *args)
        except (OperationalError, InterfaceError, PoolTimeout) as problem:
            log.warning("database unavailable: %s", type(problem.orig or problem).__name__
                        if hasattr(problem, "orig") else type(problem).__name__)
            raise Unavailable(str(type(problem).__name__)) from None

    # -- games -------------------------------------------------------------------------

    def create_game(self, game_id: str, game: str, options: dict[str, Any], host_token: str,
                    seats: Sequence[StoredSeat], visibility: str = "unlisted") -> None:
        game_row = {"id": game_id, "game": game, "options": json.dumps(options),
                    "host_token": host_token, "visibility": visibility,
                    "created": datetime.now(UTC).isoformat(timespec="seconds")}
        seat_rows = [{"game_id": game_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
                      "name": s.name, "token": s.token, "joined": s.joined,
                      "invite": s.invite, "invite_expires": s.invite_expires} for s in seats]
        check_lengths(games_table, game_row)
        for row in seat_rows:
            check_lengths(seats_table, row)
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(**game_row))
            db.execute(insert(seats_table), seat_rows)

    def load_game(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            seats = db.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)).all()
            actions = db.execute(select(actions_table.c.action)
                                 .where(actions_table.c.game_id == game_id)
                                 .order_by(actions_table.c.step)).scalars().all()
        return StoredGame(
            id=row.id, game=row.game, options=json.loads(row.options),
            host_token=row.host_token, created=row.created,
            seats=[_seat(s) for s in seats],
            actions=list(actions),
            returns=None if row.returns is None else json.loads(row.returns),
            rematch=row.rematch, visibility=row.visibility)

    def changes_since(self, game_id: str, step: int) -> tuple[list[int], list[StoredSeat],
                                                                str | None]:
        """What another process may have changed: actions from ``step`` on, the seats and
        the rematch."""
        with self.engine.connect() as db:
            actions = db.execute(select(actions_table.c.action)
                                 .where(actions_table.c.game_id == game_id,
                                        actions_table.c.step >= step)
                                 .order_by(actions_table.c.step)).scalars().all()
            seats = db.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)).all()
            rematch = db.execute(select(games_table.c.rematch)
                                 .where(games_table.c.id == game_id)).scalar()
        return list(actions), [_seat(s) for s in seats], rematch

    def add_actions(self, game_id: str, first_step: int, moves: Sequence[tuple[int, int]],
                    returns: list[float] | None) -> None:
        """Append ``(player, action)`` pairs from ``first_step`` on, and the result if over;
        ``StepTaken`` if a move is stored at one of those steps already."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(actions_table), [
                    {"game_id": game_id, "step": first_step + i, "action": action,
                     "player": player} for i, (player, action) in enumerate(moves)])
                if returns is not None:
                    db.execute(update(games_table).where(games_table.c.id == game_id)
                               .values(returns=json.dumps(returns)))
        except IntegrityError:
            raise StepTaken(f"step {first_step} of {game_id} is taken") from None

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Record the rematch unless one exists already; True if this call set it."""
        with self.engine.begin() as db:
            changed = db.execute(update(games_table).where(games_table.c.id == game_id,
                                                           games_table.c.rematch.is_(None))
                                 .values(rematch=rematch_id)).rowcount
        return bool(changed)

    def delete_game(self, game_id: str) -> None:
        """Remove a game that lost a race to exist (a second rematch)."""
        with self.engine.begin() as db:
            for table in (actions_table, seats_table, bot_claims_table):
                db.execute(delete(table).where(table.c.game_id == game_id))
            db.execute(delete(games_table).where(games_table.c.id == game_id))

    def recent_games(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest public games: id, game, created, and whether over."""
        with self.engine.connect() as db:
            rows = db.execute(select(games_table.c.id, games_table.c.game,
                                     games_table.c.created, games_table.c.returns)
                              .where(games_table.c.visibility == "public")
                              .order_by(games_table.c.created.desc(), games_table.c.id)
                              .limit(limit)).all()
        return [{"id": r.id, "game": r.game, "created": r.created, "over": r.returns is not None}
                for r in rows]

    def count_games(self) -> int:
        with self.engine.connect() as db:
            return len(db.execute(select(games_table.c.id)).all())

    # -- seats ---------------------------------------------------------------------------

    def join(self, game_id: str, seat: int, invite: str, token: str, now: float) -> bool:
        """Spend ``invite`` on ``seat``: the seat's secret becomes ``token`` (the joiner's
        alone) and the seat is joined; False if the invite is spent, wrong or expired."""
        with self.engine.begin() as db:
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat,
                seats_table.c.invite == invite, seats_table.c.invite_expires > now).values(
                token=token, invite=None, invite_expires=None, joined=True)).rowcount
        return bool(changed)

    def renew_invite(self, game_id: str, seat: int, invite: str, expires: float) -> bool:
        with self.engine.begin() as db:
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat,
                seats_table.c.joined.is_(False)).values(
                invite=invite, invite_expires=expires)).rowcount
        return bool(changed)

    def set_link(self, game_id: str, seat: int, code: str, expires: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(seats_table).where(seats_table.c.game_id == game_id,
                                                 seats_table.c.seat == seat)
                       .values(link=code, link_expires=expires))

    def use_link(self, game_id: str, code: str, now: float) -> tuple[int, str] | None:
        """Spend a device-link code: the seat and its secret, or None if spent or expired."""
        with self.engine.begin() as db:
            row = db.execute(select(seats_table.c.seat, seats_table.c.token).where(
                seats_table.c.game_id == game_id, seats_table.c.link == code,
                seats_table.c.link_expires > now)).first()
            if row is None:
                return None
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == row.seat,
                seats_table.c.link == code).values(link=None, link_expires=None)).rowcount
        return (row.seat, row.token) if changed else None

    # -- bots ----------------------------------------------------------------------------

    def set_fault(self, game_id: str, fault: Fault) -> bool:
        """Flag ``fault.seat`` with ``fault`` (its public part) unless it is flagged
        already; True if this call flagged it."""
        public = {"agent": fault.agent, "move": fault.move, "kind": fault.kind,
                  "message": fault.message}
        with self.engine.begin() as db:
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == fault.seat,
                seats_table.c.fault.is_(None)).values(fault=json.dumps(public))).rowcount
        return bool(changed)

    def claim_bot_turn(self, game_id: str, step: int, owner: str, now: float,
                       lease: float) -> bool:
        """Claim the bot's turn at ``step`` for ``owner`` until ``now + lease``: True if
        this process may move it (nobody claimed it, or the claim ran out)."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(bot_claims_table).values(game_id=game_id, step=step,
                                                           owner=owner, expires=now + lease))
            return True
        except IntegrityError:
            pass
        with self.engine.begin() as db:
            changed = db.execute(update(bot_claims_table).where(
                bot_claims_table.c.game_id == game_id, bot_claims_table.c.step == step,
                bot_claims_table.c.expires < now).values(owner=owner,
                                                         expires=now + lease)).rowcount
        return bool(changed)

    def release_claims(self, owner: str) -> None:
        """End ``owner``'s claims now (a process stopping), keeping who moved what."""
        with self.engine.begin() as db:
            db.execute(update(bot_claims_table).where(bot_claims_table.c.owner == owner)
                       .values(expires=0.0))

    def claim_expiry(self, game_id: str, step: int) -> float | None:
        with self.engine.connect() as db:
            found: float | None = db.execute(select(bot_claims_table.c.expires).where(
                bot_claims_table.c.game_id == game_id,
                bot_claims_table.c.step == step)).scalar()
        return found

    def ping(self) -> None:
        """Raise if the database does not answer (the health endpoint)."""
        with self.engine.connect() as db:
            db.execute(select(1))


def _seat(row: Any) -> StoredSeat:
    fault = None if row.fault is None else Fault(row.seat, **json.loads(row.fault))
    return StoredSeat(row.seat, row.kind, row.agent, row.name, row.token, bool(row.joined),
                      row.invite, row.invite_expires, fault)


def check_lengths(table: Table, row: dict[str, Any]) -> None:
    """``ValueTooLong`` for a string longer than its column (PostgreSQL would refuse it,
    SQLite would keep it), before the database sees the value."""
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(column.type, String) and column.type.length and isinstance(value, str) \
                and len(value) > column.type.length:
            raise ValueTooLong(f"{column.name} is at most {column.type.length} characters")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets pages read while a move is written, and several processes share the file.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()
