"""Real server processes for the scale-out tests: ``quarkade serve`` started as a separate
process on a free port, spoken to over real HTTP and WebSocket connections."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import resource
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

QUARKADE = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


class Server:
    """``quarkade serve`` in its own process (``--workers`` and more via ``args``)."""

    def __init__(self, db: str, broker: str, *args: str, cwd: str | None = None,
                 env: dict[str, str] | None = None, open_files: int | None = None,
                 command: list[str] | None = None) -> None:
        # open_files: the soft limit on open files the process starts with (as systemd's);
        # command: the whole command line instead (db and broker then come from env)
        limit = None if open_files is None else (
            lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (
                open_files, resource.getrlimit(resource.RLIMIT_NOFILE)[1])))
        self.process = subprocess.Popen(
            command or [*QUARKADE, "serve", "--port", "0", "--db", db, "--broker", broker,
                        "--bot-delay", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            start_new_session=True, preexec_fn=limit)
        line = self.process.stdout.readline() if self.process.stdout else ""
        found = re.search(r"open (http://[\d.]+:\d+/) in a browser", line)
        if not found:
            self.stop()
            raise AssertionError(f"the server did not start: {line}"
                                 f"{self.process.stderr.read() if self.process.stderr else ''}")
        self.url = found.group(1).rstrip("/")
        # The socket is bound before the URL is printed: a first request waits until the
        # app answers, so no polling is needed.
        # (A machine busy with other work may take minutes to start the processes.)
        assert self.request("GET", "/healthz", timeout=300)[0] == 200

    def request(self, method: str, path: str, body: Any = None,
                token: str | None = None, timeout: float = 60) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json", "accept": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        return self.request("GET", path, token=token)

    def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        return self.request("POST", path, body, token)

    def socket(self, game_id: str, token: str | None = None,
               seat: int | None = None) -> ClientConnection:
        query = "" if seat is None else f"?seat={seat}"
        return connect(self.url.replace("http", "ws", 1) + f"/ws/games/{game_id}{query}",
                       open_timeout=30, additional_headers={"authorization": f"Bearer {token}"}
                       if token else None)

    def stop(self, kill: bool = False) -> None:
        """Stop the server (``kill``: at once, as kill -9); one that has not stopped 30 s
        after being asked to is killed."""
        if self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()


class Visitor:
    """One device of one person: its own cookies (its player's session, its games' secrets),
    sent to every server process on this host."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, server: Server, method: str, path: str, body: Any = None
                ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(server.url + path, data=data, method=method, headers={
            "content-type": "application/json", "accept": "application/json"})
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")

    def socket(self, server: Server, game_id: str, seat: int | None = None
               ) -> ClientConnection:
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        query = "" if seat is None else f"?seat={seat}"
        return connect(server.url.replace("http", "ws", 1) + f"/ws/games/{game_id}{query}",
                       open_timeout=30, additional_headers={"cookie": cookies})


def new_friend_game(server: Server, game: str = "hadronize",
                    seats: list[str] | None = None, **options: Any) -> tuple[str, dict[int, str]]:
    """A game made through ``server`` whose friend seats are joined; its id and seat tokens."""
    seats = seats or ["friend"] * int(options.get("players", 2))
    status, created = server.post("/api/games", {"game": game, "options": options,
                                                 "seats": seats})
    assert status == 201, created
    tokens = {}
    for invite in created["invites"]:
        status, joined = server.post(f"/api/games/{created['id']}/join",
                                     {"invite": invite["url"].rsplit("/", 1)[1]})
        assert status == 200, joined
        tokens[joined["seat"]] = joined["token"]
    return created["id"], tokens


def receive_state(socket: ClientConnection, done, timeout: float = 30.0) -> dict[str, Any]:
    """The first state message for which ``done(message)`` holds."""
    while True:
        message = json.loads(socket.recv(timeout=timeout))
        if message.get("type") == "state" and done(message):
            return message
