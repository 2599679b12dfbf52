"""Invite seats: the creator gets a code for the friend's seat and no way to play it; whoever
brings the code claims the seat once (like a join, cookie included when asked); a second claim
is told the invite was used, a wrong code is refused; the game waits until every seat is taken."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import serving
from .helpers import bearer, create, tokens


def create_with_invite(client: TestClient, query: str = "") -> tuple[dict[str, Any], Any]:
    answer = client.post(f"/api/games{query}", json={"game": "pylos", "seats": ["human", "invite"]})
    assert answer.status_code == 201, answer.text
    return answer.json(), answer


def claim(client: TestClient, game_id: str, seat: int, code: str, query: str = "") -> Any:
    return client.post(f"/api/games/{game_id}/seats/{seat}/claim{query}", json={"invite": code})


def test_the_creator_gets_a_code_and_no_token_or_cookie_for_the_invite_seat(client: TestClient) -> None:
    created, answer = create_with_invite(client, "?cookie=1")
    mine, friend = created["seats"]
    assert mine["kind"] == "human" and "token" in mine
    assert set(friend) == {"seat", "kind", "invite", "url"} and friend["kind"] == "invite"
    assert friend["url"].endswith(f"/play/{created['id']}?invite={friend['invite']}")
    cookies = [header.split("=", 1)[0] for header in answer.headers.get_list("set-cookie")]
    assert cookies == ["ludotheque_seat_0", "ludotheque_session"]  # the seat, and the page's guest
    doc = client.get(f"/api/games/{created['id']}").json()
    assert doc["status"] == "waiting" and doc["seats"][1]["kind"] == "invite"
    assert friend["invite"] not in str(doc)
    # The creator's browser holds seat 0 only: it cannot play, resign or take seat 1.
    assert client.get(f"/api/games/{created['id']}/seats/mine").json()["seats"] == [0]
    refused = client.post(f"/api/games/{created['id']}/seats/1/resign")
    assert refused.status_code == 403 and refused.json()["code"] == "wrong_seat"
    joined = client.post(f"/api/games/{created['id']}/seats/1/join", json={})
    assert joined.status_code == 409 and joined.json()["code"] == "seat_taken"
    # An invite game is no open game of the lobby.
    assert client.get("/api/games?status=open").json()["games"] == []


def test_the_invite_is_claimed_once_and_the_game_starts(client: TestClient) -> None:
    created, _ = create_with_invite(client)
    game_id, code = created["id"], created["seats"][1]["invite"]
    wrong = claim(client, game_id, 1, "not-the-code")
    assert wrong.status_code == 403 and wrong.json()["code"] == "invite_invalid"
    on_my_seat = claim(client, game_id, 0, code)
    assert on_my_seat.status_code == 403 and on_my_seat.json()["code"] == "invite_invalid"
    claimed = claim(client, game_id, 1, code)
    assert claimed.status_code == 200, claimed.text
    body = claimed.json()
    assert set(body) == {"id", "seat", "token", "url"} and (body["id"], body["seat"]) == (game_id, 1)
    doc = client.get(f"/api/games/{game_id}", headers=bearer(body["token"])).json()
    assert doc["status"] == "playing" and doc["seat"] == 1 and doc["seats"][1]["kind"] == "human"
    again = claim(client, game_id, 1, code)
    assert again.status_code == 409 and again.json()["code"] == "invite_claimed"
    # The friend plays seat 1, the creator seat 0, and neither the other's.
    light = tokens(created)[0]
    move = client.post(f"/api/games/{game_id}/moves", json={"move": "1a1"}, headers=bearer(light))
    assert move.status_code == 200
    answer = client.post(f"/api/games/{game_id}/moves", json={"move": "1b1"}, headers=bearer(light))
    assert answer.status_code == 409 and answer.json()["code"] == "not_your_turn"
    friend = client.post(f"/api/games/{game_id}/moves", json={"move": "1b1"}, headers=bearer(body["token"]))
    assert friend.status_code == 200 and friend.json()["moves"] == ["1a1", "1b1"]


def test_a_claim_sets_the_seat_cookie_when_asked(client: TestClient) -> None:
    created, _ = create_with_invite(client)
    answer = claim(client, created["id"], 1, created["seats"][1]["invite"], "?cookie=1")
    assert answer.status_code == 200
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"ludotheque_seat_1={answer.json()['token']}") and "HttpOnly" in cookie
    assert client.get(f"/api/games/{created['id']}/seats/mine").json()["seats"] == [1]


def test_a_claim_needs_its_code_in_the_body(client: TestClient) -> None:
    created, _ = create_with_invite(client)
    for body in ({}, {"invite": ""}, {"code": "x"}):
        answer = client.post(f"/api/games/{created['id']}/seats/1/claim", json=body)
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    answer = client.post(f"/api/games/{created['id']}/seats/7/claim", json={"invite": "x"})
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert client.get(f"/api/games/{created['id']}").json()["status"] == "waiting"


def test_an_invite_survives_a_restart(db_url: str) -> None:
    with serving(db_url) as client:
        created, _ = create_with_invite(client)
    with serving(db_url) as client:
        code = created["seats"][1]["invite"]
        assert claim(client, created["id"], 1, code).status_code == 200
        assert claim(client, created["id"], 1, code).json()["code"] == "invite_claimed"


def test_open_and_invite_seats_mix_and_bots_wait_for_people(client: TestClient) -> None:
    created = create(client, game="expion", players=4, seats=["human", "open", "invite", "bot:random"])
    game_id = created["id"]
    assert client.post(f"/api/games/{game_id}/seats/1/join", json={}).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["status"] == "waiting"
    assert claim(client, game_id, 2, created["seats"][2]["invite"]).status_code == 200
    doc = client.get(f"/api/games/{game_id}").json()
    assert doc["status"] == "playing"
    assert [s["kind"] for s in doc["seats"]] == ["human", "human", "human", "bot"]
