"""Signed-in players for the friends and clubs tests: each one a browser of their own."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

PASSWORD = "correct horse"


class Person:
    """One signed-in player: every request sends their session cookie only."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.name = name
        answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.cookie = {"Cookie": f"ludotheque_session={client.cookies.get('ludotheque_session')}"}
        client.cookies.clear()

    @classmethod
    def on(cls, client: TestClient, person: Person) -> Person:
        """``person`` (their session) talking to another worker's ``client``."""
        other = cls.__new__(cls)
        other.client, other.name, other.cookie = client, person.name, person.cookie
        return other

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self.cookie)

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(path, json=body, headers=self.cookie)

    def delete(self, path: str) -> Any:
        return self.client.delete(path, headers=self.cookie)

    def socket(self, path: str) -> Any:
        return self.client.websocket_connect(path, headers=self.cookie)


def read_until(socket: WebSocketTestSession, kind: str, limit: int = 20) -> dict[str, Any]:
    """The next message of type ``kind`` (others skipped)."""
    for _ in range(limit):
        message: dict[str, Any] = socket.receive_json()
        if message.get("type") == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def eventually(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    """Poll ``check`` until it returns something true (what a socket's end does runs after it)."""
    deadline = time.monotonic() + seconds
    while not (value := check()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value
