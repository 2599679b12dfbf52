"""The puzzle tests reuse the server tests' database fixture: each API test runs on SQLite and on
PostgreSQL (``$LUDOTHEQUE_TEST_POSTGRES``)."""

from __future__ import annotations

from tests.server.conftest import db_url, serving

__all__ = ["db_url", "serving"]
