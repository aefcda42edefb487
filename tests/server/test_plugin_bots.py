"""Plug-in bots on the web: offered and played only when the operator allows them by name;
one that raises, answers an illegal action or overruns the server's time for a move is
stopped, its seat plays random, and the page and the record say so."""

import json

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.test_live import receive_until, socket_url

ALLOWED = ["steady", "raiser", "cheater", "hanger"]


@pytest.fixture
def bot_client(db_url, rogue_bots):
    with TestClient(create_app(db_url, allow_bots=ALLOWED, move_time=0.3)) as client:
        yield client


def finished(client, seats, **options):
    created = client.post("/api/games", json={"game": "hadronize", "options": options,
                                              "seats": seats})
    assert created.status_code == 201, created.text
    with client.websocket_connect(socket_url(created.json()["id"], "spectator")) as page:
        return created.json()["id"], receive_until(page, lambda m: m["over"])


def test_only_allowed_plugins_are_offered(bot_client, db_url):
    kinds = next(g for g in bot_client.get("/api/games").json()["games"]
                 if g["name"] == "hadronize")["seat_kinds"]
    assert {"bot:steady", "bot:raiser", "bot:cheater", "bot:hanger"} <= set(kinds)
    assert "bot:lowest" not in kinds and "bot:catty" not in kinds
    refused = bot_client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["bot:lowest", "you"]})
    assert refused.status_code == 400
    assert "installed but not allowed here" in refused.json()["error"]
    with TestClient(create_app(db_url)) as plain:  # no --allow-bots: no plug-in at all
        answer = plain.post("/api/games", json={"game": "hadronize",
                                                "seats": ["bot:steady", "you"]})
        assert answer.status_code == 400 and "not allowed" in answer.json()["error"]
        page = plain.get("/new/hadronize").text
        assert "bot:steady" not in page


def test_an_allowed_plugin_plays_a_whole_game(bot_client):
    _, final = finished(bot_client, ["bot:steady", "bot:random"], goal=3)
    assert final["flagged"] == [] and sorted(final["returns"]) == [-1.0, 1.0]


def test_misbehaving_plugins_are_stopped_and_the_game_is_flagged(bot_client):
    game_id, final = finished(bot_client, ["bot:raiser:at=1", "bot:cheater"])
    flagged = {fault["seat"]: fault["message"] for fault in final["flagged"]}
    assert flagged[0] == ("bot 'raiser:at=1' at seat 0, its move 1: raised ZeroDivisionError; "
                          "seat 0 plays random from here")
    assert flagged[1].startswith("bot 'cheater' at seat 1, its move 1: answered something "
                                 "other than one of its ")
    record = bot_client.get(f"/games/{game_id}/record").json()
    assert [(f["seat"], f["kind"], f["detail"]) for f in record["faults"]] == [
        (0, "raised", ""), (1, "illegal", "")]  # what a bot said may hold its seat's secrets
    assert "divided by zero" not in json.dumps(final) + json.dumps(record)


def test_a_plugin_over_the_servers_time_is_stopped(bot_client):
    _, final = finished(bot_client, ["bot:hanger", "bot:random"])
    [fault] = final["flagged"]
    assert fault == {"seat": 0, "message": "bot 'hanger' at seat 0, its move 1: gave no answer "
                     "within its 0.3 s per move (stopped); seat 0 plays random from here"}
