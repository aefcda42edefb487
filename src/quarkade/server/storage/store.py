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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    String,
    Table,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
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
    chat_table,
    deck_tests_table,
    decks_table,
    games_table,
    rating_changes_table,
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


class GameDecided(Exception):
    """The server decided the game meanwhile (a resignation, a flag that fell, an abort):
    nothing was stored."""


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
    player_id: str | None = None  # who sat here (issue 15)
    remaining: float | None = None  # a real-time clock's seconds left at its turn's start
    replaced: str | None = None  # why a bot took the seat over (resigned, out of time, ...)
    fault: Fault | None = None  # a plug-in bot stopped at this seat (it plays random)


@dataclass(frozen=True)
class GameTimes:
    """What the server decides about a game beside its moves: when it started, its clock,
    and an ending it ruled (resignation, time, abort); ``None`` fields are not set."""

    time_control: str = "none"
    started: float | None = None
    finished: float | None = None
    turn_started: float | None = None
    deadline: float | None = None
    ending: dict[str, Any] | None = None
    rated: bool = False
    rating_state: str = "none"
    host_player: str | None = None


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
    reveal: bool = False
    chat: list[StoredChat] = field(default_factory=list)
    times: GameTimes = GameTimes()


@dataclass(frozen=True)
class StoredChat:
    """One chat message: its place in the game's chat, who sent it and when."""

    number: int
    seat: int
    name: str
    body: str
    sent: float


@dataclass(frozen=True)
class StoredDeck:
    id: str
    name: str
    deck: str
    updated: float


