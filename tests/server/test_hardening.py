"""Issue 14's defects, one regression test (or a few) each, through HTTP and WebSocket,
against SQLite and PostgreSQL (``any_db``): seats that stay their holders', bounded bots,
bounded memory and rates, a database that hiccups, PostgreSQL-only errors, odd input, a
mandatory step, game visibility, bot failures and the body limit. (Defect 8 is in
test_serve.py, 11 in test_migrations.py.)"""

from __future__ import annotations

import json
import logging
import os
import select
import socket
import threading

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.limits import Limits, Rate
from quarkade.server.run import ServerThread
from tests.server.helpers import (
    bearer,
    friend_game,
    join,
    live_socket,
    move,
    play_moves,
    post_form,
    receive_state,
    receive_until,
    refused,
    stored_actions,
    true_states,
    watch_until,
)


def step_of(client, game_id):
    return len(stored_actions(client, game_id))


def local_game(client, game="hadronize", **options):
    """A two-seat game played on the creating device (you and hot-seat): its id and the
    seats' tokens, with nothing to join."""
    answer = client.post("/api/games", json={"game": game, "options": options,
                                             "seats": ["you", "hotseat"]})
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    created = answer.json()
    return created["id"], {int(seat): token for seat, token in created["tokens"].items()}


# -- 1: the host cannot take over a friend's seat ---------------------------------------------


def test_1_joining_spends_the_invite_and_only_the_joiner_holds_the_seat(any_db):
    with TestClient(create_app(any_db)) as client:
        created = client.post("/api/games", json={
            "game": "hadronize", "seats": ["you", "friend"]}).json()
        game_id, invite = created["id"], created["invites"][0]["url"]
        host = dict(client.cookies)
        client.cookies.clear()
        assert client.get(invite).status_code == 200  # the friend's device opens it
        opened = post_form(client, invite, {}, follow_redirects=False)  # and takes it
        assert opened.status_code == 303
        friend = dict(client.cookies)
        friend_token = friend[f"quarkade_{game_id}"]
        assert client.get(f"/api/games/{game_id}", params={"seat": 1}).json()["held"] == [1]
        # The host sees that seat 1 joined, and nothing that opens it.
        client.cookies.clear()
        client.cookies.update(host)
        payload = client.get(f"/api/games/{game_id}").json()
        assert payload["invites"] == [{"seat": 1, "joined": True}]
        assert friend_token not in json.dumps(payload)
        # The spent link, or its code as a token, gives the host nothing.
        again = client.get(invite, follow_redirects=False)
        assert again.status_code == 403 and "used or it expired" in again.text
        code = invite.rsplit("/", 1)[1]
        refused(client.get(f"/api/games/{game_id}", params={"seat": 1}, headers=bearer(code)),
                403, "holds no token for seat 1")
        state = true_states(client, game_id)[-1]
        if state.current_player() == 1:
            refused(move(client, game_id, code, 1, state.legal_actions()[0]), 403)


def test_1_invites_expire_and_the_host_can_renew_them(any_db):
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock)) as client:
        created = client.post("/api/games", json={
            "game": "hadronize", "seats": ["you", "friend"]}).json()
        game_id = created["id"]
        clock.advance(Limits().invite_seconds + 1)
        host = dict(client.cookies)
        client.cookies.clear()
        assert client.get(created["invites"][0]["url"]).status_code == 403
        refused(client.post(f"/api/games/{game_id}/invites/1"), 403, "only the device")
        client.cookies.update(host)
        renewed = client.post(f"/api/games/{game_id}/invites/1").json()["url"]
        client.cookies.clear()
        assert join(client, game_id, renewed)


