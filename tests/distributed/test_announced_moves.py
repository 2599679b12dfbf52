"""Two players whose moves land on two workers, neither holding a socket of the game (a player's
keep-alive connection for moves sticks to one worker, the other's to another): each worker
keeps the other's news of the game and installs it when its player moves next, so that the move
is stored in one guarded statement, with no read of the game under its row lock (which made a
worker's move dearer the more workers there were: docs/distributed.md, scale-out). A worker
that missed the news still reads the game under the lock (``test_stale_moves``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
from fastapi import FastAPI

from ludotheque.server.app import create_app
from ludotheque.server.bus import decode, encode_message
from ludotheque.server.config import ServerSettings
from tests.distributed.test_fresh_reads import Late, bearer
from tests.support import run_async


@dataclass
class Worker:
    """One worker in this process, its news held back (``bus.sent``), and how many of its
    changes were made under the game's row lock."""

    app: FastAPI
    http: httpx.AsyncClient
    bus: Late
    locked: list[str] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)

    def count_reads(self) -> None:
        """Count the changes made under the row lock, and the games read whole."""
        storage = self.app.state.hub.games.storage
        change_under_lock, load_versioned = storage._change_under_lock, storage.load_versioned

        def locked(game_id: str, *rest: Any) -> Any:
            self.locked.append(game_id)
            return change_under_lock(game_id, *rest)

        def loaded(game_id: str, *rest: Any) -> Any:
            self.loaded.append(game_id)
            return load_versioned(game_id, *rest)

        storage._change_under_lock, storage.load_versioned = locked, loaded

    async def hear(self, other: Worker) -> None:
        """What ``other`` announced so far, as it would arrive through Redis."""
        for message in other.bus.sent:
            arrived = decode(encode_message(message, "other"))
            assert arrived is not None
            await self.app.state.hub.workers.on_message(arrived)
        other.bus.sent.clear()


@asynccontextmanager
async def worker(db_url: str) -> AsyncIterator[Worker]:
    app = create_app(db_url, bot_workers=1, settings=replace(ServerSettings(), create_limit=None))
    async with app.router.lifespan_context(app):
        bus = Late()
        app.state.hub.bus = bus
        transport = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
        async with transport as http:
            one = Worker(app, http, bus)
            one.count_reads()
            yield one


async def moves_on_workers(db_url: str, *, told: bool, game: str = "pylos", players: int = 2,
                          plies: int = 6) -> dict[str, Any]:
    """Each player's moves on a worker of its own (none holding a socket of the game)."""
    async with AsyncExitStack() as stack:
        workers = [await stack.enter_async_context(worker(db_url)) for _ in range(players)]
        new_game = {"game": game, "players": players, "seats": ["human"] * players}
        created = (await workers[0].http.post("/api/games", json=new_game)).json()
        url, tokens = f"/api/games/{created['id']}", [seat["token"] for seat in created["seats"]]
        for other in workers[1:]:
            assert (await other.http.get(url)).json()["ply"] == 0  # all hold the game, no socket
        last, made = workers[0], []
        for ply in range(plies):
            seat = (await last.http.get(url)).json()["to_move"]
            mover = workers[seat]
            if told:
                for other in workers:
                    if other is not mover:
                        await mover.hear(other)
            # Read on the worker that made the last move: the mover's own copy stays as it was.
            doc = (await last.http.get(url, headers=bearer(tokens[seat]))).json()
            move = {"move": doc["legal_moves"][0], "ply": ply}
            answer = await mover.http.post(f"{url}/moves", json=move, headers=bearer(tokens[seat]))
            assert answer.status_code == 200, answer.text
            made.append(answer.json()["ply"])
            last = mover
        stored = (await workers[0].http.get(url)).json()
        return {"plies": made, "stored": stored["ply"], "moves": len(stored["moves"]),
                "locked": sum(len(one.locked) for one in workers)}


def test_a_worker_installs_the_others_news_before_its_players_next_move(postgres_db: str) -> None:
    seen = run_async(moves_on_workers(postgres_db, told=True))
    assert seen["plies"] == [1, 2, 3, 4, 5, 6]
    assert (seen["stored"], seen["moves"]) == (6, 6)
    assert seen["locked"] == 0


def test_without_the_news_each_move_reads_the_game_under_its_lock(postgres_db: str) -> None:
    seen = run_async(moves_on_workers(postgres_db, told=False))
    assert seen["plies"] == [1, 2, 3, 4, 5, 6]
    assert (seen["stored"], seen["moves"]) == (6, 6)
    assert seen["locked"] == 5  # every move but the first, made on a copy one move behind


def test_three_players_on_three_workers_install_several_moves_at_once(postgres_db: str) -> None:
    """Between two moves of an Ex*Pion player, the two others moved on their own workers: the
    newest news holds both (the whole stored game), installed at once."""
    seen = run_async(moves_on_workers(postgres_db, told=True, game="expion", players=3, plies=9))
    assert seen["plies"] == list(range(1, 10))
    assert (seen["stored"], seen["moves"]) == (9, 9)
    assert seen["locked"] == 0


async def read_after_the_news(db_url: str, *, told: bool) -> tuple[int, int]:
    async with worker(db_url) as first, worker(db_url) as second:
        new_game = {"game": "pylos", "seats": ["human", "human"]}
        created = (await first.http.post("/api/games", json=new_game)).json()
        url, token = f"/api/games/{created['id']}", created["seats"][0]["token"]
        assert (await second.http.get(url)).json()["ply"] == 0  # held there, no socket
        move = (await first.http.get(url, headers=bearer(token))).json()["legal_moves"][0]
        assert (await first.http.post(f"{url}/moves", json={"move": move, "ply": 0},
                                      headers=bearer(token))).status_code == 200
        if told:
            await second.hear(first)
        reads_before = len(second.loaded)
        ply = (await second.http.get(url)).json()["ply"]
        return ply, len(second.loaded) - reads_before


def test_a_read_on_the_worker_that_kept_the_news_installs_it_without_reading_the_game(
    postgres_db: str,
) -> None:
    assert run_async(read_after_the_news(postgres_db, told=True)) == (1, 0)
    assert run_async(read_after_the_news(postgres_db, told=False)) == (1, 1)
