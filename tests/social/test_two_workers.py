"""Two workers (two apps, one PostgreSQL database, one Redis): a challenge sent on one worker
reaches the challenged's socket held by the other, the answer comes back the same way, who is
online is read from either, and a club's chat line reaches a member's socket on the other.

The apps run in this process (a test client each), so that the test stays quick; they share
nothing but the database and Redis, as worker processes do."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.distributed.conftest import redis_server  # noqa: F401  (its fixture)
from tests.distributed.parts import RedisServer
from tests.server.conftest import POSTGRES_ENV, fresh_postgres_schema, serving

from .helpers import Person, read_until


@pytest.fixture
def pair(redis_server: RedisServer) -> Iterator[tuple[TestClient, TestClient]]:  # noqa: F811
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
    db_url = fresh_postgres_schema(url, "ludotheque_social")
    with serving(db_url, redis=redis_server.url) as first, serving(db_url, redis=redis_server.url) as second:
        yield first, second


def test_challenges_presence_and_club_chat_cross_workers(pair: tuple[TestClient, TestClient]) -> None:
    a, b = pair
    ada, bob = Person(a, "Ada"), Person(a, "Bob")
    bob_on_b = Person.on(b, bob)
    with bob_on_b.socket("/api/friends/ws") as bobs, ada.socket("/api/friends/ws") as adas:
        read_until(bobs, "challenges")
        read_until(adas, "challenges")
        assert ada.post("/api/players/Bob/follow").status_code == 200
        assert ada.get("/api/friends").json()["follows"][0]["online"] is True  # Bob's socket is b's
        made = ada.post("/api/players/Bob/challenge", {"game": "pylos"}).json()
        assert read_until(bobs, "challenge")["challenge"]["id"] == made["id"]
        accepted = bob_on_b.post(f"/api/challenges/{made['id']}/accept")
        assert accepted.status_code == 201, accepted.text
        assert read_until(adas, "challenge_accepted")["game"] == accepted.json()["id"]
    club = ada.post("/api/clubs", {"name": "Deux Ouvriers"}).json()
    assert bob_on_b.post(f"/api/clubs/{club['id']}/join").status_code == 200
    with bob_on_b.socket(f"/api/clubs/{club['id']}/ws") as chat:
        read_until(chat, "club_ready")
        line = ada.post(f"/api/clubs/{club['id']}/chat", {"text": "bonsoir"}).json()
        assert read_until(chat, "club_chat")["line"] == line
