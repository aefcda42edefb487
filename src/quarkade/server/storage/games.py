"""Queries about games: making and loading them, every action id, what the server decides
(clocks, endings, ratings due), rematches, and bot-turn claims.

The stored history of action ids is the game: replaying it on a new initial state rebuilds
the position, so a restarted server, or another server process, picks every game up where
it stopped. The ``(game_id, step)`` key serializes moves: of two processes storing a move
at the same step, one succeeds and the other gets ``StepTaken``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from quarkade.core.records import Fault
from quarkade.server.storage.chat import CHAT_TAIL, ChatQueries
from quarkade.server.storage.ratings import RatingPlan, RatingQueries
from quarkade.server.storage.stored import (
    GameDecided,
    StepTaken,
    StoredGame,
    StoredRematch,
    StoredSeat,
    check_lengths,
    public_fault,
    seat_row,
    stored_game,
    stored_rematch,
)
from quarkade.server.storage.tables import (
    actions_table,
    bot_claims_table,
    chat_table,
    games_table,
    rating_changes_table,
    seat_keys_table,
    seats_table,
)

# What a move runs, built once: building a statement costs more CPU than running it.
# (An UPDATE without ``values()`` sets the columns its parameters name.)
_ACTION_ROWS = insert(actions_table)
_GAME_UNDECIDED = update(games_table).where(games_table.c.id == bindparam("the_game"),
                                            games_table.c.ending.is_(None))
_GAME_IN_TIME = _GAME_UNDECIDED.where(or_(games_table.c.deadline.is_(None),
                                          games_table.c.deadline > bindparam("moved_at")))
_SEAT = update(seats_table).where(seats_table.c.game_id == bindparam("the_game"),
                                  seats_table.c.seat == bindparam("the_seat"))


def _rematch_of(db: Connection, rematch_id: str | None) -> StoredRematch | None:
    """The rematch ``rematch_id`` as the game before it reads it (None: none)."""
    if rematch_id is None:
        return None
    row = db.execute(select(games_table.c.id, games_table.c.started, games_table.c.ending)
                     .where(games_table.c.id == rematch_id)).first()
    if row is None:
        return None
    seats = db.execute(select(seats_table.c.seat, seats_table.c.joined, seats_table.c.kind)
                       .where(seats_table.c.game_id == rematch_id)
                       .order_by(seats_table.c.seat)).all()
    return stored_rematch(row, seats)


def _add_in(db: Connection, game_id: str, first_step: int,
            moves: Sequence[tuple[int, int]], returns: list[float] | None,
            game: dict[str, Any] | None = None, seats: dict[int, dict[str, Any]] | None = None,
            now: float | None = None, rating: RatingPlan | None = None,
            rated_at: float = 0.0) -> list[dict[str, Any]] | None:
    """``GameQueries.add_actions`` inside the transaction ``db`` (``GameDecided`` before
    anything is written; a step taken raises ``IntegrityError``)."""
    _check_undecided(db, game_id, returns, game, now)
    db.execute(_ACTION_ROWS, _action_rows(game_id, first_step, moves))
    _set_seats(db, game_id, seats)
    if rating is not None:
        return RatingQueries.apply_in(db, game_id, rating, rated_at)
    return None


class _Move(NamedTuple):
    """``GameQueries.add_actions``'s arguments, by name."""

    game_id: str
    first_step: int
    moves: Sequence[tuple[int, int]]
    returns: list[float] | None
    game: dict[str, Any] | None = None
    seats: dict[int, dict[str, Any]] | None = None
    now: float | None = None
    rating: RatingPlan | None = None
    rated_at: float = 0.0


def _check_undecided(db: Connection, game_id: str, returns: list[float] | None,
                     game: dict[str, Any] | None, now: float | None) -> None:
    """Store a move's game columns (its clock, its result), or ``GameDecided`` (nothing
    written) if the server decided the game meanwhile or, at ``now``, time ran out."""
    if game is None and returns is None:
        return
    values = dict(game or {})
    if returns is not None:
        values["returns"] = json.dumps(returns)
    if values.get("outcome") is not None:
        values["outcome"] = json.dumps(values["outcome"])
    checked = _GAME_UNDECIDED if now is None else _GAME_IN_TIME
    values["the_game"] = game_id
    if now is not None:
        values["moved_at"] = now
    if not db.execute(checked, values).rowcount:
        raise GameDecided(game_id)


def _action_rows(game_id: str, first_step: int, moves: Sequence[tuple[int, int]]
                 ) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "step": first_step + i, "action": action, "player": player}
            for i, (player, action) in enumerate(moves)]


