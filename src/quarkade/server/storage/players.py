"""Queries about players: their names, passwords and settings, and the games each sat
in (for ``/me`` and ``/players/<name>``).

Like ``Store``'s, every method blocks; the server calls them through ``Store.run``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from quarkade.server.storage.tables import (
    games_table,
    players_table,
    seats_table,
    server_settings_table,
    sessions_table,
)

SESSION_KEY = "session_secret"


class NameTaken(ValueError):
    """Another player has that name, or one that looks like it (names are unique whatever
    their case, and by their skeleton)."""


@dataclass(frozen=True)
class StoredPlayer:
    id: str
    name: str
    password: str | None  # the argon2 hash; None while a guest
    created: float
    settings: dict[str, Any]
    session_gen: int

    @property
    def guest(self) -> bool:
        return self.password is None


class PlayerQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def old_session_key(self) -> str | None:
        """The session key an earlier version kept in the database (None: none kept)."""
        with self.engine.connect() as db:
            found: str | None = db.execute(select(server_settings_table.c.value).where(
                server_settings_table.c.key == SESSION_KEY)).scalar()
        return found

    def forget_session_key(self) -> None:
        """The session key lives outside the database now: remove the old copy."""
        with self.engine.begin() as db:
            db.execute(delete(server_settings_table).where(
                server_settings_table.c.key == SESSION_KEY))

    def create(self, player_id: str, name: str, skeleton: str, now: float) -> StoredPlayer:
        try:
            with self.engine.begin() as db:
                db.execute(insert(players_table).values(
                    id=player_id, name=name, name_key=name.lower(), name_skeleton=skeleton,
                    created=now, settings="{}", session_gen=0))
        except IntegrityError:
            raise NameTaken(name) from None
        return StoredPlayer(player_id, name, None, now, {}, 0)

    def get(self, player_id: str) -> StoredPlayer | None:
        with self.engine.connect() as db:
            row = db.execute(select(players_table).where(players_table.c.id == player_id)
                             ).first()
        return None if row is None else _player(row)

    def by_name(self, name: str) -> StoredPlayer | None:
        with self.engine.connect() as db:
            row = db.execute(select(players_table).where(
                players_table.c.name_key == name.lower())).first()
        return None if row is None else _player(row)

    def looking_like(self, skeleton: str) -> str | None:
        """The name of the player whose name has this skeleton (None: nobody's)."""
        with self.engine.connect() as db:
            found: str | None = db.execute(select(players_table.c.name).where(
                players_table.c.name_skeleton == skeleton)).scalar()
        return found

    def names(self, player_ids: list[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(select(players_table.c.id, players_table.c.name).where(
                players_table.c.id.in_(player_ids))).all()
        return {r.id: r.name for r in rows}

    def rename(self, player_id: str, name: str, skeleton: str) -> None:
        """A new name, shown at every seat the player holds or held."""
        try:
            with self.engine.begin() as db:
                db.execute(update(players_table).where(players_table.c.id == player_id)
                           .values(name=name, name_key=name.lower(), name_skeleton=skeleton))
                db.execute(update(seats_table).where(seats_table.c.player_id == player_id)
                           .values(name=name))
        except IntegrityError:
            raise NameTaken(name) from None

    def set_password(self, player_id: str, password_hash: str, keep: str | None) -> int:
        """Claim the name (or change its password): every other session is logged out
        (``keep``: the digest of the one that stays); returns the new session generation
        (which ends the sessions signed before sessions were kept here)."""
        with self.engine.begin() as db:
            db.execute(update(players_table).where(players_table.c.id == player_id).values(
                password=password_hash, session_gen=players_table.c.session_gen + 1))
            db.execute(delete(sessions_table).where(sessions_table.c.player_id == player_id,
                                                    sessions_table.c.digest != (keep or "")))
            generation: int = db.execute(select(players_table.c.session_gen).where(
                players_table.c.id == player_id)).scalar_one()
        return generation

    # -- sessions, by the SHA-256 of their id ---------------------------------------------

    def start_session(self, digest: str, player_id: str, now: float) -> None:
        with self.engine.begin() as db:
            db.execute(insert(sessions_table).values(digest=digest, player_id=player_id,
                                                     created=now))

    def in_session(self, digest: str, player_id: str) -> StoredPlayer | None:
        """The player of the session ``digest`` (None: it ended, or is another's)."""
        with self.engine.connect() as db:
            row = db.execute(select(players_table).join(
                sessions_table, sessions_table.c.player_id == players_table.c.id).where(
                sessions_table.c.digest == digest, players_table.c.id == player_id)).first()
        return None if row is None else _player(row)

    def end_session(self, digest: str, player_id: str | None = None) -> None:
        """The session ``digest`` ends; given its ``player_id``, so do the player's cookies
        signed before sessions were kept here (whose copies nothing else could end)."""
        with self.engine.begin() as db:
            db.execute(delete(sessions_table).where(sessions_table.c.digest == digest))
            if player_id is not None:
                db.execute(update(players_table).where(players_table.c.id == player_id)
                           .values(session_gen=players_table.c.session_gen + 1))

    def forget_sessions(self, before: float) -> int:
        """Sessions begun before ``before`` (their cookies have expired): gone."""
        with self.engine.begin() as db:
            return db.execute(delete(sessions_table).where(
                sessions_table.c.created < before)).rowcount

    def rehash(self, player_id: str, password_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(players_table).where(players_table.c.id == player_id)
                       .values(password=password_hash))

    def set_settings(self, player_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as db:
            db.execute(update(players_table).where(players_table.c.id == player_id)
                       .values(settings=json.dumps(settings)))

    def turns_waiting(self, player_id: str) -> int:
        """How many games wait for ``player_id``: in play with the seat to move theirs (no
        bot has taken it over), or waiting for their answer (a seat kept for them: a
        challenge, a rematch offered). The header's your-move count."""
        query = select(func.count()).select_from(seats_table).join(
            games_table, games_table.c.id == seats_table.c.game_id).where(
            seats_table.c.player_id == player_id, seats_table.c.replaced.is_(None),
            or_(games_table.c.to_move == seats_table.c.seat,  # my move, or my answer to
                and_(seats_table.c.joined.is_(False),  # a challenge or a rematch offer
                     games_table.c.started.is_(None))),
            games_table.c.finished.is_(None), games_table.c.ending.is_(None))
        with self.engine.connect() as db:
            return int(db.execute(query).scalar() or 0)

    def games_of(self, player_id: str, public_only: bool, limit: int = 200
                 ) -> list[dict[str, Any]]:
        """The games ``player_id`` sat in, newest first: each with its seats (only public
        games, and rated ones, when ``public_only``). A game that ended before it began
        (a rematch offer declined, a waiting game aborted) is nobody's game: left out."""
        mine = select(seats_table.c.game_id, seats_table.c.seat).where(
            seats_table.c.player_id == player_id).subquery()
        query = select(games_table, mine.c.seat.label("my_seat")).join(
            mine, mine.c.game_id == games_table.c.id).where(
            or_(games_table.c.started.is_not(None), games_table.c.finished.is_(None)))
        if public_only:  # and every rated game: its rating change is public anyway
            query = query.where(or_(games_table.c.visibility == "public",
                                    games_table.c.rating_state == "done"))
        query = query.order_by(games_table.c.created.desc(), games_table.c.id).limit(limit)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
            ids = [r.id for r in rows]
            seats = db.execute(select(seats_table).where(and_(
                seats_table.c.game_id.in_(ids)))).all() if ids else []
        by_game: dict[str, list[Any]] = {}
        for seat in sorted(seats, key=lambda s: s.seat):
            by_game.setdefault(seat.game_id, []).append(seat)
        found: dict[str, dict[str, Any]] = {}
        for r in rows:
            entry = found.setdefault(r.id, {
                "id": r.id, "game": r.game, "created": r.created,
                "visibility": r.visibility, "time_control": r.time_control,
                "started": r.started, "finished": r.finished, "returns":
                None if r.returns is None else json.loads(r.returns),
                "ending": None if r.ending is None else json.loads(r.ending),
                "outcome": None if r.outcome is None else json.loads(r.outcome),
                "rated": bool(r.rated), "seats": [
                    {"seat": s.seat, "kind": s.kind, "name": s.name, "agent": s.agent,
                     "player_id": s.player_id, "joined": bool(s.joined),
                     "replaced": s.replaced} for s in by_game.get(r.id, [])],
                "mine": []})
            entry["mine"].append(r.my_seat)
        return list(found.values())


def _player(row: Any) -> StoredPlayer:
    return StoredPlayer(row.id, row.name, row.password, row.created,
                        json.loads(row.settings or "{}"), row.session_gen)
