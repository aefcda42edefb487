"""Issue 25, the your-turn count: ``games.to_move``, the seat whose turn it is.

Each move stores it with its clock (None while a game waits, once it is over, or at a
chance node), so a page's header counts the games waiting for a player's move with one
query. Games in play when this runs have none until their next move.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("to_move", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("to_move")
