"""Defect 11: the schema is made and upgraded by Alembic migrations. A database made by the
previous release (tests/server/data/release-0.1.sql, made by the server of main at
10c8f16 with four games; release-0.1-seen.json holds what each seat saw then) is upgraded
on SQLite and PostgreSQL, and every game, seat and move is still there. So is a database
left at ``0005`` (issue 15's players) with a player seated, when ``0006`` (issue 16: the
reveal, chat and decks) comes after it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, insert, update
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.storage import migrate
from quarkade.server.storage.tables import metadata
from tests.server.helpers import bearer

DATA = Path(__file__).parent / "data"
SEEN = json.loads((DATA / "release-0.1-seen.json").read_text())


def release_rows() -> dict[str, list[dict]]:
    old = sqlite3.connect(":memory:")
    old.row_factory = sqlite3.Row
    old.executescript((DATA / "release-0.1.sql").read_text())
    return {table: [dict(row) for row in old.execute(f"SELECT * FROM {table}")]
            for table in ("games", "seats", "actions")}


def previous_release(url: str) -> None:
    """The previous release's database at ``url``: its schema (made by create_all, no
    alembic_version) and its rows."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        connection.executescript((DATA / "release-0.1.sql").read_text())
        connection.close()
        return
    engine = create_engine(url)
    migrate.upgrade(engine, "0001")
    with engine.begin() as db:
        db.exec_driver_sql("DROP TABLE alembic_version")  # as create_all left it
        tables = MetaData()
        tables.reflect(db)
        for name, rows in release_rows().items():
            for row in rows:
                if name == "seats":
                    row["joined"] = bool(row["joined"])
            db.execute(insert(tables.tables[name]), rows)
    engine.dispose()


def check_games_intact(client: TestClient) -> None:
    store = client.app.state.store
    for game_id, then in SEEN.items():
        stored = store.games.load(game_id)
        assert stored is not None
        for seat, token in then["tokens"].items():
            kind = stored.seats[int(seat)].kind
            if kind == "friend":  # its old link is now its invite: spent once, by its holder
                answer = client.post(f"/api/games/{game_id}/join", json={"invite": token})
                assert answer.status_code == 200, answer.text
                token = answer.json()["token"]
            client.cookies.clear()
            now = client.get(f"/api/games/{game_id}", params={"seat": seat}, headers=bearer(token))
            assert now.status_code == 200, now.text
            for key, value in then["seen"][seat].items():
                assert now.json()[key] == value, (game_id, seat, key)
        host = client.get(f"/api/games/{game_id}", headers=bearer(then["host_token"])).json()
        for invite in host.get("invites", []):  # joined just now, or still waiting
            joined = str(invite["seat"]) in then["tokens"]
            # The database keeps an invite's digest only (issue 24): the server can no
            # longer show an old link, which the host may renew (a new link) instead.
            assert invite["joined"] == joined and "url" not in invite


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_the_previous_release_is_upgraded_with_its_games_intact(
        kind, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite"
           else request.getfixturevalue("postgres").empty_database())
    previous_release(url)
    with TestClient(create_app(url)) as client:
        assert migrate.current(client.app.state.store.engine) == migrate.head()
        check_games_intact(client)
        assert client.app.state.store.games.recent() == []  # old games become unlisted
    with TestClient(create_app(url)) as client:  # a second start migrates nothing
        assert migrate.current(client.app.state.store.engine) == migrate.head()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_with_players_at_0005_upgrades_to_the_tables_issue_16_adds(
        kind, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite"
           else request.getfixturevalue("postgres").empty_database())
    previous_release(url)
    engine = create_engine(url)
    migrate.upgrade(engine, "0005")
    game_id = next(iter(SEEN))
    tables = MetaData()
    with engine.begin() as db:
        tables.reflect(db)
        assert {"players", "ratings"} <= set(tables.tables) and "chat" not in tables.tables
        db.execute(insert(tables.tables["players"]).values(
            id="p" * 32, name="Ada", name_key="ada", created=1.0, settings="{}",
            session_gen=0))
        seats = tables.tables["seats"]
        db.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == 0)
                   .values(player_id="p" * 32))
    engine.dispose()
    with TestClient(create_app(url)) as client:
        store = client.app.state.store
        assert migrate.current(store.engine) == migrate.head()
        stored = store.games.load(game_id)
        assert stored is not None and stored.seats[0].player_id == "p" * 32
        assert stored.reveal is False and stored.chat == []
        assert store.decks.of("p" * 32, "decoherence") == []
        check_games_intact(client)
        assert client.app.state.store.players.get("p" * 32).name == "Ada"


def test_the_tables_the_code_uses_are_what_the_migrations_make(any_db):
    engine = create_engine(any_db)
    migrate.upgrade(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    engine.dispose()
    assert differences == []
