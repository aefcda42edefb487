"""Server test fixtures: an app over a fresh SQLite file, driven through Starlette's TestClient."""

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'quarkade.db'}"


@pytest.fixture
def client(db_url) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        yield test_client
