"""Queries for the lobby: public games waiting for players, and public games in play.

Unlisted games never appear here (nor anywhere else public). Like ``Store``'s, every
method blocks (call through ``Store.run``).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import exists, or_, select
from sqlalchemy.engine import Engine

from quarkade.server.storage.tables import games_table, seats_table


class LobbyQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def games(self, waiting: bool, limit: int = 50, game: str | None = None,
              time_control: str | None = None, now: float | None = None
              ) -> list[dict[str, Any]]:
        """Public games not over: waiting for players (``waiting``; given ``now``, only
        those still listed then) or under way; newest first, each with its seats."""
        query = select(games_table).where(games_table.c.visibility == "public",
                                          games_table.c.ending.is_(None),
                                          games_table.c.returns.is_(None))
        query = query.where(games_table.c.started.is_(None) if waiting
                            else games_table.c.started.is_not(None))
        if waiting and now is not None:
            query = query.where(or_(games_table.c.listed_until.is_(None),
                                    games_table.c.listed_until > now))
        if waiting:  # a game with a seat kept for its player (a rematch offered) is not
            kept = exists().where(seats_table.c.game_id == games_table.c.id,  # for others
                                  seats_table.c.joined.is_(False),
                                  seats_table.c.player_id.is_not(None))
            query = query.where(~kept)
        if game is not None:
            query = query.where(games_table.c.game == game)
        if time_control is not None:
            query = query.where(games_table.c.time_control == time_control)
        query = query.order_by(games_table.c.created.desc(), games_table.c.id).limit(limit)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
            ids = [r.id for r in rows]
            seats = db.execute(select(seats_table).where(seats_table.c.game_id.in_(ids))
                               .order_by(seats_table.c.seat)).all() if ids else []
        by_game: dict[str, list[dict[str, Any]]] = {}
        for s in seats:
            by_game.setdefault(s.game_id, []).append({
                "seat": s.seat, "kind": s.kind, "name": s.name, "agent": s.agent,
                "joined": bool(s.joined), "player_id": s.player_id})
        return [{"id": r.id, "game": r.game, "options": json.loads(r.options),
                 "time_control": r.time_control, "created": r.created,
                 "reveal": bool(r.reveal),
                 "seats": by_game.get(r.id, [])} for r in rows]
