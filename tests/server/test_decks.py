"""Saved decks and "test this deck": a deck is saved to its owner under a name, checked by
the game's own deck-building rules (a refusal names the rule), listed only to its owner,
offered beside each deck option of the new-game form, and tested against every preset in
the background, with progress and win rates with intervals."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from quarkade.games.decoherence.decks import PRESET_STRENGTH, PRESETS, deck_text, parse_deck
from quarkade.server import create_app
from quarkade.server.limits import Limits
from quarkade.server.people.players import SESSION_COOKIE
from quarkade.server.storage import Store
from tests.server.helpers import refused

URL = "/api/decks/decoherence"
WEAVER = deck_text(parse_deck("weaver"))


def test_a_deck_is_saved_to_its_owner_and_listed_to_nobody_else(client):
    made = client.post(URL, json={"name": "  my   <b>weaver</b> ", "deck": "weaver"})
    assert made.status_code == 201, made.text
    deck = made.json()
    assert deck["name"] == "my <b>weaver</b>" and deck["deck"] == WEAVER
    assert deck["counts"]["twigged"] == 4 and sum(deck["counts"].values()) == 30
    owner = client.cookies.get(SESSION_COOKIE)  # the player who saved it (a guest)
    assert owner
    # The same name again replaces the deck (200); another name adds one.
    again = client.post(URL, json={"name": "my <b>weaver</b>", "deck": "surge"})
    assert again.status_code == 200 and again.json()["id"] == deck["id"]
    assert client.post(URL, json={"name": "second", "deck": WEAVER}).status_code == 201
    listed = client.get(URL).json()
    assert [d["name"] for d in listed["decks"]] == ["my <b>weaver</b>", "second"]
    assert [p["name"] for p in listed["builder"]["presets"]] == list(PRESETS)
    # The builder page shows the name as text, never as markup.
    page = client.get("/decks/decoherence").text
    assert "my &lt;b&gt;weaver&lt;/b&gt;" in page and "<b>weaver</b>" not in page
    # Another browser (another player) sees none of them, and cannot delete them.
    client.cookies.clear()
    assert client.get(URL).json()["decks"] == []
    refused(client.delete(f"{URL}/{deck['id']}"), 404, "no saved decoherence deck")
    client.cookies.set(SESSION_COOKIE, owner)
    assert client.delete(f"{URL}/{deck['id']}").status_code == 204
    assert [d["name"] for d in client.get(URL).json()["decks"]] == ["second"]


def test_bad_decks_and_names_are_refused_and_nothing_is_saved(client):
    cases = [
        ({"name": "x", "deck": "kiki 5"}, 400, "5 copies of kiki: a deck holds at most 4"),
        ({"name": "x", "deck": "kiki 4, bouba 4, lulu 2"}, 400,
         "a deck needs exactly 10 verbs, 10 qualifiers and 10 nouns"),
        ({"name": "x", "deck": "zap 3"}, 400, "cannot be played"),
        ({"name": "x", "deck": ""}, 400, "'deck' should be a deck's text"),
        ({"name": "x", "deck": 30}, 400, "'deck' should be a deck's text"),
        ({"name": "", "deck": "weaver"}, 400, "a deck's name is empty"),
        ({"name": "n" * 41, "deck": "weaver"}, 400, "at most 40 characters"),
        ({"name": "tab\x00", "deck": "weaver"}, 400, "no control characters"),
        ({"name": ["x"], "deck": "weaver"}, 400, "'name' should be text"),
        ({"deck": "weaver"}, 400, "'name' and 'deck' are required"),
    ]
    for body, status, fragment in cases:
        refused(client.post(URL, json=body), status, fragment)
    refused(client.get("/api/decks/hadronize"), 404, "no deck builder for 'hadronize'",
            "decoherence")
    assert client.get("/decks/nothing").status_code == 404
    assert client.get(URL).json()["decks"] == []


def test_an_owner_keeps_at_most_so_many_decks(db_url):
    with TestClient(create_app(db_url, rate_limits=False, limits=Limits(saved_decks=2))) as c:
        for name in ("one", "two"):
            assert c.post(URL, json={"name": name, "deck": "weaver"}).status_code == 201
        refused(c.post(URL, json={"name": "three", "deck": "weaver"}), 409,
                "2 saved decks, the most one player may keep")
        assert c.post(URL, json={"name": "two", "deck": "surge"}).status_code == 200


def test_the_builder_form_saves_without_a_script(client):
    form = {f"count.{word}": str(count) for word, count in
            zip(("tapped", "verved", "boo'd", "twigged", "riffed", "up", "down", "through",
                 "out", "kiki", "bouba", "lulu"), parse_deck("observer"), strict=True)}
    page = client.post("/decks/decoherence", data={**form, "name": "plain form"})
    assert page.status_code == 200 and "Saved: plain form." in page.text
    bad = client.post("/decks/decoherence", data={**form, "count.kiki": "5", "name": "bad"})
    assert bad.status_code == 400 and "5 copies of kiki" in bad.text
    assert 'value="5"' in bad.text  # the counts come back as they were
    assert [d["name"] for d in client.get(URL).json()["decks"]] == ["plain form"]


def test_a_saved_deck_is_offered_for_each_deck_option_and_wins(client):
    client.post(URL, json={"name": "the weaver", "deck": "weaver"})
    form = client.get("/new/decoherence").text
    assert form.count('class="saved-deck"') == 2 and ">the weaver</option>" in form
    made = client.post("/new/decoherence", data={
        "option.deck0": "balanced", "saved.deck0": WEAVER, "option.deck1": "surge",
        "seat0": "you", "seat1": "bot:greedy"}, follow_redirects=False)
    assert made.status_code == 303
    game_id = made.headers["location"].rsplit("/", 1)[1]
    payload = client.get(f"/api/games/{game_id}").json()
    assert payload["options"]["deck0"] == WEAVER and payload["options"]["deck1"] == "hidden"


def test_test_this_deck_reports_win_rates_with_intervals(db_url):
    with TestClient(create_app(db_url, limits=Limits(deck_test_games=4))) as client:
        refused(client.post(f"{URL}/tests", json={"deck": "kiki 9"}), 400, "cannot be played")
        started = client.post(f"{URL}/tests", json={"deck": "weaver"})
        assert started.status_code == 202, started.text
        runs = client.app.state.site.deck_tests.runs

        async def finished():
            import asyncio

            await asyncio.gather(*list(runs.values()))

        client.portal.call(finished)
        report = client.get(started.json()["url"]).json()
        assert report["state"] == "done" and report["done"] == report["total"] == 16
        for row in report["presets"]:
            assert row["games"] == 4 and 0 <= row["low"] <= row["rate"] <= row["high"] <= 1
            rate, low, high = PRESET_STRENGTH[row["preset"]]
            assert row["preset_strength"] == {"rate": rate, "low": low, "high": high}
        refused(client.get("/api/deck-tests/nope"), 404, "no deck test with that id")


def test_deck_tests_are_bounded(db_url):
    limits = Limits(deck_test_games=2000, deck_tests_waiting=1)
    with TestClient(create_app(db_url, rate_limits=False, limits=limits)) as client:
        started = client.post(f"{URL}/tests", json={"deck": "weaver"})
        assert started.status_code == 202
        refused(client.post(f"{URL}/tests", json={"deck": "surge"}), 503,
                "deck tests are running here already")
    # A stopping server stops its runs, and says so to whoever asks later.
    store = Store(db_url)
    try:
        assert store.decks.test(started.json()["id"]).state == "stopped"
    finally:
        store.close()


def test_a_saved_deck_is_picked_when_taking_a_seat_and_the_host_never_sees_it(client):
    created = client.post("/api/games", json={"game": "decoherence",
                                              "seats": ["you", "friend"]}).json()
    host = dict(client.cookies)
    invite = created["invites"][0]["url"]
    client.cookies.clear()  # the friend, another player on another device
    client.post(URL, json={"name": "sneaky <weaver>", "deck": "weaver"})
    form = client.get(invite)
    assert form.status_code == 200 and "Take a seat" in form.text
    assert ">sneaky &lt;weaver&gt;</option>" in form.text  # their own saved decks, as text
    assert "Hidden cards stay hidden after the game." in form.text  # told before joining
    taken = client.post(invite, data={"option.deck1": "balanced", "saved.deck1": WEAVER},
                        follow_redirects=False)
    assert taken.status_code == 303, taken.text
    mine = client.get(f"/api/games/{created['id']}", params={"seat": 1}).json()
    assert mine["options"]["deck1"] == WEAVER
    client.cookies.clear()
    client.cookies.update(host)
    theirs = client.get(f"/api/games/{created['id']}", params={"seat": 0}).json()
    assert theirs["held"] == [0] and theirs["options"]["deck1"] == "hidden"
    assert WEAVER not in json.dumps(theirs) and "sneaky" not in json.dumps(theirs)


def test_decks_follow_their_player_and_each_seat_picks_its_own_from_the_lobby(client):
    """A claimed player's decks follow them to another device; the creator picks one on
    the new-game form, a lobby player picks theirs on taking the open seat; neither the
    lobby (its page, its API, every frame of its socket) nor the other seat sees either."""
    from tests.server.test_lobby_and_ratings import Devices
    from tests.server.test_players import named

    surge = deck_text(parse_deck("surge"))
    devices = Devices(client)
    named(devices.use("ann-laptop"), "Ann", "ann-password")
    assert client.post(URL, json={"name": "Ann's <surge>", "deck": "surge"}).status_code == 201
    client = devices.use("ann-phone")
    client.get("/")
    assert client.get(URL).json()["decks"] == []  # a new guest here, with no decks
    assert client.post("/api/login", json={"name": "Ann", "password": "ann-password"}
                       ).status_code == 200
    assert [d["name"] for d in client.get(URL).json()["decks"]] == ["Ann's <surge>"]
    form = client.get("/new/decoherence").text
    assert "Ann&#39;s &lt;surge&gt;</option>" in form
    with client.websocket_connect("/ws/lobby") as lobby:
        frames = [lobby.receive_text()]
        made = client.post("/new/decoherence", data={
            "option.deck0": "balanced", "saved.deck0": surge, "option.deck1": "balanced",
            "seat0": "you", "seat1": "open", "visibility": "public"}, follow_redirects=False)
        assert made.status_code == 303, made.text
        game_id = made.headers["location"].rsplit("/", 1)[1]
        frames.append(lobby.receive_text())
        assert game_id in frames[-1]
        named(devices.use("bo"), "Bob")
        client.post(URL, json={"name": "Bob's weaver", "deck": "weaver"})
        seat_form = client.get(f"/games/{game_id}/take/1").text
        assert "Bob&#39;s weaver</option>" in seat_form
        assert surge not in seat_form and "Ann&#39;s" not in seat_form
        assert "Hidden cards stay hidden after the game." in seat_form
        lobby_now = client.get("/api/lobby").json()
        assert "Hidden cards stay hidden after the game" in json.dumps(lobby_now)
        taken = client.post(f"/games/{game_id}/take/1", data={
            "option.deck1": "balanced", "saved.deck1": WEAVER}, follow_redirects=False)
        assert taken.status_code == 303, taken.text
        frames.append(lobby.receive_text())
        bob_sees = client.get(f"/api/games/{game_id}").json()
        for page in ("/lobby", "/api/lobby"):
            frames.append(client.get(page).text)
    assert bob_sees["options"] == {**bob_sees["options"], "deck0": "hidden", "deck1": WEAVER}
    assert surge not in json.dumps(bob_sees) and "Ann's" not in json.dumps(bob_sees)
    ann_sees = devices.use("ann-phone").get(f"/api/games/{game_id}").json()
    assert ann_sees["options"]["deck0"] == surge and ann_sees["options"]["deck1"] == "hidden"
    assert WEAVER not in json.dumps(ann_sees) and "Bob's" not in json.dumps(ann_sees)
    for frame in frames:
        assert surge not in frame and WEAVER not in frame and "<surge>" not in frame, frame


def test_quick_play_takes_the_players_own_deck_at_whichever_seat_they_get(client):
    """Quick play seats a player with their deck: in the game it opens (seat 0) and in the
    open game the next one is given (seat 1); neither sees the other's. A deck for a game
    without decks, or an illegal one, is refused and nothing is made."""
    from tests.server.test_lobby_and_ratings import Devices
    from tests.server.test_players import named

    surge = deck_text(parse_deck("surge"))
    devices = Devices(client)
    named(devices.use("ann"), "Ann")
    lobby = client.get("/lobby").text
    assert 'name="deck.decoherence"' in lobby and '<option value="weaver">weaver</option>' in lobby
    client.post(URL, json={"name": "Ann's <surge>", "deck": "surge"})
    assert "Ann&#39;s &lt;surge&gt;</option>" in client.get("/lobby").text
    quick = {"game": "decoherence", "players": 2, "time_control": "5+5"}
    before = client.app.state.store.games.count()
    refused(client.post("/api/lobby/quick", json={**quick, "deck": "kiki 12"}), 400,
            "this deck cannot be played")
    refused(client.post("/api/lobby/quick", json={**quick, "game": "hadronize",
                                                  "deck": "surge"}), 400,
            "hadronize takes no deck", "decoherence")
    assert client.app.state.store.games.count() == before
    opened = client.post("/api/lobby/quick", json={**quick, "deck": surge}).json()
    assert opened["seat"] == 0 and opened["waiting"]
    named(devices.use("bo"), "Bob")
    found = client.post("/lobby/quick", data={**quick, "deck": "weaver"},
                        follow_redirects=False)  # the form, without a script
    assert found.status_code == 303, found.text
    assert found.headers["location"] == f"/games/{opened['id']}?seat=1"
    bob_sees = client.get(f"/api/games/{opened['id']}").json()
    assert bob_sees["options"]["deck1"] == WEAVER and bob_sees["options"]["deck0"] == "hidden"
    assert surge not in json.dumps(bob_sees)
    ann_sees = devices.use("ann").get(f"/api/games/{opened['id']}").json()
    assert ann_sees["options"]["deck0"] == surge and WEAVER not in json.dumps(ann_sees)
