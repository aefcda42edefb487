"""Issue 14: game visibility, invites spent on joining, device links, bot-turn claims.

An unjoined friend seat of the first release was opened by its seat token, so that token
becomes the seat's invite code (old links keep working, once) and the seat gets a fresh
secret. Old games become unlisted: their ids were short and their list public.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import secrets
import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

INVITE_AGE = 7 * 24 * 3600


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("visibility", sa.String(16), nullable=False,
                                   server_default="unlisted"))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("invite", sa.String(64)))
        seats.add_column(sa.Column("invite_expires", sa.Float))
        seats.add_column(sa.Column("link", sa.String(64)))
        seats.add_column(sa.Column("link_expires", sa.Float))
    op.create_table(
        "bot_claims",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    seats_table = sa.table("seats", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
                           sa.column("kind", sa.String), sa.column("token", sa.String),
                           sa.column("joined", sa.Boolean), sa.column("invite", sa.String),
                           sa.column("invite_expires", sa.Float))
    connection = op.get_bind()
    waiting = connection.execute(sa.select(seats_table.c.game_id, seats_table.c.seat,
                                           seats_table.c.token)
                                 .where(seats_table.c.kind == "friend",
                                        seats_table.c.joined.is_(False))).all()
    expires = time.time() + INVITE_AGE
    for row in waiting:
        connection.execute(sa.update(seats_table).where(
            seats_table.c.game_id == row.game_id, seats_table.c.seat == row.seat).values(
            invite=row.token, invite_expires=expires, token=secrets.token_urlsafe(18)))


def downgrade() -> None:
    op.drop_table("bot_claims")
    with op.batch_alter_table("seats") as seats:
        for column in ("link_expires", "link", "invite_expires", "invite"):
            seats.drop_column(column)
    with op.batch_alter_table("games") as games:
        games.drop_column("visibility")
