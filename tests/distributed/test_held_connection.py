"""With several workers a move is stored under the game's row lock on its database thread's own
connection, kept from one move to the next (no pool ping or reset per move). A connection that
broke between two moves (PostgreSQL restarted, the backend ended) costs nothing: the move is made
again on a new connection, since nothing was written. A connection that breaks after the lock is
not tried again: the move fails (503 upstream) and nothing of it is stored.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

import ludotheque
from ludotheque.server.clocks import Instant
from ludotheque.server.config import database_url
from ludotheque.server.snapshots import GameMeta, Seat, Snapshot, begin, new_snapshot, play
from ludotheque.server.storage import Operation, Storage

GAME_ID = "held"


@pytest.fixture
def storage(postgres_db: str) -> Iterator[Storage]:
    """A new database with one game in play, version 0."""
    storage = Storage(database_url(postgres_db))
    storage.migrate()
    with storage.engine.begin() as connection:  # the module's database: one game at a time
        for table in ("moves", "seats", "games"):
            connection.execute(text(f"DELETE FROM {table} WHERE game_id = :g" if table != "games"
                                    else "DELETE FROM games WHERE id = :g"), {"g": GAME_ID})
    game = ludotheque.load("pylos")
    meta = GameMeta(GAME_ID, game, 7, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="a"), Seat("human", "Bob", token_hash="b"))
    storage.insert(meta, begin(new_snapshot(game, 7, seats, None), Instant(0.0, 1_000_000.0)))
    yield storage
    storage.close()


def end_other_backends(storage: Storage) -> int:
    """Terminate every other connection to the test database (as a restart would); how many."""
    with storage.engine.connect() as admin:
        ended = admin.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar_one()
        admin.commit()
    return int(ended)


def moves_stored(storage: Storage) -> tuple[str, ...]:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    return loaded[1].moves


def a_move(notation: str, seat: int) -> tuple[list[Snapshot], Operation]:
    seen: list[Snapshot] = []

    def operation(snap: Snapshot, now: Instant) -> Snapshot:
        seen.append(snap)
        return play(snap, seat, notation, None, now)

    return seen, operation


def test_a_move_after_the_connection_broke_is_stored_on_a_new_one(storage: Storage) -> None:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    start = loaded[1]
    _, first, version = storage.change_locked(GAME_ID, 0, start, lambda s, now: play(s, 0, "1a1", 0, now))
    assert end_other_backends(storage) >= 1  # the held connection among them
    seen, operation = a_move("1a2", 1)
    _, second, version_after = storage.change_locked(GAME_ID, version, first, operation)
    assert len(seen) == 1  # the operation ran once, on the new connection
    assert version_after == version + 1
    assert moves_stored(storage) == ("1a1", "1a2") == second.moves


def test_a_connection_that_breaks_after_the_lock_fails_the_move_and_stores_nothing(storage: Storage) -> None:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    start = loaded[1]
    _, first, version = storage.change_locked(GAME_ID, 0, start, lambda s, now: play(s, 0, "1a1", 0, now))
    calls: list[int] = []

    def breaking(snap: Snapshot, now: Instant) -> Snapshot:
        calls.append(1)
        end_other_backends(storage)  # the held connection, in the middle of its transaction
        return play(snap, 1, "1a2", 1, now)

    with pytest.raises(DBAPIError):
        storage.change_locked(GAME_ID, version, first, breaking)
    assert calls == [1]  # not tried again: it had the lock, so the change may have been written
    assert moves_stored(storage) == ("1a1",)
    _, after, _ = storage.change_locked(GAME_ID, version, first, lambda s, now: play(s, 1, "1a2", 1, now))
    assert moves_stored(storage) == ("1a1", "1a2") == after.moves
