"""``GET /health`` and ``GET /ready`` on a real app and database (SQLite and PostgreSQL): ready
while the database answers at the head migration; 503 naming the failing part when the
database is unreachable or its schema is not at the head."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import make_url

from ludotheque.server.config import database_url
from tests.server.conftest import POSTGRES_ENV, fresh_postgres_schema, serving

from .helpers import Proxy


def test_health_answers_while_the_process_does(client: TestClient) -> None:
    answer = client.get("/health")
    assert answer.status_code == 200 and answer.json() == {"status": "alive"}


def test_ready_when_the_database_answers_at_the_head(client: TestClient) -> None:
    answer = client.get("/ready")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"status": "ready", "checks": {
        "database": "ok", "migrations": "ok", "redis": "not configured"}}


def test_not_ready_when_the_schema_is_not_at_the_head(client: TestClient) -> None:
    engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        head = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        connection.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    try:
        answer = client.get("/ready")
        assert answer.status_code == 503, answer.text
        body = answer.json()
        assert body["code"] == "unavailable" and body["status"] == "unready"
        assert body["checks"]["database"] == "ok"
        assert body["checks"]["migrations"].startswith("at revision older, the head is ")
        assert body["error"].startswith("migrations: ")
        assert client.get("/health").status_code == 200
    finally:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head})
    assert client.get("/ready").status_code == 200


def test_not_ready_when_sqlite_cannot_be_opened(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with serving(f"sqlite:///{path}") as client:
        assert client.get("/ready").status_code == 200
        engine = client.app.state.hub.storage.engine  # type: ignore[attr-defined]
        aside = tmp_path / "aside"
        aside.mkdir()
        for name in os.listdir(tmp_path):
            if name.startswith("games.db"):
                shutil.move(tmp_path / name, aside / name)
        path.mkdir()  # a folder where the database was: it cannot be opened
        # Only now: a connection the server's own tasks opened meanwhile would still read the
        # moved file; the next check must open the path anew.
        engine.dispose()
        try:
            answer = client.get("/ready")
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["checks"]["database"].startswith("unreachable: ")
            assert body["error"].startswith("database: unreachable")
            assert client.get("/health").status_code == 200
        finally:
            path.rmdir()
            engine.dispose()
            for name in os.listdir(aside):
                shutil.move(aside / name, tmp_path / name)
        assert client.get("/ready").status_code == 200


def test_not_ready_when_postgresql_is_unreachable() -> None:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
    schema_url = fresh_postgres_schema(url, "ludotheque_ready")
    parsed = make_url(database_url(schema_url))
    with Proxy((parsed.host or "127.0.0.1", parsed.port or 5432)) as proxy:
        through = parsed.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        with serving(through) as client:
            assert client.get("/ready").status_code == 200
            proxy.stop()
            answer = client.get("/ready")
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["code"] == "unavailable"
            assert body["checks"]["database"].startswith(("unreachable: ", "no answer within"))
            assert "ludotheque:ludotheque" not in answer.text  # never the password
            assert client.get("/health").status_code == 200
