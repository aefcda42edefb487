"""Issue 26: connections capped per address and overall, with a clear refusal.

Before: 1,012 idle spectator sockets (with a common 1,024-file limit) made every request
fail with EMFILE. Now one address holds at most ``Limits.sockets_per_address`` live
pages; past that a socket is told why and closed (4429), and past ``Limits.sockets`` in
all, 4503; another client plays on meanwhile. Run against a real ``quarkade serve``,
the attacker's sockets named by ``X-Forwarded-For`` (uvicorn trusts it from the local
proxy address only)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from quarkade.server import create_app
from quarkade.server.limits import Limits
from tests.server.helpers import bearer, friend_game
from tests.server.processes import Server, new_friend_game, receive_state


def lobby_socket(server: Server, address: str) -> ClientConnection:
    return connect(server.url.replace("http", "ws", 1) + "/ws/lobby", open_timeout=30,
                   additional_headers={"x-forwarded-for": address,
                                       "origin": server.url})


def test_eleven_hundred_idle_sockets_from_one_address_are_refused_past_the_cap(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'quarkade.db'}", "")
    cap = Limits().sockets_per_address
    held: list[ClientConnection] = []
    try:
        refused = 0
        for _ in range(1100):
            socket = lobby_socket(server, "203.0.113.9")
            first = json.loads(socket.recv(timeout=30))
            if first["type"] == "lobby":
                held.append(socket)
                continue
            assert first == {"type": "error", "status": 429, "message": first["message"]}
            assert "live pages are open from your address" in first["message"]
            try:
                socket.recv(timeout=30)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4429
            socket.close()
            refused += 1
        assert len(held) == cap and refused == 1100 - cap
        # Another client plays on: its pages open, and a move reaches them.
        game_id, tokens = new_friend_game(server)
        page = server.socket(game_id, tokens[0], 0)
        shown = receive_state(page, lambda m: True)
        mover = shown["to_move"]
        _, view = server.get(f"/api/games/{game_id}?seat={mover}", token=tokens[mover])
        status, _ = server.post(f"/api/games/{game_id}/actions", {
            "seat": mover, "action": view["legal"][0]["id"], "step": shown["step"]},
            token=tokens[mover])
        assert status == 200
        receive_state(page, lambda m: m["step"] > shown["step"])
        page.close()
        assert server.get("/readyz")[0] == 200
    finally:
        for socket in held:
            socket.close()
        server.stop()


def test_past_the_process_cap_a_socket_is_told_to_come_back_later(db_url):
    limits = Limits(sockets=3, sockets_per_address=10)
    with TestClient(create_app(db_url, limits=limits)) as client:
        created = friend_game(client, "hadronize")
        game_id, tokens = created["id"], created["seat_tokens"]

        def page() -> Any:
            return client.websocket_connect(f"/ws/games/{game_id}?seat=0",
                                            headers=bearer(tokens[0]))

        with page() as first, page() as second:
            with page() as third:
                for shown in (first, second, third):
                    assert shown.receive_json()["type"] == "state"
                with page() as fourth:
                    refusal = fourth.receive_json()
                    assert refusal["status"] == 503
                    assert "reload in a minute" in refusal["message"]
                    assert fourth.receive()["code"] == 4503
            with page() as again:  # one page closed: a new one may open
                assert again.receive_json()["type"] == "state"


def test_pages_cannot_keep_more_games_in_memory_than_the_limit(db_url):
    """Before: watched games never leave memory, and pages kept 2,100 games there against
    the 2,000 limit. Pages are capped below the games a process keeps, so however many
    games pages ask for, the games held stay within ``Limits.live_games``."""
    assert Limits().sockets < Limits().live_games
    limits = Limits(live_games=3, sockets=3, sockets_per_address=100)
    with TestClient(create_app(db_url, limits=limits)) as client:
        made = [friend_game(client, "hadronize")["id"] for _ in range(5)]
        hub = client.app.state.site.hub  # type: ignore[attr-defined]
        with contextlib.ExitStack() as pages:
            shown = [pages.enter_context(client.websocket_connect(f"/ws/games/{game_id}")
                                         ).receive_json()["type"] for game_id in made]
            assert shown == ["state"] * 3 + ["error"] * 2
            hub.evict()
            assert len(hub.games) <= limits.live_games
