"""Server test fixtures: an app over a fresh SQLite file, driven through Starlette's
TestClient; and, once per test session, a real PostgreSQL cluster and redis-server
(``tests/server/services.py``) for the tests that run against both databases."""

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from tests.server.services import Postgres, Redis


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'quarkade.db'}"


@pytest.fixture
def client(db_url) -> Iterator[TestClient]:
    """One test client for many devices and requests: no per-address rate limits (those
    are tested on their own, in test_hardening.py)."""
    with TestClient(create_app(db_url, rate_limits=False)) as test_client:
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
