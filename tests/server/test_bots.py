"""Bots play through the worker pool, in every registered game, and replay from their seed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque import ai
from ludotheque.server.hub import Hub

from .helpers import bearer, create, tokens


def wait_for(socket: Any, predicate: Any, limit: int = 50) -> dict[str, Any]:
    """The first document on ``socket`` satisfying ``predicate``."""
    for _ in range(limit):
        message = socket.receive_json()
        if predicate(message):
            return dict(message)
    raise AssertionError("no such document arrived")


def test_a_bot_answers_and_a_takeback_undoes_both_moves(client: TestClient) -> None:
    created = create(client, seats=["human", "bot:random"])
    game_id, token = created["id"], tokens(created)[0]
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "1a1"})
        answered = wait_for(socket, lambda doc: doc.get("ply") == 2)
        assert answered["to_move"] == 0 and answered["legal_moves"] and answered["can_take_back"]
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        meta, snap = hub.storage.load(game_id) or pytest.fail("game not stored")
        seed = snap.seats[1].bot_seed
        assert seed is not None
        expected = ai.bot("random", meta.game, seed=seed).choose(snap.states()[1])
        assert answered["moves"][1] == str(expected)
    taken = client.post(f"/api/games/{game_id}/seats/0/takeback", headers=bearer(token))
    assert taken.status_code == 200 and taken.json()["moves"] == [] and taken.json()["to_move"] == 0


def test_bots_draws_are_refused(client: TestClient) -> None:
    created = create(client, seats=["human", "bot:random"])
    answer = client.post(f"/api/games/{created['id']}/seats/0/draw", headers=bearer(tokens(created)[0]))
    assert answer.status_code == 409 and "bots" in answer.json()["error"]


@pytest.mark.parametrize("game_id", ludotheque.games())
def test_every_game_plays_against_bots_through_the_server(client: TestClient, game_id: str) -> None:
    players = ludotheque.core.info(game_id).default_players
    created = create(client, game=game_id, seats=["human"] + ["bot:random"] * (players - 1))
    token = tokens(created)[0]
    with client.websocket_connect(f"/api/games/{created['id']}/ws?token={token}") as socket:
        doc = socket.receive_json()
        human_moves = 0
        while doc["status"] == "playing" and human_moves < 6:
            if doc["legal_moves"]:
                socket.send_json({"type": "move", "move": doc["legal_moves"][-1], "ply": doc["ply"]})
                human_moves += 1
            doc = socket.receive_json()
            assert doc.get("type") != "error", doc
    assert human_moves == 6 or doc["status"] == "over"
    assert all(seat["kind"] == "bot" for seat in doc["seats"][1:])


def test_a_rematch_against_a_bot_starts_at_once_with_the_seats_turned(client: TestClient) -> None:
    created = create(client, seats=["human", "bot:random"])
    token = tokens(created)[0]
    client.post(f"/api/games/{created['id']}/seats/0/resign", headers=bearer(token))
    rematch = client.post(f"/api/games/{created['id']}/seats/0/rematch", headers=bearer(token))
    assert rematch.status_code == 201 and rematch.json()["seat"] == 1
    doc = client.get(f"/api/games/{rematch.json()['id']}", headers=bearer(rematch.json()["token"])).json()
    assert doc["status"] == "playing"
    assert [seat["kind"] for seat in doc["seats"]] == ["bot", "human"]
