"""Storage: tables (``tables``), queries (``store``) and Alembic migrations (``migrate``,
``migrations/``), on SQLite (a file) or PostgreSQL (a URL)."""

from quarkade.server.storage.store import (
    DEFAULT_URL,
    StepTaken,
    Store,
    StoredGame,
    StoredSeat,
    Unavailable,
    ValueTooLong,
    database_url,
    shown_url,
)
from quarkade.server.storage.tables import actions_table, bot_claims_table, games_table, seats_table

__all__ = ["DEFAULT_URL", "StepTaken", "Store", "StoredGame", "StoredSeat", "Unavailable",
           "ValueTooLong", "actions_table", "bot_claims_table", "database_url", "games_table",
           "seats_table", "shown_url"]
