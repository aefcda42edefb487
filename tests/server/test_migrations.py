"""Defect 11: the schema is made and upgraded by Alembic migrations. A database made by the
previous release (tests/server/data/release-0.1.sql, made by the server of main at
10c8f16 with four games; release-0.1-seen.json holds what each seat saw then) is upgraded
on SQLite and PostgreSQL, and every game, seat and move is still there."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, insert
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.storage import migrate
from quarkade.server.storage.tables import metadata

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
        stored = store.load_game(game_id)
        assert stored is not None
        for seat, token in then["tokens"].items():
            kind = stored.seats[int(seat)].kind
            if kind == "friend":  # its old link is now its invite: spent once, by its holder
                answer = client.post(f"/api/games/{game_id}/join", json={"invite": token})
                assert answer.status_code == 200, answer.text
                token = answer.json()["token"]
            client.cookies.clear()
            now = client.get(f"/api/games/{game_id}", params={"token": token, "seat": seat})
            assert now.status_code == 200, now.text
            for key, value in then["seen"][seat].items():
                assert now.json()[key] == value, (game_id, seat, key)
        host = client.get(f"/api/games/{game_id}", params={"token": then["host_token"]}).json()
        for invite in host.get("invites", []):  # joined just now, or still waiting
            joined = str(invite["seat"]) in then["tokens"]
            assert invite["joined"] == joined and ("url" in invite) != joined


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_the_previous_release_is_upgraded_with_its_games_intact(
        kind, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite"
           else request.getfixturevalue("postgres").empty_database())
    previous_release(url)
    with TestClient(create_app(url)) as client:
        assert migrate.current(client.app.state.store.engine) == migrate.head()
        check_games_intact(client)
        assert client.app.state.store.recent_games() == []  # old games become unlisted
    with TestClient(create_app(url)) as client:  # a second start migrates nothing
        assert migrate.current(client.app.state.store.engine) == migrate.head()


def test_the_tables_the_code_uses_are_what_the_migrations_make(any_db):
    engine = create_engine(any_db)
    migrate.upgrade(engine)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    engine.dispose()
    assert differences == []
