"""Bad input of any shape is a 4xx, never a 500 (docs/design.md), over WebSocket too, where the
connection stays open; a client that leaves mid-upload is no error of the server's; a store
that refuses writes answers 503 and changes nothing. (The HTTP cases of huge numbers, deep
nesting and Unicode digits are rows of ``test_errors``.)"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.support.server import ServerProcess

from .conftest import serving
from .helpers import bearer, create, tokens

HUGE_INTEGER = '{"type": "move", "move": "1a1", "ply": ' + "9" * 5000 + "}"
DEEP = '{"type": ' + "[" * 30_000


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return create(client)


@pytest.mark.parametrize(
    ("send", "words"),
    [
        (lambda socket: socket.send_text(HUGE_INTEGER), "4300"),
        (lambda socket: socket.send_text(DEEP), "nested too deeply"),
        (lambda socket: socket.send_bytes(b'{"type": "ping"}'), "binary"),
        (lambda socket: socket.send_bytes(b"\xff\x00" * 1000), "binary"),
        (lambda socket: socket.send_text('{"type": "' + "x" * 60_000 + '"}'), "(60000 characters)"),
    ],
    ids=["huge integer", "deep nesting", "binary JSON", "binary junk", "long type"],
)
def test_bad_websocket_messages_get_a_400_and_the_socket_stays(
    client: TestClient, game: dict[str, Any], send: Any, words: str
) -> None:
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={tokens(game)[0]}") as socket:
        socket.receive_json()
        send(socket)
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == 400, error
        assert error["code"] in ("bad_json", "bad_request") and words in error["error"]
        assert len(error["error"]) < 300
        socket.send_json({"type": "move", "move": "1a1", "ply": 0})
        assert socket.receive_json()["moves"] == ["1a1"]


def test_a_unicode_digit_seat_on_the_websocket_is_a_400(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(f"/api/games/{game['id']}/ws?seat=²") as socket:
        error = socket.receive_json()
        assert (error["status"], error["code"]) == (400, "bad_request")
    cookie = {"Cookie": f"ludotheque_seat_²={tokens(game)[0]}".encode()}  # not a seat: ignored
    assert client.get(f"/api/games/{game['id']}", headers=cookie).json()["seat"] is None


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url) as running:
        yield running


def test_a_client_leaving_mid_upload_is_no_server_error(server: ServerProcess) -> None:
    for _ in range(5):
        with socket.create_connection((server.host, server.port)) as raw:
            raw.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 10000\r\n\r\n" + b'{"game": "pylos", "seats": ' + b" " * 500)
            time.sleep(0.2)  # the app is reading the body when the client goes
    answer = httpx.post(f"{server.url}/api/games", json={"game": "pylos", "seats": ["human", "human"]})
    assert answer.status_code == 201
    log = server.log(tail=None)
    assert "Traceback" not in log and "unexpected error" not in log and "Exception" not in log, log


def read_only(db_url: str) -> str:
    """The same database, opened so that every write fails (as a read-only file, a full disk or
    a read-only replica would)."""
    if db_url.startswith("sqlite:///"):
        return f"sqlite:///file:{db_url.removeprefix('sqlite:///')}?mode=ro&uri=true"
    assert "options=" in db_url  # the test schema's search_path: one options value holds both
    return db_url.replace("options=", "options=-cdefault_transaction_read_only%3Don%20", 1)


def test_a_store_that_refuses_writes_answers_503_and_changes_nothing(db_url: str) -> None:
    with serving(db_url) as client:
        created = create(client)
        light = tokens(created)[0]
        client.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"}, headers=bearer(light))
    url = f"/api/games/{created['id']}"
    with serving(read_only(db_url)) as client:
        before = client.get(url).json()
        assert before["moves"] == ["1a1"]
        dark = tokens(created)[1]
        answer = client.post(f"{url}/moves", json={"move": "1b1"}, headers=bearer(dark))
        assert answer.status_code == 503 and answer.json()["code"] == "unavailable"
        assert "read-only" in answer.json()["error"]
        refused = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})
        assert refused.status_code == 503 and refused.json()["code"] == "unavailable"
        with client.websocket_connect(f"{url}/ws?token={dark}") as ws:
            ws.receive_json()
            ws.send_json({"type": "resign"})
            error = ws.receive_json()
            assert (error["status"], error["code"]) == (503, "unavailable")
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        after = client.get(url).json()
        assert after["moves"] == ["1a1"] and after["status"] == "playing" and after["to_move"] == 1
