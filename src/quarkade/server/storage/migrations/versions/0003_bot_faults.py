"""Issue 20: a plug-in bot that was stopped (it raised, answered an illegal action or
overran its time) leaves its fault on its seat, so every process, and the game after a
restart, shows the game flagged and plays that seat at random.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("fault", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("fault")
