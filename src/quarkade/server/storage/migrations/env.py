"""Alembic's entry: migrate the connection that ``quarkade.server.storage.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from quarkade.server.storage.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
