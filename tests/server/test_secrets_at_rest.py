"""Secrets at rest (issue 24): the database keeps no secret as it was given out. Every kind
is made here through the API and the pages (seat tokens, host tokens, invite codes spent
and not, device links spent and not, a rematch's secrets, a password, a device's learner
id, the session cookie and its key), then the database file's own bytes are read: none of
them is there. And no secret is taken from an address: only a page exchanges one, once,
for its cookie and a clean address."""

from __future__ import annotations

from starlette.testclient import TestClient

from quarkade.core.lessons import tutorial
from quarkade.server import create_app
from tests.server.helpers import bearer, friend_game, join, live_socket, play_moves, refused


def test_no_secret_is_in_the_database_file(tmp_path):
    db = tmp_path / "secrets.db"
    key_file = tmp_path / "session.key"
    secrets: list[str] = []
    with TestClient(create_app(f"sqlite:///{db}", rate_limits=False,
                               secret_file=key_file)) as client:
        client.get("/")  # a guest, in a signed session cookie
        secrets.append(client.cookies["quarkade_session"])
        assert client.post("/api/me", json={"password": "a long passphrase"}
                           ).status_code == 200
        secrets += ["a long passphrase", client.cookies["quarkade_session"]]
        made = client.post("/api/games", json={
            "game": "hadronize", "options": {"players": 4},
            "seats": ["you", "hotseat", "friend", "friend"]}).json()
        secrets += [made["host_token"], *made["tokens"].values()]
        invites = [invite["url"].rsplit("/", 1)[1] for invite in made["invites"]]
        secrets += invites  # one is spent below, one is not
        client.cookies.clear()
        secrets.append(join(client, made["id"], made["invites"][0]["url"]))
        renewed = client.post(f"/api/games/{made['id']}/invites/3",
                              headers=bearer(made["host_token"])).json()["url"]
        secrets.append(renewed.rsplit("/", 1)[1])
        links = [client.post(f"/api/games/{made['id']}/seats/0/link",
                             headers=bearer(made["tokens"]["0"])).json()["url"]
                 for _ in range(2)]  # the first is replaced by the second, which is spent
        secrets += [link.rsplit("/", 1)[1] for link in links]
        client.cookies.clear()
        assert client.get(links[1], follow_redirects=False).status_code == 303
        secrets.append(client.cookies[f"quarkade_{made['id']}"])
        # A finished game and its rematch: each device that follows gets its own secret.
        finished = friend_game(client, "hadronize", goal=1)
        tokens = finished["seat_tokens"]
        secrets += [finished["host_token"], *tokens.values()]
        assert play_moves(client, finished["id"], tokens, 1000, min).is_terminal()
        rematch = client.post(f"/api/games/{finished['id']}/rematch",
                              headers=bearer(tokens[0])).json()["id"]
        secrets.append(client.cookies[f"quarkade_{rematch}"])
        client.cookies.clear()
        client.cookies.set(f"quarkade_{finished['id']}", tokens[1])
        client.get(f"/games/{finished['id']}/rematch", follow_redirects=False)
        secrets.append(client.cookies[f"quarkade_{rematch}"])
        # A device's tutorial progress.
        client.cookies.clear()
        course = tutorial("hadronize")
        url = f"/api/learn/hadronize/lessons/{course.lessons[0].key}"
        goal = next(m["id"] for m in client.get(url).json()["lesson"]["table"]["legal"]
                    if m["goal"])
        client.post(url, json={"moves": [], "move": goal})
        secrets.append(client.cookies["quarkade_device"])
    secrets.append(key_file.read_text().strip())
    held = b"".join(path.read_bytes() for path in tmp_path.glob("secrets.db*"))
    assert held  # the database is there, with its games in it
    assert made["id"].encode() in held and finished["id"].encode() in held
    for secret in secrets:
        for part in secret.split("."):  # a cookie may hold several
            assert part.encode() not in held, part


def test_a_secret_in_an_address_is_refused_or_exchanged_once_for_a_cookie(client):
    created = friend_game(client, "hadronize")
    game_id, token = created["id"], created["seat_tokens"][0]
    refused(client.get(f"/api/games/{game_id}", params={"token": token}), 400,
            "not taken from the address", "Authorization: Bearer")
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as socket:
        refusal = socket.receive_json()
        assert refusal["status"] == 400 and "not taken from the address" in refusal["message"]
    page = client.get(f"/games/{game_id}?seat=0&token={token}", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/games/{game_id}?seat=0"
    assert page.headers["cache-control"] == "no-store"
    assert client.cookies[f"quarkade_{game_id}"] == token
    assert client.get(page.headers["location"]).status_code == 200
    with live_socket(client, game_id, 0) as socket:  # the cookie holds the seat now
        assert socket.receive_json()["held"] == [0]