def test_1_a_rematch_has_new_secrets_and_a_holder_may_link_another_device(any_db):
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock)) as client:
        created = friend_game(client, "hadronize", goal=1)
        game_id, tokens = created["id"], created["seat_tokens"]
        assert play_moves(client, game_id, tokens, 1000, min).is_terminal()
        new_id = client.post(f"/api/games/{game_id}/rematch",
                             headers=bearer(tokens[0])).json()["id"]
        client.cookies.clear()
        new_tokens = {}
        for seat in (0, 1):  # each player sits one seat on in the rematch (S-13)
            client.cookies.clear()
            client.cookies.set(f"quarkade_{game_id}", tokens[seat])
            client.get(f"/games/{game_id}/rematch", follow_redirects=False)
            new_tokens[1 - seat] = client.cookies[f"quarkade_{new_id}"]
            assert client.get(f"/api/games/{new_id}").json()["held"] == [1 - seat]
        assert set(new_tokens.values()).isdisjoint(tokens.values())
        client.cookies.clear()
        refused(client.get(f"/api/games/{new_id}", params={"seat": 0},
                           headers=bearer(tokens[0])), 403)
        # Seat 1's holder links a second device; the code works once, then never again.
        refused(client.post(f"/api/games/{new_id}/seats/1/link",
                            headers=bearer(new_tokens[0])), 403, "only a device holding")
        link = client.post(f"/api/games/{new_id}/seats/1/link",
                           headers=bearer(new_tokens[1])).json()["url"]
        client.cookies.clear()
        assert client.get(link).status_code == 200  # opening it spends nothing
        assert post_form(client, link, {}, follow_redirects=False).status_code == 303
        assert client.get(f"/api/games/{new_id}").json()["held"] == [1]
        client.cookies.clear()
        assert client.get(link).status_code == 403
        late = client.post(f"/api/games/{new_id}/seats/1/link",
                           headers=bearer(new_tokens[1])).json()["url"]
        clock.advance(Limits().link_seconds + 1)
        assert client.get(late).status_code == 403


# -- 2: a bot spec cannot stall the server ---------------------------------------------------


@pytest.mark.parametrize(("spec", "fragment"), [
    ("mcts:time=nan", "time='nan' is not allowed; it takes a number from 0 to 5 on this "
                      "server"),
    ("mcts:time=inf", "time='inf'"),
    ("mcts:iterations=1000000000000", "from 0 to 20000"),
    ("ismcts:time=3600", "time='3600'"),
    ("mcts:depth=3", "parameters: iterations, time, c, rollout, rollout_depth, endgame"),
    ("mcts:rollout=smart", "it takes one of random, greedy"),
    ("mcts:candidates=2", "candidates='2' is not allowed; it takes 0 or 1"),
    ("mcts:" + "c=1," * 40, "at most 100 characters"),
])
def test_2_bot_specs_from_the_web_are_bounded(client, spec, fragment):
    refused(client.post("/api/games", json={"game": "hadronize",
                                            "seats": ["you", f"bot:{spec}"]}), 400, fragment)
    assert client.app.state.store.games.count() == 0


def test_2_a_bot_that_never_answers_is_cut_off_and_stalls_nothing(db_url, caplog):
    limits = Limits(bot_seconds=1.0)
    app = create_app(db_url, limits=limits, agent_factory="tests.server.agents:forever")
    with TestClient(app) as client:
        games = [client.post("/api/games", json={"game": "hadronize",
                                                 "seats": ["bot:random", "bot:random"]}
                             ).json()["id"] for _ in range(3)]
        # Every game moves on (each bot move falls back at its deadline), three at once
        # on two worker processes: a page of each sees three more moves.
        for game_id in games:
            with live_socket(client, game_id) as page:
                first = receive_state(page)["step"]
                receive_until(page, lambda m, first=first: m["step"] > first + 2)
        workers = app.state.site.ctx.work.pool.pids()
        assert workers  # bots mid-thought as the server stops
    for pid in workers:  # and stopping stopped them
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert "no move within its 1 s deadline" in caplog.text
    assert "played the fallback move" in caplog.text


# -- 3: memory and what one client can ask for ----------------------------------------------


def test_3_idle_games_leave_memory_and_come_back(any_db):
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock, limits=Limits(live_games=4))) as client:
        made = [friend_game(client, "hadronize") for _ in range(10)]
        hub = client.app.state.site.hub
        assert len(hub.games) <= 4
        for created in made:  # each comes back from the database as it was
            payload = client.get(f"/api/games/{created['id']}",
                                 headers=bearer(created["seat_tokens"][0])).json()
            assert payload["held"] == [0] and payload["step"] == step_of(client, created["id"])
            assert len(hub.games) <= 4
        clock.advance(Limits().idle_seconds + 1)
        assert hub.evict() > 0 and len(hub.games) == 0


def test_3_game_creation_and_socket_messages_are_rate_limited(db_url):
    clock = ManualClock()
    limits = Limits(create_games=Rate(3, 1 / 60), socket_messages=Rate(5, 1))
    with TestClient(create_app(db_url, clock=clock, limits=limits)) as client:
        body = {"game": "hadronize", "seats": ["you", "friend"]}
        for _ in range(3):
            assert client.post("/api/games", json=body).status_code == 201
        refused(client.post("/api/games", json=body), 429, "too many new games")
        clock.advance(60)
        created = client.post("/api/games", json=body)
        assert created.status_code == 201
        game_id = created.json()["id"]
        with client.websocket_connect(f"/ws/games/{game_id}") as socket:
            socket.receive_json()
            answers = []
            for _ in range(7):
                socket.send_json({"type": "ping"})
                answers.append(socket.receive_json()["type"])
            assert answers == ["pong"] * 5 + ["error"] * 2
            clock.advance(2)
            socket.send_json({"type": "ping"})
            assert socket.receive_json()["type"] == "pong"  # still open
            socket.send_text("x" * 20_000)
            too_big = socket.receive_json()
            assert too_big["status"] == 413 and "at most 16384 bytes" in too_big["message"]


