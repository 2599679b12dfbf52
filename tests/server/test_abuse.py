"""Abuse limits: game creation is rate-limited per client (games of bots only more strictly);
the bots' work is shared fairly between owners; idle connections end; games nobody joined or
plays any more expire and are not loaded at start; WebSockets and cookie POSTs from another
site's page are refused; no seat token or invite code reaches a log."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
import websockets.sync.client
from fastapi.testclient import TestClient
from sqlalchemy import update

import ludotheque
from ludotheque.server import create_app, tables
from ludotheque.server.bots import BotPool
from ludotheque.server.config import ServerSettings
from ludotheque.server.hub import Hub
from tests.support import run_async
from tests.support.rawsocket import RawSocket
from tests.support.server import ServerProcess

from .conftest import serving
from .helpers import bearer, create, tokens

TWO = {"game": "pylos", "seats": ["human", "human"]}
BOTS = {"game": "pylos", "seats": ["bot:random", "bot:random"]}
EVIL = {"Origin": "http://evil.example"}


# -- rate limits --------------------------------------------------------------------------------
async def creations(db_url: str) -> dict[str, list[httpx.Response]]:
    settings = replace(ServerSettings(), create_limit="3/minute", bot_game_limit="1/minute")
    app = create_app(db_url, bot_workers=1, settings=settings)
    answers: dict[str, list[httpx.Response]] = {}
    async with app.router.lifespan_context(app):
        for address in ("10.0.0.1", "10.0.0.2"):
            transport = httpx.ASGITransport(app=app, client=(address, 4000))
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                bodies = [BOTS, BOTS, TWO, TWO, TWO] if address == "10.0.0.1" else [TWO]
                answers[address] = [await http.post("/api/games", json=body) for body in bodies]
    return answers


def test_game_creation_is_limited_per_client(db_url: str) -> None:
    answers = run_async(creations(db_url))
    first = [answer.status_code for answer in answers["10.0.0.1"]]
    # One game of bots a minute; three games a minute in all (the refused one does not count).
    assert first == [201, 429, 201, 201, 429]
    for refused in (answers["10.0.0.1"][1], answers["10.0.0.1"][4]):
        assert refused.json()["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 1
    assert "bots only" in answers["10.0.0.1"][1].json()["error"]
    assert [answer.status_code for answer in answers["10.0.0.2"]] == [201]  # another client


# -- the bots' fair queue -----------------------------------------------------------------------
async def finishing_order() -> list[str]:
    pool = BotPool(1)
    state = ludotheque.load("pylos").new_state()
    order: list[str] = []

    async def think(owner: str, seed: int) -> None:
        await pool.choose(state, "random", seed, owner=owner)
        order.append(owner)

    try:
        flood = [asyncio.ensure_future(think("flood", seed)) for seed in range(8)]
        await asyncio.sleep(0)
        victim = asyncio.ensure_future(think("victim", 0))
        await asyncio.gather(*flood, victim)
    finally:
        pool.close()
    return order


def test_one_owners_many_bots_do_not_starve_another_owners_bot() -> None:
    order = run_async(finishing_order())
    assert sorted(order) == ["flood"] * 8 + ["victim"]
    assert order.index("victim") <= 2  # served in turn, not after the flood's eight moves


# -- idle connections ---------------------------------------------------------------------------
@pytest.fixture
def impatient(db_url: str) -> Iterator[ServerProcess]:
    settings = {"LUDOTHEQUE_KEEP_ALIVE": "1", "LUDOTHEQUE_WS_PING_INTERVAL": "1",
                "LUDOTHEQUE_WS_PING_TIMEOUT": "1"}
    with ServerProcess(db_url, env=settings) as running:
        yield running


def test_idle_connections_are_closed(impatient: ServerProcess) -> None:
    server = impatient
    created = httpx.post(f"{server.url}/api/games", json=TWO).json()
    # A WebSocket client that never answers the server's pings is disconnected.
    silent = RawSocket.connect(server.host, server.port, f"/api/games/{created['id']}/ws")
    received = silent.read_messages(timeout=15)
    silent.close()
    assert received.closed and received.texts and json.loads(received.texts[0])["id"] == created["id"]
    # An HTTP keep-alive connection left idle is closed by the server.
    with socket.create_connection((server.host, server.port), timeout=15) as raw:
        raw.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while True:
            chunk = raw.recv(65536)
            if not chunk:
                break
            data += chunk
    assert data.startswith(b"HTTP/1.1 200")


# -- expiry -------------------------------------------------------------------------------------
def age(client: TestClient, game_id: str, days: float) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    games = tables.games
    with hub.storage.engine.begin() as connection:
        then = time.time() - days * 86_400
        connection.execute(update(games).where(games.c.id == game_id).values(updated=then))


def wait_until_over(client: TestClient, game_id: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
        if doc["status"] == "over":
            return doc
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} was never ended")


def test_old_waiting_and_abandoned_games_expire_and_are_not_loaded(db_url: str) -> None:
    with serving(db_url) as client:
        waiting = create(client, seats=["human", "open"])["id"]
        invited = create(client, seats=["human", "invite"])["id"]
        abandoned = create(client)
        client.post(f"/api/games/{abandoned['id']}/moves", json={"move": "1a1"},
                    headers=bearer(tokens(abandoned)[0]))
        left_bot = create(client, seats=["human", "bot:random"])["id"]  # the bot waits for the human
        clocked = create(client, clock={"type": "correspondence", "days": 60})["id"]
        recent_waiting = create(client, seats=["open", "human"])["id"]
        recent = create(client)["id"]
        for game_id in (waiting, invited, abandoned["id"], clocked, left_bot):
            age(client, game_id, days=40)
    with serving(db_url, waiting_days=7, abandoned_days=30) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        loaded = hub.loaded()
        assert {waiting, invited, recent, recent_waiting}.isdisjoint(loaded)
        assert wait_until_over(client, left_bot)["result"]["reason"] == "abandoned"
        assert clocked in loaded  # its clock runs: the server watches its flag
        for gone in (waiting, invited):
            answer = client.get(f"/api/games/{gone}")
            assert answer.status_code == 404 and answer.json()["code"] == "not_found"
        ended = wait_until_over(client, abandoned["id"])  # ended in the background
        # Nobody moved for 40 days: the seat to move (1) lost, as on time.
        assert ended["status"] == "over" and ended["result"]["reason"] == "abandoned"
        assert ended["result"]["winners"] == [0] and ended["moves"] == ["1a1"]
        assert client.get(f"/api/games/{clocked}").json()["status"] == "playing"
        assert client.get(f"/api/games/{recent_waiting}").json()["status"] == "waiting"
        assert client.get(f"/api/games/{recent}").json()["status"] == "playing"


# -- origins ------------------------------------------------------------------------------------
def test_websockets_from_another_sites_page_are_refused(db_url: str) -> None:
    with serving(db_url, allowed_origins=("https://friends.example",)) as client:
        game = create(client)
        url = f"/api/games/{game['id']}/ws"
        with client.websocket_connect(url, headers=EVIL) as socket:
            error = socket.receive_json()
            assert (error["status"], error["code"]) == (403, "origin_refused")
        for headers in ({}, {"Origin": "http://testserver"}, {"Origin": "https://friends.example"}):
            with client.websocket_connect(url, headers=headers) as socket:
                assert socket.receive_json()["id"] == game["id"]


def test_cookie_posts_from_another_sites_page_are_refused(client: TestClient) -> None:
    answer = client.post("/api/games?cookie=1", json=TWO, headers=EVIL)
    assert answer.status_code == 403 and answer.json()["code"] == "origin_refused"
    created = client.post("/api/games?cookie=1", json=TWO, headers={"Origin": "http://testserver"}).json()
    url = f"/api/games/{created['id']}"
    refused = client.post(f"{url}/moves", json={"move": "1a1"}, headers=EVIL)
    assert refused.status_code == 403 and refused.json()["code"] == "origin_refused"
    assert client.post(f"{url}/seats/0/resign", headers=EVIL).status_code == 403
    assert client.get(url).json()["moves"] == []
    # A Bearer token proves itself from anywhere; so does a request without cookies.
    token = created["seats"][0]["token"]
    client.cookies.clear()
    moved = client.post(f"{url}/moves", json={"move": "1a1"}, headers={**EVIL, **bearer(token)})
    assert moved.status_code == 200
    assert client.post("/api/games", json=TWO, headers=EVIL).status_code == 201


# -- logs ---------------------------------------------------------------------------------------
@pytest.fixture
def logged(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url, launcher="uvicorn") as running:  # uvicorn's access log is on
        yield running


def test_no_token_or_invite_code_reaches_the_log(logged: ServerProcess) -> None:
    server = logged
    body = {**TWO, "seats": ["human", "invite"]}
    created: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body).json()
    token, code = created["seats"][0]["token"], created["seats"][1]["invite"]
    assert httpx.get(created["seats"][0]["url"]).status_code == 200  # /play/<id>?token=...
    assert httpx.get(created["seats"][1]["url"]).status_code == 200  # /play/<id>?invite=...
    socket_url = f"{server.ws_url}/api/games/{created['id']}/ws?token={token}"
    with websockets.sync.client.connect(socket_url) as socket:
        assert json.loads(socket.recv())["seat"] == 0
    log = server.log(tail=None)
    assert f"/play/{created['id']}?token=…" in log and "?invite=…" in log  # the requests were logged
    assert token not in log and code not in log
