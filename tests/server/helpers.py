"""Small helpers of the server tests: create a game, read its tokens, send a token."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game (Pylos, two human seats by default) and return the 201 answer."""
    body.setdefault("game", "pylos")
    body.setdefault("seats", ["human", "human"])
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def tokens(created: dict[str, Any]) -> list[str]:
    """Each seat's token ("" for seats without one)."""
    return [seat.get("token", "") for seat in created["seats"]]
