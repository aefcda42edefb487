"""Live play over WebSocket: a move reaches every page at once, a page that reconnects
catches up, bots move on the server, and a slow bot stalls no other game."""

import json

from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import (
    bearer,
    friend_game,
    live_socket,
    play_moves,
    receive_state,
    receive_until,
    true_states,
)


def test_a_move_shows_on_every_page_at_once_and_a_returning_page_catches_up(client):
    created = friend_game(client, "hadronize", players=3)
    game_id, tokens = created["id"], created["seat_tokens"]
    state = true_states(client, game_id)[-1]
    mover = state.current_player()
    pages = {seat: live_socket(client, game_id, seat, tokens[seat])
             for seat in range(3)}
    pages["spectator"] = live_socket(client, game_id)
    try:
        first = {key: page.__enter__().receive_json() for key, page in pages.items()}
        assert {m["step"] for m in first.values()} == {len(state.history())}
        assert [m["viewpoint"] for m in first.values()] == [0, 1, 2, None]
        assert [bool(m["legal"]) for m in first.values()] == [s == mover for s in (0, 1, 2, 3)]
        pages[mover].send_json({"type": "act", "action": first[mover]["legal"][0]["id"],
                                "step": first[mover]["step"]})
        after = {key: page.receive_json() for key, page in pages.items()}
        steps = {m["step"] for m in after.values()}
        assert len(steps) == 1 and steps.pop() > first[mover]["step"]
        # Seat 2's page goes away; two moves later it comes back and is up to date.
        away = (mover + 2) % 3
        pages.pop(away).__exit__(None, None, None)
        play_moves(client, game_id, tokens, 2, min)
        with live_socket(client, game_id, away, tokens[away]) as back:
            caught_up = back.receive_json()
        latest = true_states(client, game_id)
        assert caught_up["step"] == len(latest[-1].history())
        assert caught_up["view"] == latest[-1].view(away)
        assert len(caught_up["log"]) == caught_up["step"]
    finally:
        for page in pages.values():
            page.__exit__(None, None, None)


def test_bots_play_on_the_server_until_a_person_must_move(client):
    answer = client.post("/api/games", json={"game": "hadronize", "options": {"players": 3},
                                             "seats": ["you", "bot:greedy", "bot:random"]})
    game_id = answer.json()["id"]
    with live_socket(client, game_id, 0) as page:
        for _ in range(5):
            mine = receive_until(page, lambda m: m["legal"] or m["over"])
            if mine["over"]:
                break
            page.send_json({"type": "act", "action": mine["legal"][-1]["id"],
                            "step": mine["step"]})
            receive_until(page, lambda m, before=mine["step"]: m["step"] > before)
    states = true_states(client, game_id)
    players = {states[i].current_player() for i in range(len(states) - 1)}
    assert {1, 2} <= players  # both bots moved


def test_a_slow_bot_does_not_stall_other_games(db_url, bot_gate):
    with TestClient(create_app(db_url, agent_factory="tests.server.agents:gated")) as client:
        slow = client.post("/api/games", json={"game": "hadronize",
                                               "seats": ["bot:random", "bot:random"]}).json()
        bot_gate.thinking()
        # While that bot thinks, another game is played move after move.
        other = friend_game(client, "hadronize")
        play_moves(client, other["id"], other["seat_tokens"], 6, min)
        stuck = len(true_states(client, slow["id"])[-1].history())
        with live_socket(client, slow["id"]) as page:
            assert receive_state(page)["step"] == stuck
            bot_gate.let_move()
            receive_until(page, lambda m: m["step"] > stuck)


def test_a_rematch_keeps_the_table_and_every_seat_follows_it(client):
    created = friend_game(client, "hadronize", goal=1)
    game_id, tokens = created["id"], created["seat_tokens"]
    assert play_moves(client, game_id, tokens, 1000, min).is_terminal()
    with live_socket(client, game_id, 1, tokens[1]) as page:
        assert receive_state(page)["over"]
        page.send_json({"type": "rematch"})
        offered = receive_until(page, lambda m: m["rematch"] is not None)["rematch"]
        assert offered["state"] == "offered" and offered["waiting"] == [0]
        again = client.post(f"/api/games/{game_id}/rematch",
                            headers=bearer(tokens[0])).json()
        assert again["id"] == offered["id"]  # one rematch, shared
        begun = receive_until(page, lambda m: m["rematch"]["state"] != "offered")
        assert begun["rematch"]["state"] == "accepted"  # the page then follows it
    for seat in (0, 1):  # each player sits one seat on (S-13)
        client.cookies.clear()
        client.cookies.set(f"quarkade_{game_id}", tokens[seat])
        followed = client.get(f"/games/{game_id}/rematch", follow_redirects=False)
        assert followed.headers["location"] == f"/games/{again['id']}"
        client.cookies.set(f"quarkade_{again['id']}",
                           followed.cookies[f"quarkade_{again['id']}"])
        payload = client.get(f"/api/games/{again['id']}").json()
        assert payload["held"] == [1 - seat] and payload["step"] > 0 and not payload["over"]


def test_the_perfect_bot_plays_the_tutorial_game_in_the_web_app(client):
    """The solved Tutorial game's bot, chosen like any other: it plays its seat to the end."""
    answer = client.post("/api/games", json={
        "game": "card-commons", "options": {"variant": "tutorial"},
        "seats": ["bot:perfect:nodes=200000", "bot:greedy"]})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    with live_socket(client, game_id) as page:
        receive_until(page, lambda m: m["over"])
    final = true_states(client, game_id)
    assert final[-1].is_terminal()
    assert 0 in {state.current_player() for state in final[2:-1]}  # the perfect seat moved


def test_what_a_move_sends_a_page_does_not_grow_with_the_game(client):
    """Each move sends the pages their table and only the log entries they do not hold:
    over 300 moves, a spectator's frame carries just that move's own log lines, and its
    size does not grow with the move number (the whole log, resent, would grow it
    past 50 kB here)."""
    made = client.post("/api/games", json={"game": "hadronize", "options": {"goal": 200},
                                           "seats": ["you", "hotseat"]}).json()
    game_id, tokens = made["id"], made["tokens"]
    sizes: list[int] = []
    with live_socket(client, game_id, 0, tokens["0"]) as ann, \
            live_socket(client, game_id, 1, tokens["1"]) as bob, \
            live_socket(client, game_id, "spectator") as spectator:
        seats = [receive_state(ann), receive_state(bob)]
        held = len(json.loads(spectator.receive_text())["log"])
        for _ in range(300):
            mover = 0 if seats[0]["legal"] else 1
            shown = seats[mover]
            assert not shown["over"], "the game ended before 300 moves"
            (ann, bob)[mover].send_json({"type": "act", "action": shown["legal"][0]["id"],
                                         "step": shown["step"]})
            seats = [receive_state(ann), receive_state(bob)]
            raw = spectator.receive_text()
            frame = json.loads(raw)
            assert frame["log_from"] == held and len(frame["log"]) == frame["step"] - held
            held = frame["step"]
            sizes.append(len(raw))
    early, late = sizes[10:60], sizes[-50:]
    assert max(late) <= 1.25 * max(early), (max(early), max(late))
