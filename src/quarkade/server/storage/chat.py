"""Queries about a game's chat: messages numbered 0, 1, 2, ... in the order stored, whichever
process stores them; read newest first in pages of at most ``CHAT_TAIL``."""

from __future__ import annotations

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from quarkade.server.storage.stored import StoredChat, Unavailable, check_lengths
from quarkade.server.storage.tables import chat_table

CHAT_TAIL = 200  # the messages a page is sent on connecting, and per page asked for after


class ChatFull(Exception):
    """The game's chat holds its most messages already."""


class ChatQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, game_id: str, seat: int, name: str, body: str, sent: float,
            limit: int) -> StoredChat:
        """Append a message (numbered in the order stored, whichever process stores it);
        ``ChatFull`` once the game has ``limit`` messages."""
        row = {"game_id": game_id, "seat": seat, "name": name, "body": body, "sent": sent}
        check_lengths(chat_table, row)
        for _ in range(20):
            with self.engine.connect() as db:
                number = self.count_in(db, game_id)
            if number >= limit:
                raise ChatFull(game_id)
            try:
                with self.engine.begin() as db:
                    db.execute(insert(chat_table).values(number=number, **row))
            except IntegrityError:  # another process stored one at that number: next
                continue
            return StoredChat(number, seat, name, body, sent)
        raise Unavailable("the chat is too busy")

    def since(self, game_id: str, number: int) -> list[StoredChat]:
        """Messages from ``number`` on (at most ``CHAT_TAIL``, the oldest first)."""
        with self.engine.connect() as db:
            return self.read(db, game_id, number, number + CHAT_TAIL)

    def before(self, game_id: str, number: int) -> list[StoredChat]:
        """The ``CHAT_TAIL`` messages before ``number`` (or fewer), the oldest first."""
        with self.engine.connect() as db:
            return self.read(db, game_id, max(0, number - CHAT_TAIL), number)

    @staticmethod
    def count_in(db: Connection, game_id: str) -> int:
        return int(db.execute(select(func.count()).select_from(chat_table)
                              .where(chat_table.c.game_id == game_id)).scalar() or 0)

    @staticmethod
    def read(db: Connection, game_id: str, start: int, stop: int) -> list[StoredChat]:
        rows = db.execute(select(chat_table).where(chat_table.c.game_id == game_id,
                                                   chat_table.c.number >= start,
                                                   chat_table.c.number < stop)
                          .order_by(chat_table.c.number)).all()
        return [StoredChat(r.number, r.seat, r.name, r.body, r.sent) for r in rows]
