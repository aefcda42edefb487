"""Issue 15: players (names, passwords, settings), who sat at each seat, time controls and
clocks, endings the server decides, and ratings.

Games made before keep playing as they were: no time control, not rated, no players.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("time_control", sa.String(32), nullable=False,
                                   server_default="none"))
        games.add_column(sa.Column("started", sa.Float))
        games.add_column(sa.Column("finished", sa.Float))
        games.add_column(sa.Column("turn_started", sa.Float))
        games.add_column(sa.Column("deadline", sa.Float))
        games.add_column(sa.Column("ending", sa.Text))
        games.add_column(sa.Column("outcome", sa.Text))
        games.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        games.add_column(sa.Column("rating_state", sa.String(8), nullable=False,
                                   server_default="none"))
        games.add_column(sa.Column("host_player", sa.String(32)))
        games.create_index("games_deadline", ["deadline"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("player_id", sa.String(32)))
        seats.add_column(sa.Column("remaining", sa.Float))
        seats.add_column(sa.Column("replaced", sa.String(16)))
        seats.create_index("seats_player", ["player_id"])
    # Games already under way began when they were made.
    games_table = sa.table("games", sa.column("started", sa.Float))
    op.get_bind().execute(sa.update(games_table).values(started=0.0))
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password", sa.String(200)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
        sa.Column("session_gen", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "server_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("rating_changes_subject", "rating_changes", ["subject", "game", "players"])


def downgrade() -> None:
    op.drop_index("rating_changes_subject", "rating_changes")
    for table in ("rating_changes", "ratings", "server_settings", "players"):
        op.drop_table(table)
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("seats_player")
        for column in ("replaced", "remaining", "player_id"):
            seats.drop_column(column)
    with op.batch_alter_table("games") as games:
        games.drop_index("games_deadline")
        for column in ("host_player", "rating_state", "rated", "outcome", "ending", "deadline",
                       "turn_started", "finished", "started", "time_control"):
            games.drop_column(column)
