"""Issue 26: the deployment of docs/DEPLOY.md, end to end. Debian's nginx, with a
self-signed certificate and the site file deploy/nginx-quarkade.conf (its names and
ports replaced), in front of two ``quarkade serve`` processes on PostgreSQL and Redis:
over https and wss a game is made, watched through one process and played through the
other; behind TLS every cookie is ``Secure`` and HSTS is sent."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.server.processes import Server
from tests.server.services import free_port, wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNCHECKED = ssl.create_default_context()
UNCHECKED.check_hostname = False
UNCHECKED.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate


class Nginx:
    """Debian's nginx in a folder of its own, serving the deploy/ site file over TLS."""

    def __init__(self, folder: Path, upstreams: list[str]) -> None:
        program = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(program).exists():
            pytest.fail("nginx is missing; sudo apt-get install -y nginx openssl")
        self.folder = folder
        self.port = free_port()
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"),
                        "-days", "1", "-subj", "/CN=localhost"], check=True,
                       capture_output=True)
        site = (DEPLOY / "nginx-quarkade.conf").read_text()
        site = site.replace("    server 127.0.0.1:8001;\n    server 127.0.0.1:8002;\n",
                            "".join(f"    server {u};\n" for u in upstreams))
        site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{self.port} ssl;")
        site = site.replace("/etc/letsencrypt/live/games.example.org/fullchain.pem",
                            str(folder / "cert.pem"))
        site = site.replace("/etc/letsencrypt/live/games.example.org/privkey.pem",
                            str(folder / "key.pem"))
        site = site.replace("games.example.org", "localhost")
        (folder / "site.conf").write_text(site)
        temp = "".join(f"    {kind}_temp_path {folder / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            "events {}\nhttp {\n    access_log off;\n" + temp +
            f"    include {folder / 'site.conf'};\n}}\n")
        self.process = subprocess.Popen(
            [program, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g",
             "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"https://localhost:{self.port}"
        wait_until(self._answers, 30, "nginx did not start: " + self._log())

    def _log(self) -> str:
        log = self.folder / "error.log"
        return log.read_text() if log.exists() else ""

    def _answers(self) -> bool:
        try:
            return self.request("GET", "/readyz")[0] == 200
        except OSError:
            return False

    def request(self, method: str, path: str, body: Any = None, token: str | None = None
                ) -> tuple[int, Any, Any]:
        headers = {"content-type": "application/json", "accept": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            self.url + path, method=method, headers=headers,
            data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=30, context=UNCHECKED) as answer:
                return answer.status, json.loads(answer.read() or b"null"), answer.headers
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null"), refused.headers

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def first_state(page: Any) -> dict[str, Any]:
    while True:
        heard = json.loads(page.recv(timeout=30))
        if heard.get("type") == "state":
            return dict(heard)


@pytest.fixture
def site(postgres, redis_server, tmp_path) -> Iterator[tuple[Nginx, list[Server]]]:
    db, broker = postgres.new_database(), redis_server.url()
    servers = [Server(db, broker), Server(db, broker)]
    proxy = None
    try:
        proxy = Nginx(tmp_path, [s.url.removeprefix("http://") for s in servers])
        yield proxy, servers
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()


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
        state = shown[0]
        moves = 0
        while not state.get("over") and moves < 400:
            mover = state["to_move"]
            status, view, _ = proxy.request("GET", f"/api/games/{made['id']}?seat={mover}",
                                            token=tokens[mover])
            status, answer, _ = proxy.request("POST", f"/api/games/{made['id']}/actions", {
                "seat": mover, "action": view["legal"][0]["id"], "step": view["step"]},
                token=tokens[mover])
            assert status == 200, answer
            moves += 1
            for seat, page in pages.items():  # both pages hear it, whichever process
                while True:
                    heard = json.loads(page.recv(timeout=30))
                    if heard.get("type") == "state" and heard["step"] >= answer["step"]:
                        break
                shown[seat] = heard
            state = shown[0]
        assert state.get("over") and shown[1].get("over"), moves
    finally:
        for page in pages.values():
            page.close()
