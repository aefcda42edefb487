"""A property test: arbitrary JSON and bytes thrown at every API route and at the live
socket never get a 5xx, never drop the socket without an error frame, and never change
the game (the client holds no seat, so nothing it sends may move)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.limits import Limits, Rate
from tests.server.helpers import friend_game, stored_actions

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "seat", "action", "step", "game", "options", "seats",
                         "invite", "visibility"]) | st.text(max_size=8), inner, max_size=5),
    max_leaves=12)
MESSAGE = st.fixed_dictionaries({"type": st.sampled_from(["act", "rematch", "ping", "x"])},
                                optional={"action": JSON, "step": JSON, "seat": JSON})
PIECE = st.text(max_size=12) | st.integers().map(str) | st.sampled_from(
    ["0", "1", "²", "-1", "9" * 40, "spectator", "GAME"])
ROUTES = ["/api/games", "/api/games/{}", "/api/games/{}/actions", "/api/games/{}/join",
          "/api/games/{}/invites/{}", "/api/games/{}/seats/{}/link", "/api/games/{}/rematch",
          "/api/games/{}/steps/{}", "/healthz", "/games/{}", "/games/{}/join/{}",
          "/games/{}/link/{}", "/games/{}/rematch", "/games/{}/replay", "/games/{}/record",
          "/new/{}", "/rules/{}", "/"]
UNLIMITED = Limits(create_games=Rate(10**9, 10**9), http_moves=Rate(10**9, 10**9),
                   socket_messages=Rate(10**9, 10**9))


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Iterator[tuple[TestClient, str]]:
    db = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    with TestClient(create_app(db, limits=UNLIMITED)) as client:
        game_id = friend_game(client, "hadronize")["id"]
        yield client, game_id


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=100)
@given(route=st.sampled_from(ROUTES), pieces=st.lists(PIECE, min_size=2, max_size=2),
       method=st.sampled_from(["GET", "POST"]),
       body=JSON.map(lambda v: __import__("json").dumps(v).encode()) | st.binary(max_size=64),
       query=st.dictionaries(st.sampled_from(["seat", "token", "x"]), PIECE, max_size=2))
def test_no_route_answers_5xx_or_changes_the_game(table, route, pieces, method, body, query):
    client, game_id = table
    before = stored_actions(client, game_id)
    filled = [game_id if piece == "GAME" else quote(piece, safe="") for piece in pieces]
    path = route.format(*filled) if "{}" in route else route
    client.cookies.clear()
    answer = client.request(method, path, content=body, params=query,
                            headers={"content-type": "application/json"})
    assert answer.status_code < 500, (path, answer.text)
    assert stored_actions(client, game_id) == before


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)
@given(frames=st.lists(MESSAGE.map(lambda m: ("json", m)) | JSON.map(lambda v: ("json", v))
                       | st.binary(max_size=32).map(lambda b: ("bytes", b))
                       | st.text(max_size=32).map(lambda t: ("text", t)), max_size=6),
       seat=st.sampled_from(["", "?seat=0", "?seat=spectator", "?seat=²"]))
def test_the_socket_answers_everything_and_stays_open(table, frames, seat):
    client, game_id = table
    before = stored_actions(client, game_id)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{game_id}{seat}") as socket:
        first = socket.receive_json()
        if first["type"] == "error":  # a refused connection says why, then closes
            assert first["status"] < 500
            return
        for kind, value in frames:
            if kind == "json":
                socket.send_json(value)
            elif kind == "bytes":
                socket.send_bytes(value)
            else:
                socket.send_text(value)
            answer = socket.receive_json()
            assert answer["type"] in ("error", "pong", "state"), answer
            if answer["type"] == "error":
                assert 400 <= answer["status"] < 500, answer
        socket.send_json({"type": "ping"})
        assert socket.receive_json()["type"] == "pong"  # still open
    assert stored_actions(client, game_id) == before
