"""Issue 26: health that tells the truth. ``/healthz`` says the process is alive;
``/readyz`` says it can serve games (its database answers). A broker that is down is
reported as degraded but not as a failure: every process would report it at once, and a
load balancer would drop the whole site while moves still work (before: ``/healthz``
answered 503 on every process while Redis was down)."""

from __future__ import annotations

from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import bearer, friend_game, move
from tests.server.services import Redis, wait_until


def test_a_broker_down_is_reported_degraded_and_moves_go_on(db_url):
    redis = Redis()
    try:
        with TestClient(create_app(db_url, broker=redis.url())) as client:
            ready = client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json()["broker"] == "ok" and ready.json()["database"] == "ok"
            created = friend_game(client, "hadronize")
            game_id, tokens = created["id"], created["seat_tokens"]
            redis.close()
            wait_until(lambda: client.get("/readyz").json()["broker"] == "degraded", 20,
                       "the server never noticed that Redis stopped")
            ready = client.get("/readyz")
            assert ready.status_code == 200 and ready.json()["ok"] is True
            assert client.get("/healthz").status_code == 200
            payload = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
            mover = payload["to_move"]
            legal = client.get(f"/api/games/{game_id}",
                               headers=bearer(tokens[mover])).json()["legal"]
            answer = move(client, game_id, tokens[mover], mover, legal[0]["id"],
                          payload["step"])
            assert answer.status_code == 200, answer.text
            assert client.get("/readyz").json()["limits_shared"] is False
    finally:
        if redis.process.poll() is None:
            redis.close()


def test_healthz_and_readyz_answer_json_with_what_the_process_holds(client):
    alive = client.get("/healthz")
    assert alive.status_code == 200 and alive.json()["ok"] is True
    assert {"process", "games_in_memory", "workers"} <= set(alive.json())
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ok": True, "database": "ok", "broker": "ok",
                            "limits_shared": False, "process": alive.json()["process"]}
