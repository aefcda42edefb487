"""Bringing a database to the newest schema with Alembic, safely from several processes.

A database made by the first release (by ``create_all``, before there were migrations)
has the tables but no ``alembic_version``: it is stamped at ``0001`` (that schema) and
upgraded from there. After a SQLite upgrade the write-ahead log is emptied, so values
a migration replaced are gone from the files. On PostgreSQL an advisory lock makes
processes that start together migrate one after the other.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

MIGRATION_LOCK = 7_114_014  # any number, the same in every process


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", "quarkade.server.storage:migrations")
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate ``engine``'s database to ``revision`` (stamping a first-release database)."""
    with engine.connect() as connection:
        postgres = connection.dialect.name == "postgresql"
        if postgres:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()
        try:
            cfg = config(connection)
            tables = set(inspect(connection).get_table_names())
            if "games" in tables and "alembic_version" not in tables:
                command.stamp(cfg, "0001")
                connection.commit()
            before = MigrationContext.configure(connection).get_current_revision()
            command.upgrade(cfg, revision)
            connection.commit()
            if connection.dialect.name == "sqlite" and \
                    MigrationContext.configure(connection).get_current_revision() != before:
                # What a migration replaced (such as secrets hashed by 0007) leaves the
                # write-ahead log too, not only the database's pages.
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            if postgres:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"),
                                   {"key": MIGRATION_LOCK})
                connection.commit()
