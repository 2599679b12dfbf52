"""The WebSocket of a game: the document on connect and after each change, typed messages in."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .helpers import bearer, create, tokens


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return create(client)


def socket_url(game_id: str, token: str = "") -> str:
    return f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")


def test_each_connection_gets_its_own_document(client: TestClient, game: dict[str, Any]) -> None:
    light, dark = tokens(game)
    with (
        client.websocket_connect(socket_url(game["id"], light)) as light_socket,
        client.websocket_connect(socket_url(game["id"], dark)) as dark_socket,
        client.websocket_connect(socket_url(game["id"])) as watcher,
    ):
        first = light_socket.receive_json()
        assert first["seat"] == 0 and first["legal_moves"] and first["view"]["viewer"] == 0
        assert dark_socket.receive_json()["legal_moves"] == []
        assert watcher.receive_json()["seat"] is None
        client.post(f"/api/games/{game['id']}/moves", json={"move": "1a1"}, headers=bearer(light))
        after = [s.receive_json() for s in (light_socket, dark_socket, watcher)]
        assert [doc["moves"] for doc in after] == [["1a1"]] * 3
        assert after[0]["legal_moves"] == [] and after[1]["legal_moves"] and after[2]["legal_moves"] == []
        assert [doc["view"]["viewer"] for doc in after] == [0, 1, None]


def test_moves_and_actions_over_the_socket(client: TestClient, game: dict[str, Any]) -> None:
    light, dark = tokens(game)
    with (
        client.websocket_connect(socket_url(game["id"], light)) as light_socket,
        client.websocket_connect(socket_url(game["id"], dark)) as dark_socket,
    ):
        light_socket.receive_json(), dark_socket.receive_json()
        light_socket.send_json({"type": "move", "move": "1a1", "ply": 0})
        assert light_socket.receive_json()["moves"] == ["1a1"]
        assert dark_socket.receive_json()["to_move"] == 1
        dark_socket.send_json({"type": "draw"})
        assert light_socket.receive_json()["draw_offer"] == [1]
        dark_socket.receive_json()
        light_socket.send_json({"type": "decline_draw"})
        assert dark_socket.receive_json()["draw_offer"] == []
        light_socket.receive_json()
        dark_socket.send_json({"type": "resign"})
        assert light_socket.receive_json()["result"]["winners"] == [0]


@pytest.mark.parametrize(
    ("message", "status", "words"),
    [
        ("not json", 400, "not JSON"),
        ([1, 2], 400, "JSON object"),
        ({"type": "dance"}, 400, "unknown message type 'dance'"),
        ({"type": "move"}, 400, "move"),
        ({"type": "move", "move": "1a1", "extra": 1}, 400, "extra"),
        ({"type": "move", "move": "zz"}, 400, "'zz'"),
        ({"type": "move", "move": "1b1", "ply": 5}, 409, "stale ply 5"),
        ({"type": "takeback"}, 409, "bots"),
    ],
)
def test_invalid_messages_get_an_error_and_change_nothing(
    client: TestClient, game: dict[str, Any], message: Any, status: int, words: str
) -> None:
    with client.websocket_connect(socket_url(game["id"], tokens(game)[0])) as socket:
        before = socket.receive_json()
        if isinstance(message, str):
            socket.send_text(message)
        else:
            socket.send_json(message)
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == status and words in error["error"]
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}  # no document came: nothing changed
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == before["moves"]


def test_out_of_turn_and_spectator_actions_are_refused(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(socket_url(game["id"], tokens(game)[1])) as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "1a1"})
        assert socket.receive_json()["error"].startswith("not your turn")
    with client.websocket_connect(socket_url(game["id"])) as watcher:
        watcher.receive_json()
        watcher.send_json({"type": "resign"})
        error = watcher.receive_json()
        assert error["status"] == 403 and "spectators" in error["error"]
    assert client.get(f"/api/games/{game['id']}").json()["status"] == "playing"


def test_oversized_messages_are_refused(client: TestClient, game: dict[str, Any]) -> None:
    with client.websocket_connect(socket_url(game["id"], tokens(game)[0])) as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "x" * (70 * 1024)})
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == 413 and "64 KiB" in error["error"]
        socket.send_json({"type": "move", "move": "1a1", "ply": 0})  # the connection goes on
        assert socket.receive_json()["moves"] == ["1a1"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == ["1a1"]


@pytest.mark.parametrize(("game_id", "token", "code"), [("nothing", "", 4404), (None, "forged", 4401)])
def test_unknown_game_or_bad_token_closes_the_socket(
    client: TestClient, game: dict[str, Any], game_id: str | None, token: str, code: int
) -> None:
    with client.websocket_connect(socket_url(game_id or game["id"], token)) as socket:
        error = socket.receive_json()
        assert error["type"] == "error" and error["status"] == code - 4000
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == code
