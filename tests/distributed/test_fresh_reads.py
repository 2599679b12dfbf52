"""Several workers: a reader's first document is the stored truth, even while the other worker's
news of a change is still on its way (a loaded machine delays Redis' messages). Each worker
compares its copy's version with the database's when a reader comes (``Hub.get``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import httpx

from ludotheque.server import create_app
from ludotheque.server.bus import Bus
from ludotheque.server.config import ServerSettings
from tests.support import run_async


class Late(Bus):
    """A bus whose news never arrives in time: what a worker sees when Redis is slow."""

    def __init__(self) -> None:  # no Redis at all
        self.sent: list[dict[str, Any]] = []

    async def publish(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def close(self) -> None:
        return None


@asynccontextmanager
async def worker(db_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """One worker on ``db_url`` (its news held back), and a client of it."""
    app = create_app(db_url, bot_workers=1, settings=replace(ServerSettings(), create_limit=None))
    async with app.router.lifespan_context(app):
        app.state.hub.bus = Late()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def plies_read_on_the_other_worker(db_url: str) -> list[int]:
    """Moves made on one worker, each read on the other right after (which holds the game)."""
    seen = []
    async with worker(db_url) as first, worker(db_url) as second:
        created = (await first.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})).json()
        game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        assert (await second.get(f"/api/games/{game}")).json()["ply"] == 0  # now in its memory
        for ply in range(3):
            doc = (await first.get(f"/api/games/{game}", headers=bearer(tokens[ply % 2]))).json()
            move = {"move": doc["legal_moves"][0], "ply": ply}
            answer = await first.post(f"/api/games/{game}/moves", json=move, headers=bearer(tokens[ply % 2]))
            assert answer.status_code == 200, answer.text
            seen.append((await second.get(f"/api/games/{game}")).json()["ply"])
    return seen


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_reader_on_another_worker_gets_the_stored_position(postgres_db: str) -> None:
    assert run_async(plies_read_on_the_other_worker(postgres_db)) == [1, 2, 3]
