"""A game's chat: seated players write (each for a seat its device holds), everyone at the
table reads, live over the socket and through the API; messages are kept with the game,
at most 300 characters, rate-limited per seat; bad input is refused with what is allowed
and nothing is stored."""

from __future__ import annotations

from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.limits import Limits, Rate
from tests.server.helpers import bearer, friend_game, live_socket, refused


def chat_frame(socket):
    """The next chat frame on a page's socket (state frames pass by)."""
    for _ in range(20):
        message = socket.receive_json()
        if message["type"] == "chat":
            return message
    raise AssertionError("no chat frame")


def stored_chat(client, game_id):
    return [(m.seat, m.body) for m in client.app.state.store.games.load(game_id).chat]


def test_two_seats_chat_and_a_spectator_reads(client):
    created = friend_game(client, "decoherence")
    game_id, tokens = created["id"], created["seat_tokens"]
    with live_socket(client, game_id, 0, tokens[0]) as ann, \
            live_socket(client, game_id, 1, tokens[1]) as bob, \
            client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        for page in (ann, bob, watcher):
            assert page.receive_json()["type"] == "state"  # no chat yet: no chat frame
        ann.send_json({"type": "chat", "text": "  good   luck <b>bob</b>  "})
        for page in (ann, bob, watcher):
            seen = chat_frame(page)["messages"]
            assert [(m["number"], m["seat"], m["name"], m["text"]) for m in seen] == [
                (0, 0, "Friend 1", "good luck <b>bob</b>")]
        answer = client.post(f"/api/games/{game_id}/chat", headers=bearer(tokens[1]),
                             json={"seat": 1, "text": "thanks & you"})
        assert answer.status_code == 201 and answer.json()["number"] == 1
        for page in (ann, bob, watcher):
            assert [m["text"] for m in chat_frame(page)["messages"]] == ["thanks & you"]
        # A spectator reads but never writes, on the socket or through the API.
        watcher.send_json({"type": "chat", "text": "hello"})
        refusal = watcher.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 403
        assert "spectators read the chat" in refusal["message"]
    refused(client.post(f"/api/games/{game_id}/chat", json={"seat": 0, "text": "hi"}), 403,
            "spectators read the chat")
    # A seat's token writes for that seat only.
    refused(client.post(f"/api/games/{game_id}/chat", headers=bearer(tokens[1]),
                        json={"seat": 0, "text": "I am seat 0"}), 403,
            "holds no token for seat 0", "only for your own seat")
    # Kept with the game: a page opened later gets every message at once, in order.
    assert stored_chat(client, game_id) == [(0, "good luck <b>bob</b>"), (1, "thanks & you")]
    with live_socket(client, game_id, 1, tokens[1]) as later:
        assert later.receive_json()["type"] == "state"
        frame = later.receive_json()
        assert frame["type"] == "chat" and frame["all"] is True
        assert [m["text"] for m in frame["messages"]] == ["good luck <b>bob</b>",
                                                          "thanks & you"]
    listed = client.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert [m["seat"] for m in listed] == [0, 1]


def test_bad_chat_messages_are_refused_and_nothing_is_stored(client):
    created = friend_game(client, "hadronize")
    game_id, token = created["id"], created["seat_tokens"][0]
    url = f"/api/games/{game_id}/chat"
    cases = [
        ({"seat": 0, "text": "x" * 301}, "at most 300 characters; this one has 301"),
        ({"seat": 0, "text": "   \n\t "}, "is empty; write 1 to 300"),
        ({"seat": 0, "text": 42}, "text of 1 to 300 characters"),
        ({"seat": 0, "text": ["hi"]}, "text of 1 to 300 characters"),
        ({"seat": 0, "text": "bell\x07"}, "no control characters"),
        ({"seat": "0", "text": "hi"}, "seat should be"),
        ({"seat": 7, "text": "hi"}, "holds no token for seat 7"),
        ({"text": "hi"}, "'seat' and 'text' are required"),
    ]
    for body, fragment in cases:
        answer = client.post(url, headers=bearer(token), json=body)
        assert 400 <= answer.status_code < 500, (body, answer.text)
        assert fragment in answer.json()["error"], (body, answer.json())
    assert client.post(url, headers=bearer(token),
                       json={"seat": 0, "text": "é" * 300}).status_code == 201
    assert stored_chat(client, game_id) == [(0, "é" * 300)]
    with live_socket(client, game_id, 0, token) as socket:
        socket.receive_json()
        socket.receive_json()  # the chat so far
        socket.send_json({"type": "chat", "text": "y" * 400})
        refusal = socket.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 400
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"  # still open
    assert len(stored_chat(client, game_id)) == 1


def test_chat_is_rate_limited_per_seat(db_url):
    clock = ManualClock()
    limits = Limits(chat_messages=Rate(3, 0.5))
    with TestClient(create_app(db_url, clock=clock, limits=limits)) as client:
        created = friend_game(client, "hadronize")
        game_id, tokens = created["id"], created["seat_tokens"]

        def say(seat, text):
            return client.post(f"/api/games/{game_id}/chat", headers=bearer(tokens[seat]),
                               json={"seat": seat, "text": text})

        assert [say(0, f"m{i}").status_code for i in range(3)] == [201] * 3
        refused(say(0, "one more"), 429, "too many chat messages")
        assert say(1, "my own budget").status_code == 201  # another seat's own rate
        clock.advance(2)
        assert say(0, "later").status_code == 201
        assert [body for _, body in stored_chat(client, game_id)] == [
            "m0", "m1", "m2", "my own budget", "later"]


def test_a_page_gets_the_newest_200_messages_and_earlier_ones_on_request(db_url):
    """A long chat costs a connecting page the newest 200 messages, never all of them; the
    page asks for earlier ones a page at a time. A game's chat has a cap."""
    limits = Limits(chat_per_game=260)
    with TestClient(create_app(db_url, rate_limits=False, limits=limits)) as client:
        created = friend_game(client, "hadronize")
        game_id, tokens = created["id"], created["seat_tokens"]
        url = f"/api/games/{game_id}/chat"
        for number in range(230):
            assert client.post(url, headers=bearer(tokens[number % 2]),
                               json={"seat": number % 2, "text": f"m{number}"}
                               ).status_code == 201
        with live_socket(client, game_id, 0, tokens[0]) as page:
            first = chat_frame(page)
            assert first["all"] is True and first["earlier"] == 30
            assert [m["text"] for m in first["messages"]] == [f"m{n}" for n in range(30, 230)]
            page.send_json({"type": "chat_before", "number": 30})
            older = chat_frame(page)
            assert older["before"] == 30 and older["earlier"] == 0
            assert [m["number"] for m in older["messages"]] == list(range(30))
        listed = client.get(url).json()
        assert listed["earlier"] == 30 and len(listed["messages"]) == 200
        assert [m["number"] for m in client.get(url, params={"before": 30}).json()["messages"]
                ] == list(range(30))
        for number in range(230, 260):
            assert client.post(url, headers=bearer(tokens[0]),
                               json={"seat": 0, "text": f"m{number}"}).status_code == 201
        refused(client.post(url, headers=bearer(tokens[0]), json={"seat": 0, "text": "more"}),
                409, "chat is full", "260 messages")
        assert len(client.app.state.store.games.load(game_id).chat) == 200  # the newest kept
