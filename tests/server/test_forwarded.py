"""Issue 26: behind a proxy, limits apply per player, not per proxy. The client address
comes from ``X-Forwarded-For`` only when the connection is from a trusted proxy
(uvicorn's ``forwarded_allow_ips``: ``FORWARDED_ALLOW_IPS``, by default this host): two
clients behind it are limited separately, and a header forged by a client that is not
the proxy changes nothing. Run against a real ``quarkade serve``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from quarkade.server.limits import Limits
from tests.server.processes import Server


def new_game(server: Server, forwarded_for: str) -> int:
    request = urllib.request.Request(
        server.url + "/api/games", method="POST",
        data=json.dumps({"game": "hadronize", "seats": ["you", "hotseat"]}).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": forwarded_for})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def until_refused(server: Server, addresses: list[str]) -> list[int]:
    """New games asked for from ``addresses`` in turn until one is refused (429)."""
    answers: list[int] = []
    for address in addresses:
        answers.append(new_game(server, address))
        if answers[-1] != 201:
            break
    return answers


def test_two_clients_behind_the_proxy_are_limited_separately(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'quarkade.db'}", "")
    burst = int(Limits().create_games.burst)
    try:
        first = until_refused(server, ["198.51.100.1"] * 100)
        assert first[-1] == 429 and len(first) > burst, first
        assert new_game(server, "198.51.100.2") == 201  # the other player is not held back
    finally:
        server.stop()


def test_a_forged_header_from_outside_the_proxy_is_ignored(tmp_path):
    # This host is not the trusted proxy here: its X-Forwarded-For is not believed.
    server = Server(f"sqlite:///{tmp_path / 'quarkade.db'}", "",
                    env={"FORWARDED_ALLOW_IPS": "192.0.2.7"})
    burst = int(Limits().create_games.burst)
    try:
        answers = until_refused(server, [f"203.0.113.{n}" for n in range(100)])
        assert answers[-1] == 429 and len(answers) > burst, answers  # one client's share
    finally:
        server.stop()
