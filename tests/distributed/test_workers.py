"""Several server workers on one PostgreSQL database and one Redis (real processes, real sockets):
each client talks to the worker the test chooses, as a load balancer would send it.

- a live game whose two players and a spectator hold sockets on different workers, its chat and
  the players' own "your turn" sockets;
- 50 identical moves sent to two workers at once: exactly one is played;
- a worker killed (SIGKILL) mid-game: nothing lost, the game and its clock go on through the
  other, and the flag of a game only the dead worker held still falls on time;
- Redis restarted: the workers subscribe again and documents flow again, including a change
  made while Redis was away.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import httpx
import pytest
import websockets

from tests.distributed.parts import RedisServer, two_workers, worker
from tests.support import run_async
from tests.support.server import ServerProcess

WAIT_S = 10.0
# Clocks of a few seconds: the shortest clock is lowered for these workers.
SHORT_CLOCKS = {"LUDOTHEQUE_MIN_CLOCK_MINUTES": "0.01"}


@pytest.fixture(scope="module")
def pair(postgres_db: str, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with two_workers(postgres_db, redis_server.url, SHORT_CLOCKS) as workers:
        yield workers


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@asynccontextmanager
async def socket_on(server: ServerProcess, path: str, headers: dict[str, str] | None = None
                    ) -> AsyncIterator[Any]:
    async with websockets.connect(server.ws_url + path, additional_headers=headers, max_size=None) as socket:
        yield socket


async def next_message(socket: Any, wanted: Any, timeout: float = WAIT_S) -> dict[str, Any]:
    """The first message for which ``wanted(message)`` holds (others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if wanted(message):
                return message


def at_ply(ply: int) -> Any:
    return lambda message: message.get("id") is not None and message.get("ply") == ply


async def live_game(a: ServerProcess, b: ServerProcess) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as http:
        created = (await http.post(f"{a.url}/api/games", json={
            "game": "pylos", "seats": ["human", "human"],
            "clock": {"type": "fischer", "minutes": 10, "increment": 0}})).json()
        game, (light, dark) = created["id"], (seat["token"] for seat in created["seats"])
        path = f"/api/games/{game}/ws"
        async with socket_on(a, f"{path}?token={light}") as light_socket, \
                socket_on(b, f"{path}?token={dark}") as dark_socket, socket_on(b, path) as spectator:
            for socket in (light_socket, dark_socket, spectator):
                assert (await next_message(socket, at_ply(0)))["status"] == "playing"
            # Light moves on worker A's socket: B pushes it to dark and to the spectator.
            await light_socket.send(json.dumps({"type": "move", "move": "1a1", "ply": 0}))
            seen_by_dark = await next_message(dark_socket, at_ply(1))
            assert seen_by_dark["moves"] == ["1a1"] and seen_by_dark["legal_moves"]
            assert seen_by_dark["clock"]["running"] == 1
            assert (await next_message(spectator, at_ply(1)))["legal_moves"] == []
            # Dark moves over HTTP on A: light's socket on A and the spectator's on B see it.
            moved = await http.post(f"{a.url}/api/games/{game}/moves", json={"move": "1b1", "ply": 1},
                                    headers=bearer(dark))
            assert moved.status_code == 200, moved.text
            assert (await next_message(light_socket, at_ply(2)))["moves"] == ["1a1", "1b1"]
            assert (await next_message(spectator, at_ply(2)))["moves"] == ["1a1", "1b1"]
            # B read its copy again: a plain read there shows the move made on A.
            assert (await http.get(f"{b.url}/api/games/{game}")).json()["ply"] == 2
            # The players' chat: written on B, read on A's socket.
            line = await http.post(f"{b.url}/api/games/{game}/chat", json={"text": "bien joué"},
                                   headers=bearer(dark))
            assert line.status_code == 201, line.text
            chat = await next_message(light_socket, lambda m: m.get("type") == "chat")
            assert chat["line"]["text"] == "bien joué" and chat["line"]["seat"] == 1


def test_players_and_spectator_on_different_workers(pair: tuple[ServerProcess, ServerProcess]) -> None:
    run_async(live_game(*pair))


def cookie_header(http: httpx.AsyncClient) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in http.cookies.items())}


