"""Seekers who come at once: one waiting seek starts one game, never several (issue: on
PostgreSQL a waiting person was put into 2 to 6 rated games at once, every clock running).

The real server, real HTTP requests sent together (asyncio): A's seek waits, then six people
seek the same thing at the same moment, several rounds. Every person is in at most one game of
a round, A in exactly one. ``tests/distributed`` runs the same rounds on two workers."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.support import run_async
from tests.support.server import ServerProcess

SEEK = {"game": "pylos", "rated": True, "clock": {"type": "fischer", "minutes": 5, "increment": 2}}
SEEKERS = 6
ROUNDS = 8


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    with ServerProcess(db_url) as running:
        yield running


async def sign_up(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    """A new player's session cookie, as a header of their own requests."""
    answer = await http.post("/api/account/signup", json={"name": name, "password": "correct horse"})
    assert answer.status_code == 201, answer.text
    http.cookies.clear()  # each person's requests carry their own cookie only
    return {"Cookie": f"ludotheque_session={answer.cookies['ludotheque_session']}"}


async def seek_rounds(urls: list[str], rounds: int = ROUNDS) -> list[Counter[str]]:
    """Each round: A's seek waits, then ``SEEKERS`` people seek at once (spread over ``urls``,
    the workers); how many games of the round each person is in. Waiting seeks are cancelled
    between rounds."""
    clients = [httpx.AsyncClient(base_url=url, timeout=60) for url in urls]
    try:
        names = ["Ada", *(f"Seeker{number}" for number in range(SEEKERS))]
        people = {name: await sign_up(clients[0], name) for name in names}
        return [await one_round(clients, people) for _ in range(rounds)]
    finally:
        for http in clients:
            await http.aclose()


async def one_round(clients: list[httpx.AsyncClient], people: dict[str, dict[str, str]]) -> Counter[str]:
    first, *seekers = people
    waiting = await clients[0].post("/api/seeks", json=SEEK, headers=people[first])
    assert waiting.status_code == 201 and waiting.json()["matched"] is False, waiting.text
    answers = await asyncio.gather(*(
        clients[number % len(clients)].post("/api/seeks", json=SEEK, headers=people[name])
        for number, name in enumerate(seekers)))
    assert all(answer.status_code == 201 for answer in answers), [answer.text for answer in answers]
    games = {answer.json()["id"] for answer in answers if answer.json()["matched"]}
    seated: Counter[str] = Counter()
    for game in games:
        doc = (await clients[0].get(f"/api/games/{game}")).json()
        assert doc["status"] == "playing" and doc["rated"], doc
        seated.update(seat["player"] for seat in doc["seats"])
    await cancel_every_seek(clients[0], people)
    return seated


async def cancel_every_seek(http: httpx.AsyncClient, people: dict[str, dict[str, str]]) -> None:
    for seek in (await http.get("/api/seeks")).json()["seeks"]:
        answer = await http.delete(f"/api/seeks/{seek['id']}", headers=people[seek["name"]])
        assert answer.status_code == 204, answer.text
    assert (await http.get("/api/seeks")).json()["seeks"] == []


def check_rounds(rounds: list[Counter[str]]) -> None:
    for seated in rounds:
        assert seated["Ada"] == 1, seated  # her one seek: one game
        assert max(seated.values()) == 1, seated  # nobody in two games of one round


def test_a_waiting_seek_starts_one_game_however_many_seek_at_once(server: ServerProcess) -> None:
    check_rounds(run_async(seek_rounds([server.url])))


def test_seeks_of_one_person_at_once_keep_the_bound(server: ServerProcess) -> None:
    """Ten seeks of one person sent together (none can match): at most three wait."""
    async def flood() -> tuple[list[int], int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            ada = await sign_up(http, "Ada")
            answers = await asyncio.gather(*(
                http.post("/api/seeks", json={**SEEK, "rating_min": 100 + number}, headers=ada)
                for number in range(10)))
            waiting = len((await http.get("/api/seeks")).json()["seeks"])
        return sorted(answer.status_code for answer in answers), waiting

    statuses, waiting = run_async(flood())
    assert statuses == [201] * 3 + [409] * 7 and waiting == 3
