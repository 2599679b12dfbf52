"""No secret reaches a reader who may not know it: not in the API document, not in the WebSocket
document, not in the record of a running game. Parametrised over every registered game and
configuration that hides information (Plimil's stems and block contents, Imbrication's tiles)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.core.contract import State
from ludotheque.core.records import masked_moves
from ludotheque.server.hub import Hub

from ..conftest import game_configurations
from .helpers import bearer, create, tokens

HIDDEN = [
    configuration
    for configuration in game_configurations()
    if ludotheque.load(*configuration).has_hidden_information
]
PLIES = 12


def play_some_moves(client: TestClient, game_id: str, seat_tokens: list[str]) -> None:
    for turn in range(PLIES):
        doc = client.get(f"/api/games/{game_id}").json()
        if doc["status"] != "playing":
            return
        token = seat_tokens[doc["to_move"]]
        legal = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["legal_moves"]
        move = legal[(turn * 5) % len(legal)]
        assert client.post(
            f"/api/games/{game_id}/moves", json={"move": move}, headers=bearer(token)
        ).is_success


def secrets_hidden_from(states: tuple[State, ...], moves: tuple[str, ...], reader: int | None) -> list[str]:
    """The move texts that ``reader`` may not read (the game masks them for that reader)."""
    game = states[0].game
    masked = masked_moves(game, list(states), moves, reader)
    return [text for text, seen in zip(moves, masked, strict=True) if text != seen]


def assert_blind(
    document: dict[str, Any], states: tuple[State, ...], moves: tuple[str, ...], reader: int | None
) -> None:
    state = states[-1]
    assert document["view"] == state.view(reader)
    assert document["moves"] == masked_moves(state.game, list(states), moves, reader)
    text = json.dumps(document, ensure_ascii=False)
    for secret in secrets_hidden_from(states, moves, reader):
        assert secret not in text, f"{secret!r} leaked to reader {reader}"


def test_some_configuration_hides_information() -> None:
    assert HIDDEN, "the registry declares no game with hidden information"


@pytest.mark.parametrize(("game_id", "variant", "players"), HIDDEN)
def test_no_secret_reaches_spectators_or_opponents(
    client: TestClient, game_id: str, variant: str, players: int
) -> None:
    created = create(client, game=game_id, variant=variant, players=players, seats=["human"] * players)
    game_id_, seat_tokens = created["id"], tokens(created)
    play_some_moves(client, game_id_, seat_tokens)
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    _, snap = hub.storage.load(game_id_) or pytest.fail("game not stored")
    states = tuple(snap.states())
    readers: list[int | None] = [None, *range(players)]
    if game_id == "plimil":  # its secret setup must really be there to be hidden
        assert secrets_hidden_from(states, snap.moves, None), "no secret move was played"
    for reader in readers:
        headers = bearer(seat_tokens[reader]) if reader is not None else {}
        assert_blind(
            client.get(f"/api/games/{game_id_}", headers=headers).json(),
            states,
            snap.moves,
            reader,
        )
        with client.websocket_connect(
            f"/api/games/{game_id_}/ws" + (f"?token={seat_tokens[reader]}" if reader is not None else "")
        ) as socket:
            assert_blind(socket.receive_json(), states, snap.moves, reader)
        record = client.get(f"/api/games/{game_id_}/record", headers=headers).json()
        if snap.status != "over":
            assert record["seed"] is None
            assert record["moves"] == masked_moves(snap.state.game, snap.states(), snap.moves, reader)
