"""A move's path on SQLite makes no thread hop (issue 30, per-move latency).

A change is stored on the event loop at once (``Storage.store_change``) unless the database is
locked by another connection's write, in which case it waits on the database thread as before;
either way nothing is lost and the loop never blocks. These tests hold the database thread
busy, or the database locked, on purpose (real SQLite files, the real app).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import ludotheque
from ludotheque.server import storage as storage_module
from ludotheque.server.clocks import Instant
from ludotheque.server.snapshots import GameMeta, Seat, Snapshot, begin, new_snapshot, play
from ludotheque.server.storage import Storage
from tests.support import run_async

from .conftest import serving
from .helpers import bearer, create, tokens

# Far longer than an inline store takes, far shorter than the test's patience.
BUSY_S = 3.0


def new_game(storage: Storage, game_id: str) -> Snapshot:
    game = ludotheque.load("pylos")
    seats = (Seat("human", "a", token_hash="x"), Seat("human", "b", token_hash="y"))
    snap = begin(new_snapshot(game, 1, seats, None), Instant.now())
    storage.insert(GameMeta(game_id, game, 1, "2026-11-27T00:00:00+00:00"), snap)
    return snap


def next_move(snap: Snapshot) -> Snapshot:
    seat = snap.seat_to_move()
    assert seat is not None
    return play(snap, seat, str(snap.state.legal_moves()[0]), snap.ply, Instant.now())


def occupy(storage: Storage, seconds: float) -> threading.Event:
    """Keep the storage's database thread busy for ``seconds`` (a long call, as a slow query
    would); the event is set once it has started."""
    started = threading.Event()

    def long_call() -> None:
        started.set()
        time.sleep(seconds)

    asyncio.get_running_loop().run_in_executor(storage._executor, long_call)
    return started


def test_a_move_is_stored_while_the_database_thread_is_busy(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'busy.db'}")
    storage.migrate()
    first = new_game(storage, "g1")

    async def scenario() -> float:
        started = occupy(storage, BUSY_S)
        await asyncio.to_thread(started.wait)
        clock = time.perf_counter()
        await storage.store_change("g1", first, next_move(first), 2)
        return time.perf_counter() - clock

    try:
        assert run_async(scenario()) < BUSY_S / 3  # did not queue behind the long call
        loaded = storage.load_versioned("g1")
        assert loaded is not None and loaded[1].ply == 1 and loaded[2] == 2
    finally:
        storage.close()


def test_a_locked_database_makes_the_move_wait_on_the_thread_not_on_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    storage = Storage(f"sqlite:///{path}")
    storage.migrate()
    first = new_game(storage, "g1")
    moved = next_move(first)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock, as a backup or admin might

    async def scenario() -> tuple[int, bool]:
        store = asyncio.create_task(storage.store_change("g1", first, moved, 2))
        ticks = 0
        for _ in range(10):  # the loop runs on meanwhile: the store waits on the thread
            await asyncio.sleep(0.05)
            ticks += 1
        waiting = not store.done()
        other.execute("COMMIT")
        await asyncio.wait_for(store, 10)
        # The lock gone, the next move is stored on the loop again (the thread busy meanwhile):
        # the refused attempt left the loop's connection in no transaction of its own.
        started = occupy(storage, BUSY_S)
        await asyncio.get_running_loop().run_in_executor(None, started.wait)
        began = time.perf_counter()
        await storage.store_change("g1", moved, after, 3)
        return ticks, waiting and time.perf_counter() - began < BUSY_S / 2

    after = next_move(moved)
    try:
        ticks, waiting = run_async(scenario())
        assert ticks == 10 and waiting
        loaded = storage.load_versioned("g1")
        assert loaded is not None and loaded[1].moves == after.moves and loaded[2] == 3
    finally:
        other.close()
        storage.close()


def test_the_wal_is_checkpointed_by_the_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints; the database thread does, every few changes,
    so the WAL stays small (without it, every move would add its pages to the WAL)."""
    monkeypatch.setattr(storage_module, "CHECKPOINT_EVERY", 5)
    path = tmp_path / "wal.db"
    storage = Storage(f"sqlite:///{path}")
    storage.migrate()

    async def scenario() -> int:
        stored = 0
        for number in range(8):
            snap = new_game(storage, f"g{number}")
            version = 1
            while snap.status == "playing" and version < 30:
                moved = next_move(snap)
                await storage.store_change(f"g{number}", snap, moved, version + 1)
                snap, version, stored = moved, version + 1, stored + 1
                await asyncio.sleep(0.002)  # a player thinks: the thread checkpoints meanwhile
        return stored

    try:
        stored = run_async(scenario())
        wal = Path(f"{path}-wal")
        # Measured: ~0.65 MB (the migrations' pages, then the WAL starts again after each
        # checkpoint); 4.6-5.0 MB when the WAL is never started again (passive checkpoints).
        assert wal.stat().st_size < 1_500_000
        with sqlite3.connect(path) as reader:
            assert reader.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == stored > 8 * 20
    finally:
        storage.close()