def _set_seats(db: Connection, game_id: str, seats: dict[int, dict[str, Any]] | None) -> None:
    for seat, seat_values in (seats or {}).items():
        db.execute(_SEAT, {**seat_values, "the_game": game_id, "the_seat": seat})


class GameQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, game_id: str, game: str, options: dict[str, Any], host_token: str,
               seats: Sequence[StoredSeat], visibility: str = "unlisted",
               reveal: bool = False, time_control: str = "none",
               host_player: str | None = None, owner: str | None = None,
               listed_until: float | None = None, rated: bool = False) -> None:
        """A new game; ``host_token`` and the seats' secrets are digests already
        (``listed_until``: when a public game waiting for players leaves the lobby;
        ``rated``: its maker's choice, rated only if eligible when it begins)."""
        game_row = {"id": game_id, "game": game, "options": json.dumps(options),
                    "host_token": host_token, "visibility": visibility, "reveal": reveal,
                    "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    "time_control": time_control, "host_player": host_player,
                    "owner": owner, "listed_until": listed_until, "rated": rated}
        seat_rows = [seat_row(game_id, s) for s in seats]
        check_lengths(games_table, game_row)
        for row in seat_rows:
            check_lengths(seats_table, row)
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(**game_row))
            db.execute(insert(seats_table), seat_rows)

    def load(self, game_id: str) -> StoredGame | None:
        """The whole game: every action, its seats and their keys, the newest chat."""
        with self.engine.connect() as db:
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            seats = db.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)).all()
            actions = db.execute(select(actions_table.c.action)
                                 .where(actions_table.c.game_id == game_id)
                                 .order_by(actions_table.c.step)).scalars().all()
            count = ChatQueries.count_in(db, game_id)
            chat = ChatQueries.read(db, game_id, max(0, count - CHAT_TAIL), count)
            keys = db.execute(select(seat_keys_table).where(
                seat_keys_table.c.game_id == game_id)).all()
            offer = _rematch_of(db, row.rematch)
        return stored_game(row, seats, list(actions), chat, count, keys, offer)

    def changes_since(self, game_id: str, step: int) -> tuple[list[int], StoredGame]:
        """What another process may have changed: actions from ``step`` on, and the game
        as stored now (its seats and keys, options, rematch, clock and ending)."""
        with self.engine.connect() as db:
            actions = db.execute(select(actions_table.c.action)
                                 .where(actions_table.c.game_id == game_id,
                                        actions_table.c.step >= step)
                                 .order_by(actions_table.c.step)).scalars().all()
            seats = db.execute(select(seats_table).where(seats_table.c.game_id == game_id)
                               .order_by(seats_table.c.seat)).all()
            row = db.execute(select(games_table).where(games_table.c.id == game_id)).one()
            keys = db.execute(select(seat_keys_table).where(
                seat_keys_table.c.game_id == game_id)).all()
            offer = _rematch_of(db, row.rematch)
        return list(actions), stored_game(row, seats, [], keys=keys, offer=offer)

    def add_actions(self, game_id: str, first_step: int, moves: Sequence[tuple[int, int]],
                    returns: list[float] | None, game: dict[str, Any] | None = None,
                    seats: dict[int, dict[str, Any]] | None = None,
                    now: float | None = None, rating: RatingPlan | None = None,
                    rated_at: float = 0.0) -> list[dict[str, Any]] | None:
        """Append ``(player, action)`` pairs from ``first_step`` on, and the result if over;
        ``StepTaken`` if a move is stored at one of those steps already. ``game`` and
        ``seats`` are column updates stored with the move (its clock); with them the move
        is refused with ``GameDecided`` if the server decided the game meanwhile or, at
        ``now``, the mover's time had run out. A rated game these moves end is rated in
        the same transaction (``rating``, at ``rated_at``): the rating changes, else
        None."""
        try:
            with self.engine.begin() as db:
                return _add_in(db, game_id, first_step, moves, returns, game, seats, now,
                               rating, rated_at)
        except IntegrityError:
            raise StepTaken(f"step {first_step} of {game_id} is taken") from None

    def add_many(self, batch: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Several games' ``add_actions`` (each its arguments, at most one per game, none
        with a ``rating``) in one transaction: one commit for all, their actions in one
        statement. Each one's answer, in order: what
        ``add_actions`` returns, or the ``GameDecided`` or ``StepTaken`` it raises. A
        refused one wrote nothing, so the others stand; a step taken fails the whole
        transaction, which is then done again one game at a time. Games are written in
        the order of their ids, so two processes' transactions never wait on each other
        in a circle."""
        given = [_Move(*args) for args in batch]
        order = sorted(range(len(given)), key=lambda i: given[i].game_id)
        answers: list[Any] = [None] * len(given)
        try:
            with self.engine.begin() as db:
                rows: list[dict[str, Any]] = []
                for i in order:
                    move = given[i]
                    try:
                        _check_undecided(db, move.game_id, move.returns, move.game, move.now)
                    except GameDecided as refused:  # its update changed nothing
                        answers[i] = refused
                    else:
                        rows += _action_rows(move.game_id, move.first_step, move.moves)
                if rows:  # every game's actions in one statement
                    db.execute(_ACTION_ROWS, rows)
                for i in order:
                    if answers[i] is None:
                        _set_seats(db, given[i].game_id, given[i].seats)
        except IntegrityError:
            for i in order:
                try:
                    answers[i] = self.add_actions(*batch[i])
                except (GameDecided, StepTaken) as refused:
                    answers[i] = refused
        return answers

    def decide(self, game_id: str, step: int, game: dict[str, Any],
               seats: dict[int, dict[str, Any]], deadline: float | None = None,
               rating: RatingPlan | None = None, now: float = 0.0) -> bool:
        """Store what the server decided at ``step`` (an ending, a bot taking a seat over,
        a clock), once: False if a move was stored meanwhile, the game was decided
        already, or (with ``deadline``) the clock it expires changed. This is the claim
        that makes one process, of several, apply a flag that fell. A rated game it ends
        is rated in the same transaction (``rating``, at ``now``)."""
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
                if seat_values.get("token", "") is None:  # a bot took it: no device holds it
                    db.execute(delete(seat_keys_table).where(
                        seat_keys_table.c.game_id == game_id,
                        seat_keys_table.c.seat == seat))
            if rating is not None:
                RatingQueries.apply_in(db, game_id, rating, now)
        return True

    def update(self, game_id: str, **values: Any) -> None:
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

    def set_rematch(self, game_id: str, rematch_id: str, replacing: str | None = None
                    ) -> bool:
        """Record the rematch unless one exists already (or only ``replacing``, an offer
        that ended: declined or expired); True if this call set it."""
        with self.engine.begin() as db:
            changed = db.execute(update(games_table).where(
                games_table.c.id == game_id,
                games_table.c.rematch.is_(None) if replacing is None
                else games_table.c.rematch == replacing).values(rematch=rematch_id)).rowcount
        return bool(changed)

    def delete(self, game_id: str) -> None:
        """Remove a game that lost a race to exist (a second rematch)."""
        with self.engine.begin() as db:
            for table in (actions_table, seats_table, bot_claims_table,
                          rating_changes_table, chat_table, seat_keys_table):
                db.execute(delete(table).where(table.c.game_id == game_id))
            db.execute(delete(games_table).where(games_table.c.id == game_id))

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest public games: id, game, created, and whether over."""
        with self.engine.connect() as db:
            rows = db.execute(select(games_table.c.id, games_table.c.game,
                                     games_table.c.created, games_table.c.returns)
                              .where(games_table.c.visibility == "public")
                              .order_by(games_table.c.created.desc(), games_table.c.id)
                              .limit(limit)).all()
        return [{"id": r.id, "game": r.game, "created": r.created, "over": r.returns is not None}
                for r in rows]

    def count(self) -> int:
        with self.engine.connect() as db:
            return int(db.execute(select(func.count()).select_from(games_table)).scalar() or 0)

    # -- bots ----------------------------------------------------------------------------

    def set_fault(self, game_id: str, fault: Fault) -> bool:
        """Flag ``fault.seat`` with ``fault`` (its public part) unless it is flagged
        already; True if this call flagged it."""
        with self.engine.begin() as db:
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == fault.seat,
                seats_table.c.fault.is_(None)).values(fault=public_fault(fault))).rowcount
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

    def orphaned_bot_games(self, now: float, limit: int = 100) -> list[str]:
        """Games under way whose every seat is a bot and that no process holds: none of
        their bot turns is claimed past ``now`` (a process moving a game's bots claims each
        turn, for a lease longer than a move may take; a process that died stops)."""
        seats, claims = seats_table.c, bot_claims_table.c
        not_bot = select(seats.game_id).where(seats.game_id == games_table.c.id,
                                             seats.kind != "bot").exists()
        held = select(claims.game_id).where(claims.game_id == games_table.c.id,
                                            claims.expires >= now).exists()
        with self.engine.connect() as db:
            return list(db.execute(select(games_table.c.id).where(
                games_table.c.returns.is_(None), games_table.c.ending.is_(None),
                games_table.c.started.is_not(None), ~not_bot, ~held
            ).limit(limit)).scalars())

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
