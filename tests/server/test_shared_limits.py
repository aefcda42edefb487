"""Issue 26: limits that hold however a client's requests are spread.

Every new game is counted where every game is made, so rematches and quick play spend the
same allowance as the new-game form (before: a rematch chain made 30 games in 16 s). With
several processes the counts are kept in the broker's Redis, so two processes allow what
one does (before: each process counted its own, N times the limit), on both setups:
SQLite with one process, PostgreSQL and Redis with two."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.limits import Limits, Rate
from tests.server.helpers import bearer, friend_game, play_moves, refused
from tests.server.processes import Server, Visitor


def finished_game(client: TestClient) -> tuple[str, dict[int, str]]:
    created = friend_game(client, "hadronize", goal=1)
    assert play_moves(client, created["id"], created["seat_tokens"], 1000, min).is_terminal()
    return created["id"], created["seat_tokens"]


def test_rematches_and_quick_play_spend_the_new_game_allowance(any_db):
    clock = ManualClock()
    limits = Limits(create_games=Rate(4, 4 / 600))  # four at once, then one in 150 s
    with TestClient(create_app(any_db, clock=clock, limits=limits)) as client:
        first, first_tokens = finished_game(client)
        second, second_tokens = finished_game(client)  # two of the four spent
        rematch = client.post(f"/api/games/{first}/rematch", headers=bearer(first_tokens[0]))
        assert rematch.status_code == 200, rematch.text  # the third
        client.get("/me")
        quick = client.post("/api/lobby/quick", json={"game": "hadronize", "players": 5,
                                                      "time_control": "none"})
        assert quick.status_code == 200, quick.text  # the fourth: a new open game
        refused(client.post(f"/api/games/{second}/rematch", headers=bearer(second_tokens[0])),
                429, "too many new games")
        refused(client.post("/api/games", json={"game": "hadronize", "seats": ["you", "hotseat"]}),
                429, "too many new games")
        refused(client.post("/api/lobby/quick", json={"game": "hadronize", "players": 6,
                                                      "time_control": "none"}),
                429, "too many new games")
        clock.advance(150)
        assert client.post(f"/api/games/{second}/rematch",
                           headers=bearer(second_tokens[0])).status_code == 200


@pytest.fixture(params=["one process", "two processes"])
def setup(request, tmp_path) -> Iterator[list[Server]]:
    """The two setups: SQLite with one process; PostgreSQL and Redis with two."""
    if request.param == "one process":
        servers = [Server(f"sqlite:///{tmp_path / 'quarkade.db'}", "")]
    else:
        db = request.getfixturevalue("postgres").new_database()
        broker = request.getfixturevalue("redis_server").url()
        servers = [Server(db, broker), Server(db, broker)]
    yield servers
    for server in servers:
        server.stop()


def test_new_games_are_limited_alike_on_one_process_and_on_two(setup):
    visitor = Visitor()
    made, started = 0, time.monotonic()
    answers = []
    for number in range(30):  # spread over the processes in turn
        status, _ = visitor.request(setup[number % len(setup)], "POST", "/api/games",
                                    {"game": "hadronize", "seats": ["you", "hotseat"]})
        answers.append(status)
        made += status == 201
    refill = (time.monotonic() - started) * Limits().create_games.per_second
    assert set(answers) == {201, 429}
    assert made <= Limits().create_games.burst + refill + 1, answers


def test_a_guesser_is_slowed_alike_through_either_process(setup):
    owner = Visitor()
    status, _ = owner.request(setup[0], "GET", "/api/me")
    assert status == 200
    status, _ = owner.request(setup[0], "POST", "/api/me", {"name": "Lise",
                                                            "password": "fission-1938"})
    assert status == 200
    guesser = Visitor()
    answers = [guesser.request(setup[n % len(setup)], "POST", "/api/login",
                               {"name": "Lise", "password": f"guess-{n}"})[0]
               for n in range(5)]
    assert answers == [403, 403, 403, 429, 429]
    status, _ = Visitor().request(setup[-1], "POST", "/api/login",
                                  {"name": "Lise", "password": "fission-1938"})
    assert status == 429  # the same address: it waits too (its device is not known)
    status, _ = owner.request(setup[-1], "POST", "/api/logout")
    status, _ = owner.request(setup[-1], "POST", "/api/login",
                              {"name": "Lise", "password": "fission-1938"})
    assert status == 200  # the owner's own device is never held back
