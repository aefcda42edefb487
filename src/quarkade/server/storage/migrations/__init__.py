"""Alembic migrations of the server's database (run by ``quarkade.server.storage.migrate``)."""
