"""Plug-in bots on the web: offered and played only when the operator allows them by name,
their code run only in the server's bot workers; one that raises, answers an illegal action,
overruns the server's time for a move or takes its worker down is stopped, its seat plays
random, and the page and the record say so, after a restart too."""

import json
import logging

import pytest
from starlette.testclient import TestClient

from quarkade.core.records import Fault
from quarkade.server import create_app
from quarkade.server.play import seats as seating
from quarkade.server.storage import StoredSeat
from tests.rogues import declare
from tests.server.helpers import bearer, live_socket, receive_until, refused
from tests.server.test_lobby_and_ratings import Devices, public_game
from tests.server.test_players import named

ALLOWED = ["steady", "raiser", "cheater", "hanger"]


# A well-behaved plug-in's move takes milliseconds; on a machine other jobs keep busy it may
# take longer, so the plug-ins here have all the server allows (the plug-in that never
# answers is stopped at its own short budget, whatever the machine's speed).
ROOMY = 15.0


@pytest.fixture
def bot_client(db_url, rogue_bots):
    with TestClient(create_app(db_url, allow_bots=ALLOWED, move_time=ROOMY)) as client:
        yield client


def finished(client, seats, **options):
    created = client.post("/api/games", json={"game": "hadronize", "options": options,
                                              "seats": seats})
    assert created.status_code == 201, created.text
    with live_socket(client, created.json()["id"], "spectator") as page:
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


def test_a_game_with_a_plugin_bot_is_never_rated(bot_client):
    """RULINGS S-5: a plug-in's strength is unknown (and it may be replaced at will), so a
    game with one is never rated, even between claimed names; the same table with a level
    in the plug-in's seat is, and its rating changes once it ends."""
    named(Devices(bot_client).use("ann"), "Ann", "ann-password")
    with_level = public_game(bot_client, seats=("you", "bot:medium"), rated=True)
    with_plugin = public_game(bot_client, seats=("you", "bot:steady"), rated=True)
    assert bot_client.get(f"/api/games/{with_level}").json()["rated"] is True
    assert bot_client.get(f"/api/games/{with_plugin}").json()["rated"] is False
    for game_id in (with_level, with_plugin):
        answer = bot_client.post(f"/api/games/{game_id}/resign", json={"seat": 0})
        assert answer.status_code == 200, answer.text
    assert bot_client.get(f"/api/games/{with_level}").json()["rating_changes"] != []
    assert bot_client.get(f"/api/games/{with_plugin}").json()["rating_changes"] == []
    ratings = bot_client.app.state.site.ratings  # one game: provisional, off the board
    ann = bot_client.get("/api/me").json()["id"]
    mine = bot_client.portal.call(ratings.of_player, ann)
    assert [(r["game"], r["games"], r["provisional"]) for r in mine] == [("hadronize", 1, True)]


def test_misbehaving_plugins_are_stopped_and_the_game_is_flagged(bot_client):
    game_id, final = finished(bot_client, ["bot:raiser:at=1", "bot:cheater"])
    flagged = {fault["seat"]: fault["message"] for fault in final["flagged"]}
    names = [seat["name"] for seat in final["seats"]]  # a bot's name, never its seat number
    assert flagged[0] == (f"At its move 1, {names[0]} raised ZeroDivisionError; its seat "
                          "plays random moves from here.")
    assert flagged[1].startswith(f"At its move 1, {names[1]} answered something other than "
                                 "one of its ")
    assert "seat 0" not in json.dumps(final["flagged"]) and "raiser" not in flagged[0]
    record = bot_client.get(f"/games/{game_id}/record").json()
    assert [(f["seat"], f["kind"], f["detail"]) for f in record["faults"]] == [
        (0, "raised", ""), (1, "illegal", "")]  # what a bot said may hold its seat's secrets
    assert "divided by zero" not in json.dumps(final) + json.dumps(record)


def test_a_plugin_over_the_servers_time_is_stopped(db_url, rogue_bots):
    """The hanger never answers: it is stopped at its move time (0.3 s here), which only
    decides how soon, not whether."""
    with TestClient(create_app(db_url, allow_bots=ALLOWED, move_time=0.3)) as client:
        _, final = finished(client, ["bot:hanger", "bot:random"])
    [fault] = final["flagged"]
    name = final["seats"][0]["name"]
    assert fault == {"seat": 0, "message": f"At its move 1, {name} gave no answer within its "
                     "0.3 s per move (stopped); its seat plays random moves from here."}


