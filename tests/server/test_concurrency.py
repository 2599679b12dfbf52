"""Concurrent moves on one game: the game's lock serialises them and the ply is checked again
under it, so exactly one of many simultaneous moves for the same turn is played."""

from __future__ import annotations

import asyncio

import httpx

from ludotheque.server import create_app
from tests.support import run_async


async def race(db_url: str) -> tuple[list[int], list[str], list[str]]:
    app = create_app(db_url, bot_workers=1)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            created = (
                await http.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})
            ).json()
            game_id, light = created["id"], created["seats"][0]["token"]
            candidates = ["1a1", "1b1", "1c1", "1d1", "1a2", "1b2", "1c2", "1d2"]
            answers = await asyncio.gather(
                *(
                    http.post(
                        f"/api/games/{game_id}/moves",
                        json={"move": text, "ply": 0},
                        headers={"Authorization": f"Bearer {light}"},
                    )
                    for text in candidates
                )
            )
            doc = (await http.get(f"/api/games/{game_id}")).json()
    played = [text for text, answer in zip(candidates, answers, strict=True) if answer.status_code == 200]
    return sorted(answer.status_code for answer in answers), played, doc["moves"]


def test_only_one_of_simultaneous_moves_is_played(db_url: str) -> None:
    statuses, played, stored = run_async(race(db_url))
    assert statuses == [200] + [409] * 7
    assert stored == played and len(stored) == 1
