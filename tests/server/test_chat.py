"""Chat: the players' room is the seats' (spectators neither read nor write it), the spectators'
room anyone's with a seat or an account; lines are stored with the game and sent over its
WebSocket as text (markup stays text), limited in length and rate; a seat may mute another."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from .conftest import serving
from .helpers import bearer, create, tokens
from .test_notifications import read_until

MARKUP = '<script>alert("x")</script><b onmouseover="x()">bold</b>'


def test_players_and_spectators_talk_apart(client: TestClient) -> None:
    created = create(client)
    game = f"/api/games/{created['id']}"
    light, dark = tokens(created)
    with client.websocket_connect(f"{game}/ws?token={dark}") as player, \
            client.websocket_connect(f"{game}/ws") as spectator:
        player.receive_json()
        spectator.receive_json()
        said = client.post(f"{game}/chat", json={"room": "players", "text": f"  {MARKUP}  "},
                           headers=bearer(light))
        assert said.status_code == 201
        line = said.json()["line"]
        assert (line["text"], line["seat"], line["author"], line["room"]) == (MARKUP, 0, "Guest 1", "players")
        assert read_until(player, "chat")["line"] == line
        refused = client.post(f"{game}/chat", json={"room": "players", "text": "hi"})
        assert (refused.status_code, refused.json()["code"]) == (403, "spectator")
        client.post("/api/account/guest")
        watching = client.post(f"{game}/chat", json={"room": "spectators", "text": "nice move"})
        assert watching.status_code == 201 and watching.json()["line"]["seat"] is None
        assert read_until(spectator, "chat")["line"]["text"] == "nice move"  # the players' line never came
        assert read_until(player, "chat")["line"]["text"] == "nice move"
    hidden = client.get(f"{game}/chat?room=players")
    assert (hidden.status_code, hidden.json()["code"]) == (401, "token_required")
    lines = client.get(f"{game}/chat?room=players", headers=bearer(dark)).json()["lines"]
    assert [entry["text"] for entry in lines] == [MARKUP]
    spectators = client.get(f"{game}/chat?room=spectators").json()["lines"]
    assert [entry["text"] for entry in spectators] == ["nice move"]


def test_chat_refusals(client: TestClient) -> None:
    created = create(client)
    game = f"/api/games/{created['id']}"
    light = tokens(created)[0]
    for body, code in [({"room": "players", "text": " \n "}, "bad_request"),
                       ({"room": "players", "text": "x" * 501}, "bad_request"),
                       ({"room": "lounge", "text": "hi"}, "bad_request"),
                       ({"room": "players"}, "bad_request")]:
        answer = client.post(f"{game}/chat", json=body, headers=bearer(light))
        assert (answer.status_code, answer.json()["code"]) == (400, code), body
    anonymous = client.post(f"{game}/chat", json={"room": "spectators", "text": "hi"})
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "sign_in_required")
    assert client.get(f"{game}/chat?room=attic").status_code == 400
    assert client.get("/api/games/nope/chat").status_code == 404
    assert client.get(f"{game}/chat?room=players", headers=bearer(light)).json()["lines"] == []


@pytest.fixture
def chatty(db_url: str) -> Iterator[TestClient]:
    with serving(db_url, chat_limit="3/minute") as test_client:
        yield test_client


def test_chat_is_rate_limited_per_person(chatty: TestClient) -> None:
    created = create(chatty)
    game = f"/api/games/{created['id']}"
    light, dark = tokens(created)
    for n in range(3):
        assert chatty.post(f"{game}/chat", json={"text": f"line {n}"},
                           headers=bearer(light)).status_code == 201
    limited = chatty.post(f"{game}/chat", json={"text": "one more"}, headers=bearer(light))
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert "Retry-After" in limited.headers
    assert chatty.post(f"{game}/chat", json={"text": "my turn"}, headers=bearer(dark)).status_code == 201


def test_a_player_may_mute_the_other(client: TestClient) -> None:
    created = create(client)
    game = f"/api/games/{created['id']}"
    light, dark = tokens(created)
    client.post(f"{game}/chat", json={"text": "before"}, headers=bearer(dark))
    muted = client.post(f"{game}/seats/0/mute", json={"seat": 1}, headers=bearer(light))
    assert muted.json() == {"seat": 0, "muted": [1]}
    with client.websocket_connect(f"{game}/ws?token={light}") as socket:
        socket.receive_json()
        client.post(f"{game}/chat", json={"text": "you cannot hear me"}, headers=bearer(dark))
        client.post(f"{game}/chat", json={"text": "I hear myself"}, headers=bearer(light))
        assert read_until(socket, "chat")["line"]["text"] == "I hear myself"
    seen = client.get(f"{game}/chat", headers=bearer(light)).json()
    assert [line["text"] for line in seen["lines"]] == ["I hear myself"] and seen["muted"] == [1]
    theirs = client.get(f"{game}/chat", headers=bearer(dark)).json()["lines"]
    assert len(theirs) == 3  # the muted seat still sees everything
    for body, status in [({"seat": 0}, 400), ({"seat": 5}, 400), ({"seat": 1, "muted": "no"}, 400)]:
        assert client.post(f"{game}/seats/0/mute", json=body, headers=bearer(light)).status_code == status
    other = client.post(f"{game}/seats/1/mute", json={"seat": 0}, headers=bearer(light))
    assert (other.status_code, other.json()["code"]) == (403, "wrong_seat")
    unmuted = client.post(f"{game}/seats/0/mute", json={"seat": 1, "muted": False}, headers=bearer(light))
    assert unmuted.json()["muted"] == []
    assert len(client.get(f"{game}/chat", headers=bearer(light)).json()["lines"]) == 3
