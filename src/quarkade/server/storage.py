"""Storage: games, seats and every action id, in SQLite (a file) or PostgreSQL (a URL).

The stored history of action ids is the game: replaying it on a new initial state rebuilds
the position, so a restarted server picks every game up where it stopped. Only plain SQL
types are used, so the same tables work on both databases.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

DEFAULT_URL = "sqlite:///quarkade.db"

metadata = MetaData()

games_table = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("host_token", String(64), nullable=False),
    Column("created", String(32), nullable=False),
    Column("returns", Text),  # JSON, once the game is over
    Column("rematch", String(32)),  # the id of the rematch, once someone asked for one
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # you, hotseat, friend, bot
    Column("agent", String(200)),  # the agent spec of a bot seat
    Column("name", String(100), nullable=False),
    Column("token", String(64)),  # secret; None for bots
    Column("joined", Boolean, nullable=False, default=False),
)

actions_table = Table(
    "actions", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("step", Integer, primary_key=True),  # 0, 1, 2, ... in the order played
    Column("action", Integer, nullable=False),
    Column("player", Integer, nullable=False),  # who took it; -1 for chance
)


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    kind: str
    agent: str | None
    name: str
    token: str | None
    joined: bool


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


class Store:
    """The database behind the server: one engine, short transactions."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        connect_args = {"check_same_thread": False} if url.startswith("sqlite") else {}
        self.url = url
        self.engine: Engine = create_engine(url, connect_args=connect_args)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(self, game_id: str, game: str, options: dict[str, Any], host_token: str,
                    seats: Sequence[StoredSeat]) -> None:
        with self.engine.begin() as db:
            db.execute(insert(games_table).values(
                id=game_id, game=game, options=json.dumps(options), host_token=host_token,
                created=datetime.now(UTC).isoformat(timespec="seconds")))
            db.execute(insert(seats_table), [
                {"game_id": game_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
                 "name": s.name, "token": s.token, "joined": s.joined} for s in seats])

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
            seats=[StoredSeat(s.seat, s.kind, s.agent, s.name, s.token, bool(s.joined))
                   for s in seats],
            actions=list(actions),
            returns=None if row.returns is None else json.loads(row.returns),
            rematch=row.rematch)

    def add_actions(self, game_id: str, first_step: int, moves: Sequence[tuple[int, int]],
                    returns: list[float] | None) -> None:
        """Append ``(player, action)`` pairs from ``first_step`` on, and the result if over."""
        with self.engine.begin() as db:
            db.execute(insert(actions_table), [
                {"game_id": game_id, "step": first_step + i, "action": action, "player": player}
                for i, (player, action) in enumerate(moves)])
            if returns is not None:
                db.execute(update(games_table).where(games_table.c.id == game_id)
                           .values(returns=json.dumps(returns)))

    def mark_joined(self, game_id: str, seat: int) -> None:
        with self.engine.begin() as db:
            db.execute(update(seats_table).where(seats_table.c.game_id == game_id,
                                                 seats_table.c.seat == seat).values(joined=True))

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Record the rematch unless one exists already; True if this call set it."""
        with self.engine.begin() as db:
            changed = db.execute(update(games_table).where(games_table.c.id == game_id,
                                                           games_table.c.rematch.is_(None))
                                 .values(rematch=rematch_id)).rowcount
        return bool(changed)

    def recent_games(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest games: id, game, created, whether over, and how many actions."""
        with self.engine.connect() as db:
            rows = db.execute(select(games_table.c.id, games_table.c.game,
                                     games_table.c.created, games_table.c.returns)
                              .order_by(games_table.c.created.desc(), games_table.c.id)
                              .limit(limit)).all()
        return [{"id": r.id, "game": r.game, "created": r.created, "over": r.returns is not None}
                for r in rows]