async def turns_across_workers(a: ServerProcess, b: ServerProcess) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as ada, httpx.AsyncClient(timeout=WAIT_S) as bob:
        for person in (ada, bob):
            assert (await person.post(f"{a.url}/api/account/guest")).status_code == 201
        game = (await ada.post(f"{a.url}/api/games", json={
            "game": "pylos", "seats": ["human", "open"],
            "clock": {"type": "correspondence", "days": 2}})).json()["id"]
        async with socket_on(a, "/api/me/ws", cookie_header(bob)) as bob_socket:
            assert (await next_message(bob_socket, lambda m: m.get("type") == "turns"))["count"] == 0
            joined = await bob.post(f"{b.url}/api/games/{game}/seats/1/join", json={})
            assert joined.status_code in (200, 201), joined.text
            # Ada moves on worker B; Bob's own socket is on A.
            moved = await ada.post(f"{b.url}/api/games/{game}/moves", json={"move": "1a1"})
            assert moved.status_code == 200, moved.text
            counted = await next_message(bob_socket, lambda m: m.get("type") == "turns" and m["count"] == 1)
            assert counted["games"] == [game]
            told = await next_message(bob_socket, lambda m: m.get("type") == "your_turn")
            assert told == {"type": "your_turn", "game": game, "name": "pylos"}


def test_your_turn_reaches_a_person_socket_on_another_worker(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    run_async(turns_across_workers(*pair))


async def race(a: ServerProcess, b: ServerProcess) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        created = (await http.post(f"{a.url}/api/games", json={"game": "pylos", "seats": ["human", "human"]})
                   ).json()
        game, light = created["id"], created["seats"][0]["token"]
        await http.get(f"{b.url}/api/games/{game}")  # both workers hold the game
        answers = await asyncio.gather(*(
            http.post(f"{server.url}/api/games/{game}/moves", json={"move": "1a1", "ply": 0},
                      headers=bearer(light))
            for server in [a, b] * 25
        ))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200] + [409] * 49, statuses
        assert {answer.json()["code"] for answer in answers if answer.status_code == 409} == {"stale_ply"}
        for server in (a, b):
            doc = (await http.get(f"{server.url}/api/games/{game}")).json()
            assert doc["moves"] == ["1a1"] and doc["ply"] == 1
        record = (await http.get(f"{a.url}/api/games/{game}/record")).json()
        assert record["moves"] == ["1a1"]
        # The game goes on from the one move that landed, on either worker.
        dark = created["seats"][1]["token"]
        moved = await http.post(f"{b.url}/api/games/{game}/moves", json={"move": "1b1", "ply": 1},
                                headers=bearer(dark))
        assert moved.status_code == 200 and moved.json()["moves"] == ["1a1", "1b1"]


def test_fifty_identical_moves_on_two_workers_land_once(pair: tuple[ServerProcess, ServerProcess]) -> None:
    run_async(race(*pair))


async def redis_restart(a: ServerProcess, b: ServerProcess, redis: RedisServer) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as http:
        created = (await http.post(f"{a.url}/api/games", json={"game": "pylos", "seats": ["human", "human"]})
                   ).json()
        game, (light, dark) = created["id"], [seat["token"] for seat in created["seats"]]
        async with socket_on(b, f"/api/games/{game}/ws?token={dark}") as dark_socket:
            await next_message(dark_socket, at_ply(0))
            redis.stop()
            # Made while Redis is away: stored, announced to nobody.
            moved = await http.post(f"{a.url}/api/games/{game}/moves", json={"move": "1a1"},
                                    headers=bearer(light))
            assert moved.status_code == 200, moved.text
            redis.start()
            # B subscribes again and reads its games again: the move reaches dark's socket.
            assert (await next_message(dark_socket, at_ply(1), timeout=15))["moves"] == ["1a1"]
            await http.post(f"{b.url}/api/games/{game}/moves", json={"move": "1b1"}, headers=bearer(dark))
            again = await http.post(f"{a.url}/api/games/{game}/moves", json={"move": "1c1", "ply": 2},
                                    headers=bearer(light))
            assert again.status_code == 200, again.text
            assert (await next_message(dark_socket, at_ply(3)))["moves"] == ["1a1", "1b1", "1c1"]


