"""Fixtures of the observability tests: the server tests' app over SQLite and PostgreSQL
(``client``, ``db_url``), and the several-workers tests' Redis and PostgreSQL database."""

from __future__ import annotations

from tests.distributed.conftest import postgres_db, redis_server
from tests.server.conftest import client, db_url

__all__ = ["client", "db_url", "postgres_db", "redis_server"]
