"""A player's page agrees with itself (issue 25 item 11): every rated game is among the
finished games and the win rates (a game against a bot is unlisted, yet rated), and the
rating history names the opponents and the result; the margin column has a header."""

from __future__ import annotations

import re

from tests.server.test_lobby_and_ratings import Devices
from tests.server.test_players import named


def test_the_player_page_counts_every_rated_game_and_the_history_says_against_whom(client):
    devices = Devices(client)
    named(devices.use("ann"), "Paged-Ann", "ann-password")
    for _ in range(2):  # two rated games against the easy bot, unlisted as bot games are
        made = client.post("/api/games", json={"game": "hadronize",
                                               "seats": ["you", "bot:easy"], "rated": True})
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        assert client.post(f"/api/games/{game_id}/resign", json={"seat": 0}).status_code == 200
    casual = client.post("/api/games", json={"game": "hadronize",
                                             "seats": ["you", "bot:easy"]}).json()["id"]
    client.post(f"/api/games/{casual}/resign", json={"seat": 0})
    devices.use("someone else")
    page = client.get("/players/Paged-Ann").text
    ratings = page[page.index('id="ratings-title"'):page.index('id="rates-title"')]
    assert "<th>Margin</th>" in ratings and re.search(r"<td>2</td></tr>", ratings)
    rates = page[page.index('id="rates-title"'):page.index('id="history-title"')]
    assert "<td>0/2</td>" in rates  # the two rated games; the unlisted casual one is hers
    history = page[page.index('id="history-title"'):page.index('id="finished-title"')]
    entries = re.findall(r"<li>(.*?)</li>", history, re.S)
    assert len(entries) == 2
    bot = client.get(f"/api/games/{game_id}").json()["seats"][1]["name"]
    for entry in entries:
        assert f"lost against {bot}" in entry and re.search(r"\(-\d+\)", entry), entry
    finished = page[page.index('id="finished-title"'):]
    assert finished.count("<li data-id=") == 2 and casual not in finished
