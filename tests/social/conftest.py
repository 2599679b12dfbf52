"""The friends and clubs tests run against SQLite and PostgreSQL, as the server's tests do."""

from __future__ import annotations

from tests.server.conftest import client, db_url  # noqa: F401  (the server tests' fixtures)
