"""Issue 26: only our own pages change anything.

The attack this stops: another site's page posts a form to ``/me`` (``action=login``) in
a visitor's browser, which sends the visitor's cookies along (``SameSite=Lax`` lets a
top-level form through), logging the visitor into the attacker's account; every seat the
visitor then takes is the attacker's. So a state-changing request whose ``Origin`` (or
``Referer``) is another site is refused; a form must carry the session's token besides;
a JSON route takes a body only as ``application/json`` (a browser will not send that
across sites without asking us first), so another site's ``text/plain`` post of a JSON
body is refused while scripts, which send no ``Origin``, keep working. Logging in and out
start a new session, and logging out ends the old one on the server."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.people.players import SESSION_COOKIE
from tests.server.helpers import bearer, form_token, friend_game, stored_actions, true_states

EVIL = "https://evil.example"
OURS = "http://testserver"


@pytest.fixture
def site(any_db):
    with TestClient(create_app(any_db, rate_limits=False)) as client:
        yield client


def claimed(client: TestClient, name: str, password: str) -> str:
    client.get("/me")
    answer = client.post("/api/me", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["id"])


def who(client: TestClient) -> str:
    return str(client.get("/api/me").json()["id"])


def test_another_sites_login_form_is_refused_and_signs_nobody_in(site):
    attacker = claimed(site, "Mallory", "not-your-seat")
    site.cookies.clear()
    victim = who(site)
    form = {"action": "login", "name": "Mallory", "password": "not-your-seat"}
    for headers in ({"origin": EVIL}, {"referer": f"{EVIL}/cats.html"}, {"origin": "null"}):
        answer = site.post("/me", data=form, headers=headers, follow_redirects=False)
        assert answer.status_code == 403, (headers, answer.text)
        assert "another site" in answer.text
    # A browser that sends neither header still sends no token this session gave out.
    answer = site.post("/me", data=form, follow_redirects=False)
    assert answer.status_code == 403 and "out of date" in answer.text
    answer = site.post("/me", data={**form, "csrf": "guessed"}, follow_redirects=False)
    assert answer.status_code == 403
    assert who(site) == victim != attacker
    # The same form from our own page, with its token, logs in.
    token = form_token(site)
    answer = site.post("/me", data={**form, "csrf": token}, headers={"origin": OURS},
                       follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert who(site) == attacker


def test_another_sites_text_plain_post_of_json_is_refused(site):
    created = friend_game(site, "hadronize")
    game_id, token = created["id"], created["seat_tokens"][0]
    site.cookies.set(f"quarkade_{game_id}", token)  # the victim's browser holds the seat
    before = stored_actions(site, game_id)
    state = true_states(site, game_id)[-1]
    seat = state.current_player()
    body = f'{{"seat": {seat}, "action": {state.legal_actions()[0]}, "step": {len(before)}}}'
    site.cookies.set(f"quarkade_{game_id}", created["seat_tokens"][seat])
    plain = {"content-type": "text/plain"}
    answer = site.post(f"/api/games/{game_id}/actions", content=body,
                       headers={**plain, "origin": EVIL})
    assert answer.status_code == 403, answer.text
    answer = site.post(f"/api/games/{game_id}/actions", content=body, headers=plain)
    assert answer.status_code == 415 and "application/json" in answer.json()["error"]
    name_before = site.get("/api/me").json()["name"]
    answer = site.post("/api/me", content='{"name": "Pwned"}', headers=plain)
    assert answer.status_code == 415
    assert site.get("/api/me").json()["name"] == name_before
    # JSON from another site's page is refused too (a browser asks first; we say no).
    answer = site.post(f"/api/games/{game_id}/actions", content=body,
                       headers={"content-type": "application/json", "origin": EVIL})
    assert answer.status_code == 403
    assert stored_actions(site, game_id) == before
    # A script (no Origin, a JSON body) and our own page (our Origin) both move.
    site.cookies.clear()
    answer = site.post(f"/api/games/{game_id}/actions", content=body, headers={
        **bearer(created["seat_tokens"][seat]), "content-type": "application/json"})
    assert answer.status_code == 200, answer.text


def test_the_session_rotates_at_login_and_logout_and_logout_ends_it(site):
    player = claimed(site, "Lovelace", "analytical")
    site.cookies.clear()
    planted = site.get("/me") and site.cookies[SESSION_COOKIE]  # a guest's session
    planted_token = form_token(site)
    answer = site.post("/api/login", json={"name": "Lovelace", "password": "analytical"})
    assert answer.status_code == 200
    signed = site.cookies[SESSION_COOKIE]
    assert signed != planted and form_token(site) != planted_token
    # The session from before the login signs nobody in now (nor as the player).
    site.cookies.clear()
    site.cookies.set(SESSION_COOKIE, planted)
    assert who(site) != player
    site.cookies.clear()
    site.cookies.set(SESSION_COOKIE, signed)
    assert who(site) == player
    copy = site.cookies[SESSION_COOKIE]
    assert site.post("/api/logout").status_code == 200
    assert who(site) != player
    # A copy of the cookie taken before the logout is ended on the server too.
    site.cookies.clear()
    site.cookies.set(SESSION_COOKIE, copy)
    assert who(site) != player


def test_the_logout_form_ends_the_session_on_the_server(site):
    player = claimed(site, "Hopper", "nanoseconds")
    copy = site.cookies[SESSION_COOKIE]
    answer = site.post("/me", data={"action": "logout", "csrf": form_token(site)},
                       headers={"origin": OURS}, follow_redirects=False)
    assert answer.status_code == 303
    site.cookies.clear()
    site.cookies.set(SESSION_COOKIE, copy)
    assert who(site) != player
