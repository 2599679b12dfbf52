"""Fixtures of the several-workers tests (real parts only): a Redis server of this test module
(Debian's ``redis-server`` on a free port, stopped by its pid) and a fresh PostgreSQL database
per test module, created through ``$LUDOTHEQUE_TEST_POSTGRES`` (its role may CREATE DATABASE).
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ludotheque.server.config import database_url
from tests.distributed.parts import RedisServer
from tests.support.postgres import drop_database

POSTGRES_ENV = "LUDOTHEQUE_TEST_POSTGRES"


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def postgres_db() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the module's tests."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
    name = f"ludotheque_dist_{secrets.token_hex(4)}"
    admin = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()
