"""The tables, as the newest migration leaves them (``migrations/versions``).

Only plain SQL types are used, so the same tables work on SQLite and PostgreSQL. The
migrations are the truth about the schema; these definitions are what the queries use,
and a test checks that they agree with a database migrated to the head.

Players (issue 15, migration ``0005``): ``players`` holds names, password hashes and
settings; a seat remembers who sat there (``seats.player_id``); a game keeps its time
control, its clock (``turn_started``, ``deadline``; each seat's ``remaining`` time), an
ending the server decided (resigned, out of time, aborted, abandoned) and whether it is
rated; ``ratings`` and ``rating_changes`` keep what rated games did.

Secrets at rest (issue 24, migration ``0007``): every secret (a seat's, the host's, an
invite, a device link) is kept as its SHA-256 only; ``seat_keys`` holds the secrets of
more devices that hold a seat; ``games.owner`` names whose CPU work a game's bots are.

Open to the internet (issue 26, migration ``0008``): ``sessions`` (signed-in sessions, so
logging out ends one on the server) and ``players.name_skeleton`` (no look-alike names).

At the table (issue 16, migration ``0006``): whether a game shows every hidden card once
it is over (``games.reveal``), its ``chat``, the players' saved ``decks`` (``owner`` is
the player's id) and the runs of "test this deck" (``deck_tests``).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

games_table = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("host_token", String(64), nullable=False),  # its SHA-256, as every secret here
    Column("created", String(32), nullable=False),
    Column("returns", Text),  # JSON, once the game is over
    Column("rematch", String(32)),  # the id of the rematch, once someone asked for one
    Column("visibility", String(16), nullable=False),  # public or unlisted
    # Issue 15 (migration 0005):
    Column("time_control", String(32), nullable=False, server_default="none"),
    Column("started", Float),  # when every seat was filled and the game began
    Column("finished", Float),  # when it ended (by its rules or by the server)
    Column("turn_started", Float),  # when the seat to move began its turn
    Column("deadline", Float),  # when the seat to move runs out of time (None: no clock)
    Column("ending", Text),  # JSON outcome the server decided (resigned, out of time, ...)
    Column("outcome", Text),  # JSON: how it ended (the rules' or the server's), for lists
    Column("rated", Boolean, nullable=False, server_default=false()),  # hints set it false
    Column("rating_state", String(8), nullable=False, server_default="none"),  # pending, done
    Column("host_player", String(32)),  # the player who made the game
    Index("games_deadline", "deadline"),
    # Issue 16 (migration 0006): show every hidden card once the game is over (chosen at
    # creation, shown to every seat before it joins).
    Column("reveal", Boolean, nullable=False, server_default=false()),
    # Issue 24 (migration 0007): whose CPU work the game's bots are (the worker
    # scheduler's client: "player:<id>", or "address:<digest>" for a script).
    Column("owner", String(80)),
    # Issue 26 (migration 0008): a public game waiting for players leaves the lobby at
    # this time (seconds since the epoch, the server's clock; None: listed while waiting).
    Column("listed_until", Float),
    # Issue 25 (migration 0009): the seat whose turn it is, stored with each move (None:
    # not begun, over, or chance), so the header counts a player's turns with one query.
    Column("to_move", Integer),
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # you, hotseat, friend, bot
    Column("agent", String(200)),  # the agent spec of a bot seat
    Column("name", String(100), nullable=False),
    Column("token", String(64)),  # its secret's SHA-256 (its devices hold it); None for bots
    Column("joined", Boolean, nullable=False, default=False),
    Column("invite", String(64)),  # a friend seat's invite code's SHA-256 until it is used
    Column("invite_expires", Float),  # seconds since the epoch
    Column("link", String(64)),  # a one-time code's SHA-256 (links another device)
    Column("link_expires", Float),
    # A stopped plug-in bot's fault as anyone may read it (JSON: agent, move, kind,
    # message; never its detail): the seat then plays random (migration 0003).
    Column("fault", Text),
    # Issue 15 (migration 0005):
    Column("player_id", String(32)),  # the player who sat here (None: a bot, a hot seat)
    Column("remaining", Float),  # a real-time clock's seconds left, at the turn's start
    Column("replaced", String(16)),  # why a bot took over: resigned, out of time, abandoned
    Index("seats_player", "player_id"),
)

# Issue 24 (migration 0007): more devices that hold a seat (seat -1: the host), each by
# the SHA-256 of its own secret: a device link spent, a rematch followed.
seat_keys_table = Table(
    "seat_keys", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("digest", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("made", Integer, nullable=False),  # 1, 2, 3, ... per game: the oldest go first
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

# Issue 19, the learning features (storage/learning.py): the lessons each learner
# finished (a signed-in player's id, else the SHA-256 of a device's id), the real game
# a learner started as a tutorial's last lesson, the seats of a game that asked for a
# hint (such a game is never rated) and finished reviews, cached with their game (per
# viewer: a seat, or "all").
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

players_table = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(20), nullable=False),  # as the player typed it
    Column("name_key", String(20), nullable=False, unique=True),  # lower case: unique
    Column("password", String(200)),  # argon2 hash once the name is claimed; None: a guest
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=False, server_default="{}"),  # JSON: sound, notify
    Column("session_gen", Integer, nullable=False, server_default="0"),  # bump: log out all
    # Issue 26 (migration 0008): what the name looks like (lookalikes.py), unique, so no
    # name may pass for another (None: an older look-alike's, kept from before).
    Column("name_skeleton", String(40)),
    UniqueConstraint("name_skeleton", name="players_name_skeleton"),
)

# Issue 26 (migration 0008): the sessions signed in now, by the SHA-256 of their id (the
# id is in the visitor's signed cookie only): logging out deletes the row, so a copy of
# the cookie signs nobody in.
sessions_table = Table(
    "sessions", metadata,
    Column("digest", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Index("sessions_player", "player_id"),
)

# Server-wide values every process must agree on. (Until issue 24 it held the session
# cookie's signing key, which now lives outside the database.)
server_settings_table = Table(
    "server_settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

# A rating per subject (a player id, or "bot:LEVEL"), game and player count (OpenSkill).
ratings_table = Table(
    "ratings", metadata,
    Column("subject", String(40), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# What one rated game did to each seat's rating (the result panel, rating history).
rating_changes_table = Table(
    "rating_changes", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("subject", String(40), nullable=False),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("before", Float, nullable=False),  # shown ratings, before and after
    Column("after", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("rating_changes_subject", "subject", "game", "players"),
)

# Issue 16 (migration 0006): a game's chat, in the order sent; written only by seated
# players.
chat_table = Table(
    "chat", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),  # 0, 1, 2, ... in the order sent
    Column("seat", Integer, nullable=False),
    Column("name", String(100), nullable=False),  # the seat's name when it was sent
    Column("body", String(300), nullable=False),
    Column("sent", Float, nullable=False),  # seconds since the epoch
)

# Decks saved by their owner (a player), one per name and game (Decoherence today).
decks_table = Table(
    "decks", metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("name", String(40), nullable=False),
    Column("deck", String(200), nullable=False),  # the canonical deck text
    Column("updated", Float, nullable=False),
    UniqueConstraint("owner", "game", "name", name="decks_owner_game_name"),
)

# "Test this deck" runs: progress and results, so any process can answer for them.
deck_tests_table = Table(
    "deck_tests", metadata,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("deck", String(200), nullable=False),
    Column("games", Integer, nullable=False),  # games against each preset
    Column("results", Text, nullable=False),  # JSON: {preset: [wins, draws, played]}
    Column("state", String(16), nullable=False),  # running, done, failed
    Column("updated", Float, nullable=False),
)
