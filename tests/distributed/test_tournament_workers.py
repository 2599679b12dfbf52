"""Tournaments across two server workers (one PostgreSQL database, one Redis; real processes):

- an arena pairs through either worker: entrants join through both, games end through both (two
  at once, one on each), and whoever is free is paired again by the worker that saw the end,
  never into two games at once;
- a Swiss round starts on time when the worker that created the tournament is killed: the other
  worker's sweep starts it at its ``starts_at``, and its game is played and scored there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.distributed.parts import RedisServer, two_workers
from tests.support.server import ServerProcess
from tests.tournaments.helpers import Person, eventually

WAIT_S = 15.0
ARENA = {"system": "arena", "game": "pylos", "duration": 10, "clock": {"type": "correspondence", "days": 1}}


@pytest.fixture(scope="module")
def pair(postgres_db: str, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with two_workers(postgres_db, redis_server.url, {"LUDOTHEQUE_ACCOUNT_LIMIT": "none"}) as workers:
        yield workers


def resign(http: httpx.Client, game_id: str, people: dict[str, Person]) -> None:
    game = http.get(f"/api/games/{game_id}").json()
    seat, person = next((n, people[s["name"]]) for n, s in enumerate(game["seats"]) if s["name"] in people)
    answer = person.post(http, f"/api/games/{game_id}/seats/{seat}/resign")
    assert answer.status_code == 200, answer.text


def one_game_each(doc: dict[str, Any]) -> bool:
    """Every entrant is in at most one game being played, and every such board has its game."""
    seen = [entry for b in doc["playing"] for entry in (b["first"], b["second"])]
    return len(seen) == len(set(seen)) and all(b["game"] for b in doc["playing"])


def test_an_arena_pairs_through_either_worker(pair: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = (httpx.Client(base_url=server.url, timeout=WAIT_S) for server in pair)
    with a, b:
        director = Person(a, "Director")
        created = director.post(a, "/api/tournaments", ARENA)
        assert created.status_code == 201, created.text
        path = f"/api/tournaments/{created.json()['id']}"
        people: dict[str, Person] = {}
        for n in range(6):
            http = (a, b)[n % 2]
            person = Person(http)
            assert person.post(http, f"{path}/join").status_code == 200
            people[person.name] = person
        doc = director.post(b, f"{path}/start").json()
        assert doc["status"] == "running" and len(doc["playing"]) == 3
        known = {board["game"] for board in doc["playing"]}
        for _ in range(3):
            # Two games end at once, one through each worker: four people are free at the same
            # moment, each worker's hook pairs; the row lock lets one pairing take each person.
            current = [board["game"] for board in doc["playing"]][:2]
            threads = [threading.Thread(target=resign, args=(http, game_id, people))
                       for http, game_id in zip((a, b), current, strict=True)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

            def paired_again(http: httpx.Client = a, known: set[str] = known) -> Any:
                doc = http.get(path).json()
                fresh = [board for board in doc["playing"] if board["game"] not in known]
                return len(doc["playing"]) == 3 and len(fresh) == 2 and one_game_each(doc) and doc
            doc = eventually(paired_again, WAIT_S)
            assert doc, b.get(path).json()
            assert b.get(path).json()["playing"] == doc["playing"]  # one database: both workers agree
            known |= {board["game"] for board in doc["playing"]}
        boards = [board for rnd in doc["pairings"] for board in rnd["boards"]]
        assert len(boards) == 9 and max(w for board in boards for w in board["waited"]) < 5.0


def test_a_swiss_starts_on_time_without_the_worker_that_made_it(pair: tuple[ServerProcess, ServerProcess]
                                                                 ) -> None:
    maker, survivor = pair
    with httpx.Client(base_url=maker.url, timeout=WAIT_S) as a, \
            httpx.Client(base_url=survivor.url, timeout=WAIT_S) as b:
        director = Person(a, "Organiser")
        starts = datetime.now(UTC) + timedelta(seconds=4)
        created = director.post(a, "/api/tournaments", {
            "game": "pylos", "rounds": 1, "starts_at": starts.isoformat(),
            "clock": {"type": "correspondence", "days": 1}})
        assert created.status_code == 201, created.text
        path = f"/api/tournaments/{created.json()['id']}"
        people = {p.name: p for p in (Person(a), Person(a))}
        for person in people.values():
            assert person.post(a, f"{path}/join").status_code == 200
        maker.kill()  # as a crash would: the survivor alone is left
        assert time.time() < starts.timestamp(), "the test was too slow to kill the worker before the start"

        def first_round() -> Any:
            d = b.get(path).json()
            return d["round"] == 1 and all(board["game"] for board in d["pairings"][0]["boards"]) and d
        doc = eventually(first_round, WAIT_S)
        seen = time.time()
        assert doc, b.get(path).json()
        # On time: the sweep wakes at the start (not up to SWEEP_EVERY_S late); polling adds little.
        assert seen - starts.timestamp() < 1.5, seen - starts.timestamp()
        resign(b, doc["pairings"][0]["boards"][0]["game"], people)
        done = eventually(lambda: (d := b.get(path).json())["status"] == "finished" and d, WAIT_S)
        assert done and done["winner"] is not None and done["standings"][0]["score"] == 1.0
