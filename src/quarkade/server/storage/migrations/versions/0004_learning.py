"""Issue 19: tutorial progress per learner, tutorials' final games, hint flags, reviews.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("learner", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("lesson", sa.String(64), primary_key=True),
        sa.Column("done", sa.String(32), nullable=False),
    )
    op.create_table(
        "learn_finals",
        sa.Column("learner", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False),
    )
    op.create_table(
        "game_hints",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("first", sa.String(32), nullable=False),
    )
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("viewer", sa.String(8), primary_key=True),
        sa.Column("review", sa.Text, nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    for table in ("game_reviews", "game_hints", "learn_finals", "learn_progress"):
        op.drop_table(table)
