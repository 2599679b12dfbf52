"""A move's POST does not read the game's version first (issue 30: one database round trip per
move fewer); its change reads the game again under the row lock. Here the worker that takes the
move holds a copy that knows neither the seat taken nor the move made on the other worker (their
news held back): the move is still checked against the stored game, and lands exactly once.
"""

from __future__ import annotations

from typing import Any

from tests.distributed.test_fresh_reads import bearer, worker
from tests.support import run_async


async def moves_on_a_stale_copy(db_url: str) -> dict[str, Any]:
    async with worker(db_url) as first, worker(db_url) as second:
        created = (await first.post("/api/games", json={"game": "pylos", "seats": ["human", "open"]})).json()
        game, light = created["id"], created["seats"][0]["token"]
        url = f"/api/games/{game}"
        assert (await second.get(url)).json()["seats"][1]["kind"] == "open"  # held, seat 1 open
        joined = await first.post(f"{url}/seats/1/join", json={})
        assert joined.status_code in (200, 201), joined.text
        dark = joined.json()["token"]
        opened = await first.post(f"{url}/moves", json={"move": "1a1", "ply": 0}, headers=bearer(light))
        assert opened.status_code == 200, opened.text
        reply = (await first.get(url, headers=bearer(dark))).json()["legal_moves"][0]
        # On the second worker: a seat token its copy does not know, at a ply it has not seen.
        answer = await second.post(f"{url}/moves", json={"move": reply, "ply": 1}, headers=bearer(dark))
        again = await second.post(f"{url}/moves", json={"move": reply, "ply": 1}, headers=bearer(dark))
        return {"answer": answer.status_code, "document": answer.json(), "again": again.status_code,
                "again_code": again.json().get("code"), "stored": (await first.get(url)).json()}


def test_a_move_on_a_worker_whose_copy_is_behind_is_checked_against_the_stored_game(postgres_db: str) -> None:
    seen = run_async(moves_on_a_stale_copy(postgres_db))
    assert seen["answer"] == 200, seen["document"]
    assert seen["document"]["ply"] == 2 and seen["document"]["to_move"] == 0
    assert (seen["again"], seen["again_code"]) == (409, "stale_ply")
    assert seen["stored"]["ply"] == 2 and len(seen["stored"]["moves"]) == 2
