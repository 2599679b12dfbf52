"""A session or personal token that ends closes the sockets opened with it (an error message, then
close code 4401) and acts no more: a token revoked, a sign-out, a password change. Sockets opened
with a seat token, or with another credential, stay open. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .helpers import create, tokens
from .test_accounts import SESSION, new_browser, session, sign_in, sign_up


def read_until_closed(socket: Any) -> tuple[list[dict[str, Any]], int]:
    """Every message until the server closes the socket, and the close code."""
    seen: list[dict[str, Any]] = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(50):
            seen.append(socket.receive_json())
    return seen, closed.value.code


def ended_with(socket: Any, code: str) -> None:
    seen, close = read_until_closed(socket)
    assert close == 4401
    assert seen[-1]["type"] == "error" and (seen[-1]["status"], seen[-1]["code"]) == (401, code)


def still_open(socket: Any) -> None:
    """The socket answers a ping (other messages on the way are skipped)."""
    socket.send_json({"type": "ping"})
    for _ in range(10):
        if socket.receive_json() == {"type": "pong"}:
            return
    raise AssertionError("no pong")


def personal_token(client: TestClient) -> tuple[str, str]:
    entry = client.post("/api/me/tokens", json={"label": "bot"}).json()
    return entry["id"], entry["token"]


def test_a_revoked_token_closes_its_sockets(client: TestClient) -> None:
    sign_up(client, "Ada")
    token_id, token = personal_token(client)
    _, kept = personal_token(client)
    game = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": ["human", "human"]}).json()
    ws = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(f"{ws}?token={token}") as playing, \
            client.websocket_connect(f"/api/me/ws?token={token}") as mine, \
            client.websocket_connect(f"/api/me/ws?token={kept}") as other, \
            client.websocket_connect(f"{ws}?token={tokens(game)[1]}") as seat:
        assert playing.receive_json()["seat"] == 0
        assert mine.receive_json()["type"] == "turns" and other.receive_json()["type"] == "turns"
        assert seat.receive_json()["seat"] == 1
        assert client.delete(f"/api/me/tokens/{token_id}").status_code == 204
        ended_with(playing, "token_invalid")
        ended_with(mine, "token_invalid")
        still_open(other)  # another token's socket stays, and a seat token's
        still_open(seat)
    assert client.get(f"/api/games/{game['id']}").json()["ply"] == 0  # nothing was played
    with client.websocket_connect(f"/api/me/ws?token={token}") as refused:
        ended_with(refused, "token_invalid")


def test_sign_out_closes_the_sessions_sockets_and_its_seats_act_no_more(client: TestClient) -> None:
    sign_up(client, "Ada")
    cookie = client.cookies.get(SESSION)
    game = create(client)  # the account's seats: no seat cookie in this browser
    ws = f"/api/games/{game['id']}/ws"
    with client.websocket_connect(ws, headers=session(cookie)) as playing, \
            client.websocket_connect("/api/me/ws", headers=session(cookie)) as mine:
        assert playing.receive_json()["seat"] == 0
        assert mine.receive_json()["type"] == "turns"
        assert client.post("/api/account/signout", headers=session(cookie)).status_code == 200
        ended_with(playing, "sign_in_required")
        ended_with(mine, "sign_in_required")
    with client.websocket_connect(ws, headers=session(cookie)) as spectator:
        assert spectator.receive_json()["seat"] is None  # the old cookie is nobody now
        spectator.send_json({"type": "resign"})
        assert spectator.receive_json()["code"] == "spectator"
    assert client.get(f"/api/games/{game['id']}").json()["status"] != "over"


def test_a_password_change_closes_the_other_sessions_sockets(client: TestClient) -> None:
    sign_up(client, "Ada")
    other = client.cookies.get(SESSION)
    _, token = personal_token(client)
    new_browser(client)
    assert sign_in(client, "Ada").status_code == 200
    with client.websocket_connect("/api/me/ws", headers=session(other)) as elsewhere, \
            client.websocket_connect(f"/api/me/ws?token={token}") as by_token:
        assert elsewhere.receive_json()["type"] == "turns" and by_token.receive_json()["type"] == "turns"
        changed = client.post("/api/account/password", json={"password": "correct horse",
                                                             "new_password": "battery staple"})
        assert changed.status_code == 200
        ended_with(elsewhere, "sign_in_required")
        still_open(by_token)  # personal tokens outlive a password change
    with client.websocket_connect("/api/me/ws") as mine:  # this browser's new session
        assert mine.receive_json()["type"] == "turns"
