"""Issue 26: the deployment of docs/DEPLOY.md, end to end. Debian's nginx, with a
self-signed certificate and the site file deploy/nginx-quarkade.conf (its names and
ports replaced), in front of two ``quarkade serve`` processes on PostgreSQL and Redis:
over https and wss a game is made, watched through one process and played through the
other; behind TLS every cookie is ``Secure`` and HSTS is sent. (Two browsers play a whole
game through it too: tests/server/browser/test_two_processes.py.)"""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from tests.server.proxy import UNCHECKED, site
from tests.server.services import wait_until

__all__ = ["site"]


def agreed(proxy: Any, game_id: str, tokens: dict[int, str], views: dict[int, Any],
           step: int) -> bool:
    """Read every seat's view into ``views``: whether they are all of one step, ``step``
    or later."""
    views.update({seat: proxy.request("GET", f"/api/games/{game_id}?seat={seat}",
                                      token=token)[1] for seat, token in tokens.items()})
    steps = {view["step"] for view in views.values()}
    return len(steps) == 1 and min(steps) >= step


def first_state(page: Any) -> dict[str, Any]:
    while True:
        heard = json.loads(page.recv(timeout=30))
        if heard.get("type") == "state":
            return dict(heard)


def test_a_game_is_played_over_https_and_wss_through_nginx_and_two_processes(site):
    proxy, _ = site
    # nginx spreads requests over both processes.
    assert len({proxy.request("GET", "/healthz")[1]["process"] for _ in range(4)}) == 2
    status, me, headers = proxy.request("GET", "/api/me")
    assert status == 200 and me["guest"]
    cookie = headers.get_all("set-cookie")[0]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower()
    assert headers["strict-transport-security"].startswith("max-age=")
    status, made, _ = proxy.request("POST", "/api/games", {
        "game": "hadronize", "seats": ["friend", "friend"]})
    assert status == 201, made
    tokens = {}
    for invite in made["invites"]:
        status, joined, _ = proxy.request("POST", f"/api/games/{made['id']}/join",
                                          {"invite": invite["url"].rsplit("/", 1)[1]})
        assert status == 200, joined
        tokens[joined["seat"]] = joined["token"]
    # Each seat's page over wss (nginx spreads them over the two processes).
    pages = {seat: connect(
        f"wss://localhost:{proxy.port}/ws/games/{made['id']}?seat={seat}", ssl=UNCHECKED,
        open_timeout=30, additional_headers={"authorization": f"Bearer {token}",
                                             "origin": proxy.url})
        for seat, token in tokens.items()}
    try:
        shown = {seat: first_state(page) for seat, page in pages.items()}
        moves = 0
        for _ in range(400):
            # Through nginx each request may reach either process: ask until both
            # seats' views show what the pages were sent (a process may hear it late).
            views: dict[int, Any] = {}
            step = shown[0]["step"]
            wait_until(lambda views=views, step=step: agreed(proxy, made["id"], tokens,
                                                             views, step), 30,
                       "the two processes never agreed on the game")
            if views[0]["over"]:
                break
            movers = [seat for seat, view in views.items() if view.get("legal")]
            assert len(movers) == 1, views
            mover = movers[0]
            status, answer, _ = proxy.request("POST", f"/api/games/{made['id']}/actions", {
                "seat": mover, "action": views[mover]["legal"][0]["id"],
                "step": views[mover]["step"]}, token=tokens[mover])
            assert status == 200, answer
            moves += 1
            for seat, page in pages.items():  # both pages hear it, whichever process
                while True:
                    heard = json.loads(page.recv(timeout=30))
                    if heard.get("type") == "state" and heard["step"] >= answer["step"]:
                        break
                shown[seat] = heard
        else:
            raise AssertionError("the game did not end")
        assert moves > 0 and shown[0]["step"] == shown[1]["step"] == views[0]["step"]
    finally:
        for page in pages.values():
            page.close()
