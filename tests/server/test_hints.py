"""Hints (``/api/games/{id}/hint``), on SQLite and PostgreSQL: the ``medium`` bot's move for the
player to move, only in casual games against bots, counted per seat and game (the same position
asked twice counts once), refused with a clear code everywhere else."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque import ai
from ludotheque.server.analysis_routes import app_jobs, hint_seed
from ludotheque.server.hub import Hub

from .conftest import POSTGRES_ENV, fresh_postgres_schema, serving
from .helpers import bearer, create, tokens

PAGE = {"Origin": "http://testserver"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('hints') / 'ludotheque.db'}"
    else:
        postgres = os.environ.get(POSTGRES_ENV)
        if not postgres:
            pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
        url = fresh_postgres_schema(postgres, "ludotheque_hints")
    with serving(url) as test_client:
        yield test_client


@pytest.fixture
def client(server: TestClient) -> Iterator[TestClient]:
    server.cookies.clear()
    yield server
    server.cookies.clear()


def my_turn(client: TestClient, game_id: str, token: str, seat: int = 0) -> dict[str, Any]:
    """The game's document once ``seat`` is to move (the bot has answered)."""
    for _ in range(200):
        doc: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        if doc["to_move"] == seat or doc["status"] != "playing":
            return doc
        time.sleep(0.05)
    raise AssertionError("the bot did not answer")


def test_hints_in_a_casual_game_against_a_bot(client: TestClient) -> None:
    app_jobs(client.app).settings = replace(app_jobs(client.app).settings, hints=2)  # type: ignore[arg-type]
    created = create(client, seats=["human", "bot:random"])
    game_id, token = created["id"], tokens(created)[0]
    told = client.get(f"/api/games/{game_id}/hint", headers=bearer(token)).json()
    assert told == {"id": game_id, "seat": 0, "level": "medium", "limit": 2, "hints_left": 2, "allowed": True}
    answer = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    meta, snap = hub.storage.load(game_id) or pytest.fail("not stored")
    # The medium bot's choice, seeded from the position: the same as that bot playing it.
    expected = ai.bot("medium", meta.game, seed=hint_seed(meta.seed, 0, 0)).choose(snap.state)
    assert hint["move"] == str(expected) and hint["hints_left"] == 1 and hint["ply"] == 0
    again = client.post(f"/api/games/{game_id}/hint", headers=bearer(token)).json()
    assert again["move"] == hint["move"] and again["hints_left"] == 1  # the same position: not counted
    client.post(f"/api/games/{game_id}/moves", json={"move": hint["move"]}, headers=bearer(token))
    doc = my_turn(client, game_id, token)
    second = client.post(f"/api/games/{game_id}/hint", headers=bearer(token)).json()
    assert second["hints_left"] == 0 and second["move"] in doc["legal_moves"]
    client.post(f"/api/games/{game_id}/moves", json={"move": second["move"]}, headers=bearer(token))
    my_turn(client, game_id, token)
    refused = client.post(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert refused.status_code == 409 and refused.json()["code"] == "no_hints_left"
    assert "no hints left" in refused.json()["error"]
    told = client.get(f"/api/games/{game_id}/hint", headers=bearer(token)).json()
    assert told["allowed"] is False and told["hints_left"] == 0
    app_jobs(client.app).settings = replace(app_jobs(client.app).settings, hints=3)  # type: ignore[arg-type]


def test_hints_are_refused_outside_casual_games_against_bots(client: TestClient) -> None:
    people = create(client)  # two people
    answer = client.post(f"/api/games/{people['id']}/hint", headers=bearer(tokens(people)[0]))
    assert answer.status_code == 403 and answer.json()["code"] == "hint_refused"
    assert "against bots" in answer.json()["error"]
    told = client.get(f"/api/games/{people['id']}/hint", headers=bearer(tokens(people)[0])).json()
    assert told["allowed"] is False and "against bots" in told["reason"]
    bots = create(client, seats=["human", "bot:random"])
    spectator = client.post(f"/api/games/{bots['id']}/hint")
    assert spectator.status_code == 401 and spectator.json()["code"] == "token_required"
    assert client.get(f"/api/games/{bots['id']}/hint").json()["allowed"] is False
    client.post(f"/api/games/{bots['id']}/seats/0/resign", headers=bearer(tokens(bots)[0]))
    over = client.post(f"/api/games/{bots['id']}/hint", headers=bearer(tokens(bots)[0]))
    assert over.status_code == 409 and over.json()["code"] == "game_over"
    # A rated game against bots: no hints.
    signed = client.post("/api/account/signup", json={"name": "Hinty", "password": "correct horse"},
                         headers=PAGE)
    assert signed.status_code == 201, signed.text
    rated = client.post("/api/games", json={"game": "pylos", "seats": ["human", "bot:random"], "rated": True},
                        headers=PAGE)
    assert rated.status_code == 201, rated.text
    refused = client.post(f"/api/games/{rated.json()['id']}/hint", headers=PAGE)
    assert refused.status_code == 403 and "rated" in refused.json()["error"]
    other_site = client.post(f"/api/games/{rated.json()['id']}/hint", headers={"Origin": "http://evil.example"})
    assert other_site.status_code == 403 and other_site.json()["code"] == "origin_refused"
