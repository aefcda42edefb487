"""Server test fixtures: an app over a fresh SQLite file, driven through Starlette's
TestClient; and, once per test session, a real PostgreSQL cluster and redis-server
(``tests/server/services.py``) for the tests that run against both databases."""

import os
import zlib
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.helpers import BotGate
from tests.server.services import Postgres, Redis


@pytest.fixture(scope="session", autouse=True)
def session_key_file(tmp_path_factory) -> Iterator[None]:
    """Every server of the test session keeps its session key in one file of its own
    (as processes on one host share theirs), never in the user's folders."""
    before = os.environ.get("QUARKADE_SECRET_FILE")
    os.environ["QUARKADE_SECRET_FILE"] = str(tmp_path_factory.mktemp("keys") / "session.key")
    yield
    if before is None:
        os.environ.pop("QUARKADE_SECRET_FILE")
    else:
        os.environ["QUARKADE_SECRET_FILE"] = before


@pytest.fixture
def bot_gate(tmp_path) -> Iterator[BotGate]:
    gate = BotGate(tmp_path)
    yield gate
    gate.close()


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'quarkade.db'}"


@pytest.fixture
def client(db_url, request) -> Iterator[TestClient]:
    """One test client for many devices and requests: no per-address rate limits (those
    are tested on their own, in test_hardening.py). Its deals are seeded by the test's name,
    so a test sees the same deals on every run (the secure source is tested on its own, in
    test_restart.py)."""
    seed = zlib.crc32(request.node.nodeid.encode())
    with TestClient(create_app(db_url, rate_limits=False, chance_seed=seed)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    yield cluster
    cluster.close()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    server = Redis()
    yield server
    server.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path) -> str:
    """A fresh database of each kind: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'quarkade.db'}"
    return request.getfixturevalue("postgres").new_database()
