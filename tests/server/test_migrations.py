"""Defect 11: the schema is made and upgraded by Alembic migrations. A database made by the
previous release (tests/server/data/release-0.1.sql, made by the server of main at
10c8f16 with four games; release-0.1-seen.json holds what each seat saw then) is upgraded
on SQLite and PostgreSQL, and every game, seat and move is still there. So is a database
left at ``0005`` (issue 15's players) with a player seated, when ``0006`` (issue 16: the
reveal, chat and decks) comes after it."""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from itsdangerous import TimestampSigner
from sqlalchemy import MetaData, create_engine, func, insert, select, update
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.storage import migrate
from quarkade.server.storage.tables import metadata
from tests.server.helpers import bearer, post_form, seat_payload

DATA = Path(__file__).parent / "data"
SEEN = json.loads((DATA / "release-0.1-seen.json").read_text())
DECOHERENCE_GAME = next(game_id for game_id, then in SEEN.items()
                        if next(iter(then["seen"].values()))["view"]["game"] == "decoherence")


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


def named_now(value: Any, names: dict[str, str], words: bool = False) -> Any:
    """What a page saw then, with each seat's name then ("seat 1 (greedy)") as pages name
    it now ("Greedy bot", issue 25) in the lines and labels in words (the notation keeps
    its seat numbers): everything else must be as it was."""
    if isinstance(value, str) and words:
        for old, new in sorted(names.items(), key=lambda pair: -len(pair[0])):
            value = value.replace(old, new).replace(old[:1].upper() + old[1:],
                                                    new[:1].upper() + new[1:])
        return value
    if isinstance(value, list):
        return [named_now(item, names) for item in value]
    if isinstance(value, dict):
        return {key: named_now(item, names, key in ("line", "label"))
                for key, item in value.items()}
    return value


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
            names = {s.name: shown["name"] for s, shown in zip(stored.seats,
                                                                now.json()["seats"],
                                                                strict=True)}
            for key, value in then["seen"][seat].items():
                if key == "legal":  # the same moves; their words are today's (move_words)
                    assert [(m["id"], m["text"]) for m in now.json()[key]] == \
                        [(m["id"], m["text"]) for m in value], (game_id, seat, key)
                    assert all(m["label"] for m in now.json()[key])
                    continue
                if key == "log":  # the same entries; a line's words may be today's
                    log = now.json()[key]
                    assert [{k: v for k, v in e.items() if k != "line"} for e in log] == \
                        [{k: v for k, v in e.items() if k != "line"} for e in value]
                    changed = [(e["line"], old["line"]) for e, old in zip(log, value, strict=True)
                               if e["line"] != named_now(old, names)["line"]]
                    assert all(line for line, _ in changed), changed
                    # only Decoherence's "Ann: verb riffed -> chain 1" lines are in words now
                    assert all(game_id == DECOHERENCE_GAME and ": " in old.splitlines()[0]
                               for _, old in changed), changed
                    continue
                assert now.json()[key] == named_now(value, names), (game_id, seat, key)
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


# -- issue 24: a database of main at 6830bae, its secrets hashed --------------------------

MAIN = json.loads((DATA / "release-0.2-secrets.json").read_text())
SECRETS = MAIN["secrets"]


def main_rows() -> dict[str, list[dict]]:
    """The rows of tests/server/data/release-0.2.sql: a database made by the server of
    main at 6830bae (migration 0006) holding a secret of each kind, which
    release-0.2-secrets.json lists (games a-d: an invite not spent, a device link not
    spent, a rematch not followed; a claimed player; a device's tutorial progress)."""
    old = sqlite3.connect(":memory:")
    old.row_factory = sqlite3.Row
    old.executescript((DATA / "release-0.2.sql").read_text())
    tables = [row[0] for row in old.execute("SELECT name FROM sqlite_master WHERE type = "
                                            "'table' AND name != 'alembic_version'")]
    return {table: [dict(row) for row in old.execute(f"SELECT * FROM {table}")]
            for table in tables}


