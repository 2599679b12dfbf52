"""With several workers, a move whose worker's copy is up to date is stored in one guarded
statement on the event loop's own connection (``Storage.change_shared``), with no database
thread: a thread's two wake-ups per move cost a worker more than the statement itself.

- The usual move is stored without a database thread; a stale copy, or every loop connection
  busy, goes the threads' way (under the game's row lock) and is stored once.
- A loop connection that broke between two moves (PostgreSQL restarted, the backend ended)
  costs nothing: the move is stored once, and the next one is on the loop again.
- A statement whose answer was lost with its connection is found stored, and not made twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

import pytest
from sqlalchemy import text

import ludotheque
from ludotheque.server import metrics
from ludotheque.server import storage as storage_module
from ludotheque.server.clocks import Instant
from ludotheque.server.config import database_url
from ludotheque.server.snapshots import GameMeta, Seat, Snapshot, begin, new_snapshot
from ludotheque.server.storage import LostAnswer, Storage
from tests.distributed.changes import a_move, end_other_backends
from tests.support import run_async

P = ParamSpec("P")
T = TypeVar("T")
GAME_ID = "on-the-loop"


class CountingStorage(Storage):
    """A storage that notes each call it hands to its database threads."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.on_threads: list[str] = []

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        self.on_threads.append(getattr(function, "__name__", repr(function)))
        return await super().run(function, *args, **kwargs)


class LosingAnswers(CountingStorage):
    """Its loop statements are stored, then their connection breaks before the answer is read."""

    async def _store_on_loop(self, sql: str, parameters: Any) -> bool:
        assert await super()._store_on_loop(sql, parameters)
        raise LostAnswer


def fresh_storage(url: str, kind: type[CountingStorage] = CountingStorage) -> CountingStorage:
    """A storage on a database holding one game in play, version 0, with no move yet."""
    storage = kind(database_url(url))
    storage.migrate()
    with storage.engine.begin() as connection:
        for table in ("moves", "seats"):
            connection.execute(text(f"DELETE FROM {table} WHERE game_id = :g"), {"g": GAME_ID})
        connection.execute(text("DELETE FROM games WHERE id = :g"), {"g": GAME_ID})
    game = ludotheque.load("pylos")
    meta = GameMeta(GAME_ID, game, 7, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="a"), Seat("human", "Bob", token_hash="b"))
    storage.insert(meta, begin(new_snapshot(game, 7, seats, None), Instant(0.0, 1_000_000.0)))
    return storage


@pytest.fixture
def storage(postgres_db: str) -> Iterator[CountingStorage]:
    storage = fresh_storage(postgres_db)
    yield storage
    storage.close()


def stored(storage: Storage) -> tuple[tuple[str, ...], int]:
    loaded = storage.load_versioned(GAME_ID)
    assert loaded is not None
    return loaded[1].moves, loaded[2]


def first_copy(storage: Storage) -> Snapshot:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    return loaded[1]


async def on_the_loop(storage: Storage, steps: Callable[[], Any]) -> Any:
    """Run ``steps`` (a coroutine function) on a new loop, its connections closed after it."""
    try:
        return await steps()
    finally:
        await storage.close_loop_connections()


def connection_calls() -> float:
    """Storage calls counted by ``ludotheque_db_connection_seconds`` in this process."""
    value = metrics.REGISTRY.get_sample_value("ludotheque_db_connection_seconds_count",
                                              {"worker": metrics.WORKER})
    return value or 0.0


def test_an_up_to_date_move_needs_no_database_thread(storage: CountingStorage) -> None:
    counted = connection_calls()

    async def steps() -> None:
        first = first_copy(storage)
        _, one, version = await storage.change_shared(GAME_ID, 0, first, a_move("1a1", 0)[1])
        _, two, version = await storage.change_shared(GAME_ID, version, one, a_move("1a2", 1)[1])
        assert version == 2 and two.moves == ("1a1", "1a2")

    run_async(on_the_loop(storage, steps))
    assert storage.on_threads == []
    assert stored(storage) == (("1a1", "1a2"), 2)
    assert connection_calls() == counted + 2  # each move's statement is timed for /metrics


def test_a_stale_copy_goes_the_locked_way_on_a_thread(storage: CountingStorage) -> None:
    async def steps() -> tuple[list[Snapshot], Snapshot, int]:
        first = first_copy(storage)
        _, one, version = await storage.change_shared(GAME_ID, 0, first, a_move("1a1", 0)[1])
        seen, operation = a_move("1a2", 1)
        # This worker's copy says version 0 (it missed the first move's news): the statement
        # changes nothing, and under the lock the move is made on the stored game.
        _, two, version = await storage.change_shared(GAME_ID, version - 1, one, operation)
        return seen, two, version

    seen, two, version = run_async(on_the_loop(storage, steps))
    assert storage.on_threads == ["_change_under_lock"]
    assert len(seen) == 2  # on the copy (stored nothing), then on the stored game
    assert version == 2 and stored(storage) == (("1a1", "1a2"), 2) and two.moves == ("1a1", "1a2")


def test_every_loop_connection_busy_goes_the_threads_way(storage: CountingStorage,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_module, "LOOP_CONNECTIONS", 0)

    async def steps() -> int:
        _, _, version = await storage.change_shared(GAME_ID, 0, first_copy(storage), a_move("1a1", 0)[1])
        return version

    assert run_async(on_the_loop(storage, steps)) == 1
    assert storage.on_threads == ["_change_under_lock"]
    assert stored(storage) == (("1a1",), 1)


def test_a_move_after_the_loop_connection_broke_is_stored_once(storage: CountingStorage) -> None:
    async def steps() -> list[Snapshot]:
        _, one, version = await storage.change_shared(GAME_ID, 0, first_copy(storage), a_move("1a1", 0)[1])
        assert end_other_backends(storage) >= 1  # the loop's connection among them
        seen, operation = a_move("1a2", 1)
        _, two, version = await storage.change_shared(GAME_ID, version, one, operation)
        assert version == 2 and two.moves == ("1a1", "1a2")
        before = len(storage.on_threads)
        _, three, version = await storage.change_shared(GAME_ID, version, two, a_move("1a3", 0)[1])
        assert len(storage.on_threads) == before  # on the loop again, on a new connection
        assert version == 3 and three.moves == ("1a1", "1a2", "1a3")
        return seen

    seen = run_async(on_the_loop(storage, steps))
    assert all(snap.moves == ("1a1",) for snap in seen)  # on the copy, then under the lock
    assert storage.on_threads == ["_change_under_lock"]
    assert stored(storage) == (("1a1", "1a2", "1a3"), 3)


def test_a_stored_move_whose_answer_was_lost_is_not_made_twice(postgres_db: str) -> None:
    losing = fresh_storage(postgres_db, LosingAnswers)
    try:
        seen, operation = a_move("1a1", 0)  # no ply: played again, it would be a second move

        async def steps() -> tuple[Snapshot, int]:
            _, one, version = await losing.change_shared(GAME_ID, 0, first_copy(losing), operation)
            return one, version

        one, version = run_async(on_the_loop(losing, steps))
        assert len(seen) == 1  # found stored under the lock: not applied again
        assert losing.on_threads == ["_change_under_lock"]
        assert version == 1 and one.moves == ("1a1",)
        assert stored(losing) == (("1a1",), 1)
    finally:
        losing.close()
