"""Issue 26: a game of bots only whose process died is taken up by a live process, with
nobody opening it.

Before: such a game stood still until someone opened its page. Now a process looks for
them at start and every ``hub.ORPHAN_SECONDS``: a game under way with only bot seats
whose bot turns no process holds (their claims' leases ran out) is loaded and played on.
"""

from __future__ import annotations

from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.storage import bot_claims_table, games_table
from tests.server.processes import Server
from tests.server.services import wait_until
from tests.server.test_processes import replays, shared, stored  # noqa: F401 (fixture)

BOTS = {"game": "hadronize", "seats": ["bot:greedy", "bot:greedy"]}


def finished(db: str, game_id: str) -> bool:
    engine = create_engine(db)
    with engine.connect() as connection:
        returns = connection.execute(select(games_table.c.returns).where(
            games_table.c.id == game_id)).scalar()
    engine.dispose()
    return returns is not None


def claim_owners(db: str, game_id: str) -> dict[int, str]:
    engine = create_engine(db)
    with engine.connect() as connection:
        rows = connection.execute(select(bot_claims_table.c.step, bot_claims_table.c.owner)
                                  .where(bot_claims_table.c.game_id == game_id)).all()
    engine.dispose()
    return dict(rows)


def test_a_game_of_bots_left_by_a_stopped_server_plays_on_after_a_restart(db_url):
    with TestClient(create_app(db_url, bot_delay=3600)) as client:  # its bots wait
        created = client.post("/api/games", json=BOTS)
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        assert client.get(f"/api/games/{game_id}").json()["over"] is False
    assert not finished(db_url, game_id)
    with TestClient(create_app(db_url)):  # nobody opens the game
        wait_until(lambda: finished(db_url, game_id), 120,
                   "the game of bots was not taken up after the restart")
    assert replays(db_url, game_id).is_terminal()


def test_a_game_of_bots_whose_process_was_killed_finishes_on_the_other(shared):  # noqa: F811
    db, broker = shared
    a = Server(db, broker, "--bot-delay", "0.5")  # slow enough to be killed mid-game
    b = Server(db, broker)
    try:
        status, created = a.post("/api/games", BOTS)
        assert status == 201, created
        game_id = created["id"]
        wait_until(lambda: len(claim_owners(db, game_id)) >= 2, 60, "the bots did not start")
        a.stop(kill=True)  # kill -9, in the middle of the game
        before = claim_owners(db, game_id)
        assert not finished(db, game_id) and len(set(before.values())) == 1
        # Nobody opens the game on b: its sweep takes it up once a's lease runs out.
        wait_until(lambda: finished(db, game_id), 120,
                   "the game of bots did not finish on the other process")
        after = claim_owners(db, game_id)
        assert set(after.values()) - set(before.values())  # b moved its bots
        assert replays(db, game_id).is_terminal()  # nothing lost, nothing twice
    finally:
        a.stop(kill=True)
        b.stop()
