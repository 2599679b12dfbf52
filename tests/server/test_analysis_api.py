"""The analysis of a finished game over HTTP (``/api/games/{id}/analysis``), on SQLite and PostgreSQL:
refused before the end, queued then done in the bot pool, the same as the command's analysis, made
once per game and view and shared, limited per person, and a hidden game's views."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

import ludotheque
from ludotheque.analysis import analyse, budget_for
from ludotheque.core.records import Record
from ludotheque.server.analysis_jobs import AnalysisJobs, AnalysisSettings
from ludotheque.server.analysis_routes import app_jobs
from ludotheque.server.analysis_tables import analyses
from ludotheque.server.bots import BotPool
from ludotheque.server.hub import Hub

from .conftest import POSTGRES_ENV, fresh_postgres_schema, serving
from .helpers import bearer, create, tokens

# Small searches on the plain engine (no kernel to compile in the worker): the tests check the
# service, not the depth of the analysis (tests/analysis/ does).
SETTINGS = AnalysisSettings(budget=0.05, engine="plain", part_plies=2)
PYLOS_MOVES = ["1a1", "1b1", "1c1", "1d1", "1a2"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One server per database for the module's tests (each starts its worker process once)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('analysis') / 'ludotheque.db'}"
    else:
        postgres = os.environ.get(POSTGRES_ENV)
        if not postgres:
            pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
        url = fresh_postgres_schema(postgres, "ludotheque_analysis")
    with serving(url) as test_client:
        test_client.app.state.analysis_settings = SETTINGS  # type: ignore[attr-defined]
        yield test_client


@pytest.fixture
def client(server: TestClient) -> Iterator[TestClient]:
    """The module's server as a new browser, with the default analysis settings."""
    server.cookies.clear()
    yield server
    server.cookies.clear()
    jobs_of(server).settings = SETTINGS


def jobs_of(client: TestClient) -> AnalysisJobs:
    return app_jobs(client.app)  # type: ignore[arg-type]


def finished_game(client: TestClient, game: str = "pylos", moves: list[str] = PYLOS_MOVES) -> str:
    """A game of ``game`` between two people: ``moves`` played, then the second seat resigns."""
    created = create(client, game=game)
    seat_tokens = tokens(created)
    for number, move in enumerate(moves):
        doc = client.get(f"/api/games/{created['id']}", headers=bearer(seat_tokens[number % 2])).json()
        assert doc["to_move"] == number % 2
        answer = client.post(f"/api/games/{created['id']}/moves", json={"move": move},
                             headers=bearer(seat_tokens[number % 2]))
        assert answer.status_code == 200, answer.text
    resigned = client.post(f"/api/games/{created['id']}/seats/1/resign", headers=bearer(seat_tokens[1]))
    assert resigned.status_code == 200 and resigned.json()["status"] == "over"
    return str(created["id"])


