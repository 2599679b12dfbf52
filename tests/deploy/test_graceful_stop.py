"""SIGTERM (``systemctl stop`` or ``restart``) stops ``ludotheque serve`` gracefully: it accepts no
new connection, finishes the move whose request is under way (stored, then acknowledged),
closes the WebSockets with 1012 (the browsers reconnect), and exits; started again on the same
database, the move is there. A move is never lost: acknowledged means stored."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .parts import Serve, free_port, server_config

pytestmark = pytest.mark.timeout(120)


def read_answer(connection: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """An HTTP/1.1 answer read to its end (the server closes the connection after it)."""
    data = b""
    connection.settimeout(20)
    while chunk := connection.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = _unchunk(body)
    return int(lines[0].split()[1]), headers, body


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2:]
    return out


def test_a_move_under_way_at_sigterm_is_stored_and_acknowledged(tmp_path: Path) -> None:
    port = free_port()
    config = server_config(tmp_path / "ludotheque.toml", port=port, db=f"sqlite:///{tmp_path / 'games.db'}",
                           create_limit=False, graceful_timeout=15)
    server = Serve(config, port, tmp_path / "serve.log").start()
    try:
        created = httpx.post(server.url + "/api/games", json={"game": "pylos", "seats": ["human", "human"]})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        move = httpx.get(server.url + f"/api/games/{game_id}",
                         headers={"Authorization": f"Bearer {token}"}).json()["legal_moves"][0]
        with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws", open_timeout=20) as watcher:
            assert json.loads(watcher.recv(timeout=20))["moves"] == []
            # The move's request is under way: its headers and half its body are in when SIGTERM comes.
            body = json.dumps({"move": move, "ply": 0}).encode()
            request = socket.create_connection(("127.0.0.1", port), timeout=20)
            request.sendall(f"POST /api/games/{game_id}/moves HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                            f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:5])
            time.sleep(0.5)
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            # The WebSockets are closed at once, with "service restart": clients come back later.
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    watcher.recv(timeout=20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value
        # No new connection is accepted meanwhile; the server waits for the move under way.
        time.sleep(0.3)
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        assert server.process.poll() is None, server.output()
        request.sendall(body[5:])
        status, headers, answer = read_answer(request)
        request.close()
        assert status == 200, answer
        assert headers.get("connection") == "close"
        assert json.loads(answer)["moves"] == [move]
        returncode = server.process.wait(20)  # then it exits, by the signal's default action
        assert returncode in (0, -signal.SIGTERM), server.output()
        assert "Traceback" not in server.output(), server.output()
    finally:
        server.stop()
    with Serve(config, port, tmp_path / "serve-again.log") as again:  # acknowledged: stored
        stored = httpx.get(again.url + f"/api/games/{game_id}").json()
        assert stored["moves"] == [move] and stored["to_move"] == 1
