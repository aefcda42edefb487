"""A move that ends the game without its mover winning is marked in the page data
(``"ends": "loss"`` or ``"draw"``), so the page asks before playing it: Decoherence's pass
with nothing left to hide behind, judged from what the mover knows."""

from __future__ import annotations

from tests.server.helpers import move, seat_payload


def test_a_losing_pass_is_marked_and_loses_when_played(client):
    answer = client.post("/api/games", json={"game": "decoherence",
                                             "seats": ["you", "hotseat"]})
    assert answer.status_code == 201
    game_id = answer.json()["id"]
    tokens = answer.json()["tokens"]
    client.cookies.clear()
    marked = None
    for _ in range(60):  # both seats pass every turn until a pass would lose
        to_move = seat_payload(client, game_id, None).json()["to_move"]
        payload = seat_payload(client, game_id, tokens[str(to_move)], to_move).json()
        warned = [m for m in payload["legal"] if "ends" in m]
        if warned:
            marked = payload
            break
        assert all("ends" not in m for m in payload["legal"])
        pass_move = next(m for m in payload["legal"] if m["text"] == "pass")
        seat = payload["to_move"]
        assert move(client, game_id, tokens[str(seat)], seat, pass_move["id"],
                    payload["step"]).status_code == 200
    assert marked is not None, "no pass ever lost"
    assert [(m["text"], m["ends"]) for m in marked["legal"] if "ends" in m] == [("pass", "loss")]
    seat = marked["to_move"]
    # The other seat (not to move) is sent no moves, so no warnings either.
    other = seat_payload(client, game_id, tokens[str(1 - seat)], 1 - seat).json()
    assert other["legal"] == []
    pass_move = next(m for m in marked["legal"] if m["text"] == "pass")
    assert move(client, game_id, tokens[str(seat)], seat, pass_move["id"],
                marked["step"]).status_code == 200
    final = seat_payload(client, game_id, tokens[str(seat)], seat).json()
    assert final["over"] and seat not in final["outcome"]["winners"]
