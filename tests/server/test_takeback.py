"""Takebacks against bots: they never reveal what a fresh game would not (no going back past a
move that showed the taker hidden information: Imbrication's tiles, Plimil's stems and balls),
and they never give time back (the clocks keep the time used, increments of the moves taken
back included)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.server.clocks import Instant
from ludotheque.server.errors import ApiError
from ludotheque.server.snapshots import Seat, Snapshot, begin, can_take_back, new_snapshot, play, take_back

from .helpers import bearer, create, tokens
from .test_players import Person

NOW = Instant(0.0, 1_000_000.0)


def wait_for(socket: Any, predicate: Any, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        message = socket.receive_json()
        assert message.get("type") != "error", message
        if predicate(message):
            return dict(message)
    raise AssertionError("no such document arrived")


def human_turn(socket: Any) -> dict[str, Any]:
    """The next document that gives the human (seat 0) the turn."""
    return wait_for(socket, lambda doc: doc["to_move"] == 0 and doc["legal_moves"])


def test_imbrication_takes_back_the_opening_but_never_a_turned_tile(client: TestClient) -> None:
    created = create(client, game="imbrication", seats=["human", "bot:random"])
    game_id, token = created["id"], tokens(created)[0]
    url = f"/api/games/{game_id}"
    with client.websocket_connect(f"{url}/ws?token={token}") as socket:
        doc = socket.receive_json()
        socket.send_json({"type": "move", "move": doc["legal_moves"][0], "ply": 0})
        doc = human_turn(socket)  # the bot placed too: nothing hidden has been shown yet
        assert doc["ply"] == 2 and doc["can_take_back"]
        back = client.post(f"{url}/seats/0/takeback", headers=bearer(token))
        assert back.status_code == 200 and back.json()["moves"] == []
        doc = human_turn(socket)
        while doc["view"]["phase"] == "opening":
            socket.send_json({"type": "move", "move": doc["legal_moves"][0], "ply": doc["ply"]})
            doc = human_turn(socket)
        # Round 1's first action turn: placing turns the first tile face up.
        assert doc["view"]["line"] == [None] * 9
        socket.send_json({"type": "move", "move": doc["legal_moves"][0], "ply": doc["ply"]})
        after = human_turn(socket)  # the human's action, or (a blank) their next placement
    tile = after["view"]["line"][0]
    assert tile is not None
    assert not after["can_take_back"]
    refused = client.post(f"{url}/seats/0/takeback", headers=bearer(token))
    assert refused.status_code == 409 and refused.json()["code"] == "takeback_refused"
    assert "hidden information" in refused.json()["error"]
    again = client.get(url, headers=bearer(token)).json()
    assert again["moves"] == after["moves"] and again["view"]["line"][0] == tile


def reveal_to_first_seat(game_id: str, seed: int) -> tuple[Snapshot, int]:
    """A game of seat 0 against a bot, played at random until a move shows seat 0 something
    hidden; returns the snapshot then and the index of that move."""
    game = ludotheque.load(game_id)
    seats = (Seat("human", "Ada", token_hash="a"), Seat("bot", "bot:random", "random", bot_seed=1))
    snap = begin(new_snapshot(game, seed, seats, None), NOW)
    rng = random.Random(seed)
    while snap.status == "playing":
        before = snap.state.hidden_facts(0)
        mover = snap.state.to_move
        assert mover is not None
        snap = play(snap, mover, str(rng.choice(snap.state.legal_moves())), None, NOW)
        if 0 in snap.movers and snap.state.hidden_facts(0) < before:
            return snap, snap.ply - 1
    raise AssertionError("no move showed seat 0 anything")


@pytest.mark.parametrize("game_id", ["imbrication", "plimil"])
def test_no_takeback_goes_back_past_a_reveal(game_id: str) -> None:
    snap, reveal = reveal_to_first_seat(game_id, seed=3)
    assert snap.hidden[reveal + 1][0] < snap.hidden[reveal][0]
    assert not can_take_back(snap, 0)
    with pytest.raises(ApiError) as refused:
        take_back(snap, 0, NOW)
    assert refused.value.code == "takeback_refused"
    # Once seat 0 has moved again after the reveal, that move can be taken back (not past it).
    while snap.state.to_move != 0 and snap.status == "playing":
        snap = play(snap, 1, str(snap.state.legal_moves()[0]), None, NOW)
    if snap.status == "playing":
        moved = play(snap, 0, str(snap.state.legal_moves()[0]), None, NOW)
        if moved.status == "playing" and moved.state.hidden_facts(0) == snap.state.hidden_facts(0):
            assert take_back(moved, 0, NOW).moves == snap.moves


def test_plimil_counts_the_hidden_stems_and_balls() -> None:
    state = ludotheque.load("plimil").new_state()
    assert state.hidden_facts(0) == state.hidden_facts(None) == 0  # nothing planted yet
    state = state.play("stems STSTSTST")
    assert (state.hidden_facts(0), state.hidden_facts(1), state.hidden_facts(None)) == (0, 8, 8)
    assert ludotheque.load("plimil", variant="open").new_state().play("stems STSTSTST").hidden_facts(1) == 0


def test_imbrication_counts_the_unseen_tiles() -> None:
    state = ludotheque.load("imbrication").new_state(seed=5)
    assert state.hidden_facts(0) == state.hidden_facts(1) == 18
    assert ludotheque.load("pylos").new_state().hidden_facts(0) == 0


def test_a_takeback_gives_no_time_back(client: TestClient) -> None:
    clock = {"type": "fischer", "minutes": 10, "increment": 60}
    created = create(client, seats=["human", "bot:random"], clock=clock)
    game_id, token = created["id"], tokens(created)[0]
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "1a1", "ply": 0})
        replied = wait_for(socket, lambda doc: doc["ply"] == 2)
    # Seat 0 earned a minute of increment with its move; its time runs again now.
    assert replied["clock"]["running"] == 0 and replied["clock"]["remaining_ms"][0] > 600_000
    before = client.get(f"/api/games/{game_id}").json()["clock"]["remaining_ms"]
    taken = client.post(f"/api/games/{game_id}/seats/0/takeback", headers=bearer(token)).json()
    after = taken["clock"]["remaining_ms"]
    assert taken["moves"] == [] and taken["clock"]["running"] == 0
    # Each seat keeps the time it used and loses the increment of its move taken back.
    assert after[0] <= before[0] - 60_000 and after[0] < 600_000
    assert after[1] <= before[1] - 60_000


def test_no_takeback_in_a_rated_game(client: TestClient) -> None:
    """A rated game against bots: a takeback would let a player try again until the bot errs and
    farm a rating, so it is refused both ways (HTTP and WebSocket) and never offered."""
    ada = Person(client, "Ada")
    body = {"game": "pylos", "seats": ["human", "bot:random"], "rated": True}
    created = ada.post(client, "/api/games", body)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], tokens(created.json())[0]
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        socket.send_json({"type": "move", "move": "1a1", "ply": 0})
        replied = wait_for(socket, lambda doc: doc["ply"] == 2)
        assert replied["rated"] and not replied["can_take_back"]
        refused = client.post(f"/api/games/{game_id}/seats/0/takeback", headers=bearer(token))
        assert refused.status_code == 409
        assert refused.json() == {"error": "no takebacks in a rated game", "code": "rated_takeback"}
        socket.send_json({"type": "takeback"})
        error = socket.receive_json()
        assert (error["type"], error["status"], error["code"]) == ("error", 409, "rated_takeback")
    assert client.get(f"/api/games/{game_id}").json()["moves"] == replied["moves"]  # nothing changed
