"""Queries about seats and their secrets: joining by invite or from the lobby, invites,
device links, and the keys of devices that hold a seat.

Every secret arrives here as its digest (``quarkade.server.keys``), never as itself: a
seat's first secret is ``seats.token``, the host's is ``games.host_token``, an unspent
invite is ``seats.invite``, an unspent device link ``seats.link``, and each more device
that holds a seat (a device link spent, a rematch followed) adds a row to ``seat_keys``
(seat -1: the host).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from quarkade.server.storage.tables import games_table, seat_keys_table, seats_table

HOST = -1  # the seat number of the host's keys


class SeatQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def keep(self, game_id: str, seat: int, player_id: str, name: str) -> bool:
        """Keep open seat ``seat`` of a game still waiting for ``player_id`` (a challenge):
        no one else may take it, and the lobby does not list the game. False if it was
        taken."""
        with self.engine.begin() as db:
            return bool(db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat,
                seats_table.c.joined.is_(False)).values(player_id=player_id,
                                                        name=name)).rowcount)

    def accept(self, game_id: str, seats: list[int]) -> int:
        """The players of ``seats`` accept a rematch offered to them: those seats are
        filled (their players hold them already). How many were still to accept."""
        if not seats:
            return 0
        with self.engine.begin() as db:
            return int(db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat.in_(seats),
                seats_table.c.joined.is_(False)).values(joined=True)).rowcount)

    def join(self, game_id: str, seat: int, invite: str | None, token: str, now: float,
             player_id: str | None = None, name: str | None = None,
             seat_options: dict[str, Any] | None = None) -> bool:
        """Fill ``seat``: spend its ``invite`` (a friend seat; its digest), or with
        ``invite`` None take it from the lobby (an open seat). The seat's secret becomes
        ``token`` (a digest: the joiner's alone), it remembers ``player_id`` and ``name``,
        and ``seat_options`` (the options that seat chooses, such as its deck) join the
        game's options. False if the invite is spent, wrong or expired, or the open seat
        was taken."""
        with self.engine.begin() as db:
            query = update(seats_table).where(seats_table.c.game_id == game_id,
                                              seats_table.c.seat == seat,
                                              seats_table.c.joined.is_(False))
            if invite is None:  # an open seat, not one kept for its player (a rematch)
                query = query.where(seats_table.c.kind == "open",
                                    seats_table.c.player_id.is_(None))
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

    def link_seat(self, game_id: str, code: str, now: float) -> int | None:
        """The seat a device link (``code``'s digest) would give, spending nothing."""
        with self.engine.connect() as db:
            seat = db.execute(select(seats_table.c.seat).where(
                seats_table.c.game_id == game_id, seats_table.c.link == code,
                seats_table.c.link_expires > now)).scalar()
        return None if seat is None else int(seat)

    def use_link(self, game_id: str, code: str, token: str, now: float,
                 most: int) -> int | None:
        """Spend a device link (``code``'s digest): the device's new secret (``token``'s
        digest) becomes one of the seat's keys; the seat, or None if the link is spent or
        expired."""
        with self.engine.begin() as db:
            seat = db.execute(select(seats_table.c.seat).where(
                seats_table.c.game_id == game_id, seats_table.c.link == code,
                seats_table.c.link_expires > now)).scalar()
            if seat is None:
                return None
            changed = db.execute(update(seats_table).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat,
                seats_table.c.link == code).values(link=None, link_expires=None)).rowcount
            if not changed:
                return None
            self._add_key(db, game_id, seat, token, most)
        return int(seat)

    def add_keys(self, game_id: str, keys: list[tuple[int, str]], most: int) -> None:
        """More devices hold these seats (``(seat, digest)``; seat -1: the host), each
        seat by at most ``most`` keys (the oldest go first)."""
        try:
            with self.engine.begin() as db:
                for seat, token in keys:
                    self._add_key(db, game_id, seat, token, most)
        except IntegrityError:
            pass  # that key is there already

    @staticmethod
    def _add_key(db: Any, game_id: str, seat: int, token: str, most: int) -> None:
        held = db.execute(select(func.count()).select_from(seat_keys_table).where(
            seat_keys_table.c.game_id == game_id, seat_keys_table.c.seat == seat)).scalar()
        if held >= most:
            oldest = db.execute(select(seat_keys_table.c.digest).where(
                seat_keys_table.c.game_id == game_id, seat_keys_table.c.seat == seat)
                .order_by(seat_keys_table.c.made).limit(held - most + 1)).scalars().all()
            db.execute(delete(seat_keys_table).where(seat_keys_table.c.game_id == game_id,
                                                     seat_keys_table.c.digest.in_(oldest)))
        made = db.execute(select(func.max(seat_keys_table.c.made)).where(
            seat_keys_table.c.game_id == game_id)).scalar()
        db.execute(insert(seat_keys_table).values(game_id=game_id, seat=seat, digest=token,
                                                  made=int(made or 0) + 1))
