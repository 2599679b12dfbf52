"""An analysis asked on one worker is the same analysis on every other (real processes, one
PostgreSQL database, one Redis): the worker asked second answers with the first one's job and its
progress instead of starting another, the per-person limit counts the jobs of every worker, and
the analysis, once done, reads the same everywhere; a worker killed (SIGKILL) with a job loses it
to the other once its lease runs out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from ludotheque.server.analysis_tables import analysis_jobs
from ludotheque.server.config import database_url
from tests.distributed.parts import RedisServer, two_workers
from tests.support.server import ServerProcess

# One analysis at a time per person, on the plain engine (no kernel to compile in the pool); a job
# held 3 s without renewal (the default 30 s would make the takeover slow to watch).
LEASE_S = 3.0
ANALYSES = {"LUDOTHEQUE_ANALYSIS_LIMIT": "1", "LUDOTHEQUE_ANALYSIS_ENGINE": "plain",
            "LUDOTHEQUE_ANALYSIS_LEASE_S": str(LEASE_S)}
# Twelve placements with no square of one colour: an analysis of a few seconds on the plain engine.
TWELVE = [f"1{file}{rank}" for rank in "123" for file in "abcd"]
WAIT_S = 120.0


@pytest.fixture(scope="module")
def pair(postgres_db: str, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with two_workers(postgres_db, redis_server.url, ANALYSES) as workers:
        yield workers


def finished_game(server: ServerProcess, moves: list[str]) -> str:
    """A Pylos game between two people on ``server``: ``moves`` played, then the second seat resigns."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]}).json()
        seat_tokens = [seat["token"] for seat in created["seats"]]
        for number, move in enumerate(moves):
            answer = http.post(f"/api/games/{created['id']}/moves", json={"move": move},
                               headers={"Authorization": f"Bearer {seat_tokens[number % 2]}"})
            assert answer.status_code == 200, answer.text
        resigned = http.post(f"/api/games/{created['id']}/seats/1/resign",
                             headers={"Authorization": f"Bearer {seat_tokens[1]}"})
        assert resigned.json()["status"] == "over"
        return str(created["id"])


def analysis(server: ServerProcess, game_id: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/games/{game_id}/analysis", timeout=30)


def until_done(server: ServerProcess, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        answer = analysis(server, game_id)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        if data["status"] == "done":
            return data
        assert data["status"] in ("queued", "running") and 0 <= data["done"] <= data["total"], data
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {game_id} was not done in {WAIT_S} s")


def test_an_analysis_asked_on_one_worker_is_the_same_job_on_the_other(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = pair
    long_game, short_game = finished_game(a, TWELVE), finished_game(b, ["1a1", "1b1"])
    started = analysis(a, long_game).json()
    assert started["status"] in ("queued", "running") and started["total"] == len(TWELVE)
    # The same person (the same address) on the other worker: no second analysis while the first
    # runs (one at a time per person, wherever asked), and the first one's job and progress.
    refused = analysis(b, short_game)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited", refused.text
    seen = analysis(b, long_game)
    assert seen.status_code == 200 and seen.json()["status"] in ("queued", "running")
    assert seen.json()["total"] == len(TWELVE)
    done_on_b = until_done(b, long_game)
    assert until_done(a, long_game)["analysis"] == done_on_b["analysis"]
    assert done_on_b["done"] == len(TWELVE)
    # Its job over, the person may ask for the next one, on either worker.
    assert until_done(b, short_game)["done"] == 2


def test_a_job_of_a_killed_worker_is_made_by_another_once_its_lease_runs_out(
        postgres_db: str, redis_server: RedisServer) -> None:
    with two_workers(postgres_db, redis_server.url, ANALYSES) as (doomed, survivor):
        game_id = finished_game(survivor, TWELVE)
        started = analysis(doomed, game_id).json()
        assert started["status"] in ("queued", "running")
        dead_holder = holder_of(postgres_db, game_id)
        doomed.kill()  # mid-analysis: its job's row stays, unrenewed
        # The survivor answers with the dead worker's job while its lease runs, then takes it over.
        assert analysis(survivor, game_id).json()["status"] in ("queued", "running")
        assert holder_of(postgres_db, game_id) == dead_holder
        done = until_done(survivor, game_id)
        assert done["done"] == len(TWELVE) and holder_of(postgres_db, game_id) is None  # kept: row gone


def holder_of(db_url: str, game_id: str) -> str | None:
    """Which worker holds the analysis job of ``game_id`` (``None``: no job)."""
    engine = create_engine(database_url(db_url))
    try:
        with engine.connect() as connection:
            holder = connection.execute(select(analysis_jobs.c.holder).where(
                analysis_jobs.c.game_id == game_id)).scalar()
    finally:
        engine.dispose()
    return None if holder is None else str(holder)
