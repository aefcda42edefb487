"""Debian's nginx in front of server processes, as docs/DEPLOY.md sets it up: the site
file deploy/nginx-quarkade.conf (its names, ports and certificate replaced) with a
self-signed certificate, in a folder of its own (tests/server/test_deployment.py and the
browser test through it)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.processes import QUARKADE, Server
from tests.server.services import free_port, wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNCHECKED = ssl.create_default_context()
UNCHECKED.check_hostname = False
UNCHECKED.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
PASSWORD = "db-password-not-in-ps"  # (the test cluster trusts local users: not checked)


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
        checked = subprocess.run([program, "-t", "-p", str(folder), "-c",
                                  str(folder / "nginx.conf")], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr  # DEPLOY.md's `nginx -t`
        self.process = subprocess.Popen(
            [program, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g",
             "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.url = f"https://localhost:{self.port}"
        try:
            wait_until(self._answers, 30, "nginx did not start: " + self._log())
        except BaseException:  # the fixture never gets it to stop: stop it here
            self.stop()
            raise

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

def deployed_env(values: dict[str, str]) -> dict[str, str]:
    """deploy/quarkade.env (as the unit's EnvironmentFile reads it), ``values`` put in
    place of its placeholders (each a key the file has)."""
    found = {}
    for line in (DEPLOY / "quarkade.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            found[key.strip()] = values.get(key.strip(), value.strip())
    assert set(values) <= set(found), f"deploy/quarkade.env has no {set(values) - set(found)}"
    return found


def unit_command(port: int) -> list[str]:
    """The ExecStart line of deploy/quarkade@.service for instance ``port`` (%i), its
    program this checkout's quarkade rather than /opt/quarkade's."""
    unit = (DEPLOY / "quarkade@.service").read_text().splitlines()
    # Its settings come from the environment file only (a unit file is world-readable).
    assert "EnvironmentFile=/etc/quarkade/quarkade.env" in unit
    assert not [line for line in unit if line.startswith("Environment=")]
    for line in unit:
        if line.startswith("ExecStart="):
            program, *args = line.removeprefix("ExecStart=").replace("%i", str(port)).split()
            assert program == "/opt/quarkade/bin/quarkade", program
            return [*QUARKADE, *args]
    raise AssertionError("deploy/quarkade@.service has no ExecStart line")


@pytest.fixture
def site(postgres, redis_server, tmp_path) -> Iterator[tuple[Nginx, list[Server]]]:
    """docs/DEPLOY.md's steps, on this machine: an empty database migrated by `quarkade
    migrate` (step 2), two processes started by the unit's command line with the
    environment file's settings (step 3; its database URL with a password, which no
    process's command line shows), nginx over TLS with the site file in front (step 4)."""
    db = postgres.empty_database().replace("//quarkade@", f"//quarkade:{PASSWORD}@", 1)
    secret = secrets.token_urlsafe(48)
    env = deployed_env({"QUARKADE_DB": db, "QUARKADE_BROKER": redis_server.url(),
                        "QUARKADE_SECRET": secret})
    migrated = subprocess.run([*QUARKADE, "migrate"], env={**os.environ, **env},
                              capture_output=True, text=True)
    assert migrated.returncode == 0 and "->" in migrated.stdout, migrated
    servers: list[Server] = []
    proxy = None
    try:
        for _ in range(2):
            servers.append(Server("", "", env=env, command=unit_command(free_port())))
        for server in servers:  # what `ps` shows holds no secret
            shown = Path(f"/proc/{server.process.pid}/cmdline").read_bytes()
            assert PASSWORD.encode() not in shown and secret.encode() not in shown, shown
        proxy = Nginx(tmp_path, [s.url.removeprefix("http://") for s in servers])
        yield proxy, servers
    finally:
        if proxy is not None:
            proxy.stop()
        for server in servers:
            server.stop()