# -- 4: a database hiccup --------------------------------------------------------------------


class Locked:
    """Another client holding the database's write lock (SQLite) or the actions table
    (PostgreSQL) until the block ends."""

    def __init__(self, url):
        self.engine = create_engine(url)

    def __enter__(self):
        self.connection = self.engine.connect()
        if self.engine.dialect.name == "sqlite":
            self.connection.exec_driver_sql("BEGIN EXCLUSIVE")
        else:
            self.connection.begin()
            self.connection.execute(text("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE"))
        return self

    def __exit__(self, *exc):
        self.connection.rollback()
        self.connection.close()
        self.engine.dispose()


def test_4_a_locked_database_is_a_503_and_bots_resume_after_it(any_db):
    with TestClient(create_app(any_db, busy_timeout=2.0, rate_limits=False)) as client:
        created = friend_game(client, "hadronize")
        game_id, tokens = created["id"], created["seat_tokens"]
        other = friend_game(client, "hadronize")["id"]
        state = true_states(client, game_id)[-1]
        mover = state.current_player()
        before = stored_actions(client, game_id)
        answers = []
        with Locked(any_db), client.websocket_connect(f"/ws/games/{other}") as page:
            page.receive_json()
            waiting = threading.Thread(target=lambda: answers.append(move(
                client, game_id, tokens[mover], mover, state.legal_actions()[0], len(before))))
            waiting.start()
            # All the while that move waits for the lock (holding its game's), the server
            # answers everyone else: pings are answered while the move is under way.
            session = client.portal.call(client.app.state.site.hub.get, game_id)
            answered_meanwhile = 0
            while waiting.is_alive():
                page.send_json({"type": "ping"})
                assert page.receive_json()["type"] == "pong"
                answered_meanwhile += waiting.is_alive() and client.portal.call(
                    session.lock.locked)
            assert answered_meanwhile > 0
            waiting.join()
        refused(answers[0], 503, "database is not answering", "nothing was played")
        assert stored_actions(client, game_id) == before
        assert move(client, game_id, tokens[mover], mover, state.legal_actions()[0],
                    len(before)).status_code == 200


