"""The rematch as an offer (issue 25 item 1, RULINGS S-13): a player offers it, the other
sees the offer and accepts or declines; the players swap seats (the opener alternates);
nothing starts and no clock runs until everyone at the table accepted; the offer expires
when a player leaves the finished game's page."""

from __future__ import annotations

from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from tests.server.helpers import bearer, friend_game, live_socket, receive_until, refused
from tests.server.test_lobby_and_ratings import Devices, public_game
from tests.server.test_players import named


def finished_game(client: TestClient, control: str = "none", **options) -> tuple[Devices, str]:
    """Ann (seat 0) and Ben (seat 1) at a public game Ben resigned."""
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    game_id = public_game(client, control=control, **options)
    named(devices.use("ben"), "Ben")
    assert client.post(f"/api/games/{game_id}/seats/1/take", json={}).status_code == 200
    assert client.post(f"/api/games/{game_id}/resign", json={"seat": 1}).status_code == 200
    return devices, game_id


def test_a_rematch_begins_only_when_both_accept_with_the_seats_swapped(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        devices, game_id = finished_game(client, control="1+0")
        offered = client.post(f"/api/games/{game_id}/rematch", json={})
        assert offered.status_code == 200, offered.text
        new_id = offered.json()["id"]
        assert offered.json()["rematch"] == {"id": new_id, "state": "offered", "accepted": [1],
                                             "waiting": [0], "by": None}
        # Nothing starts and nothing ticks until Ann accepts.
        waiting = client.get(f"/api/games/{new_id}").json()
        assert waiting["waiting"] and waiting["step"] == 0 and waiting["clock"]["left"] is None
        assert [s["name"] for s in waiting["seats"]] == ["Ben", "Ann"]  # the opener alternates
        assert waiting["held"] == [0]
        clock.advance(3600)
        assert client.get(f"/api/games/{new_id}").json()["waiting"]
        assert new_id not in client.get("/api/lobby").text  # Ann's seat is kept for her
        devices.use("ann")
        seen = client.get(f"/api/games/{game_id}").json()["rematch"]
        assert seen["state"] == "offered" and seen["waiting"] == [0]
        accepted = client.post(f"/api/games/{game_id}/rematch", json={})
        assert accepted.json()["id"] == new_id and accepted.json()["rematch"]["state"] == \
            "accepted"
        begun = client.get(f"/api/games/{new_id}").json()
        assert not begun["waiting"] and begun["held"] == [1] and begun["step"] > 0
        assert begun["clock"]["left"] is not None
        # One rematch, shared: asking again answers the same game.
        devices.use("ben")
        assert client.post(f"/api/games/{game_id}/rematch", json={}).json()["id"] == new_id


def test_a_declined_offer_ends_and_another_may_be_offered(client):
    devices, game_id = finished_game(client)
    first = client.post(f"/api/games/{game_id}/rematch", json={}).json()["id"]
    devices.use("ann")
    with live_socket(client, game_id, 0) as page:
        shown = receive_until(page, lambda m: m["rematch"] is not None)
        assert shown["rematch"]["state"] == "offered"
        page.send_json({"type": "rematch", "decline": True})
        declined = receive_until(page, lambda m: m["rematch"]["state"] != "offered")
    assert declined["rematch"] == {"id": first, "state": "declined", "accepted": [1],
                                   "waiting": [], "by": 0}
    gone = client.get(f"/api/games/{first}").json()
    assert gone["over"] and gone["outcome"]["result"] == "aborted"
    assert first not in client.get("/me").text  # a rematch never begun is nobody's game
    refused(client.post(f"/api/games/{game_id}/rematch", json={"decline": True}), 409,
            "no rematch is offered")
    again = client.post(f"/api/games/{game_id}/rematch", json={}).json()
    assert again["id"] != first and again["rematch"]["accepted"] == [0]


def test_an_offer_expires_when_a_player_leaves_the_page(client):
    devices, game_id = finished_game(client)
    ben = devices.use("ben")
    with live_socket(ben, game_id, 1) as bens_page:
        devices.use("ann")
        with live_socket(client, game_id, 0) as page:
            receive_until(page, lambda m: m["over"])
            devices.use("ben")
            client.post(f"/api/games/{game_id}/rematch", json={})
            receive_until(page, lambda m: m["rematch"] is not None)
        # Ann closed the page: the offer is over, and Ben's page says so.
        seen = receive_until(bens_page, lambda m: m["rematch"] is not None
                             and m["rematch"]["state"] != "offered")["rematch"]
    assert seen["state"] == "expired" and seen["by"] == 0
    assert client.get(f"/api/games/{game_id}").json()["rematch"] == seen
    devices.use("ann")
    refused(client.post(f"/api/games/{game_id}/rematch", json={"decline": True}), 409)


def test_each_player_keeps_their_own_deck_in_the_rematch(client):
    """Seat options belong to the player (Decoherence decks): they move with the seat."""
    created = friend_game(client, "decoherence", {0: {"deck0": "surge"}, 1: {"deck1": "observer"}})
    game_id, tokens = created["id"], created["seat_tokens"]
    client.post(f"/api/games/{game_id}/resign", json={"seat": 0}, headers=bearer(tokens[0]))
    new_id = client.post(f"/api/games/{game_id}/rematch", json={},
                         headers=bearer(tokens[0])).json()["id"]
    accepted = client.post(f"/api/games/{game_id}/rematch", json={},
                           headers=bearer(tokens[1]))
    assert accepted.json()["id"] == new_id
    games = client.app.state.site.hub.games
    assert games[game_id].session.options["deck0"] == "surge"
    options = games[new_id].session.options
    assert options["deck1"] == "surge" and options["deck0"] == "observer"
