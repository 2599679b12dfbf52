"""Clocks: the pure arithmetic (with injected instants), and a real flag fall through the API."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.clocks import DAY_MS, Clock, ClockSpec, Instant

from .conftest import serving
from .helpers import bearer, create, tokens

FISCHER = ClockSpec.from_json({"type": "fischer", "minutes": 1, "increment": 3})
CORRESPONDENCE = ClockSpec.from_json({"type": "correspondence", "days": 2})


def at(seconds: float) -> Instant:
    return Instant(seconds, 1_000_000 + seconds)


def test_fischer_charges_the_mover_and_adds_the_increment() -> None:
    clock = Clock.fresh(FISCHER, 2).start(0, at(0))
    assert clock.remaining_now(at(10)) == (50_000, 60_000)
    clock = clock.after_move(0, 1, at(10))
    assert (clock.remaining_ms, clock.running) == ((53_000, 60_000), 1)
    assert clock.remaining_now(at(15)) == (53_000, 55_000)


def test_correspondence_gives_the_full_time_for_every_move() -> None:
    clock = Clock.fresh(CORRESPONDENCE, 2).start(0, at(0))
    assert clock.after_move(0, 1, at(3600)).remaining_ms == (2 * DAY_MS, 2 * DAY_MS)


def test_flag_falls_at_zero_and_a_stopped_clock_stays_still() -> None:
    clock = Clock.fresh(FISCHER, 2).start(1, at(0))
    assert clock.seconds_to_flag(at(20)) == 40
    assert not clock.has_flag_fallen(at(59.9)) and clock.has_flag_fallen(at(60))
    assert clock.remaining_now(at(999)) == (60_000, 0)
    stopped = clock.stopped(at(30))
    assert stopped.remaining_now(at(999)) == (60_000, 30_000) and stopped.seconds_to_flag(at(0)) is None


def test_a_restarted_clock_counts_from_the_stored_wall_time() -> None:
    now = Instant(50.0, 2_000_000.0)
    assert now.mono_of(1_999_990.0) == 40.0


@pytest.fixture
def quick(db_url: str) -> Iterator[TestClient]:
    """A server that allows clocks of a second (the default refuses less than a minute)."""
    with serving(db_url, min_clock_minutes=0.0) as test_client:
        yield test_client


def test_clocks_below_the_minimum_are_refused(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"],
                                             "clock": {"type": "fischer", "minutes": 0.5, "increment": 0}})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert "at least 1 minutes" in answer.json()["error"]
    assert client.get("/api/games").json()["games"] == []
    create(client, clock={"type": "fischer", "minutes": 1, "increment": 0})


def test_a_game_waiting_for_a_person_has_no_running_clock(client: TestClient) -> None:
    """docs/design.md: in an invite or open-seat game the clock starts when every seat is taken."""
    for waiting in ("open", "invite"):
        created = create(client, seats=["human", waiting], clock={"type": "fischer", "minutes": 5})
        doc = client.get(f"/api/games/{created['id']}").json()
        assert doc["status"] == "waiting" and doc["clock"]["running"] is None
        assert doc["clock"]["remaining_ms"] == [300_000, 300_000]
        if waiting == "open":
            taken = client.post(f"/api/games/{created['id']}/seats/1/join", json={})
        else:
            taken = client.post(f"/api/games/{created['id']}/seats/1/claim",
                                json={"invite": created["seats"][1]["invite"]})
        assert taken.status_code == 200, taken.text
        doc = client.get(f"/api/games/{created['id']}").json()
        assert doc["status"] == "playing" and doc["clock"]["running"] == 0


def test_the_server_ends_the_game_when_time_runs_out(quick: TestClient) -> None:
    client = quick
    created = create(client, clock={"type": "fischer", "minutes": 0.02, "increment": 0})
    light, dark = tokens(created)
    game_id = created["id"]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as watcher:
        start = watcher.receive_json()
        assert start["clock"]["running"] == 0 and 0 < start["clock"]["remaining_ms"][0] <= 1200
        client.post(f"/api/games/{game_id}/moves", json={"move": "1a1"}, headers=bearer(light))
        assert watcher.receive_json()["clock"]["running"] == 1
        over = watcher.receive_json()  # nobody moves: dark's flag falls
    assert over["status"] == "over"
    assert over["result"] == {"winners": [0], "scores": [1, -1], "reason": "time"}
    assert over["clock"]["remaining_ms"][1] == 0 and over["clock"]["running"] is None
    answer = client.post(f"/api/games/{game_id}/moves", json={"move": "1b1"}, headers=bearer(dark))
    assert answer.status_code == 409


def test_a_move_after_the_flag_fell_is_refused(quick: TestClient) -> None:
    client = quick
    created = create(client, clock={"type": "fischer", "minutes": 0.005, "increment": 0})
    time.sleep(0.5)
    answer = client.post(
        f"/api/games/{created['id']}/moves", json={"move": "1a1"}, headers=bearer(tokens(created)[0])
    )
    assert answer.status_code == 409
    doc = client.get(f"/api/games/{created['id']}").json()
    assert doc["moves"] == [] and doc["result"]["reason"] == "time"