class Heard(logging.Handler):
    """Sets ``event`` when the server logs a message holding ``words``."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words
        self.event = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.event.set()


def test_4_a_bot_whose_move_cannot_be_stored_moves_once_the_database_is_back(any_db,
                                                                             bot_gate):
    """The bot answers while the database is locked: its move cannot be stored (the
    server says so and retries), and it is stored once the lock is gone."""
    retrying = Heard("the bot's move could not be stored; retrying")
    logging.getLogger("quarkade.server").addHandler(retrying)
    try:
        with TestClient(create_app(any_db, busy_timeout=0.5, rate_limits=False,
                                   agent_factory="tests.server.agents:gated")) as client:
            made = client.post("/api/games", json={"game": "hadronize",
                                                   "seats": ["bot:random", "bot:random"]}).json()
            bot_gate.thinking()  # the bot at the first turn thinks, its turn claimed
            before = stored_actions(client, made["id"])
            with live_socket(client, made["id"]) as page:
                assert receive_state(page)["step"] == len(before)
                with Locked(any_db):
                    bot_gate.let_move()
                    assert retrying.event.wait(60), "the bot's move was never refused"
                shown = receive_until(page, lambda m: m["step"] > len(before))
            stored = stored_actions(client, made["id"])
            assert len(stored) >= shown["step"] and stored[:len(before)] == before
    finally:
        logging.getLogger("quarkade.server").removeHandler(retrying)


def test_4_a_bot_resumes_after_postgresql_restarts(postgres):
    url = postgres.new_database()
    with TestClient(create_app(url, busy_timeout=0.5)) as client:
        created = friend_game(client, "hadronize")
        game_id, tokens = created["id"], created["seat_tokens"]
        postgres.stop()
        try:
            answer = client.get(f"/api/games/{game_id}", headers=bearer(tokens[0]))
            assert answer.status_code == 200  # held in memory: reading needs no database
            payload = answer.json()
            mover = payload["to_move"]
            action = client.get(f"/api/games/{game_id}", headers=bearer(
                tokens[mover])).json()["legal"][0]["id"]
            refused(move(client, game_id, tokens[mover], mover, action, payload["step"]),
                    503, "not answering")
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json()["database"] == "unavailable"
            assert client.get("/healthz").status_code == 200  # alive all the same
        finally:
            postgres.start()
        # The pool's dead connections are noticed (pre-ping) and replaced: no 500.
        assert move(client, game_id, tokens[mover], mover, action,
                    payload["step"]).status_code == 200
        bot_game = client.post("/api/games", json={
            "game": "hadronize", "seats": ["bot:greedy", "bot:random"]}).json()["id"]
        first = step_of(client, bot_game)
        postgres.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        watch_until(client, bot_game, lambda m: m["step"] > first + 4)  # they went on


# -- 5: PostgreSQL-only errors, and secrets in the log ----------------------------------------


def test_5_long_bot_specs_are_the_same_on_both_databases(any_db):
    spec = "mcts:iterations=50,c=1." + "0" * 75
    with TestClient(create_app(any_db)) as client:
        answer = client.post("/api/games", json={"game": "hadronize",
                                                 "seats": ["you", f"bot:{spec}"]})
        assert answer.status_code == 201, answer.text
        seats = client.get(answer.json()["url"].replace("/games/", "/api/games/")).json()
        assert seats["seats"][1]["agent"] == spec and len(seats["seats"][1]["name"]) <= 100


def test_5_a_database_error_never_logs_a_secret(any_db, monkeypatch, caplog):
    from quarkade.server.storage import games

    monkeypatch.setattr(games, "check_lengths", lambda table, row: None)
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(any_db), raise_server_exceptions=False) as client:
        created = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["you", "friend"]}).json()
        host, seat = created["host_token"], created["tokens"]["0"]
        invite = created["invites"][0]["url"].rsplit("/", 1)[1]
        # A value over its column, past the check: PostgreSQL refuses it (500, logged).
        monkeypatch.setattr("quarkade.server.play.seats.clip_name", lambda name: name * 30)
        client.post("/api/games", json={"game": "hadronize", "seats": ["you", "bot:random"]})
        client.get(f"/games/{created['id']}/join/{invite}x")
        client.get(f"/api/games/{created['id']}", headers=bearer(seat))
    formatter = logging.Formatter("%(message)s")
    logged = "\n".join(formatter.format(record) for record in caplog.records
                       if not record.name.startswith("httpx"))  # the test client's own log
    if any_db.startswith("postgresql"):  # it refused the value: a 500, logged
        assert "Traceback" in logged and "StringDataRightTruncation" in logged
    for secret in (host, seat, invite):
        assert secret not in logged


# -- 6: odd input ----------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "fragment"), [
    ("/api/games/GAME?seat=²", "a seat is a number"),
    ("/api/games/GAME/steps/²", "a step is a whole number"),
    ("/api/games/GAME?seat=" + "9" * 5000, "a seat is a number"),
    ("/api/games/GAME/steps/" + "9" * 5000, "a step is a whole number"),
])
def test_6_odd_numbers_in_addresses_are_400s(any_db, path, fragment):
    with TestClient(create_app(any_db)) as client:
        game_id, _ = local_game(client)
        refused(client.get(path.replace("GAME", game_id)), 400, fragment)


ODD_BODIES = [
    ('{"seat": 0, "action": 1' + "0" * 5000 + ', "step": 1}', "at most 18 digits"),
    ("[" * 20_000 + "]" * 20_000, "nested too deeply"),
    ('{"seat": 1e999, "action": 1, "step": 1}', "seat should be a seat number"),
    ('{"seat": 0, "action": 99999999999999999, "step": 1}', "action should be an action id"),
    ("\udcff", "should be JSON"),
]


@pytest.mark.parametrize(("body", "fragment"), ODD_BODIES)
def test_6_odd_json_is_a_400_over_http_and_an_error_frame_on_the_socket(any_db, body,
                                                                         fragment):
    with TestClient(create_app(any_db)) as client:
        game_id, tokens = local_game(client)
        before = stored_actions(client, game_id)
        raw = body.encode("utf-8", "surrogateescape")
        as_json = {"content-type": "application/json"}
        refused(client.post(f"/api/games/{game_id}/actions", content=raw,
                            headers={**bearer(tokens[0]), **as_json}), 400, fragment)
        refused(client.post("/api/games", content=raw, headers=as_json), 400)
        with live_socket(client, game_id, None, tokens[0]) as socket:
            socket.receive_json()
            socket.send_text(body.replace('"seat": ', '"type": "act", "x": ')
                             .encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
            assert socket.receive_json()["type"] == "error"
            socket.send_bytes(raw)
            binary = socket.receive_json()
            assert binary["status"] == 400 and "text frames" in binary["message"]
            socket.send_json({"type": "ping"})
            assert socket.receive_json()["type"] == "pong"
        assert stored_actions(client, game_id) == before


# -- 7: the step is mandatory ----------------------------------------------------------------


def test_7_a_move_without_its_step_is_refused_and_parallel_moves_apply_once(any_db):
    with TestClient(create_app(any_db)) as client:
        game_id, tokens = local_game(client, "decoherence")
        state = true_states(client, game_id)[-1]
        mover = state.current_player()
        before = stored_actions(client, game_id)
        answer = client.post(f"/api/games/{game_id}/actions", headers=bearer(tokens[mover]),
                             json={"seat": mover, "action": state.legal_actions()[0]})
        refused(answer, 400, "'step' is required")
        with live_socket(client, game_id, None, tokens[mover]) as socket:
            socket.receive_json()
            socket.send_json({"type": "act", "action": state.legal_actions()[0]})
            assert socket.receive_json()["status"] == 400
        assert stored_actions(client, game_id) == before
        # Six moves at once, all seen at the same step: exactly one applies.
        legal = state.legal_actions()
        answers = []

        def send(action):
            answers.append(move(client, game_id, tokens[mover], mover, action,
                                len(before)).status_code)

        threads = [threading.Thread(target=send, args=(legal[i % len(legal)],))
                   for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200] + [409] * 5
        assert len(stored_actions(client, game_id)) > len(before)


# -- 9: visibility and ids -------------------------------------------------------------------


def test_9_only_public_games_are_listed_and_ids_are_unguessable(any_db):
    with TestClient(create_app(any_db)) as client:
        friendly, _ = local_game(client)
        public = client.post("/api/games", json={"game": "hadronize", "visibility": "public",
                                                 "seats": ["you", "bot:random"]}).json()["id"]
        refused(client.post("/api/games", json={"game": "hadronize", "visibility": "secret",
                                                "seats": ["you", "friend"]}), 400,
                "public", "unlisted")
        home = client.get("/").text
        assert public in home and friendly not in home
        assert [g["id"] for g in client.app.state.store.games.recent()] == [public]
        for game_id in (friendly, public):  # 22 characters of 62 (or 64): over 96 bits
            assert len(game_id) >= 22 and game_id.isascii() and game_id.isalnum()
        assert client.get(f"/games/{friendly}").status_code == 200  # its address still works
        form = client.get("/new/hadronize").text
        assert 'name="visibility"' in form and 'value="unlisted" selected' in form


# -- 10: bot failures are logged and fall back; body limits are enforced while reading -------


@pytest.mark.parametrize("factory", ["raising", "exiting"])
def test_10_a_failing_bot_is_logged_and_its_seat_plays_a_simple_move(db_url, factory, caplog):
    with TestClient(create_app(db_url, agent_factory=f"tests.server.agents:{factory}")
                    ) as client:
        game_id = client.post("/api/games", json={"game": "hadronize",
                                                  "seats": ["bot:random", "bot:greedy"]}
                              ).json()["id"]
        watch_until(client, game_id, lambda m: m["over"])  # it went on to its end
    states = true_states(client, game_id)
    assert "played the fallback move" in caplog.text
    reason = "raised Explodes: the bot blew up" if factory == "raising" else \
        "its worker process stopped"
    assert reason in caplog.text
    for state, action in zip(states, states[-1].history(), strict=False):
        if state.current_player() >= 0:  # every bot move was the first legal one
            assert action == state.legal_actions()[0]


def test_10_a_huge_body_is_refused_before_it_is_all_read(db_url):
    """A chunked body is cut off at the limit: the 413 comes while the client still sends."""
    with ServerThread(db_url) as server:
        host, port = server.sock.getsockname()[:2]
        with socket.create_connection((host, port), timeout=30) as raw:
            raw.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\n"
                        b"content-type: application/json\r\n"
                        b"transfer-encoding: chunked\r\n\r\n")
            sent = 0
            chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
            while sent < 16_000_000 and not select.select([raw], [], [], 0)[0]:
                try:
                    raw.sendall(chunk)
                except OSError:  # the server closed the connection after its answer
                    break
                sent += 0x4000
            answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert sent < 4_000_000  # it answered long before 16 MB
