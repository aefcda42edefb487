"""Bad input anywhere is answered 4xx with a clear JSON (or page) error, and changes nothing."""

import pytest

from tests.server.helpers import (
    bearer,
    friend_game,
    live_socket,
    move,
    play_moves,
    refused,
    stored_actions,
    true_states,
)


@pytest.fixture
def table(client):
    """A two-seat Hadronize game of friends; seat tokens by seat, and the seat to move."""
    created = friend_game(client, "hadronize")
    state = true_states(client, created["id"])[-1]
    return created["id"], created["seat_tokens"], state.current_player(), state


@pytest.mark.parametrize(("body", "status", "fragments"), [
    ("not json", 400, ["should be JSON"]),
    ("[1, 2]", 400, ["JSON object"]),
    ('{"seat": 0}', 400, ["'action' and 'step' are required"]),
    ('{"seat": "MOVER", "action": "observe 1", "step": STEP}', 400, ["action id"]),
    ('{"seat": "MOVER", "action": true, "step": STEP}', 400, ["action id"]),
    ('{"seat": "MOVER", "action": 1.5, "step": STEP}', 400, ["action id"]),
    ('{"seat": "zero", "action": 20, "step": STEP}', 400, ["seat number"]),
    ('{"seat": "MOVER", "action": 20, "step": "now"}', 400, ["number of actions"]),
    ('{"seat": "MOVER", "action": 20}', 400, ["'step' is required"]),
    ('{"seat": "MOVER", "action": 999, "step": STEP}', 422, ["not legal", "observe 0"]),
    ('{"seat": "MOVER", "action": 25, "step": STEP}', 422, ["not legal"]),  # observe 5, 2 seats
    ('{"seat": "MOVER", "action": 0, "step": STEP}', 422, ["not legal"]),  # a chance outcome
    ('{"seat": "MOVER", "action": 20, "step": 3}', 409, ["moved on", "step 3"]),
    ('{"seat": "OTHER", "action": 20, "step": STEP}', 409, ["not seat", "is to move"]),
])
def test_bad_moves_are_refused_and_change_nothing(client, table, body, status, fragments):
    game_id, tokens, mover, _ = table
    other = 1 - mover
    before = stored_actions(client, game_id)
    body = body.replace('"MOVER"', str(mover)).replace('"OTHER"', str(other)).replace(
        "STEP", str(len(before)))
    token = tokens[other] if f'"seat": {other}' in body else tokens[mover]
    answer = client.post(f"/api/games/{game_id}/actions", content=body,
                         headers={**bearer(token), "content-type": "application/json"})
    refused(answer, status, *fragments)
    assert stored_actions(client, game_id) == before


def test_a_move_after_the_end_is_refused(client, table):
    game_id, tokens, _, _ = table
    assert play_moves(client, game_id, tokens, 10_000, min).is_terminal()
    before = stored_actions(client, game_id)
    refused(move(client, game_id, tokens[0], 0, 20), 409, "game is over")
    assert stored_actions(client, game_id) == before


@pytest.mark.parametrize(("body", "status", "fragments"), [
    ({"game": "chess", "seats": ["you", "friend"]}, 404, ["no game named 'chess'", "hadronize"]),
    ({"game": 7, "seats": []}, 400, ["'game' should name a game"]),
    ({"game": "hadronize", "seats": "you"}, 400, ["'seats' should be a list"]),
    ({"game": "hadronize", "options": [], "seats": ["you", "friend"]}, 400, ["'options'"]),
    ({"game": "hadronize", "options": {"players": 9}, "seats": ["you"] * 9}, 400,
     ["players=9", "from 2 to 6"]),
    ({"game": "hadronize", "options": {"colour": "red"}, "seats": ["you", "friend"]}, 400,
     ["no option 'colour'"]),
    ({"game": "hadronize", "seats": ["you"]}, 400, ["needs 2 seat choices, got 1"]),
    ({"game": "hadronize", "seats": ["you", "wizard"]}, 400, ["seat 1", "bot:greedy"]),
    ({"game": "hadronize", "seats": ["you", "bot:wizard"]}, 400, ["no agent 'wizard'"]),
    ({"game": "hadronize", "seats": ["you", "bot:"]}, 400, ["not a seat choice"]),
    ({"game": "hadronize", "seats": ["you", 3]}, 400, ["not a seat choice"]),
    ({"game": "hadronize", "seats": ["you", "you"]}, 400, ["only one seat can be 'you'"]),
    ({"game": "hadronize", "seats": ["you", "bot:greedy:depth=2"]}, 400,
     ["no parameter 'depth'"]),
])
def test_bad_new_games_are_refused_and_nothing_is_stored(client, body, status, fragments):
    refused(client.post("/api/games", json=body), status, *fragments)
    assert client.app.state.store.games.count() == 0


