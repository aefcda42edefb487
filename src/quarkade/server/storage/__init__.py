"""Storage: the tables (``tables``), a query class per table group (``games``, ``seats``,
``chat``, ``decks``, ``players``, ``ratings``, ``lobby``, ``learning``), the rows they return
(``stored``), the ``Store`` that runs them off the event loop, and Alembic migrations
(``migrate``, ``migrations/``), on SQLite (a file) or PostgreSQL (a URL)."""

from quarkade.server.storage.store import DEFAULT_URL, Store, database_url, shown_url
from quarkade.server.storage.stored import (
    GameDecided,
    GameTimes,
    StepTaken,
    StoredChat,
    StoredDeck,
    StoredDeckTest,
    StoredGame,
    StoredRematch,
    StoredSeat,
    Unavailable,
    ValueTooLong,
)
from quarkade.server.storage.tables import (
    actions_table,
    bot_claims_table,
    chat_table,
    deck_tests_table,
    decks_table,
    games_table,
    seat_keys_table,
    seats_table,
)

__all__ = ["DEFAULT_URL", "GameDecided", "GameTimes", "StepTaken", "Store", "StoredChat",
           "StoredDeck", "StoredDeckTest", "StoredGame", "StoredRematch", "StoredSeat",
           "Unavailable", "ValueTooLong", "actions_table", "bot_claims_table",
           "chat_table", "database_url", "deck_tests_table", "decks_table",
           "games_table", "seat_keys_table", "seats_table", "shown_url"]
