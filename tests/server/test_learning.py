"""The learning routes over HTTP: tutorials (lessons, progress per device, the final game),
hints (only for the held seat to move in a game with bots; the game is flagged) and
reviews (background, cached, refused for unfinished games and seats the viewer may not
see), with every bad input answered 4xx and a message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from quarkade import list_games
from quarkade.core.lessons import LessonRun, tutorial
from quarkade.learn.review import Budget
from quarkade.server import create_app
from tests.server.helpers import (
    bearer,
    friend_game,
    join,
    live_socket,
    move,
    receive_until,
    true_states,
)

QUICK = Budget(total=0, iterations=30)


@pytest.fixture
def client(db_url) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, rate_limits=False, review_budget=QUICK)) as test_client:
        yield test_client


def wait_for_learning(client: TestClient) -> None:
    """Until the reviews started so far have ended (in the worker processes)."""
    client.portal.call(client.app.state.site.reviews.settled)


def test_the_tutorial_pages_list_every_game_and_keep_a_device_id(client):
    page = client.get("/learn")
    assert page.status_code == 200
    for game in list_games():
        assert f'href="/learn/{game}"' in page.text
    assert "quarkade_device" in client.cookies
    device = client.cookies["quarkade_device"]
    assert client.get("/learn/dead-cat").status_code == 200
    assert client.cookies["quarkade_device"] == device
    assert client.get("/").text.count('href="/learn"') == 2  # the menu; the welcome
    missing = client.get("/learn/chess")
    assert missing.status_code == 404 and "hadronize" in missing.text


@pytest.mark.parametrize("game", list_games())
def test_every_lesson_is_taken_over_http_and_remembered_for_this_device(client, game):
    course = tutorial(game)
    for lesson in course.lessons:
        if lesson.final:
            continue
        url = f"/api/learn/{game}/lessons/{lesson.key}"
        body = client.get(url).json()["lesson"]
        chosen: list[int] = []
        while not body["finished"]:
            table = body["table"]
            assert table["viewpoint"] == lesson.seat and table["held"] == [lesson.seat]
            goals = [m["id"] for m in table["legal"] if m["goal"]]
            wrong = [m["id"] for m in table["legal"] if not m["goal"]]
            if wrong:
                refused = client.post(url, json={"moves": chosen, "move": wrong[0]}).json()
                assert refused["feedback"]["accepted"] is False
                assert refused["feedback"]["rule"]["id"] in {r.id for r in course.rules}
                assert refused["lesson"]["chosen"] == chosen
                assert refused["lesson"]["table"]["step"] == table["step"]
            answer = client.post(url, json={"moves": chosen, "move": goals[0]})
            assert answer.status_code == 200, answer.text
            body = answer.json()["lesson"]
            assert answer.json()["feedback"]["accepted"] is True
            chosen = body["chosen"]
    progress = client.get(f"/api/learn/{game}").json()
    assert [item["done"] for item in progress["lessons"]] == [
        not lesson.final for lesson in course.lessons]
    assert progress["next"] == "final"
    other_device = TestClient(client.app)
    assert not any(item["done"] for item in other_device.get(f"/api/learn/{game}")
                   .json()["lessons"])


def test_a_lesson_payload_shows_only_the_learners_view():
    """A Dead Cat lesson in which the opponent peeked: its card never reaches the page."""
    course = tutorial("dead-cat")
    run = LessonRun(course, course.lesson("announce"))
    with TestClient(create_app("sqlite://")) as client:
        body = client.get("/api/learn/dead-cat/lessons/announce").json()["lesson"]
    assert body["table"]["view"] == run.state.view(0)
    cards = [entry["card"] for entry in body["table"]["view"]["time_deck"]]
    assert cards.count(None) == 1  # the opponent's peek, unseen


@pytest.mark.parametrize(("method", "url", "json", "status", "words"), [
    ("get", "/api/learn/chess", None, 404, "no game named 'chess'"),
    ("get", "/api/learn/hadronize/lessons/nope", None, 404, "no lesson 'nope'"),
    ("get", "/api/learn/hadronize/lessons/tunnel?moves=x", None, 400, "action ids"),
    ("get", "/api/learn/hadronize/lessons/tunnel?moves=20", None, 400, "not one of the moves"),
    ("post", "/api/learn/hadronize/lessons/tunnel", {"moves": "21"}, 400, "'moves'"),
    ("post", "/api/learn/hadronize/lessons/tunnel", {"moves": [True]}, 400, "'moves'"),
    ("post", "/api/learn/hadronize/lessons/tunnel", {"move": True}, 400, "'move'"),
    ("post", "/api/learn/hadronize/lessons/tunnel", {"move": "x" * 201}, 400, "200"),
    ("post", "/api/learn/hadronize/lessons/tunnel", {"moves": [21, 20], "move": 20}, 409,
     "complete"),
    ("post", "/api/learn/hadronize/lessons/tunnel", [1], 400, "JSON object"),
])
def test_bad_lesson_requests_are_refused_with_a_reason(client, method, url, json, status,
                                                       words):
    answer = getattr(client, method)(url, json=json) if method == "post" else client.get(url)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]


def test_a_typed_move_is_read_in_the_learners_notation(client):
    url = "/api/learn/card-commons/lessons/open"
    refused = client.post(url, json={"moves": [], "move": "AH b2"}).json()["feedback"]
    assert refused["rule"]["id"] == "C.opening" and "Ace" in refused["message"]
    accepted = client.post(url, json={"moves": [], "move": "3h  B2"}).json()
    assert accepted["feedback"] == {**accepted["feedback"], "accepted": True, "finished": True}


def play_to_the_end(client: TestClient, game_id: str, seat: int) -> None:
    with live_socket(client, game_id, seat) as page:
        while True:
            message = receive_until(page, lambda m: m["legal"] or m["over"])
            if message["over"]:
                return
            page.send_json({"type": "act", "action": message["legal"][0]["id"],
                            "step": message["step"]})


def test_the_last_lesson_is_a_real_game_against_easy_and_counts_once_over(client):
    started = client.post("/api/learn/hadronize/final")
    assert started.status_code == 201
    game_id = started.json()["id"]
    kinds = [s for s in client.get(f"/api/games/{game_id}").json()["seats"]]
    assert [s["kind"] for s in kinds] == ["you", "bot"]
    course = client.get("/api/learn/hadronize").json()
    assert course["final_game"] == {"id": game_id, "url": f"/games/{game_id}", "over": False}
    assert not course["lessons"][-1]["done"]
    coach = client.get(f"/api/games/{game_id}/coach").json()
    assert coach["tutorial"] == "/learn/hadronize#final" and coach["hints"] is True
    play_to_the_end(client, game_id, 0)
    course = client.get("/api/learn/hadronize").json()
    assert course["lessons"][-1]["done"] and course["final_game"]["over"]
    assert client.post("/api/learn/hadronize/reset").status_code == 200
    assert not any(item["done"] for item in client.get("/api/learn/hadronize").json()["lessons"])


def bot_game(client: TestClient, game: str, seats: list[str], **options) -> str:
    created = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
    assert created.status_code == 201, created.text
    return created.json()["id"]


def test_a_hint_is_for_the_held_seat_to_move_and_flags_the_game(client):
    game_id = bot_game(client, "dead-cat", ["you", "bot:random"])
    with live_socket(client, game_id, 0) as page:
        mine = receive_until(page, lambda m: m["legal"])
    answer = client.post(f"/api/games/{game_id}/hint?seat=0")
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert {m["id"] for m in hint["moves"]} == {m["id"] for m in mine["legal"]}
    best = max(hint["moves"], key=lambda m: m["chance"])  # the star agrees with the numbers
    assert hint["best"]["id"] == best["id"] and hint["best"]["label"] == best["label"]
    assert all(0 <= m["chance"] <= 1 and m["label"] for m in hint["moves"])
    assert hint["hinted"] == [0]
    assert client.post(f"/api/games/{game_id}/hint?seat=0").json() == hint  # not again
    assert client.get(f"/api/games/{game_id}/coach").json()["hinted"] == [0]
    spectator = TestClient(client.app)
    refused = spectator.post(f"/api/games/{game_id}/hint")
    assert refused.status_code == 403 and "spectator" in refused.json()["error"]
    assert spectator.post(f"/api/games/{game_id}/hint?seat=0").status_code == 403


def test_hints_are_refused_without_bots_and_off_turn(client):
    created = friend_game(client, "hadronize")
    game_id, tokens = created["id"], created["seat_tokens"]
    state = true_states(client, game_id)[-1]
    seat = state.current_player()
    answer = client.post(f"/api/games/{game_id}/hint", params={"seat": seat},
                         headers=bearer(tokens[seat]))
    assert answer.status_code == 409 and "against bots" in answer.json()["error"]
    # Seats 0 (here), 1 (a friend) and 2 (a bot) move in turn: once the bot has moved (if
    # it began), seat 0 or the friend is to move; after seat 0's move the friend is to
    # move until someone moves for it.
    # The game starts once every seat is taken (issue 15): the friend joins through this
    # client (a bot's first move runs on its event loop), which then holds seat 0 again.
    created = client.post("/api/games", json={"game": "hadronize", "options": {"players": 3},
                                              "seats": ["you", "friend", "bot:random"]})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    (invite,) = created.json()["invites"]
    cookie = f"quarkade_{game_id}"
    mine = client.cookies[cookie]
    join(client, game_id, invite["url"])
    client.cookies.set(cookie, mine)
    with live_socket(client, game_id, 0) as page:
        now = receive_until(page, lambda m: m["to_move"] in (0, 1))
    assert client.post(f"/api/games/{game_id}/hint?seat=1").status_code == 403
    if now["to_move"] == 0:
        token = client.cookies[f"quarkade_{game_id}"].split(".")[-1]
        played = move(client, game_id, token, 0, now["legal"][0]["id"], now["step"])
        assert played.status_code == 200
    assert true_states(client, game_id)[-1].current_player() == 1
    refused = client.post(f"/api/games/{game_id}/hint?seat=0")
    assert refused.status_code == 409 and "not seat 0's turn" in refused.json()["error"]


def finished_friend_game(client: TestClient, game: str, visibility: str = "unlisted",
                         **options) -> tuple[str, dict]:
    created = friend_game(client, game, visibility=visibility, **options)
    game_id, tokens = created["id"], created["seat_tokens"]
    for _ in range(2000):
        state = true_states(client, game_id)[-1]
        if state.is_terminal():
            return game_id, tokens
        seat = state.current_player()
        move(client, game_id, tokens[seat], seat, state.legal_actions()[-1],
             len(state.history()))
    raise AssertionError("the game did not end")


def test_a_review_runs_in_the_background_and_is_cached_with_the_game(client, db_url):
    game_id, _ = finished_friend_game(client, "card-commons", visibility="public")
    url = f"/api/games/{game_id}/review"
    assert client.get(url).json()["state"] == "none"
    started = client.post(url).json()
    assert started["state"] in ("running", "done")
    wait_for_learning(client)
    done = client.get(url).json()
    assert done["state"] == "done"
    review = done["review"]
    assert review["seats"] == [0, 1] and review["decisions"]
    assert set(review["graph"]) == {"0", "1"}
    assert client.get(f"/games/{game_id}/review").status_code == 200
    with TestClient(create_app(db_url, review_budget=QUICK)) as again:
        assert again.get(url).json() == done  # from the database, not computed again
        assert again.post(url).json() == done
        assert again.app.state.site.ctx.work.started["review"] == 0


def test_a_game_one_did_not_play_is_reviewed_only_once_finished_and_public(client):
    """Reviews cost the server a search: another player's game is reviewed for a
    spectator only once it is over and public (a seat's own player may review it
    whatever its visibility)."""
    game_id, tokens = finished_friend_game(client, "card-commons")  # unlisted
    url = f"/api/games/{game_id}/review"
    refused = client.post(url)
    assert refused.status_code == 403 and "public" in refused.json()["error"]
    assert client.post(url, headers=bearer(tokens[0])).status_code == 200
    wait_for_learning(client)
    assert client.get(url, headers=bearer(tokens[0])).json()["state"] == "done"
    playing = friend_game(client, "card-commons", visibility="public")["id"]
    unfinished = client.post(f"/api/games/{playing}/review")
    assert unfinished.status_code == 409 and "not finished" in unfinished.json()["error"]


def test_a_hidden_game_is_reviewed_only_for_a_held_seat_and_never_unfinished(client):
    game_id, tokens = finished_friend_game(client, "dead-cat")
    url = f"/api/games/{game_id}/review"
    refused = client.post(url)
    assert refused.status_code == 403 and "spectator" in refused.json()["error"]
    assert client.get(f"/games/{game_id}/review").status_code == 403
    assert client.post(url, params={"seat": 1}, headers=bearer(tokens[0])).status_code == 403
    client.post(url, params={"seat": 1}, headers=bearer(tokens[1]))
    wait_for_learning(client)
    review = client.get(url, params={"seat": 1}, headers=bearer(tokens[1])).json()["review"]
    assert review["viewer"] == 1 and {d["seat"] for d in review["decisions"]} == {1}
    unfinished = friend_game(client, "dead-cat")
    answer = client.post(f"/api/games/{unfinished['id']}/review",
                         params={"seat": 0}, headers=bearer(unfinished["seat_tokens"][0]))
    assert answer.status_code == 409 and "not finished" in answer.json()["error"]
