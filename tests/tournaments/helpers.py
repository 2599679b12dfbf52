"""People and the hub's hook for the tournament tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from fastapi.testclient import TestClient

SESSION = "ludotheque_session"


class Person:
    """One account (a guest, or a player when ``password`` is given); every request carries its
    session cookie only, as a browser of its own would. ``client``: any ``httpx.Client`` on the
    server (a ``TestClient`` is one)."""

    def __init__(self, client: httpx.Client, name: str | None = None, password: str = "correct horse"
                 ) -> None:
        client.cookies.clear()
        if name is None:
            answer = client.post("/api/account/guest")
        else:
            answer = client.post("/api/account/signup", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        self.account = answer.json()["account"]
        self.name: str = self.account["name"]
        self.headers = {"Cookie": f"{SESSION}={client.cookies.get(SESSION)}"}
        client.cookies.clear()

    def get(self, client: httpx.Client, path: str) -> Any:
        return client.get(path, headers=self.headers)

    def post(self, client: httpx.Client, path: str, body: Any = None) -> Any:
        return client.post(path, json=body, headers=self.headers)


def game_ended(client: TestClient, game_id: str) -> None:
    """THE HUB'S HOOK, called by hand: what ``Hub._change`` calls when a game ends
    (``Hub.game_over_handlers``, see docs/tournaments.md). Idempotent: harmless once the hub
    calls it too."""
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    client.portal.call(service.game_over, game_id)  # type: ignore[union-attr]


def sweep(client: TestClient) -> None:
    """The tournaments' periodic sweep, now."""
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    client.portal.call(service.sweep)  # type: ignore[union-attr]


def eventually(check: Callable[[], Any], seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)