@dataclass(frozen=True)
class StoredDeckTest:
    id: str
    owner: str
    game: str
    deck: str
    games: int
    results: dict[str, list[int]]
    state: str
    updated: float


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
                    seats: Sequence[StoredSeat], visibility: str = "unlisted",
                    reveal: bool = False, time_control: str = "none",
                    host_player: str | None = None) -> None:
        game_row = {"id": game_id, "game": game, "options": json.dumps(options),
                    "host_token": host_token, "visibility": visibility, "reveal": reveal,
                    "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    "time_control": time_control, "host_player": host_player}
        seat_rows = [_seat_row(game_id, s) for s in seats]
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
            chat = self._chat(db, game_id, 0)
        return _stored_game(row, seats, list(actions), chat)

    def changes_since(self, game_id: str, step: int) -> tuple[list[int], StoredGame]:
        """What another process may have changed: actions from ``step`` on, and the game
        as stored now (its seats, options, rematch, clock and ending)."""
        with self.engine.connect() as db:
            actions = db.execute(select(actions_table.c.action)
                                 .where(actions_table.c.game_id == game_id,
                                        actions_table.c.step >= step)
                                 .order_by(actions_table.c.step)).scalars().all()
            seats = db.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)).all()
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).one()
        return list(actions), _stored_game(row, seats, [])

    def add_actions(self, game_id: str, first_step: int, moves: Sequence[tuple[int, int]],
                    returns: list[float] | None, game: dict[str, Any] | None = None,
                    seats: dict[int, dict[str, Any]] | None = None,
                    now: float | None = None) -> None:
        """Append ``(player, action)`` pairs from ``first_step`` on, and the result if over;
        ``StepTaken`` if a move is stored at one of those steps already. ``game`` and
        ``seats`` are column updates stored with the move (its clock); with them the move
        is refused with ``GameDecided`` if the server decided the game meanwhile or, at
        ``now``, the mover's time had run out."""
        try:
            with self.engine.begin() as db:
                if game is not None or returns is not None:
                    values = dict(game or {})
                    if returns is not None:
                        values["returns"] = json.dumps(returns)
                    if values.get("outcome") is not None:
                        values["outcome"] = json.dumps(values["outcome"])
                    checked = update(games_table).where(games_table.c.id == game_id,
                                                        games_table.c.ending.is_(None))
                    if now is not None:
                        checked = checked.where(or_(games_table.c.deadline.is_(None),
                                                    games_table.c.deadline > now))
                    if not db.execute(checked.values(**values)).rowcount:
                        raise GameDecided(game_id)
                db.execute(insert(actions_table), [
                    {"game_id": game_id, "step": first_step + i, "action": action,
                     "player": player} for i, (player, action) in enumerate(moves)])
                for seat, values in (seats or {}).items():
                    db.execute(update(seats_table).where(seats_table.c.game_id == game_id,
                                                         seats_table.c.seat == seat)
                               .values(**values))
        except IntegrityError:
            raise StepTaken(f"step {first_step} of {game_id} is taken") from None

    def decide(self, game_id: str, step: int, game: dict[str, Any],
               seats: dict[int, dict[str, Any]], deadline: float | None = None) -> bool:
        """Store what the server decided at ``step`` (an ending, a bot taking a seat over,
        a clock), once: False if a move was stored meanwhile, the game was decided
        already, or (with ``deadline``) the clock it expires changed. This is the claim
        that makes one process, of several, apply a flag that fell."""
        with self.engine.begin() as db:
            last = db.execute(select(func.count()).select_from(actions_table).where(
                actions_table.c.game_id == game_id)).scalar()
            if last != step:
                return False
            query = update(games_table).where(games_table.c.id == game_id,
                                              games_table.c.ending.is_(None))
            if deadline is not None:
                query = query.where(games_table.c.deadline == deadline)
            values = dict(game)
            if "ending" in values and values["ending"] is not None:
                values["outcome"] = json.dumps({key: values["ending"][key] for key in
                                                ("result", "winners", "ending")})
                values["ending"] = json.dumps(values["ending"])
            if "returns" in values and values["returns"] is not None:
                values["returns"] = json.dumps(values["returns"])
            if not db.execute(query.values(**values)).rowcount:
                db.rollback()
                return False
            for seat, seat_values in seats.items():
                db.execute(update(seats_table).where(seats_table.c.game_id == game_id,
                                                     seats_table.c.seat == seat)
                           .values(**seat_values))
        return True

    def update_game(self, game_id: str, **values: Any) -> None:
        """Set columns of a game (its start, its options before it starts)."""
        if "options" in values:
            values["options"] = json.dumps(values["options"])
        with self.engine.begin() as db:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(**values))

    def expired(self, now: float, limit: int = 200) -> list[tuple[str, float]]:
        """Games whose clock ran out by ``now``: ``(id, deadline)``, earliest first."""
        with self.engine.connect() as db:
            rows = db.execute(select(games_table.c.id, games_table.c.deadline).where(
                games_table.c.deadline <= now, games_table.c.ending.is_(None))
                .order_by(games_table.c.deadline).limit(limit)).all()
        return [(r.id, r.deadline) for r in rows]

    def next_deadline(self) -> float | None:
        with self.engine.connect() as db:
            found: float | None = db.execute(select(func.min(games_table.c.deadline)).where(
                games_table.c.ending.is_(None))).scalar()
        return found

    def unrated_finished(self, limit: int = 100) -> list[str]:
        """Rated games over whose ratings were not applied yet (a process stopped between)."""
        with self.engine.connect() as db:
            return list(db.execute(select(games_table.c.id).where(
                games_table.c.rating_state == "pending").limit(limit)).scalars())

    def set_unrated(self, game_id: str) -> bool:
        """The hook for anything that makes a game unfit for ratings (a hint asked for, by
        issue 19): the game stays unrated, unless its ratings were applied already."""
        with self.engine.begin() as db:
            changed = db.execute(update(games_table).where(
                games_table.c.id == game_id, games_table.c.rating_state != "done").values(
                rated=False, rating_state="none")).rowcount
        return bool(changed)

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
            for table in (actions_table, seats_table, bot_claims_table,
                          rating_changes_table, chat_table):
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

    def join(self, game_id: str, seat: int, invite: str | None, token: str, now: float,
             player_id: str | None = None, name: str | None = None,
             seat_options: dict[str, Any] | None = None) -> bool:
        """Fill ``seat``: spend its ``invite`` (a friend seat), or with ``invite`` None take
        it from the lobby (an open seat). The seat's secret becomes ``token`` (the joiner's
        alone), it remembers ``player_id`` and ``name``, and ``seat_options`` (the options
        that seat chooses, such as its deck) join the game's options. False if the invite
        is spent, wrong or expired, or the open seat was taken."""
        with self.engine.begin() as db:
            query = update(seats_table).where(seats_table.c.game_id == game_id,
                                              seats_table.c.seat == seat,
                                              seats_table.c.joined.is_(False))
            if invite is None:
                query = query.where(seats_table.c.kind == "open")
            else:
                query = query.where(seats_table.c.invite == invite,
                                    seats_table.c.invite_expires > now)
            values: dict[str, Any] = {"token": token, "invite": None, "invite_expires": None,
                                      "joined": True}
            if player_id is not None:
                values["player_id"] = player_id
            if name is not None:
                values["name"] = name
            if not db.execute(query.values(**values)).rowcount:
                return False
            if seat_options:
                current = db.execute(select(games_table.c.options).where(
                    games_table.c.id == game_id).with_for_update()).scalar()
                merged = {**json.loads(current or "{}"), **seat_options}
                db.execute(update(games_table).where(games_table.c.id == game_id)
                           .values(options=json.dumps(merged)))
        return True

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

    # -- chat ----------------------------------------------------------------------------

    def add_chat(self, game_id: str, seat: int, name: str, body: str, sent: float
                 ) -> StoredChat:
        """Append a message to the game's chat (numbered in the order stored, whichever
        process stores it)."""
        row = {"game_id": game_id, "seat": seat, "name": name, "body": body, "sent": sent}
        check_lengths(chat_table, row)
        for _ in range(20):
            with self.engine.connect() as db:
                number = db.execute(select(func.count()).select_from(chat_table)
                                    .where(chat_table.c.game_id == game_id)).scalar() or 0
            try:
                with self.engine.begin() as db:
                    db.execute(insert(chat_table).values(number=number, **row))
            except IntegrityError:  # another process stored one at that number: next
                continue
            return StoredChat(number, seat, name, body, sent)
        raise Unavailable("the chat is too busy")

    def chat_since(self, game_id: str, number: int) -> list[StoredChat]:
        with self.engine.connect() as db:
            return self._chat(db, game_id, number)

    @staticmethod
    def _chat(db: Connection, game_id: str, number: int) -> list[StoredChat]:
        rows = db.execute(select(chat_table).where(chat_table.c.game_id == game_id,
                                                   chat_table.c.number >= number)
                          .order_by(chat_table.c.number)).all()
        return [StoredChat(r.number, r.seat, r.name, r.body, r.sent) for r in rows]

    # -- decks ---------------------------------------------------------------------------

    def decks(self, owner: str, game: str) -> list[StoredDeck]:
        """``owner``'s saved decks of ``game``, by name."""
        with self.engine.connect() as db:
            rows = db.execute(select(decks_table).where(decks_table.c.owner == owner,
                                                        decks_table.c.game == game)
                              .order_by(decks_table.c.name)).all()
        return [StoredDeck(r.id, r.name, r.deck, r.updated) for r in rows]

    def save_deck(self, owner: str, game: str, deck_id: str, name: str, deck: str,
                  now: float, limit: int) -> tuple[StoredDeck, bool]:
        """Save ``deck`` under ``name`` (replacing the owner's deck of that name); the deck
        and whether it is new. ``ValueError`` when the owner has ``limit`` decks already."""
        row = {"id": deck_id, "owner": owner, "game": game, "name": name, "deck": deck,
               "updated": now}
        check_lengths(decks_table, row)
        with self.engine.begin() as db:
            found = db.execute(select(decks_table.c.id).where(
                decks_table.c.owner == owner, decks_table.c.game == game,
                decks_table.c.name == name)).scalar()
            if found is not None:
                db.execute(update(decks_table).where(decks_table.c.id == found)
                           .values(deck=deck, updated=now))
                return StoredDeck(found, name, deck, now), False
            held = db.execute(select(func.count()).select_from(decks_table)
                              .where(decks_table.c.owner == owner)).scalar() or 0
            if held >= limit:
                raise ValueError(f"you have {held} saved decks, the most one player may "
                                 "keep; delete one first")
            db.execute(insert(decks_table).values(**row))
        return StoredDeck(deck_id, name, deck, now), True

    def delete_deck(self, owner: str, deck_id: str) -> bool:
        with self.engine.begin() as db:
            return bool(db.execute(delete(decks_table).where(
                decks_table.c.owner == owner, decks_table.c.id == deck_id)).rowcount)

    def start_deck_test(self, test_id: str, owner: str, game: str, deck: str, games: int,
                        now: float) -> None:
        with self.engine.begin() as db:
            db.execute(insert(deck_tests_table).values(
                id=test_id, owner=owner, game=game, deck=deck, games=games, results="{}",
                state="running", updated=now))

    def update_deck_test(self, test_id: str, results: dict[str, list[int]], state: str,
                         now: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(deck_tests_table).where(deck_tests_table.c.id == test_id)
                       .values(results=json.dumps(results), state=state, updated=now))

    def deck_test(self, test_id: str) -> StoredDeckTest | None:
        with self.engine.connect() as db:
            row = db.execute(select(deck_tests_table)
                             .where(deck_tests_table.c.id == test_id)).first()
        if row is None:
            return None
        return StoredDeckTest(row.id, row.owner, row.game, row.deck, row.games,
                              json.loads(row.results), row.state, row.updated)

    def stop_deck_tests(self, test_ids: Sequence[str], now: float) -> None:
        """Mark runs this process gives up (it is stopping) as stopped."""
        with self.engine.begin() as db:
            db.execute(update(deck_tests_table).where(
                deck_tests_table.c.id.in_(list(test_ids)),
                deck_tests_table.c.state == "running").values(state="stopped", updated=now))

    # -- bots ----------------------------------------------------------------------------

    def set_fault(self, game_id: str, fault: Fault) -> bool:
        """Flag ``fault.seat`` with ``fault`` (its public part) unless it is flagged
        already; True if this call flagged it."""
        with self.engine.begin() as db:
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == fault.seat,
                seats_table.c.fault.is_(None)).values(fault=_public_fault(fault))).rowcount
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


