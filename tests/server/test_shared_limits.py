"""Issue 26: limits that hold however a client's requests are spread.

Every new game is counted where every game is made, so rematches and quick play spend the
same allowance as the new-game form (before: a rematch chain made 30 games in 16 s). With
several processes the counts are kept in the broker's Redis, so two processes allow what
one does (before: each process counted its own, N times the limit), on both setups:
SQLite with one process, PostgreSQL and Redis with two."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.limits import Limits, Rate
from tests.server.helpers import bearer, friend_game, live_socket, play_moves, refused
from tests.server.processes import Server, Visitor, new_friend_game


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


# -- moves and chat: the same allowance however a flood is spread ----------------------------

FLOOD_LIMITS = Limits(http_moves=Rate(6, 2), chat_messages=Rate(3, 0.5))


@pytest.fixture(params=["one process", "two processes"])
def apps(request, tmp_path) -> Iterator[tuple[ManualClock, list[TestClient]]]:
    """The two setups in this process, on one injected clock: SQLite and one app; one
    PostgreSQL database and one Redis broker shared by two apps, each with its own memory
    (hub, rates, sockets) as two server processes have."""
    clock = ManualClock()
    if request.param == "one process":
        places = [(f"sqlite:///{tmp_path / 'quarkade.db'}", None)]
    else:
        shared = (request.getfixturevalue("postgres").new_database(),
                  request.getfixturevalue("redis_server").url())
        places = [shared, shared]
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(TestClient(create_app(
            db, broker=broker, clock=clock, limits=FLOOD_LIMITS))) for db, broker in places]
        yield clock, clients


def test_a_flood_of_moves_gets_one_allowance_on_one_process_or_two(apps):
    clock, clients = apps
    created = friend_game(clients[0], "hadronize")
    game_id, tokens = created["id"], created["seat_tokens"]
    shown = clients[0].get(f"/api/games/{game_id}", headers=bearer(*tokens.values())).json()
    seat, action = shown["to_move"], shown["legal"][0]["id"]
    body = {"seat": seat, "action": action, "step": shown["step"]}
    first = clients[0].post(f"/api/games/{game_id}/actions", headers=bearer(tokens[seat]),
                            json=body)
    assert first.status_code == 200, first.text  # one of the six
    played = clients[0].app.state.store.games.load(game_id).actions  # type: ignore
    answers = [clients[n % len(clients)].post(  # the same move again: spread in turn
        f"/api/games/{game_id}/actions", headers=bearer(tokens[seat]), json=body).status_code
        for n in range(1, 16)]
    assert answers == [409] * 5 + [429] * 10, answers  # (a process each: 5 + 6 more)
    last = clients[-1].post(f"/api/games/{game_id}/actions", headers=bearer(tokens[seat]),
                            json=body)
    refused(last, 429, "too many moves from this address")
    clock.advance(0.5)  # one more, on whichever process
    assert [clients[n % len(clients)].post(
        f"/api/games/{game_id}/actions", headers=bearer(tokens[seat]), json=body).status_code
        for n in range(3)] == [409, 429, 429]
    stored = clients[0].app.state.store.games.load(game_id)  # type: ignore[attr-defined]
    assert stored.actions == played  # the move once (and the chance that followed it)


def chat_answer(socket: Any, text: str) -> dict[str, Any]:
    """The socket's answer to its own chat ``text``: the refusal, or the message shown."""
    while True:
        frame = socket.receive_json()
        if frame["type"] == "error":
            return frame
        if frame["type"] == "chat" and any(m["text"] == text for m in frame["messages"]):
            return frame


def test_a_flood_of_chat_gets_one_allowance_on_one_process_or_two(apps):
    clock, clients = apps
    created = friend_game(clients[0], "hadronize")
    game_id, tokens = created["id"], created["seat_tokens"]

    def say(n: int, text: str) -> int:
        return clients[n % len(clients)].post(
            f"/api/games/{game_id}/chat", headers=bearer(tokens[0]),
            json={"seat": 0, "text": text}).status_code

    with live_socket(clients[-1], game_id, 0, tokens[0]) as page:
        assert page.receive_json()["type"] == "state"
        answers = [say(n, f"hello {n}") for n in range(12)]
        assert answers == [201] * 3 + [429] * 9, answers  # (a process each: 3 + 3)
        page.send_json({"type": "chat", "text": "from the page"})
        refusal = chat_answer(page, "from the page")
        assert refusal["type"] == "error" and refusal["status"] == 429
        assert "too many chat messages from this seat" in refusal["message"]
        assert say(1, "from another seat") == 429  # seat 0's, wherever it is said
        other = clients[-1].post(f"/api/games/{game_id}/chat", headers=bearer(tokens[1]),
                                 json={"seat": 1, "text": "my own"})
        assert other.status_code == 201  # another seat has its own allowance
        clock.advance(2)  # one more for seat 0, on whichever process
        page.send_json({"type": "chat", "text": "after a while"})
        assert chat_answer(page, "after a while")["type"] == "chat"
        assert [say(n, f"again {n}") for n in range(2)] == [429, 429]
    stored = clients[0].app.state.store.games.load(game_id)  # type: ignore[attr-defined]
    assert [(m.seat, m.body) for m in stored.chat] == [
        (0, "hello 0"), (0, "hello 1"), (0, "hello 2"), (1, "my own"), (0, "after a while")]


def flood(servers: list[Server], path: str, body: Any, token: str) -> tuple[list[int], float]:
    """Post ``body`` through the servers in turn until one says 429 (at most 2,000 times):
    the answers, and the seconds it took."""
    answers: list[int] = []
    started = time.monotonic()
    while 429 not in answers and len(answers) < 2000:
        answers.append(servers[len(answers) % len(servers)].post(path, body, token)[0])
    return answers, time.monotonic() - started


def test_a_flood_of_chat_is_limited_alike_by_real_processes(setup):
    """The same through real ``quarkade serve`` processes, in real time (the allowance that
    came back while the flood ran is counted in). Chat's slow refill (one message in 2 s)
    makes this hold on a busy machine; moves refill at 20 a second, faster than a loaded
    machine floods, so theirs is shown above on the injected clock only."""
    game_id, tokens = new_friend_game(setup[0])
    answers, took = flood(setup, f"/api/games/{game_id}/chat", {"seat": 0, "text": "hi"},
                          tokens[0])
    rate = Limits().chat_messages
    assert answers[-1] == 429 and set(answers[:-1]) == {201}, answers
    assert len(answers) - 1 <= rate.burst + took * rate.per_second + 1, (answers, took)
