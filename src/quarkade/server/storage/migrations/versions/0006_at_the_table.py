"""Issue 16, at the table: a reveal after the game, chat, saved decks and deck tests.

- ``games.reveal``: show every hidden card once the game is over (old games: no).
- ``chat``: each game's messages in the order sent.
- ``decks``: decks saved by their owner (a player), one name each.
- ``deck_tests``: "test this deck" runs and their progress, readable by every process.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("reveal", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("body", sa.String(300), nullable=False),
        sa.Column("sent", sa.Float, nullable=False),
    )
    op.create_table(
        "decks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("deck", sa.String(200), nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.UniqueConstraint("owner", "game", "name", name="decks_owner_game_name"),
    )
    op.create_table(
        "deck_tests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deck", sa.String(200), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("results", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deck_tests")
    op.drop_table("decks")
    op.drop_table("chat")
    with op.batch_alter_table("games") as games:
        games.drop_column("reveal")