def until_done(client: TestClient, game_id: str, query: str = "", limit_s: float = 60.0) -> dict[str, Any]:
    """Ask for the analysis until it is done; every answer on the way is a progress."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        answer = client.get(f"/api/games/{game_id}/analysis{query}")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        if data["status"] == "done":
            return data
        assert data["status"] in ("queued", "running"), data
        assert 0 <= data["done"] <= data["total"]
        time.sleep(0.1)
    raise AssertionError(f"the analysis of {game_id} was not done in {limit_s} s")


def stored_rows(client: TestClient, game_id: str) -> int:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    with hub.storage.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(analyses)
                                      .where(analyses.c.game_id == game_id)).scalar_one())


def test_only_a_finished_game_is_analysed(client: TestClient) -> None:
    created = create(client)
    answer = client.get(f"/api/games/{created['id']}/analysis")
    assert answer.status_code == 409 and answer.json()["code"] == "game_not_over"
    assert "not over" in answer.json()["error"]
    assert client.get("/api/games/nosuchgame/analysis").json()["code"] == "not_found"
    game_id = finished_game(client)
    for bad in ("?as=7", "?as=nobody", "?lang=de"):
        refused = client.get(f"/api/games/{game_id}/analysis{bad}")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request", bad


def test_an_analysis_is_queued_then_done_and_equals_the_commands(client: TestClient) -> None:
    game_id = finished_game(client)
    first = client.get(f"/api/games/{game_id}/analysis")
    assert first.status_code == 200
    assert first.json()["status"] in ("queued", "running") and first.json()["total"] == len(PYLOS_MOVES)
    done = until_done(client, game_id, "?lang=fr")
    assert done["view"] == "spectator" and done["done"] == done["total"] == len(PYLOS_MOVES)
    data = done["analysis"]
    assert [entry["move"] for entry in data["plies"]] == PYLOS_MOVES and data["winners"] == [0]
    # Made in parts in the worker processes, it is the analysis the command makes of the record.
    record = Record.from_json(client.get(f"/api/games/{game_id}/record").json())
    budget = budget_for("pylos").scaled(SETTINGS.budget)
    expected = analyse(record, budget=budget, perspective="spectator", engine="plain")
    assert data["plies"] == [entry.to_json() for entry in expected.plies]
    assert data["budget"] == asdict(budget) and data["thresholds"] == expected.thresholds.to_json()
    assert done["chart"].startswith("<svg") and "Évaluation au fil de la partie" in done["chart"]
    assert 'data-ply="0"' in done["chart"]


def test_an_analysis_is_made_once_and_shared(client: TestClient) -> None:
    game_id = finished_game(client)
    client.get(f"/api/games/{game_id}/analysis")
    # Another person asking meanwhile gets the same job, not a second one.
    assert client.post("/api/account/guest").status_code == 201
    other = client.get(f"/api/games/{game_id}/analysis")
    assert other.json()["status"] in ("queued", "running", "done")
    jobs = jobs_of(client)
    assert len([job for job in jobs.jobs() if job.game_id == game_id]) <= 1
    done = until_done(client, game_id)
    assert stored_rows(client, game_id) == 1
    again = client.post(f"/api/games/{game_id}/analysis", json={}, headers={"Origin": "http://testserver"})
    assert again.status_code == 200 and again.json()["analysis"] == done["analysis"]
    assert stored_rows(client, game_id) == 1
    assert not [job for job in jobs.jobs() if job.status in ("queued", "running")]


def test_analyses_are_limited_per_person(client: TestClient) -> None:
    # A budget large enough that the first analysis is still at work when the second is asked
    # (with the tests' tiny budget a warm pool could finish it between the two requests).
    jobs_of(client).settings = replace(SETTINGS, part_plies=1, per_person=1, budget=1.0)
    twelve = [f"1{file}{rank}" for rank in "123" for file in "abcd"]  # no square of one colour
    first, second = finished_game(client, moves=twelve), finished_game(client)
    assert client.get(f"/api/games/{first}/analysis").json()["status"] in ("queued", "running")
    refused = client.get(f"/api/games/{second}/analysis")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "analyses queued or running" in refused.json()["error"] and refused.headers["Retry-After"]
    # Asking again for the running one is no new analysis; another person may ask.
    assert client.get(f"/api/games/{first}/analysis").status_code == 200
    guest = client.post("/api/account/guest")
    assert guest.status_code == 201
    assert client.get(f"/api/games/{second}/analysis").status_code == 200
    until_done(client, first)
    until_done(client, second)


def test_a_hidden_games_views(client: TestClient) -> None:
    created = create(client, game="plimil")
    seat_tokens = tokens(created)
    for _ in range(4):  # a few moves of the setup, each seat the first legal one
        doc = client.get(f"/api/games/{created['id']}", headers=bearer(seat_tokens[0])).json()
        seat = doc["to_move"]
        mine = client.get(f"/api/games/{created['id']}", headers=bearer(seat_tokens[seat])).json()
        answer = client.post(f"/api/games/{created['id']}/moves", json={"move": mine["legal_moves"][0]},
                             headers=bearer(seat_tokens[seat]))
        assert answer.status_code == 200, answer.text
    client.post(f"/api/games/{created['id']}/seats/0/resign", headers=bearer(seat_tokens[0]))
    game_id = created["id"]
    record = Record.from_json(client.get(f"/api/games/{game_id}/record").json())
    budget = budget_for("plimil").scaled(SETTINGS.budget)
    seat = until_done(client, game_id, "?as=1")["analysis"]
    assert seat["perspective"] == 1 and all(e["analysed"] == (e["mover"] == 1) for e in seat["plies"])
    # Seat 1's moves judged by what seat 1 knew: the analysis.analyse of that perspective.
    expected = analyse(record, budget=budget, perspective=1, engine="plain")
    assert seat["plies"] == [entry.to_json() for entry in expected.plies]
    spectator = until_done(client, game_id)["analysis"]
    assert spectator["perspective"] == "spectator" and all(e["analysed"] for e in spectator["plies"])
    assert stored_rows(client, game_id) == 2


# -- the pool: analyses never hold the bots' workers ------------------------------------------------
async def dispatch(pool: BotPool) -> tuple[int, int, list[str]]:
    """Three analysis parts asked (slow ones), then a bot move: what waits, and the order done."""
    state = ludotheque.load("pylos").new_state()
    order: list[str] = []

    async def part(name: str) -> None:
        await pool.analyse(time.sleep, (0.4,), owner="analyst")
        order.append(name)

    async def bot() -> None:
        await pool.choose(state, "random", 0, owner="player")
        order.append("bot")

    parts = [asyncio.ensure_future(part(name)) for name in ("a", "b", "c")]
    await asyncio.sleep(0)
    move = asyncio.ensure_future(bot())
    await asyncio.sleep(0)
    waiting = (pool.analyses_waiting(), pool.waiting())
    await asyncio.gather(*parts, move)
    return *waiting, order


def test_a_bot_move_never_waits_behind_analyses(client: TestClient) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    if hub.storage.engine.dialect.name != "sqlite":
        pytest.skip("the bot pool is the same whatever the database: tested once")
    assert (hub.bots.workers, hub.bots.analysis_workers) == (1, 1)
    portal = client.portal  # type: ignore[attr-defined]
    parts_waiting, moves_waiting, order = portal.call(dispatch, hub.bots)
    # One part runs on the analyses' own process, two wait; the move went to the bots' at once.
    assert (parts_waiting, moves_waiting) == (2, 0)
    assert [name for name in order if name != "bot"] == ["a", "b", "c"] and "bot" in order