def test_after_a_redis_restart_documents_flow_again(
        pair: tuple[ServerProcess, ServerProcess], redis_server: RedisServer) -> None:
    run_async(redis_restart(*pair, redis_server))


def test_a_killed_worker_loses_nothing_and_clocks_go_on(postgres_db: str, redis_server: RedisServer) -> None:
    doomed = worker(postgres_db, redis_server.url, SHORT_CLOCKS).start()
    survivor = worker(postgres_db, redis_server.url, SHORT_CLOCKS).start()
    try:
        with httpx.Client(timeout=WAIT_S) as http:
            # Game 1 goes on through the survivor; game 2 only the doomed worker ever held.
            clock = {"type": "fischer", "minutes": 0.1, "increment": 0}  # 6 s each
            games = [http.post(f"{doomed.url}/api/games", json={
                "game": "pylos", "seats": ["human", "human"], "clock": clock}).json() for _ in range(2)]
            (one, two) = games
            tokens = [[seat["token"] for seat in game["seats"]] for game in games]
            for game, (light, dark) in zip(games, tokens, strict=True):
                for move, token in (("1a1", light), ("1b1", dark)):
                    answer = http.post(f"{doomed.url}/api/games/{game['id']}/moves", json={"move": move},
                                       headers=bearer(token))
                    assert answer.status_code == 200, answer.text
            before = http.get(f"{doomed.url}/api/games/{one['id']}").json()
            running = http.get(f"{doomed.url}/api/games/{two['id']}").json()["clock"]
            assert running["running"] == 0
            deadline_two = time.time() + running["remaining_ms"][0] / 1000  # light's flag, game 2
            doomed.kill()
            # Nothing lost; the clock ran on; the game goes on through the survivor.
            after = http.get(f"{survivor.url}/api/games/{one['id']}").json()
            assert after["moves"] == before["moves"] == ["1a1", "1b1"] and after["status"] == "playing"
            assert after["clock"]["running"] == 0
            assert after["clock"]["remaining_ms"][0] <= before["clock"]["remaining_ms"][0]
            moved = http.post(f"{survivor.url}/api/games/{one['id']}/moves", json={"move": "1c1", "ply": 2},
                              headers=bearer(tokens[0][0]))
            assert moved.status_code == 200 and moved.json()["clock"]["running"] == 1
            # Dark never moves again in game 1: its flag falls; game 2's too, though only the
            # dead worker had its timer: the survivor's watch finds it by its stored deadline.
            ended_one = wait_until_over(http, survivor, one["id"])
            assert ended_one["result"]["reason"] == "time" and ended_one["result"]["winners"] == [0]
            time.sleep(max(0.0, deadline_two - time.time()))
            ended_two = wait_until_over(http, survivor, two["id"])
            assert ended_two["result"]["reason"] == "time" and ended_two["result"]["winners"] == [1]
            assert ended_two["moves"] == ["1a1", "1b1"]
            # It fell on time: within the watch's period of its deadline, not when first read
            # ("ended" is kept to the second, hence the second of slack below).
            assert ended_two["clock"]["remaining_ms"][0] == 0
            fell_at = datetime.fromisoformat(ended_two["ended"]).timestamp()
            assert deadline_two - 1.1 <= fell_at <= deadline_two + 1.5, (fell_at - deadline_two)
    finally:
        doomed.stop()
        survivor.stop()


def wait_until_over(
    http: httpx.Client, server: ServerProcess, game: str, timeout: float = 15
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = http.get(f"{server.url}/api/games/{game}").json()
        if doc["status"] == "over":
            return doc
        time.sleep(0.2)
    raise AssertionError(f"game {game} never ended")
