"""Running the app with uvicorn: in the foreground (``quarkade serve``), as several worker
processes sharing one socket (``--workers N``), or in a thread (browser tests,
screenshots). The socket is bound first, so a busy port is reported at once and the URL
printed is one that answers.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import resource
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from quarkade.server import collector
from quarkade.server.app import create_app
from quarkade.server.limits import Limits

SETTINGS = "QUARKADE_SERVER_SETTINGS"  # create_app's arguments, for worker processes
MAX_FRAME = 1 << 20  # uvicorn closes a socket whose message is larger (code 1009)


# How long a worker process may take to answer its supervisor before it is taken for hung,
# killed and replaced (uvicorn's default is 5 s). A worker starting on a busy machine, or
# one whose event loop is busy with a burst of moves or a garbage collection, answers
# late but is not hung: killed, it would drop every socket it holds (and a worker that
# starts slower than that would never be let start).
WORKER_ANSWER_SECONDS = 60


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


class HeadTimeout(H11Protocol):
    """uvicorn's h11 protocol with a deadline for a request's head: a client that has not
    sent a whole request line and headers ``Limits.header_seconds`` after connecting (or
    after its last answer) is disconnected, however slowly it trickles bytes (uvicorn's
    keep-alive timeout stops at the first byte, and it has no header timeout of its own)."""

    _head_timer: asyncio.TimerHandle | None = None

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.head_seconds = float(getattr(config, "head_seconds", Limits.header_seconds))

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

    def _wait_for_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def _head_late(self) -> None:
        # Still waiting for a head (h11 has parsed no request since the timer started) and
        # the connection is still ours (not handed over to a WebSocket).
        if (self.conn.their_state is h11.IDLE and not self.transport.is_closing()
                and self.transport.get_protocol() is self):
            self.transport.close()


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (a common soft
    default, 1,024, would run out before ``Limits.connections``); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            return soft
        return hard
    return soft


def _config(app: ASGIApp | str, limits: Limits | None = None, **more: Any) -> uvicorn.Config:
    # Behind a reverse proxy on this host, its X-Forwarded-For names the client (rate
    # limits); FORWARDED_ALLOW_IPS widens that to a proxy elsewhere (docs/DEPLOY.md).
    limits = limits or Limits()
    config = uvicorn.Config(app, log_level="warning", lifespan="on", ws="auto",
                            ws_max_size=MAX_FRAME, proxy_headers=True,
                            forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS",
                                                               "127.0.0.1"),
                            http=HeadTimeout, limit_concurrency=limits.connections,
                            timeout_keep_alive=limits.keep_alive_seconds,
                            h11_max_incomplete_event_size=limits.header_bytes, **more)
    # (an attribute, not a class made here: --workers sends the config to new processes)
    config.head_seconds = limits.header_seconds  # type: ignore[attr-defined]
    return config


def _server(app: ASGIApp, limits: Limits | None = None) -> uvicorn.Server:
    return uvicorn.Server(_config(app, limits))


def serve(sock: socket.socket, app: ASGIApp, limits: Limits | None = None) -> None:
    """Serve ``app`` (see ``create_app``) on ``sock`` until interrupted; ``limits`` gives
    uvicorn's bounds on connections (``Limits.connections`` and the timeouts)."""
    raise_file_limit()
    collector.start()
    _server(app, limits).run(sockets=[sock])


def serve_workers(sock: socket.socket, workers: int, settings: dict[str, Any],
                  limits: Limits | None = None) -> None:
    """``workers`` processes, each ``create_app(**settings)``, sharing ``sock``; a worker
    that dies is replaced. They share the database and the broker in ``settings``."""
    from uvicorn.supervisors import Multiprocess

    raise_file_limit()  # before the workers start: they inherit it
    os.environ[SETTINGS] = json.dumps(settings)
    config = _config("quarkade.server.run:app_from_environment", factory=True,
                     limits=limits, workers=workers,
                     timeout_worker_healthcheck=WORKER_ANSWER_SECONDS)
    Multiprocess(config, sockets=[sock]).run()


def app_from_environment() -> ASGIApp:
    """The app of one worker process (see ``serve_workers``)."""
    app = create_app(**json.loads(os.environ[SETTINGS]))
    collector.start()
    return app


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
