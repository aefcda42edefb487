"""The real PostgreSQL and Redis the server tests run against: Debian's binaries, each
started on a private port and directory for the test session and stopped at its end.

`make test` installs them as root (apt-get install postgresql redis-server). Where they
are missing, a test that needs them fails and says how to install them: it never skips.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

INSTALL = "as root: apt-get install -y postgresql redis-server (make test does it)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(ready, timeout: float, message: str) -> None:
    """Poll ``ready()`` every 20 ms (a service starting up), else fail with ``message``."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail(message)
        time.sleep(0.02)


class Postgres:
    """A private PostgreSQL cluster; ``new_database()`` gives a fresh, migrated database."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            pytest.fail(f"PostgreSQL's server binaries are missing; {INSTALL}")
        self.bin = Path(found[-1]).parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="quarkade-pg-"))
        self.data = self.dir / "data"
        # initdb refuses to run as root: then the cluster belongs to the postgres user.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "quarkade",
                  "-E", "UTF8", "--no-sync")
        self.start()
        self.counter = itertools.count()
        self.template: str | None = None

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.dir)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.dir / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://quarkade@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=quarkade "
                             "dbname=postgres", autocommit=True) as connection:
            connection.execute(sql)

    def new_database(self) -> str:
        """A new database at the newest schema (copied from a migrated template)."""
        if self.template is None:
            from quarkade.server.storage import Store

            self.admin("CREATE DATABASE q_template")
            Store(self.url("q_template")).close()
            self.template = "q_template"
        name = f"q_{os.getpid()}_{next(self.counter)}"
        self.admin(f"CREATE DATABASE {name} TEMPLATE {self.template}")
        return self.url(name)

    def empty_database(self) -> str:
        name = f"e_{os.getpid()}_{next(self.counter)}"
        self.admin(f"CREATE DATABASE {name}")
        return self.url(name)

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A private redis-server (no persistence) on a free port."""

    def __init__(self) -> None:
        program = shutil.which("redis-server")
        if program is None:
            pytest.fail(f"redis-server is missing; {INSTALL}")
        self.port = free_port()
        self.process = subprocess.Popen(
            [program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.counter = itertools.count()
        wait_until(self._answers, 20, f"redis-server on port {self.port} did not start")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def url(self) -> str:
        """A broker URL on its own channel, so tests never hear each other."""
        return f"redis://127.0.0.1:{self.port}/0?channel=t{os.getpid()}x{next(self.counter)}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
