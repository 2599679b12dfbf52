"""Every error of the design's Web API, as one table: the request, its status, its stable code and
words of its ``{"error": ..., "code": ...}`` body; and after each, nothing changed (the game and
the lobby read alike)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.errors import ERROR_CODES

from .helpers import bearer, create, tokens

HUGE = b'{"move": "' + b"x" * (70 * 1024) + b'"}'


@dataclass(frozen=True)
class Case:
    """One refused request. ``{game}`` in the path is the game's id; ``seat`` says whose token
    goes in the Authorization header: a seat of the game, ``"foreign"`` (another game's seat 1),
    ``"forged"``, ``"basic"`` (not a Bearer header) or nobody; ``body`` is JSON, or bytes sent
    as they are; ``state`` is the game's: ``playing`` (after 1a1), ``over`` or ``waiting``."""

    method: str
    path: str
    status: int
    code: str
    words: str
    seat: int | str | None = None
    body: Any = None
    state: str = "playing"


TWO = ["human", "human"]
MOVES = "/api/games/{game}/moves"


def bad_create(body: Any, words: str, code: str = "bad_request") -> Case:
    return Case("POST", "/api/games", 400, code, words, body=body)


def bad_move(status: int, code: str, words: str, body: Any, seat: int | str | None = None,
             state: str = "playing") -> Case:
    return Case("POST", MOVES, status, code, words, seat=seat, body=body, state=state)


CASES = {
    # 400: unknown game, variant or player count; bad seats or clock; not JSON; not notation.
    "unknown game": bad_create({"game": "chess", "seats": TWO}, "unknown game", "unknown_game"),
    "unknown variant": bad_create({"game": "pylos", "variant": "giant", "seats": TWO}, "unknown variant",
                                  "unknown_game"),
    "player count": bad_create({"game": "pylos", "players": 3, "seats": ["human"] * 3}, "players",
                               "unknown_game"),
    "seat count": bad_create({"game": "pylos", "seats": ["human"]}, "1 seats given for 2"),
    "unknown seat kind": bad_create({"game": "pylos", "seats": ["human", "robot"]}, "invalid seat 'robot'"),
    "unknown bot level": bad_create({"game": "pylos", "seats": ["human", "bot:x"]}, "unknown bot level"),
    "unknown clock": bad_create({"game": "pylos", "seats": TWO, "clock": {"type": "sand"}}, "clock"),
    "clock field": bad_create({"game": "pylos", "seats": TWO, "clock": {"type": "fischer"}}, "minutes"),
    "no game": bad_create({"seats": TWO}, "game"),
    "seats not a list": bad_create({"game": "pylos", "seats": "human"}, "seats"),
    "body not an object": bad_create([1, 2], "body"),
    "create not JSON": bad_create(b"nope", "not JSON", "bad_json"),
    "move not JSON": bad_move(400, "bad_json", "not JSON", b"{move", seat=1),
    "not notation": bad_move(400, "not_notation", "'9z9!'", {"move": "9z9!"}, seat=1),
    "seat not a number": Case("POST", "/api/games/{game}/seats/one/resign", 400, "bad_request", "seat",
                              seat=0),
    "move not text": bad_move(400, "bad_request", "move", {"move": 5}, seat=1),
    "ply not a number": bad_move(400, "bad_request", "ply", {"move": "1b1", "ply": "x"}, seat=1),
    # 401: no token, or a token that is not one of this game's (on reads too).
    "move without token": bad_move(401, "token_required", "token", {"move": "1b1"}),
    "foreign token": bad_move(401, "token_invalid", "no seat", {"move": "1b1"}, seat="foreign"),
    "forged token read": Case("GET", "/api/games/{game}", 401, "token_invalid", "no seat", seat="forged"),
    "not a Bearer header": Case("GET", "/api/games/{game}", 401, "token_invalid", "Bearer", seat="basic"),
    "forged token record": Case("GET", "/api/games/{game}/record", 401, "token_invalid", "no seat",
                                seat="forged"),
    "resign without token": Case("POST", "/api/games/{game}/seats/0/resign", 401, "token_required", "token"),
    # 403: a seat's token on another seat's endpoint.
    **{
        f"{action} for another seat": Case("POST", f"/api/games/{{game}}/seats/1/{action}", 403,
                                           "wrong_seat", "seat 0, not seat 1", seat=0)
        for action in ("resign", "draw", "takeback", "rematch")
    },
    # 404: unknown game, seat or path.
    "unknown game read": Case("GET", "/api/games/nothing", 404, "not_found", "no game 'nothing'"),
    "unknown game move": Case("POST", "/api/games/nothing/moves", 404, "not_found", "no game", "forged",
                              {"move": "1a1"}),
    "unknown game record": Case("GET", "/api/games/nothing/record", 404, "not_found", "no game"),
    "unknown game join": Case("POST", "/api/games/nothing/seats/0/join", 404, "not_found", "no game",
                              body={}),
    "unknown seat": Case("POST", "/api/games/{game}/seats/5/join", 404, "not_found", "no seat 5", body={}),
    "unknown path": Case("GET", "/api/nowhere", 404, "not_found", "Not Found"),
    "wrong method": Case("DELETE", "/api/games/{game}", 405, "method_not_allowed", "Method Not Allowed"),
    # 409: illegal, out of turn, stale ply, game over, game not started.
    "illegal move": bad_move(409, "illegal_move", "'1a1' is not legal", {"move": "1a1"}, seat=1),
    "out of turn": bad_move(409, "not_your_turn", "not your turn", {"move": "1b1"}, seat=0),
    "stale ply": bad_move(409, "stale_ply", "stale ply 0", {"move": "1b1", "ply": 0}, seat=1),
    "game over": bad_move(409, "game_over", "over", {"move": "1b1"}, seat=1, state="over"),
    "not started": bad_move(409, "not_started", "not started", {"move": "1a1"}, seat=0, state="waiting"),
    "draw against nobody yet": Case("POST", "/api/games/{game}/seats/0/draw", 409, "not_started",
                                    "not started", seat=0, state="waiting"),
    "join a taken seat": Case("POST", "/api/games/{game}/seats/1/join", 409, "seat_taken", "not open",
                              body={}),
    "rematch too early": Case("POST", "/api/games/{game}/seats/0/rematch", 409, "game_not_over", "once",
                              seat=0),
    "replay too early": Case("GET", "/api/games/{game}/replay/0", 409, "game_not_over", "once it is over"),
    "takeback between people": Case("POST", "/api/games/{game}/seats/0/takeback", 409, "takeback_refused",
                                    "bots", seat=0),
    # 413: a body over 64 KiB.
    "huge move": bad_move(413, "too_large", "64", HUGE, seat=1),
    "huge create": Case("POST", "/api/games", 413, "too_large", "64", body=HUGE),
    # Bad input of any shape is a 4xx, never a 500 (docs/design.md).
    "huge integer": bad_move(400, "bad_json", "4300", b'{"move": "1b1", "ply": ' + b"9" * 5000 + b"}",
                             seat=1),
    "deep nesting": bad_create(b"[" * 30_000 + b"]" * 30_000, "nested too deeply", "bad_json"),
    "deep nesting in a move": bad_move(400, "bad_json", "nested", b'{"move": ' + b"[" * 30_000, seat=1),
    "Unicode digit seat": Case("GET", "/api/games/{game}?seat=²", 400, "bad_request", "invalid seat '²'"),
    "Unicode digit replay": Case("GET", "/api/games/{game}/replay/²", 404, "not_found", "'²'", state="over"),
    "long seat kind": bad_create({"game": "pylos", "seats": ["human", "x" * 5000]}, "(5000 characters)"),
    "long status": Case("GET", "/api/games?status=" + "x" * 5000, 400, "bad_request", "(5000 characters)"),
}


@pytest.fixture
def other(client: TestClient) -> dict[str, Any]:
    return create(client)


def prepared(client: TestClient, state: str) -> dict[str, Any]:
    """A Pylos game in ``state``: ``playing`` (1a1 played), ``over`` (seat 0 resigned), ``waiting``."""
    if state == "waiting":
        return create(client, seats=["human", "open"])
    created = create(client)
    client.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"}, headers=bearer(tokens(created)[0]))
    if state == "over":
        client.post(f"/api/games/{created['id']}/seats/0/resign", headers=bearer(tokens(created)[0]))
    return created


def headers_for(case: Case, game: dict[str, Any], other: dict[str, Any]) -> dict[str, str]:
    if isinstance(case.seat, int):
        return bearer(tokens(game)[case.seat])
    return {
        None: {},
        "foreign": bearer(tokens(other)[1]),
        "forged": bearer("forged"),
        "basic": {"Authorization": "Basic abc"},
    }[case.seat]


def world(client: TestClient, game_id: str) -> tuple[Any, Any]:
    """What a refused request must leave as it was: the game (but its running clock) and the lobby."""
    doc = dict(client.get(f"/api/games/{game_id}").json())
    doc.pop("clock")
    return doc, client.get("/api/games").json()


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_each_error_has_its_status_and_reason_and_changes_nothing(
    client: TestClient, other: dict[str, Any], case: Case
) -> None:
    game = prepared(client, case.state)
    before = world(client, game["id"])
    body = {"content": case.body} if isinstance(case.body, bytes) else {"json": case.body}
    if case.body is None:
        body = {}
    answer = client.request(case.method, case.path.format(game=game["id"]),
                            headers=headers_for(case, game, other), **body)
    assert answer.status_code == case.status, answer.text
    assert answer.json() == {"error": answer.json()["error"], "code": case.code}
    assert case.words in answer.json()["error"] and len(answer.json()["error"]) <= 300
    assert world(client, game["id"]) == before


def test_every_code_is_listed_in_the_api_reference() -> None:
    reference = (Path(__file__).parents[2] / "docs" / "API.md").read_text("utf-8")
    for code in ERROR_CODES:
        assert f"`{code}`" in reference, code
