"""A server killed mid-game (a real process, SIGKILL) and started again on the same database
resumes every game: positions, clocks (which ran on meanwhile) and bots."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.support.server import ServerProcess


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for_ply(http: httpx.Client, game_id: str, ply: int, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = http.get(f"/api/games/{game_id}").json()
        if doc["ply"] >= ply:
            return doc
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} never reached ply {ply}")


def test_a_killed_server_resumes_games_and_clocks(db_url: str) -> None:
    server = ServerProcess(db_url).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            clocked = http.post(
                "/api/games",
                json={
                    "game": "pylos",
                    "seats": ["human", "human"],
                    "clock": {"type": "fischer", "minutes": 10, "increment": 5},
                },
            ).json()
            light, dark = (seat["token"] for seat in clocked["seats"])
            http.post(f"/api/games/{clocked['id']}/moves", json={"move": "1a1"}, headers=bearer(light))
            http.post(f"/api/games/{clocked['id']}/moves", json={"move": "1b1"}, headers=bearer(dark))
            before = http.get(f"/api/games/{clocked['id']}").json()
            against_bot = http.post(
                "/api/games", json={"game": "pylos", "seats": ["human", "bot:random"]}
            ).json()
            human = against_bot["seats"][0]["token"]
            http.post(f"/api/games/{against_bot['id']}/moves", json={"move": "1d4"}, headers=bearer(human))
        server.kill()
        time.sleep(1.0)
        server.start()
        with httpx.Client(base_url=server.url, timeout=10) as http:
            after = http.get(f"/api/games/{clocked['id']}").json()
            assert after["moves"] == before["moves"] == ["1a1", "1b1"]
            assert after["clock"]["running"] == 0 and after["status"] == "playing"
            spent = before["clock"]["remaining_ms"][0] - after["clock"]["remaining_ms"][0]
            assert 1000 <= spent < 60_000, "the clock went on while the server was down"
            assert after["clock"]["remaining_ms"][1] == before["clock"]["remaining_ms"][1]
            moved = http.post(
                f"/api/games/{clocked['id']}/moves", json={"move": "1c1", "ply": 2}, headers=bearer(light)
            )
            assert moved.status_code == 200 and moved.json()["clock"]["running"] == 1
            resumed = wait_for_ply(http, against_bot["id"], 2)
            assert resumed["moves"][0] == "1d4" and resumed["to_move"] == 0
    finally:
        server.stop()