def test_the_new_game_form_explains_a_bad_choice_on_the_page(client):
    answer = client.post("/new/hadronize", data={"option.players": "3", "option.goal": "0",
                                                 "option.max_turns": "0", "seat0": "you",
                                                 "seat1": "friend", "seat2": "friend"})
    assert answer.status_code == 400
    # The reason is on the page, as text: the value it quotes is escaped (the templates
    # escape every value), never put in as it came.
    assert "goal=&#39;0&#39; is not allowed" in answer.text and "goal='0'" not in answer.text
    assert 'name="option.goal" type="number" min="1" max="200" value="0"' in answer.text
    assert client.app.state.store.games.count() == 0


@pytest.mark.parametrize(("path", "status", "fragment"), [
    ("/api/games/nosuchgame", 404, "no game 'nosuchgame'"),
    ("/api/games/" + "x" * 300, 404, "no game"),
    ("/api/games/GAME/steps/abc", 400, "whole number"),
    ("/api/games/GAME/steps/99999", 404, "steps 0-"),
    ("/api/games/GAME?seat=abc", 400, "seat is a number"),
    ("/api/games/GAME?seat=7", 403, "holds no token for seat 7"),
    ("/api/no/such/route", 404, "no page here"),
])
def test_bad_api_reads_are_answered_in_json(client, table, path, status, fragment):
    game_id = table[0]
    answer = client.get(path.replace("GAME", game_id))
    refused(answer, status, fragment)


@pytest.mark.parametrize(("path", "status", "fragment"), [
    ("/games/nosuchgame", 404, "no game &#39;nosuchgame&#39;"),
    ("/games/nosuchgame/replay", 404, "no game"),
    ("/rules/chess", 404, "no game named"),
    ("/new/chess", 404, "no game named"),
    ("/games/GAME/join/wrong-token", 403, "invite link is not valid"),
    ("/games/GAME/rematch", 404, "no rematch"),
    ("/nowhere", 404, "no page here"),
])
def test_bad_pages_are_answered_with_a_page(client, table, path, status, fragment):
    answer = client.get(path.replace("GAME", table[0]), follow_redirects=False)
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("text/html")
    assert fragment in answer.text


def test_wrong_methods_and_huge_bodies_are_refused(client, table):
    game_id, tokens, mover, _ = table
    refused(client.get(f"/api/games/{game_id}/actions"), 405, "does not take that method")
    huge = '{"seat": 0, "action": 20, "pad": "' + "x" * 70_000 + '"}'
    refused(client.post(f"/api/games/{game_id}/actions", headers=bearer(tokens[mover]),
                        content=huge), 413, "over")
    refused(client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[mover])),
            409, "not over")
    refused(client.post(f"/api/games/{game_id}/rematch"), 403, "someone at the table")


def test_bad_socket_messages_are_answered_and_the_socket_stays_open(client, table):
    game_id, tokens, mover, state = table
    before = stored_actions(client, game_id)
    with live_socket(client, game_id, mover, tokens[mover]) as socket:
        assert socket.receive_json()["type"] == "state"
        for message, status, fragment in [
            ("{nope", 400, "JSON object"),
            ("[]", 400, "JSON object"),
            ('{"type": "dance"}', 400, "unknown message type"),
            ('{"type": "act", "action": "observe 1", "step": STEP}', 400, "action id"),
            ('{"type": "act", "action": 20}', 400, "'step' is required"),
            ('{"type": "act", "action": 999, "step": STEP}', 422, "not legal"),
            ('{"type": "act", "action": 20, "step": 1}', 409, "moved on"),
            ('{"type": "rematch"}', 409, "not over"),
        ]:
            socket.send_text(message.replace("STEP", str(len(before))))
            answer = socket.receive_json()
            assert (answer["type"], answer["status"]) == ("error", status), message
            assert fragment in answer["message"]
        assert stored_actions(client, game_id) == before
        socket.send_text('{"type": "ping"}')
        assert socket.receive_json() == {"type": "pong", "step": len(before)}
        socket.send_json({"type": "act", "action": state.legal_actions()[0],
                          "step": len(before)})
        assert socket.receive_json()["step"] > len(before)
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator:
        assert spectator.receive_json()["viewpoint"] is None
        spectator.send_json({"type": "act", "action": 20})
        assert spectator.receive_json()["status"] == 403


def test_a_socket_for_an_unknown_game_or_from_another_site_is_refused(client, table):
    with client.websocket_connect("/ws/games/nosuchgame") as socket:
        answer = socket.receive_json()
        assert answer["status"] == 404 and "no game" in answer["message"]
    with client.websocket_connect(f"/ws/games/{table[0]}",
                                  headers={"origin": "http://evil.example"}) as socket:
        answer = socket.receive_json()
        assert answer["status"] == 403 and "another site" in answer["message"]
