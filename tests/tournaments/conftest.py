"""Fixtures of the tournament tests: the real app on SQLite and PostgreSQL (``db_url`` of the
server tests)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server import create_app
from ludotheque.server.config import ServerSettings

from ..server.conftest import db_url

__all__ = ["db_url", "serving"]


@contextmanager
def serving(db_url: str, **settings: Any) -> Iterator[TestClient]:
    """A test client of the app on ``db_url``; new accounts are not limited (a test makes many)."""
    settings.setdefault("account_limit", None)
    app = create_app(db_url, bot_workers=1, settings=replace(ServerSettings(), **settings))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client
