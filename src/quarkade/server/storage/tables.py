"""The tables, as the newest migration leaves them (``migrations/versions``).

Only plain SQL types are used, so the same tables work on SQLite and PostgreSQL. The
migrations are the truth about the schema; these definitions are what the queries use,
and a test checks that they agree with a database migrated to the head.

Room to grow: a later ``players`` table (names, sessions) joins ``seats`` through a new
nullable ``seats.player_id``, added by its own migration.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Integer, MetaData, String, Table, Text

metadata = MetaData()

games_table = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("host_token", String(64), nullable=False),
    Column("created", String(32), nullable=False),
    Column("returns", Text),  # JSON, once the game is over
    Column("rematch", String(32)),  # the id of the rematch, once someone asked for one
    Column("visibility", String(16), nullable=False),  # public or unlisted
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # you, hotseat, friend, bot
    Column("agent", String(200)),  # the agent spec of a bot seat
    Column("name", String(100), nullable=False),
    Column("token", String(64)),  # the seat's secret, held by its devices; None for bots
    Column("joined", Boolean, nullable=False, default=False),
    Column("invite", String(64)),  # a friend seat's invite code until it is used
    Column("invite_expires", Float),  # seconds since the epoch
    Column("link", String(64)),  # a one-time code that links another device to the seat
    Column("link_expires", Float),
    # A stopped plug-in bot's fault as anyone may read it (JSON: agent, move, kind,
    # message; never its detail): the seat then plays random (migration 0003).
    Column("fault", Text),
)

actions_table = Table(
    "actions", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("step", Integer, primary_key=True),  # 0, 1, 2, ... in the order played
    Column("action", Integer, nullable=False),
    Column("player", Integer, nullable=False),  # who took it; -1 for chance
)

# A bot's turn at one step of one game, claimed by one server process for a while, so
# the bot moves once however many processes see its turn.
bot_claims_table = Table(
    "bot_claims", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("owner", String(64), nullable=False),  # the claiming process
    Column("expires", Float, nullable=False),  # seconds since the epoch
)

# Issue 19, the learning features (quarkade.server.learn_store): the lessons each learner
# finished (a device id until players have accounts), the real game a learner started as a
# tutorial's last lesson, the seats of a game that asked for a hint (such a game is never
# rated) and finished reviews, cached with their game (per viewer: a seat, or "all").
learn_progress_table = Table(
    "learn_progress", metadata,
    Column("learner", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("lesson", String(64), primary_key=True),
    Column("done", String(32), nullable=False),
)

learn_finals_table = Table(
    "learn_finals", metadata,
    Column("learner", String(64), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False),
)

game_hints_table = Table(
    "game_hints", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("first", String(32), nullable=False),  # when the seat first asked
)

game_reviews_table = Table(
    "game_reviews", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("viewer", String(8), primary_key=True),  # a seat number, or "all"
    Column("review", Text, nullable=False),  # JSON (quarkade-review/1)
    Column("created", String(32), nullable=False),
)
