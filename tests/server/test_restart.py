"""Games survive a restart: stop the server mid-game, start a new one on the same SQLite
file, and every game, seat and move is there and play goes on."""

import random

from sqlalchemy import select, update
from starlette.testclient import TestClient

from quarkade import CHANCE
from quarkade.server import create_app
from quarkade.server.storage import actions_table
from tests.server.helpers import (
    bearer,
    friend_game,
    join,
    live_socket,
    move,
    play_moves,
    receive_state,
    true_states,
)


def test_a_game_in_progress_survives_a_restart(db_url):
    with TestClient(create_app(db_url)) as client:
        created = friend_game(client, "hadronize", players=3)
        game_id, tokens = created["id"], created["seat_tokens"]
        play_moves(client, game_id, tokens, 4, max)
        before = {seat: client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
                  for seat, token in tokens.items()}
    with TestClient(create_app(db_url)) as client:
        after = {seat: client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
                 for seat, token in tokens.items()}
        assert after == before
        assert [s["kind"] for s in after[0]["seats"]] == ["friend"] * 3
        state = true_states(client, game_id)[-1]
        seat = state.current_player()
        assert move(client, game_id, tokens[seat], seat, state.legal_actions()[0],
                    before[0]["step"]).status_code == 200
        assert client.get(f"/api/games/{game_id}").json()["step"] > before[0]["step"]
        assert client.app.state.store.games.load(game_id).visibility == "unlisted"


def test_a_bot_that_was_about_to_move_moves_after_a_restart(db_url):
    with TestClient(create_app(db_url, bot_delay=3600)) as client:
        created = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["friend", "bot:greedy"]}).json()
        game_id = created["id"]
        token = join(client, game_id, created["invites"][0]["url"])
        state = true_states(client, game_id)[-1]
        if state.current_player() == 0:
            assert move(client, game_id, token, 0, state.legal_actions()[0]).status_code == 200
        waiting = client.get(f"/api/games/{game_id}").json()
        assert waiting["to_move"] == 1  # the bot, held back by its long delay
    with TestClient(create_app(db_url)) as client, \
            live_socket(client, game_id, None, token) as page:
        for _ in range(100):
            message = receive_state(page)
            if message["step"] > waiting["step"] and message["to_move"] in (0, None):
                break
        else:
            raise AssertionError("the bot never moved after the restart")
        assert message["log"][: waiting["step"]] == waiting["log"]


def stored_rows(client, game_id):
    with client.app.state.store.engine.connect() as db:
        return db.execute(select(actions_table.c.player, actions_table.c.action).where(
            actions_table.c.game_id == game_id).order_by(actions_table.c.step)).all()


def test_chance_is_drawn_from_a_secure_source_and_stored_as_actions(db_url):
    with TestClient(create_app(db_url)) as client:
        assert isinstance(client.app.state.site.ctx.rng, random.SystemRandom)
        rows = stored_rows(client, friend_game(client, "hadronize")["id"])
    # The starting quarks, the first seat and the first superposition: all chance, stored.
    assert [row.player for row in rows] == [CHANCE] * 10


def test_a_chance_seed_repeats_the_deals_for_tests(tmp_path):
    deals = []
    for run in ("one", "two", "three"):
        seed = 7 if run != "three" else 8
        with TestClient(create_app(f"sqlite:///{tmp_path / run}.db", chance_seed=seed)) as c:
            assert not isinstance(c.app.state.site.ctx.rng, random.SystemRandom)
            deals.append([tuple(row) for row in stored_rows(c, friend_game(c, "hadronize")["id"])])
    assert deals[0] == deals[1] != deals[2]


def test_a_stored_game_that_no_longer_replays_is_refused_not_crashed(db_url):
    with TestClient(create_app(db_url)) as client:
        game_id = friend_game(client, "hadronize")["id"]
    with TestClient(create_app(db_url)) as client:
        store = client.app.state.store
        with store.engine.begin() as db:
            db.execute(update(actions_table).where(actions_table.c.game_id == game_id,
                                                   actions_table.c.step == 3)
                       .values(action=37))  # "first 5" while a quark is being dealt
        answer = client.get(f"/api/games/{game_id}")
        assert answer.status_code == 409
        assert "can no longer be played" in answer.json()["error"]
