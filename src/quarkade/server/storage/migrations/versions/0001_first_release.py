"""The schema of the first release (made by ``create_all`` before there were migrations).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("returns", sa.Text),
        sa.Column("rematch", sa.String(32)),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("agent", sa.String(200)),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("token", sa.String(64)),
        sa.Column("joined", sa.Boolean, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("player", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
