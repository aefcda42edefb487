"""Issue 24, secrets at rest: every secret kept as its SHA-256, the keys of more devices,
and whose CPU work a game's bots are.

- ``games.host_token``, ``seats.token``, ``seats.invite`` and ``seats.link`` become the
  SHA-256 (hex) of what they held, so the links and cookies given out before keep
  working (the server compares digests) while the database no longer holds them.
- A device's learner id (``learn_progress``, ``learn_finals``; a player's is
  ``player:<id>``, not a secret) becomes its SHA-256 too.
- ``seat_keys``: the digests of the secrets of more devices that hold a seat.
- ``games.owner``: the scheduler's client for the game's bots (old games: none, each its
  own).

On SQLite the old values are overwritten in the file, not just unlinked
(``secure_delete``), and the write-ahead log is emptied after the upgrade
(``migrate.upgrade``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        bind.exec_driver_sql("PRAGMA secure_delete=ON")
    op.create_table(
        "seat_keys",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(80)))
    meta = sa.MetaData()
    games = sa.Table("games", meta, sa.Column("id", sa.String(32), primary_key=True),
                     sa.Column("host_token", sa.String(64)))
    seats = sa.Table("seats", meta, sa.Column("game_id", sa.String(32), primary_key=True),
                     sa.Column("seat", sa.Integer, primary_key=True),
                     sa.Column("token", sa.String(64)), sa.Column("invite", sa.String(64)),
                     sa.Column("link", sa.String(64)))
    for row in bind.execute(sa.select(games.c.id, games.c.host_token)).all():
        bind.execute(sa.update(games).where(games.c.id == row.id)
                     .values(host_token=_digest(row.host_token)))
    for row in bind.execute(sa.select(seats)).all():
        values = {name: _digest(getattr(row, name)) for name in ("token", "invite", "link")
                  if getattr(row, name) is not None}
        if values:
            bind.execute(sa.update(seats).where(seats.c.game_id == row.game_id,
                                                seats.c.seat == row.seat).values(**values))
    for name in ("learn_progress", "learn_finals"):
        table = sa.Table(name, sa.MetaData(), sa.Column("learner", sa.String(64)))
        for (learner,) in bind.execute(sa.select(table.c.learner).distinct()).all():
            if not learner.startswith("player:"):
                bind.execute(sa.update(table).where(table.c.learner == learner)
                             .values(learner=_digest(learner)))


def downgrade() -> None:
    # The secrets themselves are gone: a downgraded server cannot open the links given out.
    with op.batch_alter_table("games") as batch:
        batch.drop_column("owner")
    op.drop_table("seat_keys")
