"""Fixtures of the server tests: each test runs against SQLite and PostgreSQL.

PostgreSQL comes from ``$LUDOTHEQUE_TEST_POSTGRES`` (e.g.
``postgresql://ludotheque:ludotheque@127.0.0.1:5432/ludotheque_test``); CI always sets it, so
the PostgreSQL half is skipped only on a machine without that variable.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from ludotheque.server import create_app
from ludotheque.server.config import ServerSettings, database_url

POSTGRES_ENV = "LUDOTHEQUE_TEST_POSTGRES"


def fresh_postgres_schema(url: str, prefix: str = "ludotheque_test") -> str:
    """An empty schema named ``prefix`` for this test, one per pytest-xdist worker (so that workers
    sharing the database never meet), and the URL whose connections use it."""
    schema = f"{prefix}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    engine = create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ludotheque.db'}"
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
    return fresh_postgres_schema(url)


@contextmanager
def serving(db_url: str, **settings: Any) -> Iterator[TestClient]:
    """A test client of an app on ``db_url`` with the default settings but ``settings``
    (whatever ``LUDOTHEQUE_*`` variables the machine has)."""
    app = create_app(db_url, bot_workers=1, settings=replace(ServerSettings(), **settings))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client
