"""Issue 26: an invite or device link is spent by a POST only. Opening one (a chat app's
link preview, a prefetcher, a virus scanner) shows the seat and a "Take the seat" button
and changes nothing; the friend's own click takes the seat.

Before: ``curl -A facebookexternalhit/1.1 /games/G/join/CODE`` took the friend's seat and
started the game; the friend then got 403 and the host's renew 409."""

from __future__ import annotations

from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import bearer, form_token, post_form

PREVIEW = {"user-agent": "facebookexternalhit/1.1", "accept": "text/html"}


def test_a_preview_of_an_invite_leaves_the_seat_to_the_friend(any_db):
    with TestClient(create_app(any_db, rate_limits=False)) as host:
        made = host.post("/api/games", json={"game": "hadronize",
                                             "seats": ["you", "friend"]}).json()
        game_id, invite = made["id"], made["invites"][0]["url"]
        preview = TestClient(host.app, headers=PREVIEW)
        preview.portal = host.portal
        for _ in range(2):
            shown = preview.get(invite)
            assert shown.status_code == 200 and "Take the seat" in shown.text
            assert preview.head(invite).status_code == 200
        host_view = host.get(f"/api/games/{game_id}", headers=bearer(made["host_token"]))
        assert host_view.json()["invites"] == [{"seat": 1, "joined": False,
                                                "url": invite}]
        assert host_view.json()["waiting"]
        # The friend opens it too, then clicks: the seat is theirs and the game begins.
        friend = TestClient(host.app)
        friend.portal = host.portal
        page = friend.get(invite)
        assert page.status_code == 200 and 'id="take-seat"' in page.text
        taken = friend.post(invite, data={"csrf": form_token(friend, invite)},
                            follow_redirects=False)
        assert taken.status_code == 303
        assert taken.headers["location"] == f"/games/{game_id}?seat=1"
        assert friend.get(f"/api/games/{game_id}").json()["held"] == [1]
        assert not friend.get(f"/api/games/{game_id}").json()["waiting"]
        # The preview holds nothing; opening the spent link shows why.
        assert preview.get(f"/api/games/{game_id}").json()["held"] == []
        assert preview.get(invite).status_code == 403
        # The friend opening it again is sent to the game.
        again = friend.get(invite, follow_redirects=False)
        assert again.status_code == 303 and again.headers["location"].endswith("?seat=1")


def test_a_posted_invite_without_the_pages_token_takes_nothing(any_db):
    with TestClient(create_app(any_db, rate_limits=False)) as host:
        made = host.post("/api/games", json={"game": "hadronize",
                                             "seats": ["you", "friend"]}).json()
        host.cookies.clear()
        invite = made["invites"][0]["url"]
        refused = host.post(invite, data={}, follow_redirects=False)
        assert refused.status_code == 403
        assert host.get(f"/api/games/{made['id']}",
                        headers=bearer(made["host_token"])).json()["waiting"]


def test_a_preview_of_a_device_link_leaves_it_to_the_device(any_db):
    with TestClient(create_app(any_db, rate_limits=False)) as host:
        made = host.post("/api/games", json={"game": "hadronize",
                                             "seats": ["you", "bot:random"]}).json()
        game_id, seat_token = made["id"], made["tokens"]["0"]
        host.cookies.clear()
        link = host.post(f"/api/games/{game_id}/seats/0/link",
                         headers=bearer(seat_token)).json()["url"]
        preview = TestClient(host.app, headers=PREVIEW)
        preview.portal = host.portal
        shown = preview.get(link)
        assert shown.status_code == 200 and "Take the seat" in shown.text
        assert preview.get(f"/api/games/{game_id}").json()["held"] == []
        phone = TestClient(host.app)
        phone.portal = host.portal
        taken = post_form(phone, link, {}, follow_redirects=False)
        assert taken.status_code == 303
        assert phone.get(f"/api/games/{game_id}").json()["held"] == [0]
        assert preview.get(link).status_code == 403  # spent
