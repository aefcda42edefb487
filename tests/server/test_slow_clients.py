"""Issue 26: slow and many connections against uvicorn itself (no proxy in front).

Before: a client that trickled its request head a byte at a time kept its connection (and
a file) for as long as it liked: uvicorn has no header timeout, and its keep-alive timeout
stops at the first byte; 1,000 of them under a 1,024-file limit made every request fail.
Now a request head must be whole within ``Limits.header_seconds`` of connecting, each
process raises its soft limit on open files to the hard one at start, and uvicorn answers
503 past ``Limits.connections``. Run against a real ``quarkade serve``."""

from __future__ import annotations

import resource
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from quarkade.server.limits import Limits
from tests.server.processes import Server


def _soft_file_limit(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-files line in /proc/PID/limits")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_slow_request_head_is_cut_off_while_another_client_is_answered(tmp_path, workers,
                                                                        request):
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    # --workers 2: the settings reach processes started by uvicorn's supervisor
    broker = request.getfixturevalue("redis_server").url() if workers > 1 else ""
    server = Server(f"sqlite:///{tmp_path / 'quarkade.db'}", broker, "--workers",
                    str(workers), open_files=min(256, hard))
    host, port = server.url.removeprefix("http://").split(":")
    try:
        assert _soft_file_limit(server.process.pid) == hard  # raised at start
        slow = socket.create_connection((host, int(port)), timeout=5)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        limit = Limits().header_seconds
        closed_after = None
        answered = 0
        # A byte of a header every half second, as a slow-loris client sends them, while
        # another client's requests are answered.
        while time.monotonic() - started < limit + 10:
            try:
                slow.sendall(b"X")
                slow.settimeout(0.5)
                if slow.recv(1024) == b"":
                    closed_after = time.monotonic() - started
                    break
            except TimeoutError:
                pass
            except OSError:  # reset by the server
                closed_after = time.monotonic() - started
                break
            with urllib.request.urlopen(server.url + "/healthz", timeout=10) as answer:
                assert answer.status == 200
                answered += 1
        slow.close()
        assert closed_after is not None, "the slow client was never cut off"
        assert closed_after <= limit + 3, closed_after
        assert answered >= 5
    finally:
        server.stop()
