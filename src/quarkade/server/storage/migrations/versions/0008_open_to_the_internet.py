"""Issue 26, open to the internet: sessions kept on the server, and names' skeletons.

- ``sessions``: every signed-in session by the SHA-256 of its id (the id itself is in the
  visitor's signed cookie only), so logging out ends it on the server: a copy of the
  cookie no longer signs anyone in. Sessions signed before (which carry none) are given
  one the first time they are used.
- ``games.listed_until``: when a public game still waiting for players leaves the lobby
  (games made before are listed while they wait, as then).
- ``players.name_skeleton``: what a name looks like (``lookalikes.skeleton``), unique,
  so no new name may pass for a player's. Names kept before that look alike keep theirs
  (the older player's holds the skeleton; the later one's is left empty).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from quarkade.server.lookalikes import skeleton

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Index("sessions_player", "player_id"),
    )
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("listed_until", sa.Float))
    with op.batch_alter_table("players") as players:
        players.add_column(sa.Column("name_skeleton", sa.String(40)))
    bind = op.get_bind()
    table = sa.Table("players", sa.MetaData(), sa.Column("id", sa.String(32)),
                     sa.Column("name", sa.String(20)), sa.Column("created", sa.Float),
                     sa.Column("name_skeleton", sa.String(40)))
    taken: set[str] = set()
    for row in bind.execute(sa.select(table.c.id, table.c.name)
                            .order_by(table.c.created, table.c.id)).all():
        shape = skeleton(row.name)
        if shape not in taken:
            taken.add(shape)
            bind.execute(sa.update(table).where(table.c.id == row.id)
                         .values(name_skeleton=shape))
    with op.batch_alter_table("players") as players:
        players.create_unique_constraint("players_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.drop_constraint("players_name_skeleton", type_="unique")
        players.drop_column("name_skeleton")
    with op.batch_alter_table("games") as games:
        games.drop_column("listed_until")
    op.drop_table("sessions")
