"""Two server workers (real processes, one PostgreSQL database, one Redis): a personal token revoked
or a session signed out on one worker closes the sockets opened with it on the other (4401), and
the other worker refuses it at once, although it had it cached (each caches for 10 s)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.distributed.parts import RedisServer, worker
from tests.support import run_async
from tests.support.server import ServerProcess

WAIT_S = 10.0
# Well under the workers' cache time (people.CACHE_S): only the news can explain a refusal.
QUICK_S = 5.0
SESSION = "ludotheque_session"


@pytest.fixture(scope="module")
def pair(postgres_db: str, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    first = worker(postgres_db, redis_server.url).start()
    second = worker(postgres_db, redis_server.url).start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


async def closed_with(socket: Any) -> tuple[dict[str, Any], int]:
    """The last message before the server closed ``socket``, and the close code."""
    last: dict[str, Any] = {}
    async with asyncio.timeout(QUICK_S):
        try:
            while True:
                last = json.loads(await socket.recv())
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return last, closed.rcvd.code


async def signed_up(http: httpx.AsyncClient, url: str, name: str) -> str:
    answer = await http.post(f"{url}/api/account/signup", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    http.cookies.clear()  # each request names its credential
    return answer.cookies[SESSION]


async def revoke_on_one_worker(a: ServerProcess, b: ServerProcess) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as http:
        signed_in = {"Cookie": f"{SESSION}={await signed_up(http, a.url, 'Ada')}"}
        entry = (await http.post(f"{a.url}/api/me/tokens", json={"label": "bot"}, headers=signed_in)).json()
        bearer = {"Authorization": f"Bearer {entry['token']}"}
        game = (await http.post(f"{a.url}/api/games", json={"game": "pylos", "seats": ["human", "human"]},
                                headers=bearer)).json()
        assert (await http.get(f"{b.url}/api/me", headers=bearer)).json()["account"]["name"] == "Ada"
        path = f"/api/games/{game['id']}/ws?token={entry['token']}"
        async with websockets.connect(b.ws_url + path) as playing, \
                websockets.connect(f"{b.ws_url}/api/me/ws?token={entry['token']}") as mine:
            assert json.loads(await playing.recv())["seat"] == 0
            assert json.loads(await mine.recv())["type"] == "turns"
            revoked = await http.delete(f"{a.url}/api/me/tokens/{entry['id']}", headers=signed_in)
            assert revoked.status_code == 204
            for socket in (playing, mine):
                last, code = await closed_with(socket)
                assert code == 4401 and last["code"] == "token_invalid"
        refused = await http.get(f"{b.url}/api/me", headers=bearer)
        assert (refused.status_code, refused.json()["code"]) == (401, "token_invalid")
        move = await http.post(f"{b.url}/api/games/{game['id']}/moves", json={"move": "1a1"}, headers=bearer)
        assert move.status_code == 401


def test_a_token_revoked_on_one_worker_ends_on_the_other(pair: tuple[ServerProcess, ServerProcess]) -> None:
    run_async(revoke_on_one_worker(*pair))


async def sign_out_on_one_worker(a: ServerProcess, b: ServerProcess) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as http:
        cookie = await signed_up(http, a.url, "Grace")
        headers = {"Cookie": f"{SESSION}={cookie}"}
        game = (await http.post(f"{a.url}/api/games", json={"game": "pylos", "seats": ["human", "human"]},
                                headers=headers)).json()
        assert (await http.get(f"{b.url}/api/me", headers=headers)).json()["account"]["name"] == "Grace"
        async with websockets.connect(f"{b.ws_url}/api/games/{game['id']}/ws",
                                      additional_headers=headers) as playing, \
                websockets.connect(f"{b.ws_url}/api/me/ws", additional_headers=headers) as mine:
            assert json.loads(await playing.recv())["seat"] == 0
            assert json.loads(await mine.recv())["type"] == "turns"
            assert (await http.post(f"{a.url}/api/account/signout", headers=headers)).status_code == 200
            for socket in (playing, mine):
                last, code = await closed_with(socket)
                assert code == 4401 and last["code"] == "sign_in_required"
        assert (await http.get(f"{b.url}/api/me", headers=headers)).json()["account"] is None
        resign = await http.post(f"{b.url}/api/games/{game['id']}/seats/0/resign", headers=headers)
        assert resign.status_code == 401


def test_a_sign_out_on_one_worker_ends_on_the_other(pair: tuple[ServerProcess, ServerProcess]) -> None:
    run_async(sign_out_on_one_worker(*pair))
