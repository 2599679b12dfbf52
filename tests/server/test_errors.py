"""Every error of DESIGN's Web API: its status, its ``{"error": ...}`` body, and no change."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .helpers import bearer, create, tokens


def snapshot(client: TestClient, game_id: str) -> dict[str, Any]:
    doc = dict(client.get(f"/api/games/{game_id}").json())
    doc.pop("clock")  # the running clock is the only thing that moves by itself
    return doc


def assert_error(answer: Any, status: int, words: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert list(body) == ["error"] and words in body["error"]


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    created = create(client)
    client.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"}, headers=bearer(tokens(created)[0]))
    return created


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": ["human", "human"]}, "unknown game"),
        ({"game": "pylos", "variant": "giant", "seats": ["human", "human"]}, "unknown variant"),
        ({"game": "pylos", "players": 3, "seats": ["human"] * 3}, "players"),
        ({"game": "pylos", "seats": ["human"]}, "1 seats given for 2"),
        ({"game": "pylos", "seats": ["human", "robot"]}, "invalid seat 'robot'"),
        ({"game": "pylos", "seats": ["human", "bot:godlike"]}, "unknown bot level"),
        ({"game": "pylos", "seats": ["human", "human"], "clock": {"type": "sand"}}, "clock"),
        ({"game": "pylos", "seats": ["human", "human"], "clock": {"type": "fischer"}}, "minutes"),
        ({"seats": ["human", "human"]}, "game"),
        ({"game": "pylos", "seats": "human"}, "seats"),
        ([1, 2], "body"),
    ],
)
def test_create_refuses_bad_games_with_400(client: TestClient, body: Any, words: str) -> None:
    assert_error(client.post("/api/games", json=body), 400, words)
    assert client.get("/api/games").json()["games"] == []


def test_body_not_json_is_400(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    answer = client.post(f"/api/games/{game['id']}/moves", content=b"{move", headers=bearer(tokens(game)[1]))
    assert_error(answer, 400, "not JSON")
    assert_error(client.post("/api/games", content=b"nope"), 400, "not JSON")
    assert snapshot(client, game["id"]) == before


def test_text_not_notation_is_400(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "9z9!"}, headers=bearer(tokens(game)[1])
    )
    assert_error(answer, 400, "'9z9!'")
    assert snapshot(client, game["id"]) == before


def test_bad_path_or_field_types_are_400_never_422(client: TestClient, game: dict[str, Any]) -> None:
    answer = client.post(f"/api/games/{game['id']}/seats/one/resign", headers=bearer(tokens(game)[0]))
    assert_error(answer, 400, "seat")
    answer = client.post(f"/api/games/{game['id']}/moves", json={"move": 5}, headers=bearer(tokens(game)[1]))
    assert_error(answer, 400, "move")
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "1b1", "ply": "x"}, headers=bearer(tokens(game)[1])
    )
    assert_error(answer, 400, "ply")


def test_missing_or_foreign_token_is_401(client: TestClient, game: dict[str, Any]) -> None:
    other = create(client)
    before = snapshot(client, game["id"])
    url = f"/api/games/{game['id']}"
    assert_error(client.post(f"{url}/moves", json={"move": "1b1"}), 401, "token")
    assert_error(
        client.post(f"{url}/moves", json={"move": "1b1"}, headers=bearer(tokens(other)[1])), 401, "no seat"
    )
    assert_error(client.get(url, headers=bearer("forged")), 401, "no seat")
    assert_error(client.get(url, headers={"Authorization": "Basic abc"}), 401, "Bearer")
    assert_error(client.get(f"{url}/record", headers=bearer("forged")), 401, "no seat")
    assert_error(client.post(f"{url}/seats/0/resign"), 401, "token")
    assert snapshot(client, game["id"]) == before


def test_a_seat_token_on_another_seat_is_403(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    for action in ("resign", "draw", "takeback", "rematch"):
        answer = client.post(f"/api/games/{game['id']}/seats/1/{action}", headers=bearer(tokens(game)[0]))
        assert_error(answer, 403, "seat 0, not seat 1")
    assert snapshot(client, game["id"]) == before


def test_unknown_game_or_seat_is_404(client: TestClient, game: dict[str, Any]) -> None:
    assert_error(client.get("/api/games/nothing"), 404, "no game 'nothing'")
    assert_error(
        client.post("/api/games/nothing/moves", json={"move": "1a1"}, headers=bearer("x")), 404, "no game"
    )
    assert_error(client.get("/api/games/nothing/record"), 404, "no game")
    assert_error(client.post("/api/games/nothing/seats/0/join", json={}), 404, "no game")
    assert_error(client.post(f"/api/games/{game['id']}/seats/5/join", json={}), 404, "no seat 5")
    assert_error(client.get("/api/nowhere"), 404, "Not Found")


def test_illegal_move_is_409(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "1a1"}, headers=bearer(tokens(game)[1])
    )
    assert_error(answer, 409, "'1a1' is not legal")
    assert snapshot(client, game["id"]) == before


def test_out_of_turn_is_409(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "1b1"}, headers=bearer(tokens(game)[0])
    )
    assert_error(answer, 409, "not your turn")
    assert snapshot(client, game["id"]) == before


def test_stale_ply_is_409(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "1b1", "ply": 0}, headers=bearer(tokens(game)[1])
    )
    assert_error(answer, 409, "stale ply 0")
    assert snapshot(client, game["id"]) == before


def test_move_after_the_end_or_before_the_start_is_409(client: TestClient, game: dict[str, Any]) -> None:
    client.post(f"/api/games/{game['id']}/seats/0/resign", headers=bearer(tokens(game)[0]))
    before = snapshot(client, game["id"])
    answer = client.post(
        f"/api/games/{game['id']}/moves", json={"move": "1b1"}, headers=bearer(tokens(game)[1])
    )
    assert_error(answer, 409, "over")
    assert snapshot(client, game["id"]) == before
    waiting = create(client, seats=["human", "open"])
    answer = client.post(
        f"/api/games/{waiting['id']}/moves", json={"move": "1a1"}, headers=bearer(tokens(waiting)[0])
    )
    assert_error(answer, 409, "not started")


def test_body_over_64_kib_is_413(client: TestClient, game: dict[str, Any]) -> None:
    before = snapshot(client, game["id"])
    huge = b'{"move": "' + b"x" * (70 * 1024) + b'"}'
    answer = client.post(f"/api/games/{game['id']}/moves", content=huge, headers=bearer(tokens(game)[1]))
    assert_error(answer, 413, "64")
    assert_error(client.post("/api/games", content=huge), 413, "64")
    assert snapshot(client, game["id"]) == before
