"""Players (issue 15): a guest on the first visit, a name to change, a password to claim
it, logging in elsewhere (rate-limited), sessions that a new password ends, seats that
remember their player, and bad input answered with what is allowed."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.people.players import SESSION_COOKIE, check_name, guest_name
from tests.server.helpers import refused


def named(client: TestClient, name: str, password: str | None = None) -> dict:
    """This device's player, renamed (and claimed, with a password)."""
    client.get("/")
    body: dict = {"name": name}
    if password:
        body["password"] = password
    answer = client.post("/api/me", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_first_visit_makes_a_guest_with_a_generated_name(client):
    page = client.get("/")
    assert SESSION_COOKIE in client.cookies
    me = client.get("/api/me").json()
    assert me["guest"] and check_name(me["name"]) == me["name"]
    assert f'data-name="{me["name"]}"' in page.text  # the header names them
    assert client.get("/api/me").json()["id"] == me["id"]  # the same player next time
    assert all(len(guest_name()) <= 20 for _ in range(200))


def test_a_name_is_unique_whatever_its_case_and_checked(client):
    named(client, "Alice")
    client.cookies.clear()
    client.get("/")
    refused(client.post("/api/me", json={"name": "ALICE"}), 409, "taken")
    for bad, says in (("Al", "3 to 20"), ("x" * 21, "3 to 20"), ("9lives", "starting with"),
                      ("a b c", "letters, digits"), ("Bot-Ann", "may not begin"),
                      ("<script>", "letters"), (42, "should be text")):
        refused(client.post("/api/me", json={"name": bad}), 400, says)
    assert client.get("/api/me").json()["name"] != "ALICE"
    refused(client.post("/api/me", json={"colour": "red"}), 400, "'name', 'password'")
    refused(client.post("/api/me", json={"settings": {"sound": "loud"}}), 400,
            '"sound": true|false')


def test_a_claimed_name_logs_in_elsewhere_and_a_new_password_logs_out_the_rest(client):
    first = named(client, "Marie", "radioactive")
    assert not first["guest"]
    laptop = dict(client.cookies)
    client.cookies.clear()
    refused(client.post("/api/login", json={"name": "Marie", "password": "wrong-one"}), 403,
            "do not match")
    refused(client.post("/api/login", json={"name": "Marie"}), 400, '"password"')
    phone = client.post("/api/login", json={"name": "marie", "password": "radioactive"})
    assert phone.status_code == 200 and phone.json()["id"] == first["id"]
    # A new password on the phone logs the laptop out (it becomes a new guest).
    assert client.post("/api/me", json={"password": "polonium-84"}).status_code == 200
    assert client.get("/api/me").json()["id"] == first["id"]
    client.cookies.clear()
    client.cookies.update(laptop)
    assert client.get("/api/me").json()["id"] != first["id"]
    refused(client.post("/api/me", json={"password": "short"}), 400, "8 to 200")


def test_logins_are_rate_limited_per_address_and_per_name(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock)) as client:
        named(client, "Curie", "radioactive")
        client.cookies.clear()
        answers = [client.post("/api/login", json={"name": "Curie", "password": "guess-" + str(i)})
                   for i in range(6)]
        assert [a.status_code for a in answers] == [403] * 5 + [429]
        refused(client.post("/api/login", json={"name": "Curie", "password": "radioactive"}),
                429, "wait a minute")
        clock.advance(60)
        assert client.post("/api/login", json={"name": "Curie",
                                               "password": "radioactive"}).status_code == 200


def test_a_seat_remembers_its_player_who_holds_it_on_another_device(client):
    named(client, "Noether", "invariant")
    created = client.post("/api/games", json={"game": "hadronize",
                                              "seats": ["you", "bot:medium"]}).json()
    game_id = created["id"]
    client.cookies.clear()  # another device, no game cookie: logs in
    client.post("/api/login", json={"name": "Noether", "password": "invariant"})
    payload = client.get(f"/api/games/{game_id}").json()
    assert payload["held"] == [0] and payload["seats"][0]["name"] == "Noether"
    # Renaming shows everywhere the player sat; the record names them too.
    client.post("/api/me", json={"name": "Emmy"})
    assert client.get(f"/api/games/{game_id}").json()["seats"][0]["name"] == "Emmy"
    assert client.get(f"/games/{game_id}/record").json()["seats"][0]["name"] == "Emmy"
    me = client.get("/me")
    assert me.status_code == 200 and game_id in me.text
    client.cookies.clear()  # a stranger sees no unlisted game on Emmy's page
    client.get("/")
    assert game_id not in client.get("/players/Emmy").text


@pytest.mark.parametrize("form, status, says", [
    ({"action": "name", "name": "x"}, 400, "3 to 20"),
    ({"action": "password", "password": "1234", "password_again": "1234"}, 400, "8 to 200"),
    ({"action": "password", "password": "12345678", "password_again": "12345679"}, 400,
     "The two passwords differ"),
    ({"action": "logout"}, 400, "Claim the name with a password first"),
    ({"action": "fly"}, 400, "name, password, login"),
    ({"action": "login", "name": "nobody", "password": "whatever1"}, 403, "do not match"),
])
def test_the_me_page_forms_refuse_bad_values_and_say_what_is_allowed(client, form, status,
                                                                       says):
    client.get("/")
    before = client.get("/api/me").json()
    answer = client.post("/me", data=form)
    assert answer.status_code == status and says in answer.text
    assert client.get("/api/me").json() == before


def test_a_player_page_of_nobody_is_a_404_and_settings_are_kept(client):
    client.get("/")
    assert client.get("/players/NoSuchPerson").status_code == 404
    assert client.post("/me", data={"action": "settings", "sound": "on"},
                       follow_redirects=False).status_code == 303
    assert client.get("/api/me").json()["settings"] == {"sound": True, "notify": False}