def test_a_move_document_reaches_the_opponent_while_the_database_thread_is_busy(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'app.db'}") as client:
        created = create(client)
        light, dark = tokens(created)
        url = f"/api/games/{created['id']}"
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        with client.websocket_connect(f"{url}/ws?token={dark}") as socket:
            assert socket.receive_json()["ply"] == 0
            started = threading.Event()
            storage._executor.submit(lambda: (started.set(), time.sleep(BUSY_S)))
            assert started.wait(5)
            clock = time.perf_counter()
            answer = client.post(f"{url}/moves", json={"move": "1a1"}, headers=bearer(light))
            document = socket.receive_json()
            elapsed = time.perf_counter() - clock
        assert answer.status_code == 200 and document["ply"] == 1 and document["to_move"] == 1
        assert elapsed < BUSY_S / 3
        assert client.get(url).json()["moves"] == ["1a1"]


def test_a_long_reader_does_not_hold_moves_behind_a_checkpoint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint holds off writers while it waits for readers; a backup reads in one long
    transaction: the checkpoint gives up soon, and moves go on (each within a second)."""
    monkeypatch.setattr(storage_module, "CHECKPOINT_EVERY", 2)
    path = tmp_path / "reader.db"
    storage = Storage(f"sqlite:///{path}")
    storage.migrate()
    snap = new_game(storage, "g1")
    reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM moves").fetchone()  # holds its snapshot from now on

    async def scenario() -> list[float]:
        nonlocal snap
        times, version = [], 1
        for _ in range(12):
            moved = next_move(snap)
            clock = time.perf_counter()
            await storage.store_change("g1", snap, moved, version + 1)
            times.append(time.perf_counter() - clock)
            snap, version = moved, version + 1
            await asyncio.sleep(0.05)  # checkpoints come due and run meanwhile
        return times

    try:
        times = run_async(scenario())
        assert max(times) < 1.0, times
        reader.execute("COMMIT")
        loaded = storage.load_versioned("g1")
        assert loaded is not None and loaded[1].ply == 12 and loaded[2] == 13
    finally:
        reader.close()
        storage.close()


def test_the_loops_connection_never_goes_back_to_the_pool(tmp_path: Path) -> None:
    """Its pragmas (``busy_timeout = 0``, no checkpoint) must not reach a thread's connection."""
    storage = Storage(f"sqlite:///{tmp_path / 'pool.db'}")
    storage.migrate()
    connection = storage.engine.connect()
    storage._loop_connection = connection  # as _save_here opens it
    connection.exec_driver_sql("PRAGMA busy_timeout = 0")
    storage._drop_loop_connection()
    with storage.engine.connect() as other:
        assert other.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
    storage.close()
