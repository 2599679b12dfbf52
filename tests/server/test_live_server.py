"""The real server process (uvicorn), as browsers and the load client meet it: WebSocket
documents, and oversized input refused with a clear error (the transport itself closes only
past 1 MiB)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.support import run_async
from tests.support.server import ServerProcess


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url) as running:
        yield running


async def socket_session(server: ServerProcess) -> tuple[list[str], dict[str, Any], int | None]:
    async with httpx.AsyncClient(base_url=server.url) as http:
        created = (await http.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})).json()
        light = created["seats"][0]["token"]
        url = f"{server.ws_url}/api/games/{created['id']}/ws?token={light}"
        async with websockets.connect(url, max_size=None) as socket:
            first = json.loads(await socket.recv())
            await socket.send(json.dumps({"type": "move", "move": "1a1", "ply": first["ply"]}))
            moved = json.loads(await socket.recv())
            # Over 64 KiB: the app reads it and answers with an error; the socket stays open.
            await socket.send(json.dumps({"type": "move", "move": "1b1" + " " * (70 * 1024), "ply": 1}))
            error = json.loads(await socket.recv())
            await socket.send(json.dumps({"type": "ping"}))
            assert json.loads(await socket.recv()) == {"type": "pong"}  # no document: nothing changed
            # Over the transport's limit (1 MiB): uvicorn closes without reading on.
            await socket.send(json.dumps({"type": "move", "move": "x" * (2 * 1024 * 1024)}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await socket.recv()
        doc = (await http.get(f"/api/games/{created['id']}")).json()
        assert doc["moves"] == moved["moves"]
        return doc["moves"], error, closed.value.rcvd.code if closed.value.rcvd else None


def test_websocket_moves_and_oversized_messages_on_the_real_server(server: ServerProcess) -> None:
    moves, error, close_code = run_async(socket_session(server))
    assert moves == ["1a1"]
    assert error == {"type": "error", "status": 413, "error": "the message is over 64 KiB (65536 bytes)",
                     "code": "too_large"}
    assert close_code == 1009  # "message too big", past 1 MiB only


def test_oversized_http_body_on_the_real_server(server: ServerProcess) -> None:
    answer = httpx.post(f"{server.url}/api/games", content=b"x" * (65 * 1024 + 1))
    assert answer.status_code == 413 and "64 KiB" in answer.json()["error"]
