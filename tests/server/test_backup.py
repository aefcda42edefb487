"""Issue 26: the backup of docs/DEPLOY.md, round trip. ``pg_dump`` of a live site (its
server running, games in progress and finished, players, ratings), restored with
``pg_restore`` into a fresh database; a server started on the copy holds every row of
every table as it was, and its games open and play on."""

from __future__ import annotations

import subprocess

from sqlalchemy import MetaData, create_engine, insert, select
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.storage.tables import ratings_table
from tests.server.helpers import bearer, friend_game, move, play_moves


def every_row(url: str) -> dict[str, list[tuple]]:
    engine = create_engine(url)
    tables = MetaData()
    with engine.connect() as db:
        tables.reflect(db)
        rows = {name: sorted(map(tuple, db.execute(select(table)).all()), key=repr)
                for name, table in tables.tables.items()}
    engine.dispose()
    return rows


def plain(url: str) -> str:
    return url.replace("+psycopg", "")


def test_a_dump_of_a_live_site_restores_with_every_game_and_rating(postgres, tmp_path):
    url = postgres.new_database()
    dump = tmp_path / "quarkade.dump"
    with TestClient(create_app(url, rate_limits=False)) as client:
        client.get("/me")
        player = client.post("/api/me", json={"name": "WuChienShiung",
                                              "password": "parity-1956"}).json()
        with client.app.state.store.engine.begin() as db:
            db.execute(insert(ratings_table).values(
                subject=player["id"], game="hadronize", players=2, mu=27.5, sigma=4.0,
                games=3, updated=1.0))
        finished = friend_game(client, "hadronize", goal=1)
        assert play_moves(client, finished["id"], finished["seat_tokens"], 1000,
                          min).is_terminal()
        going = friend_game(client, "hadronize")
        payload = client.get(f"/api/games/{going['id']}",
                             headers=bearer(going["seat_tokens"][0])).json()
        # The site is live (its server holds connections) while it is dumped.
        subprocess.run([str(postgres.bin / "pg_dump"), "--format=custom", f"--file={dump}",
                        plain(url)], check=True, capture_output=True)
        before = every_row(url)
    copy = url.rsplit("/", 1)[0] + "/quarkade_restored"
    # DEPLOY.md's `sudo -u postgres createdb --owner quarkade quarkade_restored` (this
    # cluster's superuser is quarkade, on a private port)
    subprocess.run([str(postgres.bin / "createdb"), "-h", "127.0.0.1", "-p", str(postgres.port),
                    "-U", "quarkade", "--owner", "quarkade", "quarkade_restored"],
                   check=True, capture_output=True)
    subprocess.run([str(postgres.bin / "pg_restore"), "--no-owner",
                    f"--dbname={plain(copy)}", str(dump)], check=True, capture_output=True)
    assert every_row(copy) == before
    assert before["ratings"] and before["actions"] and before["players"]
    with TestClient(create_app(copy)) as client:
        shown = client.get(f"/api/games/{finished['id']}",
                           headers=bearer(finished["seat_tokens"][0])).json()
        assert shown["over"] is True
        tokens = going["seat_tokens"]
        mover = payload["to_move"]
        legal = client.get(f"/api/games/{going['id']}",
                           headers=bearer(tokens[mover])).json()["legal"]
        assert move(client, going["id"], tokens[mover], mover, legal[0]["id"],
                    payload["step"]).status_code == 200
        assert client.post("/api/login", json={"name": "WuChienShiung", "password": "parity-1956"}
                           ).status_code == 200
