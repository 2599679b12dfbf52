"""Fixtures of the moderation tests: the real app on SQLite and PostgreSQL (``db_url`` of the
server tests), three people (a reporter, a reported player, a moderator granted by the command)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ludotheque.cli.main import app as cli
from ludotheque.server import create_app
from ludotheque.server.config import ServerSettings

from ..server.conftest import db_url
from ..server.test_accounts import SESSION, sign_up

__all__ = ["People", "db_url", "grant", "people"]


@dataclass
class People:
    """The client and each person's session token (``as_(name)`` sends that one's cookie only)."""

    client: TestClient
    sessions: dict[str, str]
    db: str

    def as_(self, name: str | None) -> dict[str, str]:
        return {"Cookie": f"{SESSION}={self.sessions[name]}"} if name else {"Cookie": ""}


def grant(db: str, name: str, *, revoke: bool = False) -> str:
    """``ludotheque moderator NAME --db URL`` (``--revoke``); its output."""
    result = CliRunner().invoke(cli, ["moderator", name, "--db", db, *(["--revoke"] if revoke else [])])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def people(db_url: str) -> Iterator[People]:
    """Ada (who reports), Bob (who is reported) and Mod (a moderator), signed up."""
    settings = replace(ServerSettings(), account_limit=None, chat_limit=None, signin_limit=None,
                       signin_account_limit=None)
    with TestClient(create_app(db_url, bot_workers=1, settings=settings)) as client:
        sessions = {}
        for name in ("Ada", "Bob", "Mod"):
            client.cookies.clear()
            sign_up(client, name)
            sessions[name] = client.cookies[SESSION]
        client.cookies.clear()
        grant(db_url, "Mod")
        yield People(client, sessions, db_url)
