"""With several workers a move is stored on its database thread's own connection, kept from one
move to the next (no pool ping or reset per move), in one statement guarded by the game's version
when the worker's copy is up to date, else under the game's row lock.

- A connection that broke between two moves (PostgreSQL restarted, the backend ended) costs
  nothing: the move is made on a new connection, and stored once.
- A guarded statement whose answer was lost with its connection is found stored, and not made
  twice.
- A stale copy (another worker changed the game) changes nothing in one statement: the move is
  checked against the stored game under the lock.
- A connection that breaks after the lock is not tried again: the move fails (503 upstream) and
  nothing of it is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

import ludotheque
from ludotheque.server.clocks import Instant
from ludotheque.server.config import database_url
from ludotheque.server.snapshots import GameMeta, Seat, Snapshot, begin, new_snapshot, play
from ludotheque.server.storage import Storage
from tests.distributed.changes import a_move, end_other_backends

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


def moves_stored(storage: Storage) -> tuple[str, ...]:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    return loaded[1].moves


class LosingAnswers(Storage):
    """A storage whose guarded statements are stored, but whose connection then breaks before
    the answer is read: what a restart at the wrong moment does."""

    def _store_if_unchanged(self, connection: Any, *args: Any) -> bool:
        stored = super()._store_if_unchanged(connection, *args)
        assert stored
        end_other_backends(self)
        self._execute_sql(connection, "SELECT 1", {})  # as the lost answer would have failed
        raise AssertionError("unreachable: the connection was ended")


def first_move(storage: Storage) -> tuple[Snapshot, int]:
    loaded = storage.load(GAME_ID)
    assert loaded is not None
    _, first, version = storage.change_locked(GAME_ID, 0, loaded[1], lambda s, now: play(s, 0, "1a1", 0, now))
    assert version == 1
    return first, version


def test_a_move_after_the_connection_broke_is_stored_once_on_a_new_one(storage: Storage) -> None:
    first, version = first_move(storage)
    assert end_other_backends(storage) >= 1  # the held connection among them
    seen, operation = a_move("1a2", 1)
    _, second, version_after = storage.change_locked(GAME_ID, version, first, operation)
    assert all(snap.moves == ("1a1",) for snap in seen)  # on the copy, then under the lock
    assert version_after == version + 1
    assert moves_stored(storage) == ("1a1", "1a2") == second.moves


def test_a_stored_change_whose_answer_was_lost_is_not_made_twice(postgres_db: str, storage: Storage) -> None:
    first, version = first_move(storage)
    losing = LosingAnswers(database_url(postgres_db))
    try:
        seen, operation = a_move("1a2", 1)  # no ply: played again, it would be a second move
        _, second, version_after = losing.change_locked(GAME_ID, version, first, operation)
    finally:
        losing.close()
    assert len(seen) == 1  # found stored: not applied again
    assert version_after == version + 1 and second.moves == ("1a1", "1a2")
    assert moves_stored(storage) == ("1a1", "1a2")


def test_a_stale_copy_is_checked_against_the_stored_game(storage: Storage) -> None:
    first, version = first_move(storage)
    seen, operation = a_move("1a2", 1)
    # This worker's copy says version 0 (it missed the first move's news): the one statement
    # changes nothing, and under the lock the move is made on the stored game.
    _, second, version_after = storage.change_locked(GAME_ID, version - 1, first, operation)
    assert version_after == version + 1
    assert moves_stored(storage) == ("1a1", "1a2") == second.moves
    assert len(seen) == 2  # on the copy (stored nothing), then on the stored game


def test_a_connection_that_breaks_after_the_lock_fails_the_move_and_stores_nothing(storage: Storage) -> None:
    first, version = first_move(storage)
    calls: list[int] = []

    def breaking(snap: Snapshot, now: Instant) -> Snapshot:
        calls.append(1)
        if len(calls) == 2:  # under the lock (the first call was on the stale copy)
            end_other_backends(storage)  # the held connection, in the middle of its transaction
        return play(snap, 1, "1a2", 1, now)

    with pytest.raises(DBAPIError):
        storage.change_locked(GAME_ID, version - 1, first, breaking)  # a stale copy: the locked way
    assert calls == [1, 1]  # not tried again: it had the lock, so the change may have been written
    assert moves_stored(storage) == ("1a1",)
    _, after, _ = storage.change_locked(GAME_ID, version, first, lambda s, now: play(s, 1, "1a2", 1, now))
    assert moves_stored(storage) == ("1a1", "1a2") == after.moves


def test_a_change_in_one_statement_stores_what_the_locked_way_stores(postgres_db: str) -> None:
    """A clocked game: each move changes the game's row, a move row and the seats' remaining
    time; read back, the game is the snapshot the change returned, whichever way it was stored."""
    from ludotheque.server.clocks import ClockSpec

    storage = Storage(database_url(postgres_db))
    storage.migrate()
    game = ludotheque.load("pylos")
    meta = GameMeta("held-clock", game, 9, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="a"), Seat("human", "Bob", token_hash="b"))
    start = Instant.now()
    snap = begin(new_snapshot(game, 9, seats, ClockSpec("fischer", 60_000, 2000)), start)
    storage.insert(meta, snap)
    try:
        version, stale = 0, False
        for ply, (seat, notation) in enumerate([(0, "1a1"), (1, "1a2"), (0, "1a3"), (1, "1a4")]):
            # Every other move from a copy one version behind: stored under the lock instead.
            told = version - 1 if stale else version
            _, snap, version = storage.change_locked(
                meta.id, told, snap, lambda s, _, seat=seat, notation=notation, ply=ply:
                play(s, seat, notation, ply, Instant(start.mono + ply + 1, start.wall + ply + 1)))
            stale = not stale
            loaded = storage.load(meta.id)
            assert loaded is not None
            stored = loaded[1]
            assert stored.moves == snap.moves and stored.status == snap.status
            assert stored.seats == snap.seats
            assert stored.clock is not None and snap.clock is not None
            assert stored.clock.remaining_ms == snap.clock.remaining_ms
            assert stored.clock.running == snap.clock.running
        assert version == 4
    finally:
        storage.close()
