"""Running the app with uvicorn: in the foreground (``quarkade serve``), as several worker
processes sharing one socket (``--workers N``), or in a thread (browser tests,
screenshots). The socket is bound first, so a busy port is reported at once and the URL
printed is one that answers.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from quarkade.server.app import create_app

SETTINGS = "QUARKADE_SERVER_SETTINGS"  # create_app's arguments, for worker processes
MAX_FRAME = 1 << 20  # uvicorn closes a socket whose message is larger (code 1009)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port); ``OSError`` if taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _config(app: ASGIApp | str, **more: Any) -> uvicorn.Config:
    # Behind a reverse proxy on this host, its X-Forwarded-For names the client (rate
    # limits); FORWARDED_ALLOW_IPS widens that to a proxy elsewhere (docs/DEPLOY.md).
    return uvicorn.Config(app, log_level="warning", lifespan="on", ws="auto",
                          ws_max_size=MAX_FRAME, proxy_headers=True,
                          forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS",
                                                             "127.0.0.1"), **more)


def _server(app: ASGIApp) -> uvicorn.Server:
    return uvicorn.Server(_config(app))


def serve(sock: socket.socket, app: ASGIApp) -> None:
    """Serve ``app`` (see ``create_app``) on ``sock`` until interrupted."""
    _server(app).run(sockets=[sock])


def serve_workers(sock: socket.socket, workers: int, settings: dict[str, Any]) -> None:
    """``workers`` processes, each ``create_app(**settings)``, sharing ``sock``; a worker
    that dies is replaced. They share the database and the broker in ``settings``."""
    from uvicorn.supervisors import Multiprocess

    os.environ[SETTINGS] = json.dumps(settings)
    config = _config("quarkade.server.run:app_from_environment", factory=True,
                     workers=workers)
    Multiprocess(config, sockets=[sock]).run()


def app_from_environment() -> ASGIApp:
    """The app of one worker process (see ``serve_workers``)."""
    return create_app(**json.loads(os.environ[SETTINGS]))


class ServerThread:
    """The app served from a thread on a free local port; ``start()`` returns once it answers.

    >>> # with ServerThread("sqlite:///x.db") as server: urlopen(server.url)
    """

    def __init__(self, db: str, bot_delay: float = 0.0, host: str = "127.0.0.1",
                 **settings: Any) -> None:
        self.db = db
        self.settings = settings  # create_app's other arguments
        self.sock = bind(host, 0)
        self.url = url_of(self.sock)
        self.server = _server(create_app(db, bot_delay=bot_delay, **settings))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True, name="quarkade-server")

    def start(self, timeout: float = 20.0) -> ServerThread:
        self.thread.start()
        _poll(self._answers, timeout, f"the server at {self.url} did not answer")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _answers(self) -> bool:
        if not self.server.started:
            return False
        host, port = self.sock.getsockname()[:2]
        connection = http.client.HTTPConnection(host, port, timeout=2)
        try:
            connection.request("GET", "/static/app.css")
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()


def _poll(ready: Callable[[], bool], timeout: float, message: str) -> None:
    """Wait until ``ready()`` by polling (every 20 ms), or raise ``TimeoutError``."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError(message)
        time.sleep(0.02)
