"""Challenges (issue 25): on Bea's public page Al challenges her (game, clock, rated);
the game waits with her seat kept for her, out of the lobby and closed to anyone else;
she sees "Al challenges you" on /me, counted in her header, and takes the seat (the game
begins) or declines (it ends, never begun)."""

from __future__ import annotations

from tests.server.helpers import post_form, refused
from tests.server.test_lobby_and_ratings import Devices
from tests.server.test_players import named
from tests.server.test_your_turn import waiting_for


def challenged(client, devices: Devices, name: str = "Chal-Bea") -> str:
    named(devices.use("al"), "Chal-Al", "al-password")
    made = post_form(client, f"/players/{name}/challenge",
                     {"game": "dead-cat", "time_control": "5+3", "rated": "rated"},
                     page=f"/players/{name}", follow_redirects=False)
    assert made.status_code == 303, made.text
    return made.headers["location"].rsplit("/", 1)[1]


def test_a_challenge_keeps_the_seat_for_her_until_she_takes_it(client):
    devices = Devices(client)
    named(devices.use("bea"), "Chal-Bea", "bea-password")
    named(devices.use("cy"), "Chal-Cy")
    game_id = challenged(client, devices)
    seen = client.get(f"/api/games/{game_id}").json()
    assert seen["waiting"] and seen["clock"]["control"] == "5+3" and seen["rated"]
    assert [s["name"] for s in seen["seats"]] == ["Chal-Al", "Chal-Bea"]
    assert game_id not in client.get("/api/lobby").text  # never listed
    devices.use("cy")  # nobody else may take it
    refused(client.post(f"/api/games/{game_id}/seats/1/take", json={}), 409)
    answer = post_form(client, f"/games/{game_id}/challenge", {"action": "accept"})
    assert answer.status_code == 409 and "not waiting for your answer" in answer.text
    devices.use("bea")
    me = client.get("/me").text
    listed = me[me.index(f'data-id="{game_id}"'):]
    assert "Chal-Al challenges you" in listed[:listed.index("</li>")]
    assert waiting_for(client) == 1  # counted in her header
    taken = post_form(client, f"/games/{game_id}/challenge", {"action": "accept"},
                      follow_redirects=False)
    assert taken.status_code == 303 and taken.headers["location"] == \
        f"/games/{game_id}?seat=1"
    seen = client.get(f"/api/games/{game_id}").json()
    assert not seen["waiting"] and not seen["over"] and seen["held"] == [1]
    page = client.get(f"/games/{game_id}?seat=1")
    assert page.status_code == 200


def test_a_declined_challenge_ends_unplayed_and_one_cannot_challenge_oneself(client):
    devices = Devices(client)
    named(devices.use("bea"), "Chal-Bea", "bea-password")
    assert "Challenge Chal-Bea" not in client.get("/players/Chal-Bea").text  # her own
    game_id = challenged(client, devices)
    assert 'id="challenge"' in client.get("/players/Chal-Bea").text
    devices.use("bea")
    declined = post_form(client, f"/games/{game_id}/challenge", {"action": "decline"},
                         follow_redirects=False)
    assert declined.status_code == 303
    seen = client.get(f"/api/games/{game_id}").json()
    assert seen["over"] and seen["outcome"]["ending"] == "declined"
    assert seen["rating_changes"] == []
    assert waiting_for(client) == 0
    for name, game, says in (("Chal-Bea", "hadronize", "cannot challenge yourself"),
                             ("Chal-Al", "chess", "choose one of the games")):
        answer = post_form(client, f"/players/{name}/challenge", {"game": game},
                           page="/players/Chal-Al")
        assert answer.status_code == 400 and says in answer.text, answer.text
