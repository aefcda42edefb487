"""Queries about decks: each player's saved decks, and the runs of "test this deck" with
their progress (so every process can answer for a run)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from quarkade.server.storage.stored import StoredDeck, StoredDeckTest, check_lengths
from quarkade.server.storage.tables import deck_tests_table, decks_table


class DeckQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def of(self, owner: str, game: str) -> list[StoredDeck]:
        """``owner``'s saved decks of ``game``, by name."""
        with self.engine.connect() as db:
            rows = db.execute(select(decks_table).where(decks_table.c.owner == owner,
                                                        decks_table.c.game == game)
                              .order_by(decks_table.c.name)).all()
        return [StoredDeck(r.id, r.name, r.deck, r.updated) for r in rows]

    def save(self, owner: str, game: str, deck_id: str, name: str, deck: str,
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

    def delete(self, owner: str, deck_id: str) -> bool:
        with self.engine.begin() as db:
            return bool(db.execute(delete(decks_table).where(
                decks_table.c.owner == owner, decks_table.c.id == deck_id)).rowcount)

    # -- "test this deck" ----------------------------------------------------------------

    def start_test(self, test_id: str, owner: str, game: str, deck: str, games: int,
                   now: float) -> None:
        with self.engine.begin() as db:
            db.execute(insert(deck_tests_table).values(
                id=test_id, owner=owner, game=game, deck=deck, games=games, results="{}",
                state="running", updated=now))

    def update_test(self, test_id: str, results: dict[str, list[int]], state: str,
                    now: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(deck_tests_table).where(deck_tests_table.c.id == test_id)
                       .values(results=json.dumps(results), state=state, updated=now))

    def test(self, test_id: str) -> StoredDeckTest | None:
        with self.engine.connect() as db:
            row = db.execute(select(deck_tests_table)
                             .where(deck_tests_table.c.id == test_id)).first()
        if row is None:
            return None
        return StoredDeckTest(row.id, row.owner, row.game, row.deck, row.games,
                              json.loads(row.results), row.state, row.updated)

    def stop_tests(self, test_ids: Sequence[str], now: float) -> None:
        """Mark runs this process gives up (it is stopping) as stopped."""
        with self.engine.begin() as db:
            db.execute(update(deck_tests_table).where(
                deck_tests_table.c.id.in_(list(test_ids)),
                deck_tests_table.c.state == "running").values(state="stopped", updated=now))