def _seat_row(game_id: str, s: StoredSeat) -> dict[str, Any]:
    return {"game_id": game_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
            "name": s.name, "token": s.token, "joined": s.joined, "invite": s.invite,
            "invite_expires": s.invite_expires, "player_id": s.player_id,
            "remaining": s.remaining, "replaced": s.replaced,
            "fault": None if s.fault is None else _public_fault(s.fault)}


def _public_fault(fault: Fault) -> str:
    """A fault as a seat row keeps it: what anyone may read, never its detail."""
    return json.dumps({"agent": fault.agent, "move": fault.move, "kind": fault.kind,
                       "message": fault.message})


def _stored_seat(s: Any) -> StoredSeat:
    fault = None if s.fault is None else Fault(s.seat, **json.loads(s.fault))
    return StoredSeat(s.seat, s.kind, s.agent, s.name, s.token, bool(s.joined), s.invite,
                      s.invite_expires, s.player_id, s.remaining, s.replaced, fault)


def _stored_game(row: Any, seats: Sequence[Any], actions: list[int],
                 chat: list[StoredChat] | None = None) -> StoredGame:
    times = GameTimes(row.time_control, row.started, row.finished, row.turn_started,
                      row.deadline, None if row.ending is None else json.loads(row.ending),
                      bool(row.rated), row.rating_state, row.host_player)
    return StoredGame(
        id=row.id, game=row.game, options=json.loads(row.options),
        host_token=row.host_token, created=row.created,
        seats=[_stored_seat(s) for s in seats], actions=actions,
        returns=None if row.returns is None else json.loads(row.returns),
        rematch=row.rematch, visibility=row.visibility, reveal=bool(row.reveal),
        chat=chat or [], times=times)


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
