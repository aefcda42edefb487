"""The your-turn count (issue 25): every page's header says how many of the player's
games wait for their move, from what each move stores (``games.to_move``), and links to
the list on /me; it follows the turn from one player to the other and goes once the game
is over."""

from __future__ import annotations

import re

from tests.server.test_lobby_and_ratings import Devices, public_game
from tests.server.test_players import named

HEADER = re.compile(r'<a id="your-turns"[^>]*href="/me#playing-title"[^>]*>Your move in (\d+) '
                    r'games?</a>')


def waiting_for(client, page: str = "/lobby") -> int:
    """The count in ``page``'s header, checked against what pages ask for to keep it
    current (GET /api/me/turns)."""
    header = client.get(page).text.split("</header>")[0]
    found = HEADER.search(header)
    count = int(found.group(1)) if found else 0
    assert client.get("/api/me/turns").json() == {"your_turns": count}
    return count


def test_the_header_counts_the_games_waiting_for_my_move_and_follows_the_turn(client):
    devices = Devices(client)
    named(devices.use("ann"), "Turn-Ann")
    assert waiting_for(client) == 0
    first = public_game(client)
    second = public_game(client)
    named(devices.use("bob"), "Turn-Bob")
    for game_id in (first, second):
        assert client.post(f"/api/games/{game_id}/seats/1/take", json={}).status_code == 200
    seen = client.get(f"/api/games/{first}").json()
    mover = seen["to_move"]
    assert mover in (0, 1)
    players = {0: "ann", 1: "bob"}
    both = client.get(f"/api/games/{second}").json()["to_move"]
    expected = {seat: (mover == seat) + (both == seat) for seat in (0, 1)}
    for seat, who in players.items():
        devices.use(who)
        assert waiting_for(client) == expected[seat], who
        assert waiting_for(client, "/me") == expected[seat], who  # every page's header
    # The mover plays the first game until the turn passes: the count follows it.
    devices.use(players[mover])
    while client.get(f"/api/games/{first}").json()["to_move"] == mover:
        state = client.get(f"/api/games/{first}?seat={mover}").json()
        answer = client.post(f"/api/games/{first}/actions",
                             json={"seat": mover, "action": state["legal"][0]["id"],
                                   "step": state["step"]})
        assert answer.status_code == 200, answer.text
    now = client.get(f"/api/games/{first}").json()["to_move"]
    assert now == 1 - mover
    expected[mover] -= 1
    expected[now] += 1
    for seat, who in players.items():
        devices.use(who)
        assert waiting_for(client) == expected[seat], who
    # A game that ends leaves the count.
    devices.use(players[now])
    assert client.post(f"/api/games/{first}/resign", json={"seat": now}).status_code == 200
    assert waiting_for(client) == expected[now] - 1
    # A visitor's first page has no count; asking for it makes no guest.
    devices.use("nobody yet")
    assert client.get("/api/me/turns").json() == {"your_turns": 0}
    assert "set-cookie" not in client.get("/api/me/turns").headers
    assert waiting_for(client) == 0
