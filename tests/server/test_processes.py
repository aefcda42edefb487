"""Scale-out with the real parts: two `quarkade serve` processes on one PostgreSQL and one
Redis broker. A move through A reaches a page on B; simultaneous moves through A and B for
one seat and step apply once; a bot whose turn both processes see moves once (claimed in
the database); and after `kill -9` of A, B carries on with nothing lost or duplicated."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from quarkade import load_game
from quarkade.server.storage import actions_table, bot_claims_table
from tests.rogues import ROGUES, declare
from tests.server.processes import Server, new_friend_game, receive_state


@pytest.fixture(scope="module")
def shared(postgres, redis_server) -> tuple[str, str]:
    return postgres.new_database(), redis_server.url()


@pytest.fixture(scope="module")
def pair(shared) -> Iterator[tuple[Server, Server]]:
    first, second = Server(*shared), Server(*shared)
    yield first, second
    first.stop()
    second.stop()


def stored(db: str, game_id: str) -> list[tuple[int, int, int]]:
    engine = create_engine(db)
    with engine.connect() as connection:
        rows = connection.execute(select(actions_table.c.step, actions_table.c.player,
                                         actions_table.c.action)
                                  .where(actions_table.c.game_id == game_id)
                                  .order_by(actions_table.c.step)).all()
    engine.dispose()
    return [tuple(row) for row in rows]


def replays(db: str, game_id: str, game: str = "hadronize", **options):
    """The stored game replayed: every step present once, every action legal."""
    rows = stored(db, game_id)
    assert [row[0] for row in rows] == list(range(len(rows)))
    state = load_game(game, **options).new_initial_state()
    for _, player, action in rows:
        assert state.current_player() == player and action in state.legal_actions()
        state.apply_action(action)
    return state


def payload(server: Server, game_id: str, token: str) -> dict:
    status, data = server.get(f"/api/games/{game_id}", token)
    assert status == 200, data
    return data


def test_a_move_through_one_process_reaches_a_page_on_the_other(pair, shared):
    """Each move is made through A; the page connected to B is shown it by B (the state it
    gets names the process that sent it), having heard of it through the broker. How fast:
    docs/PERFORMANCE.md (make bench)."""
    a, b = pair
    on_a, on_b = a.get("/healthz")[1]["process"], b.get("/healthz")[1]["process"]
    assert on_a != on_b
    game_id, tokens = new_friend_game(a, players=2)
    with b.socket(game_id, tokens[1], 1) as page_on_b:
        first = receive_state(page_on_b, lambda m: True)
        assert first["server"] == on_b
        step = first["step"]
        for _ in range(6):
            mover = payload(a, game_id, tokens[0])["to_move"]
            if mover is None:
                break
            data = payload(a, game_id, tokens[mover])
            status, answer = a.post(f"/api/games/{game_id}/actions", {
                "seat": mover, "action": data["legal"][0]["id"], "step": data["step"]},
                tokens[mover])
            assert status == 200, answer
            seen = receive_state(page_on_b, lambda m, s=data["step"]: m["step"] > s)
            assert seen["server"] == on_b and seen["step"] == answer["step"]
            step = seen["step"]
    assert step == len(stored(shared[0], game_id))


def test_simultaneous_moves_through_both_processes_apply_once(pair, shared):
    a, b = pair
    game_id, tokens = new_friend_game(a, players=2)
    pages = [a.socket(game_id), b.socket(game_id)]
    try:
        for page in pages:
            receive_state(page, lambda m: True)
        for _ in range(5):
            data = payload(b, game_id, tokens[0])
            if data["over"]:
                break
            mover = data["to_move"]
            data = payload(b, game_id, tokens[mover])
            before = len(stored(shared[0], game_id))
            answers: list[int] = []
            legal = [m["id"] for m in data["legal"]]

            def send(server, action, step=data["step"], seat=mover, answers=answers):
                answers.append(server.post(f"/api/games/{game_id}/actions", {
                    "seat": seat, "action": action, "step": step}, tokens[seat])[0])

            threads = [threading.Thread(target=send, args=(server, legal[i % len(legal)]))
                       for i, server in enumerate((a, b, a, b))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(answers) == [200, 409, 409, 409], answers
            after = stored(shared[0], game_id)
            assert len(after) > before and after[before][1] == mover
            for page in pages:  # both processes hold the move before the next round
                receive_state(page, lambda m, s=data["step"]: m["step"] > s)
    finally:
        for page in pages:
            page.close()
    replays(shared[0], game_id)


def test_a_bot_whose_turn_both_processes_see_moves_once(pair, shared):
    a, b = pair
    game_id, tokens = new_friend_game(a, seats=["friend", "bot:greedy"], players=2)
    pages = [a.socket(game_id, tokens[0], 0), b.socket(game_id, tokens[0], 0)]
    try:
        for page in pages:
            receive_state(page, lambda m: True)
        for turn in range(40):
            server = (a, b)[turn % 2]
            data = payload(server, game_id, tokens[0])
            if data["over"]:
                break
            if data["to_move"] != 0:  # the bot's turn: both pages hear when it moved
                for page in pages:
                    receive_state(page, lambda m: m["to_move"] in (0, None))
                continue
            status, answer = server.post(f"/api/games/{game_id}/actions", {
                "seat": 0, "action": data["legal"][0]["id"], "step": data["step"]}, tokens[0])
            assert status == 200, answer
            for page in pages:  # both processes hold the move before the next one
                receive_state(page, lambda m, s=data["step"]: m["step"] > s)
    finally:
        for page in pages:
            page.close()
    state = replays(shared[0], game_id)
    bot_steps = [step for step, player, _ in stored(shared[0], game_id) if player == 1]
    engine = create_engine(shared[0])
    with engine.connect() as connection:
        claims = connection.execute(select(bot_claims_table.c.step, bot_claims_table.c.owner)
                                    .where(bot_claims_table.c.game_id == game_id)).all()
    engine.dispose()
    assert len(bot_steps) >= 3
    # One claim per bot move, made by the process that stored it; none for other steps.
    assert sorted(step for step, _ in claims) == bot_steps
    assert state.current_player() == 0 or state.is_terminal()


def test_a_plugin_stopped_on_one_process_is_flagged_on_both(shared, tmp_path_factory):
    """Issue 20 on two processes: whichever process moves the plug-in bot and stops it,
    pages on both show the game flagged (the fault is stored with its seat)."""
    site = declare(tmp_path_factory.mktemp("plugins"), ROGUES)
    env = {"PYTHONPATH": os.pathsep.join([str(site), str(Path(__file__).parents[2])])}
    a, b = (Server(*shared, "--allow-bots", "raiser", "--move-time", "2", env=env)
            for _ in range(2))
    try:
        game_id, tokens = new_friend_game(a, seats=["friend", "bot:raiser:at=2"], players=2)
        pages = [a.socket(game_id, tokens[0], 0), b.socket(game_id, tokens[0], 0)]
        seen = [receive_state(page, lambda m: True) for page in pages]
        assert [shown["flagged"] for shown in seen] == [[], []]  # its first move is fine
        for turn in range(40):
            if all(shown["flagged"] for shown in seen) or seen[0]["over"]:
                break
            server = (a, b)[turn % 2]
            data = payload(server, game_id, tokens[0])
            if data["to_move"] == 0:
                status, answer = server.post(f"/api/games/{game_id}/actions", {
                    "seat": 0, "action": data["legal"][0]["id"], "step": data["step"]},
                    tokens[0])
                assert status == 200, answer
            seen = [receive_state(page, lambda m, s=data["step"]: m["step"] > s and (
                m["to_move"] in (0, None))) for page in pages]
        for page in pages:
            page.close()
    finally:
        a.stop()
        b.stop()
    # Its move 2 or later: each bot worker keeps its own copy of a bot, and the moves
    # went to the workers of two processes.
    assert seen[0]["flagged"] == seen[1]["flagged"] and seen[0]["server"] != seen[1]["server"]
    [flagged] = seen[0]["flagged"]
    name = seen[0]["seats"][1]["name"]
    assert flagged["seat"] == 1 and re.fullmatch(
        rf"At its move \d+, {re.escape(name)} raised ZeroDivisionError; its seat plays random "
        r"moves from here\.", flagged["message"])


def test_after_kill_9_of_one_process_the_other_carries_on(shared):
    a, b = Server(*shared), Server(*shared)
    try:
        game_id, tokens = new_friend_game(a, players=3)
        accepted = []
        with b.socket(game_id, tokens[2], 2) as page_on_b:
            receive_state(page_on_b, lambda m: True)
            for turn in range(400):
                server = a if turn < 6 else b
                if turn == 6:
                    a.stop(kill=True)  # kill -9, in the middle of the game
                data = payload(b, game_id, tokens[0])
                if data["over"]:
                    break
                mover = data["to_move"]
                data = payload(server, game_id, tokens[mover])
                status, _ = server.post(f"/api/games/{game_id}/actions", {
                    "seat": mover, "action": data["legal"][-1]["id"], "step": data["step"]},
                    tokens[mover])
                assert status == 200
                accepted.append((data["step"], mover, data["legal"][-1]["id"]))
                receive_state(page_on_b, lambda m, s=data["step"]: m["step"] > s)
        rows = stored(shared[0], game_id)
        assert all(row in rows for row in accepted)  # nothing lost
        assert replays(shared[0], game_id, players=3).is_terminal()  # nor duplicated
        assert json.loads(json.dumps(payload(b, game_id, tokens[1])))["over"]
    finally:
        a.stop(kill=True)
        b.stop()


def test_a_chat_message_through_one_process_reaches_a_page_on_the_other(pair):
    a, b = pair
    game_id, tokens = new_friend_game(a, players=2)
    with b.socket(game_id, tokens[1], 1) as page_on_b:
        receive_state(page_on_b, lambda m: True)
        status, sent = a.post(f"/api/games/{game_id}/chat", {"seat": 0, "text": "hi from A"},
                              tokens[0])
        assert status == 201, sent
        while True:
            message = json.loads(page_on_b.recv(timeout=30))
            if message["type"] == "chat":
                break
        assert [(m["seat"], m["text"]) for m in message["messages"]] == [(0, "hi from A")]
    status, listed = b.get(f"/api/games/{game_id}/chat")
    assert status == 200 and [m["text"] for m in listed["messages"]] == ["hi from A"]