def main_database(url: str) -> None:
    """The database of main at 6830bae at ``url``."""
    if url.startswith("sqlite"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        connection.executescript((DATA / "release-0.2.sql").read_text())
        connection.close()
        return
    engine = create_engine(url)
    migrate.upgrade(engine, "0006")
    with engine.begin() as db:
        tables = MetaData()
        tables.reflect(db)
        for name, rows in main_rows().items():
            table = tables.tables[name]
            flags = [c.name for c in table.columns if c.type.python_type is bool]
            for row in rows:
                row.update({flag: bool(row[flag]) for flag in flags if row[flag] is not None})
            if rows:
                db.execute(insert(table), rows)
    engine.dispose()


def session_cookie(key: str, player: dict) -> str:
    """A session cookie as the server of main signed it for ``player`` (Starlette's)."""
    data = base64.b64encode(json.dumps({"player": player["id"],
                                        "gen": player["session_gen"]}).encode())
    return TimestampSigner(key).sign(data).decode()


def every_secret() -> list[str]:
    found = [SECRETS["device"], SECRETS["session_key"], SECRETS["d"]["password"]]
    for game in ("a", "b", "c", "d"):
        found += [value for name, value in SECRETS[game].items()
                  if name not in ("id", "rematch", "password")]
    return found


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_main_keeps_its_links_working_with_every_secret_hashed(
        kind, tmp_path, request):
    url = (f"sqlite:///{tmp_path / 'main.db'}" if kind == "sqlite"
           else request.getfixturevalue("postgres").empty_database())
    main_database(url)
    key_file = tmp_path / "session.key"
    # The device link lived ten minutes: the server's clock is at the time it was made.
    made = min(s["link_expires"] for s in main_rows()["seats"] if s["link_expires"]) - 600
    with TestClient(create_app(url, secret_file=key_file,
                               clock=ManualClock(made + 60))) as client:
        store = client.app.state.store
        assert migrate.current(store.engine) == migrate.head()
        # The session key left the database for its own file: old sessions stay valid.
        assert key_file.read_text().strip() == SECRETS["session_key"]
        assert store.players.old_session_key() is None
        ada = next(p for p in main_rows()["players"] if p["name"] == "Ada")
        client.cookies.set("quarkade_session", session_cookie(SECRETS["session_key"], ada))
        assert client.get("/api/me").json() == {"id": ada["id"], "name": "Ada", "guest": False,
                                                "settings": {"sound": False, "notify": False}}
        a, b, c, d = (SECRETS[game] for game in "abcd")
        assert seat_payload(client, d["id"], None).json()["held"] == [0]  # Ada's own seat
        client.cookies.clear()
        # Seat tokens and host tokens held in cookies still open their seats.
        for game, seat in ((a, 0), (b, 0), (b, 1), (c, 0), (c, 1), (d, 0)):
            shown = seat_payload(client, game["id"], game[f"seat{seat}"], seat).json()
            assert shown["held"] == [seat], (game["id"], seat)
        for seat in ("0", "1"):  # and see what they saw
            shown = seat_payload(client, b["id"], b[f"seat{seat}"], seat).json()
            stored = client.app.state.store.games.load(b["id"])
            names = {s.name: now["name"] for s, now in zip(stored.seats, shown["seats"],
                                                           strict=True)}
            assert {key: shown[key] for key in MAIN["seen"]["b"][seat]} == \
                named_now(MAIN["seen"]["b"][seat], names)
        host = client.get(f"/api/games/{a['id']}", headers=bearer(a["host"])).json()
        assert host["invites"] == [{"seat": 1, "joined": False}]
        # The invite not spent then is spent now; the device link too.
        joined = client.post(f"/api/games/{a['id']}/join", json={"invite": a["invite1"]})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        client.cookies.clear()
        linked = post_form(client, f"/games/{b['id']}/link/{b['link0']}", {},
                           follow_redirects=False)
        assert linked.status_code == 303
        assert client.get(f"/api/games/{b['id']}").json()["held"] == [0]
        client.cookies.clear()
        # The rematch asked for then: seat 0's device holds it; seat 1 follows it now.
        assert seat_payload(client, c["rematch"], c["rematch_seat0"], 0).json()["held"] == [0]
        client.cookies.set(f"quarkade_{c['id']}", c["seat1"])
        followed = client.get(f"/games/{c['id']}/rematch", follow_redirects=False)
        assert followed.headers["location"] == f"/games/{c['rematch']}"
        assert client.get(f"/api/games/{c['rematch']}").json()["held"] == [1]
        client.cookies.clear()
        # The device's tutorial progress is found by its id (kept as a digest now).
        client.cookies.set("quarkade_device", SECRETS["device"])
        lessons = client.get("/api/learn/hadronize").json()["lessons"]
        assert lessons[0]["done"] is True
        # The password still logs in.
        client.cookies.clear()
        assert client.post("/api/login", json={"name": "Ada", "password": d["password"]}
                           ).status_code == 200
    if kind == "sqlite":
        held = b"".join(path.read_bytes() for path in tmp_path.glob("main.db*"))
        for secret in every_secret():
            assert secret.encode() not in held, secret


# -- issue 26: sessions kept on the server, names' skeletons ------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_at_0007_keeps_look_alike_names_and_old_sessions_until_they_end(
        kind, tmp_path, request):
    """Migration 0008 on a database of 0007 holding two players whose names look alike
    (made before names were checked by their look) and a third signed in with a cookie of
    then: both names stay, the older holds the look so no third look-alike is taken, and
    the old cookie still signs its player in, now in a session the server can end."""
    url = (f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite"
           else request.getfixturevalue("postgres").empty_database())
    previous_release(url)
    engine = create_engine(url)
    migrate.upgrade(engine, "0007")
    people = [{"id": "a" * 32, "name": "AliceQ", "created": 1.0},
              {"id": "b" * 32, "name": "AIiceQ", "created": 2.0},  # a capital I for the l
              {"id": "c" * 32, "name": "Bohr", "created": 3.0}]
    tables = MetaData()
    with engine.begin() as db:
        tables.reflect(db)
        assert "sessions" not in tables.tables
        db.execute(insert(tables.tables["players"]), [
            {**person, "name_key": person["name"].lower(), "settings": "{}",
             "session_gen": 0} for person in people])
    engine.dispose()
    key = "an-old-session-key-" * 3
    with TestClient(create_app(url, session_secret=key)) as client:
        store = client.app.state.store
        assert migrate.current(store.engine) == migrate.head()
        assert [store.players.get(p["id"]).name for p in people] == ["AliceQ", "AIiceQ",
                                                                     "Bohr"]
        with store.engine.connect() as db:
            players = metadata.tables["players"]
            shapes = dict(db.execute(select(players.c.id, players.c.name_skeleton)).all())
        assert shapes["a" * 32] and shapes["b" * 32] is None and shapes["c" * 32]
        # A new player cannot take a third look-alike of the older name.
        client.get("/me")
        answer = client.post("/api/me", json={"name": "A1iceQ"})
        assert answer.status_code == 409 and "looks too much like 'AliceQ'" in answer.text
        # Bohr's cookie of then signs him in, in a session kept on the server now ...
        client.cookies.clear()
        old = session_cookie(key, {"id": "c" * 32, "session_gen": 0})
        answer = client.get("/api/me", headers={"cookie": f"quarkade_session={old}"})
        assert answer.json()["name"] == "Bohr"
        copied = answer.cookies["quarkade_session"]
        with store.engine.connect() as db:
            sessions = metadata.tables["sessions"]
            assert db.execute(select(func.count()).where(
                sessions.c.player_id == "c" * 32)).scalar() == 1
        # ... which logging out ends: neither that cookie nor the one of then signs in.
        client.cookies.clear()
        assert client.post("/api/logout", headers={"cookie": f"quarkade_session={copied}"}
                           ).status_code == 200
        for cookie in (copied, old):
            client.cookies.clear()
            answer = client.get("/api/me", headers={"cookie": f"quarkade_session={cookie}"})
            assert answer.json()["name"] != "Bohr"