def test_a_plugin_that_takes_its_worker_down_is_stopped(db_url, rogue_bots):
    declare(rogue_bots, {"quitter": "tests.rogues:Quitter"}, package="quitters")
    with TestClient(create_app(db_url, allow_bots=["quitter"], move_time=ROOMY)) as client:
        game_id, final = finished(client, ["bot:random", "bot:quitter"])
        name = final["seats"][1]["name"]
        assert final["flagged"] == [{"seat": 1, "message": f"At its move 1, {name} stopped its "
                                     "worker process; its seat plays random moves from here."}]
        faults = client.get(f"/games/{game_id}/record").json()["faults"]
        assert [(f["seat"], f["kind"], f["move"]) for f in faults] == [(1, "crashed", 1)]


def test_plugin_specs_from_the_web_are_checked_without_running_the_plugin(bot_client):
    for spec, fragments in [
            ("raiser:at=nan", ["at='nan'", "a finite number or a word"]),
            ("raiser:at=inf", ["at='inf'"]),
            ("steady:pick=<b>", ["pick='<b>'", "a finite number or a word"]),
            ("raiser:depth=1", ["no parameter 'depth'", "parameters: at"]),
            ("lowest:x=1", ["installed but not allowed here"])]:
        refused(bot_client.post("/api/games", json={"game": "hadronize",
                                                    "seats": [f"bot:{spec}", "you"]}),
                400, *fragments)
    assert bot_client.app.state.store.games.count() == 0
    _, final = finished(bot_client, ["bot:steady:pick=last", "bot:random"])
    assert final["flagged"] == [] and final["seats"][0]["agent"] == "steady:pick=last"


def test_a_stopped_plugin_stays_stopped_after_a_restart_without_plugins(db_url, rogue_bots,
                                                                        caplog):
    caplog.set_level(logging.WARNING, "quarkade.server")
    with TestClient(create_app(db_url, allow_bots=["raiser", "steady"], move_time=ROOMY)
                    ) as client:
        created = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["bot:raiser:at=1", "you"]}).json()
        game_id, token = created["id"], created["tokens"]["1"]
        with live_socket(client, game_id, 1, token) as page:
            mine = my_turn_after_the_bot(client, page, game_id, token)
        waiting = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["you", "bot:steady"]}).json()
    assert mine["flagged"] == [{"seat": 0, "message": f"At its move 1, {mine['seats'][0]['name']} "
                                "raised ZeroDivisionError; its seat plays random moves from "
                                "here."}]
    # The operator's log has what the bot raised; no page ever does.
    assert "ZeroDivisionError: the bot divided by zero" in caplog.text
    # Restarted with no plug-in allowed: the stopped bot's seat plays random, no plug-in
    # code needed; a game whose plug-in still plays cannot go on here.
    with TestClient(create_app(db_url)) as client:
        with live_socket(client, game_id, 1, token) as page:
            shown = receive_until(page, lambda m: True)
            assert shown["flagged"] == mine["flagged"] and shown["step"] == mine["step"]
            moved = client.post(f"/api/games/{game_id}/actions", json={
                "seat": 1, "action": shown["legal"][0]["id"], "step": shown["step"]},
                headers=bearer(token))
            assert moved.status_code == 200, moved.text
            again = receive_until(page, lambda m: m["over"] or (
                m["to_move"] == 1 and m["step"] > moved.json()["step"]))
        assert [entry for entry in again["log"] if entry["player"] == 0
                and entry["step"] > moved.json()["step"]]  # seat 0 moved again, at random
        assert again["flagged"] == mine["flagged"]
        refused(client.get(f"/api/games/{waiting['id']}"), 409,
                "plug-in bot 'steady' is not allowed on this server")


def my_turn_after_the_bot(client, page, game_id, token):
    """Seat 1's next turn once the bot at seat 0 has moved (chance may let seat 1 start:
    then seat 1 plays its first legal move)."""
    after = -1
    while True:
        shown = receive_until(page, lambda m, a=after: m["to_move"] == 1 and m["step"] > a)
        if any(entry["player"] == 0 for entry in shown["log"]):
            return shown
        moved = client.post(f"/api/games/{game_id}/actions", json={
            "seat": 1, "action": shown["legal"][0]["id"], "step": shown["step"]},
            headers=bearer(token))
        assert moved.status_code == 200, moved.text
        after = shown["step"]


def test_a_rematch_gives_a_stopped_plugin_a_fresh_start():
    stopped = StoredSeat(0, seating.BOT, "raiser", "seat 0 (raiser)", None, True,
                         fault=Fault(0, "raiser", 1, "raised", "bot 'raiser' ... stopped"))
    [fresh] = seating.rematch_seats([stopped], (), now=0.0, invite_seconds=60.0)
    assert fresh.fault is None and fresh.agent == "raiser"
