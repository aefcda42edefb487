"""Issue 26, input: every route answers a 4xx (never a 5xx) to non-ASCII text, NUL bytes and
digits of other scripts, in its path, its query, a JSON body and a form, on SQLite and on
PostgreSQL (which refuses NUL in text where SQLite keeps it); and the texts people write for
others (chat, deck names) lose their bidi controls and invisible characters.

Each route of the app is asked with a real game, seat, invite and device link in its other
parts, so the odd piece reaches as deep as it can."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import bearer, friend_game

ODD = ["²", "٣", "\x00", "é", "\u202e", "１"]  # superscript two, Arabic three, NUL, ...
SINGLY = ["²", "\x00"]  # (a non-ASCII digit, NUL) in each field of a body or form alone
BODY_KEYS = ["game", "options", "seats", "seat", "action", "step", "text", "invite", "name",
             "password", "settings", "players", "time_control", "visibility", "deck",
             "reveal", "type", "number", "key", "moves"]
FORM_KEYS = ["action", "name", "password", "game", "players", "time_control", "deck",
             "visibility", "seat0", "seat1", "bot0", "option.players", "option.deck",
             "saved.deck", "count.kiki", "sound", "reveal"]


def csrf_of(client: TestClient) -> str:
    """The form token of this device's session, as its pages carry it."""
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/me").text)
    return found.group(1) if found else ""


@pytest.fixture
def site(any_db) -> Iterator[tuple[TestClient, dict[str, str], str]]:
    with TestClient(create_app(any_db, rate_limits=False, chance_seed=26),
                    raise_server_exceptions=False) as client:
        created = friend_game(client, "hadronize")
        token = created["seat_tokens"][0]
        game_id = created["id"]
        second = client.post("/api/games", json={"game": "hadronize",
                                                 "seats": ["you", "friend"]}).json()
        invite = second["invites"][0]["url"].rsplit("/", 1)[1]
        client.cookies.clear()
        link = client.post(f"/api/games/{game_id}/seats/0/link", headers={
            **bearer(token), "content-type": "application/json"}, content=b"{}").json()
        code = link["url"].rsplit("/", 1)[1]
        client.get("/me")  # a guest of its own, so player routes go deep
        real = {"id": game_id, "token": invite, "seat": "0", "code": code, "step": "1",
                "game": "hadronize", "name": "Nobody", "key": "first",
                "invited": second["id"]}  # the game whose seat the invite is for
        yield client, real, token


def _routes(client: TestClient) -> list[tuple[str, str]]:
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):
            for method in sorted((route.methods or set()) - {"HEAD"}):
                found.append((method, route.path))
    return found


def _fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: quote(values.get(m.group(1), "x"), safe=""), path)


def _ask(client: TestClient, method: str, path: str, token: str, csrf: str,
         odd: str | None = None, where: str = "", only: str | None = None) -> int:
    headers = {**bearer(token), "accept": "application/json"}
    if method == "GET" or method == "DELETE":
        query = {} if where != "query" else {
            k: odd for k in ("seat", "players", "before", "moves", "done")}
        return client.request(method, path, params=query, headers={
            **headers, "content-type": "application/json"}).status_code
    if path.startswith("/api/"):
        keys = BODY_KEYS if only is None else [only]
        body = {key: odd for key in keys} if where == "body" else {}
        if where == "body" and odd is not None and only is None:
            body["options"] = {"players": odd, "deck": odd}
            body["seats"] = [odd, "friend"]
            body["settings"] = {"sound": odd}
        return client.post(path, json=body, headers={**headers, "origin":
                                                      "http://testserver"}).status_code
    keys = FORM_KEYS if only is None else [only]
    form = {key: odd for key in keys} if where == "form" and odd is not None else {}
    form["csrf"] = csrf
    return client.post(path, data=form, headers={**headers, "origin": "http://testserver"}
                       ).status_code


def test_odd_pieces_in_every_route_are_answered_4xx_never_5xx(site):
    client, real, token = site
    csrf = csrf_of(client)
    failures = []
    routes = _routes(client)
    assert ("POST", "/api/games/{id}/join") in routes and len(routes) > 50, routes
    for method, route in routes:
        params = re.findall(r"\{(\w+)\}", route)
        # An invite's routes are asked of the game with the open seat, so a code is compared.
        values = {**real, "id": real["invited"]} if "/join" in route else dict(real)
        if "deck" in route:
            values["game"] = "decoherence"  # the game with a deck builder
        if "/learn/" in route:
            values["key"] = "first-quark"  # a lesson of hadronize's
        for odd in ODD:
            for param in params:  # the odd piece in each part of the address
                path = _fill(route, {**values, param: odd})
                status = _ask(client, method, path, token, csrf)
                if status >= 500:
                    failures.append(f"{method} {route} with {param}={odd!r}: {status}")
            path = _fill(route, values)
            wheres = ["query"] if method in ("GET", "DELETE") else ["body", "form"]
            for where in wheres:
                status = _ask(client, method, path, token, csrf, odd, where)
                if status >= 500:
                    failures.append(f"{method} {route} with {odd!r} in the {where}: {status}")
            if method == "POST" and odd in SINGLY:
                # one field at a time: none is hidden by another's refusal
                where, keys = ("body", BODY_KEYS) if route.startswith("/api/") else \
                    ("form", FORM_KEYS)
                for key in keys:
                    status = _ask(client, method, path, token, csrf, odd, where, only=key)
                    if status >= 500:
                        failures.append(f"{method} {route} with {key}={odd!r}: {status}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("text, kept", [
    ("good \u202egame", "good game"),  # right-to-left override
    ("well\u200b played", "well played"),  # zero-width space
    ("\u2066isolated\u2069 words", "isolated words"),  # bidi isolates
    ("soft\u00adhyphen", "softhyphen"),
])
def test_bidi_and_invisible_characters_are_dropped_from_chat(any_db, text, kept):
    with TestClient(create_app(any_db, rate_limits=False)) as client:
        created = friend_game(client, "hadronize")
        game_id, token = created["id"], created["seat_tokens"][0]
        sent = client.post(f"/api/games/{game_id}/chat", headers=bearer(token),
                           json={"seat": 0, "text": text})
        assert sent.status_code == 201, sent.text
        assert sent.json()["text"] == kept
        shown = client.get(f"/api/games/{game_id}/chat").json()["messages"]
        assert [m["text"] for m in shown] == [kept]


def test_a_chat_message_of_invisible_characters_only_is_refused(client):
    created = friend_game(client, "hadronize")
    sent = client.post(f"/api/games/{created['id']}/chat",
                       headers=bearer(created["seat_tokens"][0]),
                       json={"seat": 0, "text": "\u200b\u202e\u2066"})
    assert sent.status_code == 400
    assert "empty" in sent.json()["error"]


def test_bidi_characters_are_dropped_from_deck_names(any_db):
    deck = "tapped 2, verved 2, boo'd 2, twigged 2, riffed 2 | up 3, down 3, through 2, " \
        "out 2 | kiki 3, bouba 4, lulu 3"
    with TestClient(create_app(any_db, rate_limits=False)) as client:
        client.get("/me")
        saved = client.post("/api/decks/decoherence", json={"name": "my\u202e deck\u200b",
                                                             "deck": deck})
        assert saved.status_code in (200, 201), saved.text
        names = [d["name"] for d in client.get("/api/decks/decoherence").json()["decks"]]
        assert names == ["my deck"]
