"""Games survive a restart: stop the server mid-game, start a new one on the same SQLite
file, and every game, seat and move is there and play goes on."""

from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import friend_game, move, true_states


def test_a_game_in_progress_survives_a_restart(db_url):
    with TestClient(create_app(db_url)) as client:
        created = friend_game(client, "hadronize", players=3)
        game_id, tokens = created["id"], created["seat_tokens"]
        for _ in range(4):
            state = true_states(client, game_id)[-1]
            seat = state.current_player()
            assert move(client, game_id, tokens[seat], seat, state.legal_actions()[-1]
                        ).status_code == 200
        before = {seat: client.get(f"/api/games/{game_id}", params={"token": token}).json()
                  for seat, token in tokens.items()}
    with TestClient(create_app(db_url)) as client:
        after = {seat: client.get(f"/api/games/{game_id}", params={"token": token}).json()
                 for seat, token in tokens.items()}
        assert after == before
        assert [s["kind"] for s in after[0]["seats"]] == ["friend"] * 3
        state = true_states(client, game_id)[-1]
        seat = state.current_player()
        assert move(client, game_id, tokens[seat], seat, state.legal_actions()[0],
                    before[0]["step"]).status_code == 200
        assert client.get(f"/api/games/{game_id}").json()["step"] > before[0]["step"]
        assert any(g["id"] == game_id for g in client.app.state.store.recent_games())


def test_a_bot_that_was_about_to_move_moves_after_a_restart(db_url):
    with TestClient(create_app(db_url, bot_delay=3600)) as client:
        created = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["friend", "bot:greedy"]}).json()
        game_id = created["id"]
        token = created["invites"][0]["url"].rsplit("/", 1)[1]
        state = true_states(client, game_id)[-1]
        if state.current_player() == 0:
            assert move(client, game_id, token, 0, state.legal_actions()[0]).status_code == 200
        waiting = client.get(f"/api/games/{game_id}").json()
        assert waiting["to_move"] == 1  # the bot, held back by its long delay
    with TestClient(create_app(db_url)) as client, \
            client.websocket_connect(f"/ws/games/{game_id}?token={token}") as page:
        for _ in range(100):
            message = page.receive_json()
            if message["step"] > waiting["step"] and message["to_move"] in (0, None):
                break
        else:
            raise AssertionError("the bot never moved after the restart")
        assert message["log"][: waiting["step"]] == waiting["log"]
