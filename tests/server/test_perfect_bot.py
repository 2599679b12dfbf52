"""The ``perfect`` bot through the server: offered (the catalog) and accepted (``bot:perfect``)
only for a game whose package is solved and whose tables of the chosen rule set are built on the
server, refused plainly elsewhere; on a machine with the kids tables, it plays their best moves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.engines.pylos import perfect, rules
from ludotheque.engines.pylos.solver import KidsSolver

from .conftest import serving
from .helpers import create, tokens
from .test_bots import wait_for

REAL_TABLES = perfect.available("kids")


def catalog_entry(client: TestClient, game_id: str) -> dict[str, object]:
    games = client.get("/api/catalog").json()["games"]
    return dict(next(entry for entry in games if entry["id"] == game_id))


@pytest.fixture
def no_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(tmp_path))


@pytest.fixture(scope="module")
def small_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kids rules solved for 3 balls a player (the server process then plays with 3)."""
    folder = tmp_path_factory.mktemp("tables")
    KidsSolver(folder / "pylos-kids", balls=3).run()
    return folder


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client


def test_without_tables_perfect_is_neither_offered_nor_accepted(no_tables: None, client: TestClient) -> None:
    assert catalog_entry(client, "pylos")["perfect"] == {"variants": {}}
    assert catalog_entry(client, "expion")["perfect"] is None  # no perfect play at all
    for level, variant in (("perfect", "kids"), ("parfait", "standard")):
        answer = client.post("/api/games", json={"game": "pylos", "variant": variant,
                                                 "seats": ["human", f"bot:{level}"]})
        assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
        assert f"perfect play is not available on this server for pylos ({variant})" in answer.json()["error"]
    refused = client.post("/api/games", json={"game": "expion", "seats": ["human"] + ["bot:perfect"] * 3})
    assert refused.status_code == 400 and "not available" in refused.json()["error"]


def test_with_tables_of_a_rule_set_perfect_is_offered_for_it_alone(
        small_tables: Path, monkeypatch: pytest.MonkeyPatch, client: TestClient) -> None:
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(small_tables))
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 3)
    assert catalog_entry(client, "pylos")["perfect"] == {"variants": {"kids": "complete"}}
    created = create(client, variant="kids", seats=["human", "bot:parfait"])
    assert created["seats"][1]["kind"] == "bot"
    doc = client.get(f"/api/games/{created['id']}").json()
    assert doc["variant"] == "kids" and doc["seats"][1]["level"] == "perfect"
    refused = client.post("/api/games", json={"game": "pylos", "variant": "standard",
                                              "seats": ["human", "bot:perfect"]})
    assert refused.status_code == 400


@pytest.mark.skipif(not REAL_TABLES, reason="the kids tables are not built on this machine")
def test_perfect_plays_the_tables_best_moves(tmp_path: Path) -> None:
    game = ludotheque.load("pylos", variant="kids")
    with serving(f"sqlite:///{tmp_path / 'perfect.db'}") as client:
        created = create(client, variant="kids", seats=["bot:perfect", "human"])
        token = tokens(created)[1]
        with client.websocket_connect(f"/api/games/{created['id']}/ws?token={token}") as socket:
            doc = wait_for(socket, lambda d: d.get("to_move") == 1 and d.get("legal_moves"))
            for _ in range(3):  # three moves of each side: every bot move is one of the best
                socket.send_json({"type": "move", "move": doc["legal_moves"][0], "ply": doc["ply"]})
                doc = wait_for(socket, lambda d, ply=doc["ply"] + 2: d.get("ply") == ply)
            state = game.new_state()
            for number, move in enumerate(doc["moves"]):
                if number % 2 == 0:
                    values = perfect.move_values(state)
                    assert values is not None
                    assert values[game.parse_move(state, move)] == perfect.position_value(state)
                state = state.play(move)
