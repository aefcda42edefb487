"""The lobby and ratings (issue 15): public games with open seats are listed (live over
/ws/lobby), unlisted ones nowhere public; taking a seat (with its own options, such as a
Decoherence deck) starts the game when every seat is filled; quick play finds the open
game closest to one's rating; rated games change both ratings and the leaderboard, and
only named players' games without hints are rated."""

from __future__ import annotations

import json

from sqlalchemy import insert
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.limits import Limits
from quarkade.server.play.skill import anchor, shown
from quarkade.server.storage.tables import ratings_table
from tests.server.helpers import refused, true_states
from tests.server.test_players import named


class Devices:
    """One test client as several devices: each keeps its own cookies."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}

    def use(self, name: str) -> TestClient:
        current = getattr(self, "current", None)
        if current is not None:
            self.jars[current] = dict(self.client.cookies)
        self.client.cookies.clear()
        self.client.cookies.update(self.jars.get(name, {}))
        self.current = name
        return self.client


def public_game(client: TestClient, game: str = "hadronize", seats=("you", "open"),
                control: str = "none", rated: bool | None = None, **options) -> str:
    answer = client.post("/api/games", json={"game": game, "seats": list(seats),
                                             "options": options, "visibility": "public",
                                             "time_control": control, "rated": rated})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def test_open_seats_are_listed_live_and_taking_the_last_one_starts_the_game(client):
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    named(devices.use("bo"), "Bob")
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["open"] == []
        devices.use("ann")
        game_id = public_game(client, control="5+5")
        listed = lobby.receive_json()["open"]
        assert [g["id"] for g in listed] == [game_id]
        assert listed[0]["time_control"] == "5 min + 5 s"
        assert [(s["name"], s["open"]) for s in listed[0]["seats"]] == [("Ann", False),
                                                                       ("Open seat", True)]
        waiting = client.get(f"/api/games/{game_id}").json()
        assert waiting["waiting"] and waiting["step"] == 0 and waiting["legal"] == []
        assert listed[0]["yours"] is False  # this socket is Bob's page (opened as him)
        assert "held_by" not in listed[0] and "player_id" not in json.dumps(listed)
        assert client.get("/api/lobby").json()["open"][0]["yours"] is True
        devices.use("bo")
        assert client.get("/api/lobby").json()["open"][0]["yours"] is False
        refused(client.post(f"/api/games/{game_id}/seats/0/take", json={}), 404, "not an open")
        assert client.post(f"/api/games/{game_id}/seats/1/take", json={}).status_code == 200
        while (message := lobby.receive_json())["open"]:
            pass
        assert [g["id"] for g in message["live"]] == [game_id]
    started = client.get(f"/api/games/{game_id}").json()
    assert not started["waiting"] and started["step"] > 0 and started["held"] == [1]
    assert [s["name"] for s in started["seats"]] == ["Ann", "Bob"]
    named(devices.use("cy"), "Cyd")
    refused(client.post(f"/api/games/{game_id}/seats/1/take", json={}), 409, "was taken")


def test_the_lobby_offers_its_player_their_own_game_not_a_seat_in_it(client):
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    game_id = public_game(client)
    page = client.get("/lobby").text
    assert f'href="/games/{game_id}">You sit here: open your game</a>' in page
    assert f'data-game="{game_id}"' not in page  # no Join button on her own game
    with client.websocket_connect("/ws/lobby") as lobby:
        assert [g["yours"] for g in lobby.receive_json()["open"]] == [True]
    devices.use("bo")
    named(client, "Bob")
    page = client.get("/lobby").text
    assert "You sit here" not in page and f'data-game="{game_id}"' in page
    with client.websocket_connect("/ws/lobby") as lobby:
        assert [g["yours"] for g in lobby.receive_json()["open"]] == [False]


def test_an_unlisted_game_appears_nowhere_public(client):
    devices = Devices(client)
    named(devices.use("ann"), "Ann", "ann-password")
    hidden = client.post("/api/games", json={"game": "hadronize", "seats": ["you", "open"],
                                             "visibility": "unlisted"}).json()["id"]
    devices.use("stranger")
    client.get("/")
    for page in ("/", "/lobby", "/api/lobby", "/players/Ann", "/leaderboard/hadronize",
                 "/api/leaderboard/hadronize"):
        assert hidden not in client.get(page).text, page
    devices.use("ann")
    assert hidden in client.get("/me").text  # only its player sees it listed


def test_each_player_chooses_their_own_deck_on_taking_a_seat(client):
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    game_id = public_game(client, "decoherence", deck0="surge", deck1="surge")
    devices.use("bo")
    named(client, "Bob")
    live = client.app.state.site.hub.games[game_id].session
    assert live.options["deck1"] == "balanced"  # the host did not choose seat 1's deck
    before = dict(live.options)
    refused(client.post(f"/api/games/{game_id}/seats/1/take",
                        json={"options": {"deck1": "nonsense"}}), 400, "deck1")
    refused(client.post(f"/api/games/{game_id}/seats/1/take",
                        json={"options": {"deck0": "observer"}}), 400, "chooses: deck1")
    assert live.options == before and live.waiting
    assert client.post(f"/api/games/{game_id}/seats/1/take",
                       json={"options": {"deck1": "observer"}}).status_code == 200
    mine = client.get(f"/api/games/{game_id}").json()
    assert mine["options"]["deck1"] == "observer" and mine["options"]["deck0"] == "hidden"
    assert true_states(client, game_id)[-1].game.options["deck0"] == "surge"
    assert "observer" not in json.dumps(client.get("/api/lobby").json())


def test_quick_play_seats_you_in_the_open_game_closest_to_your_rating(client):
    devices = Devices(client)
    ids = {}
    for device, name, rating in (("lo", "Lowe", 1000), ("hi", "Hugh", 2000),
                                 ("me", "Mina", 1900)):
        player = named(devices.use(device), name)
        with client.app.state.store.engine.begin() as db:
            db.execute(insert(ratings_table).values(
                subject=player["id"], game="hadronize", players=2,
                mu=(rating - 1500) / 60 + 25, sigma=3.0, games=10, updated=0.0))
        if device != "me":
            ids[device] = public_game(client)
    devices.use("me")
    found = client.post("/api/lobby/quick", json={"game": "hadronize", "players": 2,
                                                  "time_control": "none"}).json()
    assert found["id"] == ids["hi"] and found["seat"] == 1 and not found["waiting"]
    # Nothing open of that kind for the next one: a new game waits for an opponent.
    devices.use("lo")
    opened = client.post("/api/lobby/quick", json={"game": "hadronize", "players": 2,
                                                   "time_control": "3+2"}).json()
    assert opened["waiting"] and opened["seat"] == 0 and opened["id"] not in ids.values()
    refused(client.post("/api/lobby/quick", json={"game": "chess", "players": 2}), 404,
            "hadronize")
    refused(client.post("/api/lobby/quick", json={"game": "hadronize", "players": 9}), 400,
            "players")
    refused(client.post("/api/lobby/quick", json={"game": "hadronize", "players": 2,
                                                  "time_control": "forever"}), 400, "corr:")


def test_a_rated_game_changes_both_ratings_and_the_leaderboard(client):
    devices = Devices(client)
    ann = named(devices.use("ann"), "Ann", "ann-password")
    game_id = public_game(client)
    named(devices.use("bob"), "Bob", "bob-password")
    client.post(f"/api/games/{game_id}/seats/1/take", json={})
    assert client.get(f"/api/games/{game_id}").json()["rated"] is True
    assert client.post(f"/api/games/{game_id}/resign", json={"seat": 1}).status_code == 200
    seen = client.get(f"/api/games/{game_id}").json()
    changes = {c["seat"]: c for c in seen["rating_changes"]}
    assert changes[0]["before"] == changes[1]["before"] == 1500
    assert changes[0]["after"] > 1500 > changes[1]["after"]
    board = client.get("/api/leaderboard/hadronize").json()["ratings"]
    assert [entry["name"] for entry in board if not entry["bot"]] == []  # provisional
    page = client.get("/players/Ann").text
    assert f'{changes[0]["after"]}?' in page and game_id in page  # history and the game
    assert ann["id"] not in page


def test_guests_and_bots_without_a_level_are_not_rated_and_hints_can_unrate(client):
    devices = Devices(client)
    named(devices.use("guest"), "Gus")  # a guest: never rated
    game_id = public_game(client, seats=("you", "bot:medium"))
    assert client.get(f"/api/games/{game_id}").json()["rated"] is False
    named(devices.use("ann"), "Ann", "ann-password")
    level = public_game(client, seats=("you", "bot:medium"), rated=True)
    other = public_game(client, seats=("you", "bot:greedy"), rated=True)
    assert client.get(f"/api/games/{level}").json()["rated"] is True
    assert client.get(f"/api/games/{other}").json()["rated"] is False
    store = client.app.state.store
    assert store.games.set_unrated(level)  # issue 19's hint hook
    client.post(f"/api/games/{level}/resign", json={"seat": 0})
    assert client.get(f"/api/games/{level}").json()["rating_changes"] == []
    assert [e for e in client.get("/api/leaderboard/hadronize").json()["ratings"]
            if not e["bot"]] == []


def test_a_game_where_a_hint_was_asked_is_never_rated(client):
    """RULINGS S-5: a game whose seat asked for a hint is never rated, even if it was
    marked rated (hints are refused in rated games now, S-9; storage checks the flags
    in the step that would rate it)."""
    named(Devices(client).use("ann"), "Ann", "ann-password")
    game_id = public_game(client, seats=("you", "bot:medium"), rated=True)
    assert client.get(f"/api/games/{game_id}").json()["rated"] is True
    client.app.state.store.learning.mark_hinted(game_id, 0)  # as an older server did
    client.post(f"/api/games/{game_id}/resign", json={"seat": 0})
    over = client.get(f"/api/games/{game_id}").json()
    assert over["over"] and over["rated"] is False and over["rating_changes"] == []
    assert [e for e in client.get("/api/leaderboard/hadronize").json()["ratings"]
            if not e["bot"]] == []


def test_a_bot_level_is_a_fixed_anchor():
    assert round(shown(anchor("medium"))) == 1500
    assert round(shown(anchor("hard"))) > round(shown(anchor("easy")))


def test_a_rematch_keeps_the_players_and_the_time_control(client):
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    game_id = public_game(client, control="3+2")
    named(devices.use("bob"), "Bob")
    client.post(f"/api/games/{game_id}/seats/1/take", json={})
    client.post(f"/api/games/{game_id}/resign", json={"seat": 1})
    answer = client.post(f"/api/games/{game_id}/rematch")
    assert answer.status_code == 200, answer.text
    rematch = answer.json()["id"]
    seen = client.get(f"/api/games/{rematch}").json()  # the players swap seats (S-13)
    assert [s["name"] for s in seen["seats"]] == ["Bob", "Ann"] and seen["held"] == [0]
    assert seen["clock"]["control"] == "3+2" and seen["waiting"]  # until Ann accepts
    devices.use("ann")
    assert client.post(f"/api/games/{game_id}/rematch").json()["id"] == rematch
    seen = client.get(f"/api/games/{rematch}").json()
    assert seen["held"] == [1] and not seen["waiting"]


def test_an_open_game_nobody_joins_leaves_the_lobby_after_an_hour(any_db):
    """Issue 26: quick play left open six-player games in the lobby for ever."""
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock, rate_limits=False)) as client:
        devices = Devices(client)
        devices.use("first")
        opened = client.post("/api/lobby/quick", json={"game": "hadronize", "players": 6,
                                                       "time_control": "none"}).json()
        assert opened["waiting"]
        listed = [g["id"] for g in client.get("/api/lobby").json()["open"]]
        assert listed == [opened["id"]]
        clock.advance(Limits().lobby_seconds - 1)
        assert [g["id"] for g in client.get("/api/lobby").json()["open"]] == listed
        clock.advance(2)
        assert client.get("/api/lobby").json()["open"] == []
        # Quick play no longer seats anyone there: it opens a game of its own.
        devices.use("second")
        again = client.post("/api/lobby/quick", json={"game": "hadronize", "players": 6,
                                                      "time_control": "none"}).json()
        assert again["waiting"] and again["id"] != opened["id"]
        # Whoever holds its link can still go there: the game itself is kept.
        devices.use("first")
        assert client.get(f"/api/games/{opened['id']}").json()["held"] == [0]
