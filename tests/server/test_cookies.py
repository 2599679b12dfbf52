"""Seat tokens in cookies, for the pages: set only when asked, HttpOnly and SameSite=Strict,
one per seat and scoped to its game, honoured on every endpoint that takes a token; an explicit
token still wins, and a stale cookie is ignored."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import bearer, create, tokens


def seat_cookies(answer: Any) -> dict[str, dict[str, str]]:
    """The Set-Cookie headers of an answer: name -> {"value": ..., attribute (lower case): value}."""
    found = {}
    for header in answer.headers.get_list("set-cookie"):
        first, *attributes = [part.strip() for part in header.split(";")]
        name, _, value = first.partition("=")
        entry = {"value": value.strip('"')}
        for attribute in attributes:
            key, _, setting = attribute.partition("=")
            entry[key.lower()] = setting or "true"
        found[name] = entry
    return found


def create_with_cookies(client: TestClient, seats: list[str] | None = None) -> dict[str, Any]:
    answer = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": seats or ["human", "human"]})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    created["cookies"] = seat_cookies(answer)
    return created


def test_creation_sets_one_strict_httponly_cookie_per_human_seat_when_asked(client: TestClient) -> None:
    created = create_with_cookies(client, ["human", "open"])
    cookies = created["cookies"]
    assert [name for name in cookies if name.startswith("ludotheque_seat_")] == ["ludotheque_seat_0"]
    assert "ludotheque_session" in cookies  # a page without a session gets a guest (test_accounts.py)
    cookie = cookies["ludotheque_seat_0"]
    assert cookie["value"] == tokens(created)[0]
    assert cookie["httponly"] == "true" and cookie["samesite"].lower() == "strict"
    assert cookie["path"] == f"/api/games/{created['id']}"
    assert int(cookie["max-age"]) > 30 * 24 * 3600
    assert "secure" not in cookie  # plain http (tests); https answers get Secure
    # A client that does not ask gets no cookie: the design's API is unchanged for it.
    plain = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})
    assert plain.headers.get_list("set-cookie") == []


def test_the_cookie_is_honoured_on_reads_moves_and_seat_endpoints(client: TestClient) -> None:
    created = create_with_cookies(client)
    url = f"/api/games/{created['id']}"
    # Both seats in one browser (same screen): a read is for the seat to move, or the chosen one.
    assert client.get(url).json()["seat"] == 0
    assert client.get(f"{url}?seat=1").json()["view"]["viewer"] == 1
    assert client.get(f"{url}/seats/mine").json()["seats"] == [0, 1]
    assert client.post(f"{url}/moves", json={"move": "1a1", "ply": 0}).status_code == 200
    doc = client.get(url).json()
    assert doc["seat"] == 1 and doc["legal_moves"]
    assert client.post(f"{url}/moves", json={"move": "1b1"}).json()["moves"] == ["1a1", "1b1"]
    assert client.get(f"{url}/record?seat=0").status_code == 200
    assert client.post(f"{url}/seats/1/draw").json()["draw_offer"] == [1]
    assert client.post(f"{url}/seats/0/draw").json()["result"]["reason"] == "agreement"


def test_the_cookie_is_honoured_on_the_websocket(client: TestClient) -> None:
    created = create_with_cookies(client)
    with client.websocket_connect(f"/api/games/{created['id']}/ws?seat=1") as socket:
        first = socket.receive_json()
        assert first["seat"] == 1 and first["view"]["viewer"] == 1
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as socket:
        assert socket.receive_json()["seat"] == 0  # the held seat to move
        socket.send_json({"type": "move", "move": "1a1", "ply": 0})
        assert socket.receive_json()["moves"] == ["1a1"]


def test_an_explicit_token_wins_over_the_cookie(client: TestClient) -> None:
    created = create_with_cookies(client, ["human", "open"])
    other = create(client)
    url = f"/api/games/{created['id']}"
    joined = client.post(f"{url}/seats/1/join", json={}).json()  # no cookie asked: header only
    assert client.get(url, headers=bearer(joined["token"])).json()["seat"] == 1
    # A bad explicit token is a 401, whatever cookie comes with it.
    answer = client.get(url, headers=bearer(tokens(other)[0]))
    assert answer.status_code == 401 and "no seat" in answer.json()["error"]
    answer = client.post(f"{url}/seats/0/resign", headers=bearer("forged"))
    assert answer.status_code == 401
    with client.websocket_connect(f"{url}/ws?token=forged") as socket:
        assert socket.receive_json()["status"] == 401
    assert client.get(url).json()["status"] == "playing"


def test_a_cookie_of_one_seat_is_refused_on_another_seats_endpoints(client: TestClient) -> None:
    created = create_with_cookies(client, ["human", "open"])
    url = f"/api/games/{created['id']}"
    # Without the guest's session, whose seats (seat 0) are its account's: only the seat cookie is left.
    client.cookies.delete("ludotheque_session")
    client.post(f"{url}/seats/1/join", json={})
    answer = client.post(f"{url}/seats/1/resign")
    assert answer.status_code == 403 and "seat 0, not seat 1" in answer.json()["error"]
    answer = client.get(f"{url}?seat=1")
    assert answer.status_code == 401 and "seat 1" in answer.json()["error"]
    assert client.get(f"{url}?seat=one").status_code == 400
    assert client.get(url).json()["status"] == "playing"


def test_a_stale_cookie_is_ignored_and_expired(client: TestClient) -> None:
    created = create(client)
    url = f"/api/games/{created['id']}"
    stale = {"Cookie": "ludotheque_seat_0=from-an-old-database; ludotheque_seat_1=" + tokens(created)[0]}
    doc = client.get(url, headers=stale).json()
    assert doc["seat"] is None and doc["legal_moves"] == []  # a spectator, not a 401 wall
    answer = client.post(f"{url}/moves", json={"move": "1a1"}, headers=stale)
    assert answer.status_code == 401 and "token" in answer.json()["error"]
    mine = client.get(f"{url}/seats/mine", headers=stale)
    assert mine.json()["seats"] == []
    expired = seat_cookies(mine)
    assert sorted(expired) == ["ludotheque_seat_0", "ludotheque_seat_1"]
    assert all(cookie["max-age"] == "0" for cookie in expired.values())


def test_an_invite_token_is_claimed_into_a_cookie(client: TestClient) -> None:
    created = create(client)
    url = f"/api/games/{created['id']}"
    assert client.get(url).json()["seat"] is None
    answer = client.post(f"{url}/seats/mine", headers=bearer(tokens(created)[1]))
    assert answer.status_code == 200 and answer.json()["seat"] == 1 and answer.json()["seats"] == [1]
    assert seat_cookies(answer)["ludotheque_seat_1"]["value"] == tokens(created)[1]
    assert client.get(f"{url}/seats/mine").json()["seats"] == [1]
    assert client.get(url).json()["seat"] == 1
    for headers, words in [({}, "token"), (bearer("forged"), "no seat")]:
        refused = client.post(f"{url}/seats/mine", headers=headers)
        assert refused.status_code == 401 and words in refused.json()["error"]
        assert refused.headers.get_list("set-cookie") == []


def test_join_and_rematch_set_cookies_when_asked(client: TestClient) -> None:
    created = create_with_cookies(client, ["human", "open"])
    url = f"/api/games/{created['id']}"
    joined = client.post(f"{url}/seats/1/join?cookie=1", json={"name": "Bob"})
    assert seat_cookies(joined)["ludotheque_seat_1"]["path"] == url
    assert client.get(f"{url}/seats/mine").json()["seats"] == [0, 1]
    client.post(f"{url}/seats/0/resign")
    first = client.post(f"{url}/seats/0/rematch?cookie=1")
    assert first.status_code == 201
    new_url = f"/api/games/{first.json()['id']}"
    assert seat_cookies(first)[f"ludotheque_seat_{first.json()['seat']}"]["path"] == new_url
    second = client.post(f"{url}/seats/1/rematch?cookie=1")
    assert second.json()["id"] == first.json()["id"]
    # Both seats of the same screen landed in the new game, which has started.
    assert client.get(f"{new_url}/seats/mine").json()["seats"] == [0, 1]
    assert client.get(new_url).json()["status"] == "playing"


@pytest.mark.parametrize("path", ["", "/record", "/ws"])
def test_cookies_reach_only_their_own_game(client: TestClient, path: str) -> None:
    first = create_with_cookies(client)
    second = create(client)
    url = f"/api/games/{second['id']}{path}"
    # The browser would not send it (Path); a copied cookie holds no seat there either.
    copied = {"Cookie": f"ludotheque_seat_0={tokens(first)[0]}"}
    if path == "/ws":
        with client.websocket_connect(url, headers=copied) as socket:
            assert socket.receive_json()["seat"] is None
    else:
        assert client.get(url, headers=copied).status_code == 200
        assert client.get(f"/api/games/{second['id']}", headers=copied).json()["seat"] is None
