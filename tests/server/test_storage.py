"""Persistence: migrations build exactly the schema of ``tables.py``, the default database
follows the environment, SQLite runs in WAL mode, and a game round-trips through the database."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

import ludotheque
from ludotheque.core.records import Record, replay
from ludotheque.server import lesson_tables, tournament_tables  # noqa: F401  (their tables on metadata)
from ludotheque.server.bus import decode, encode_message
from ludotheque.server.clocks import ClockSpec, Instant
from ludotheque.server.config import database_url, default_database_url
from ludotheque.server.snapshots import (
    GameMeta,
    Seat,
    begin,
    new_snapshot,
    play,
    resign,
    take_back,
)
from ludotheque.server.storage import Storage
from ludotheque.server.stored_games import restore_values, stored_values
from ludotheque.server.tables import metadata


def test_migrations_build_the_declared_schema_and_run_twice(db_url: str) -> None:
    storage = Storage(database_url(db_url))
    storage.migrate()
    storage.migrate()  # a restarted server applies them again: nothing to do
    with storage.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    storage.close()
    assert differences == []


def test_a_game_round_trips_through_the_database(db_url: str) -> None:
    storage = Storage(database_url(db_url))
    storage.migrate()
    game = ludotheque.load("pylos")
    meta = GameMeta("round-trip", game, 12345, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="a"), Seat("bot", "bot:easy", "easy", bot_seed=99))
    clock = ClockSpec("fischer", 60_000, 1000)
    first = begin(new_snapshot(game, meta.seed, seats, clock), Instant(0.0, 1_000_000.0))
    storage.insert(meta, first)
    second = play(first, 0, "1a1", 0, Instant(2.0, 1_000_002.0))
    storage.save(meta.id, first, second)
    third = resign(second, 1, Instant(3.0, 1_000_003.0))
    storage.save(meta.id, second, third)
    loaded = storage.load(meta.id)
    storage.close()
    assert loaded is not None
    loaded_meta, snap = loaded
    assert (loaded_meta.seed, loaded_meta.game) == (12345, game)
    assert snap.seats == seats and snap.moves == ("1a1",) and snap.movers == (0,)
    assert snap.state == game.new_state().play("1a1")
    assert snap.result == third.result and snap.status == "over"
    assert snap.clock is not None and snap.clock.remaining_ms == third.clock.remaining_ms  # type: ignore[union-attr]


def test_unknown_games_load_as_none(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'x.db'}")
    storage.migrate()
    assert storage.load("missing") is None
    storage.close()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'deep' / 'x.db'}")  # the folder is created
    storage.migrate()
    with storage.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    storage.close()


def test_default_database_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LUDOTHEQUE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path / 'ludotheque' / 'ludotheque.db'}"
    monkeypatch.setenv("LUDOTHEQUE_DB", "postgresql://u:p@h/db")
    assert default_database_url() == "postgresql+psycopg://u:p@h/db"
    assert database_url(None) == "postgresql+psycopg://u:p@h/db"
    assert database_url("sqlite:///elsewhere.db") == "sqlite:///elsewhere.db"


def test_a_game_with_a_seed_of_62_bits_still_loads_and_replays(db_url: str) -> None:
    """Games created before seeds were kept below 2^53 still load, replay and export exactly."""
    storage = Storage(database_url(db_url))
    storage.migrate()
    game = ludotheque.load("imbrication")
    seed = 2**62 - 12345
    meta = GameMeta("old-seed", game, seed, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="a"), Seat("bot", "bot:easy", "easy", bot_seed=2**62 - 1))
    first = begin(new_snapshot(game, seed, seats, None), Instant(0.0, 1_000_000.0))
    storage.insert(meta, first)
    moves = []
    snap = first
    for _ in range(6):
        move = str(snap.state.legal_moves()[0])
        after = play(snap, snap.state.to_move or 0, move, None, Instant(1.0, 1_000_001.0))
        storage.save(meta.id, snap, after)
        snap, moves = after, [*moves, move]
    loaded = storage.load(meta.id)
    storage.close()
    assert loaded is not None
    loaded_meta, loaded_snap = loaded
    assert loaded_meta.seed == seed and loaded_snap.seats[1].bot_seed == 2**62 - 1
    assert list(loaded_snap.moves) == moves and loaded_snap.state == snap.state
    record = Record.start(game, seed).with_moves(moves)
    assert replay(record)[-1] == snap.state


def test_stored_values_sent_to_other_workers_restore_what_the_database_gives(db_url: str) -> None:
    """A worker one version behind installs the values another worker announced (through
    Redis, as JSON) instead of reading the game again: it must get what a read would give, at
    every step (moves, a running clock, a takeback, the end)."""
    storage = Storage(database_url(db_url))
    storage.migrate()
    game = ludotheque.load("plimil")  # hidden stems: the hidden-facts counts ride along too
    meta = GameMeta("announced", game, 2**62 + 7, "2026-01-01T00:00:00+00:00")
    seats = (Seat("human", "Ada", token_hash="hash-a", invite_hash="invite-a"),
             Seat("bot", "bot:easy", "easy", bot_seed=99))
    snap = begin(new_snapshot(game, meta.seed, seats, ClockSpec("fischer", 60_000, 1000)),
                 Instant(0.0, 1_000_000.0))
    storage.insert(meta, snap)
    steps = []
    for ply in range(6):
        seat = snap.seat_to_move()
        assert seat is not None
        steps.append(play(snap, seat, str(snap.state.legal_moves()[ply % 3]), ply,
                          Instant(1.0 + ply, 1_000_001.0 + ply)))
        snap = steps[-1]
    steps.append(take_back(snap, 0, Instant(8.0, 1_000_008.0)))
    steps.append(resign(steps[-1], 0, Instant(9.0, 1_000_009.0)))
    known = storage.load(meta.id)
    assert known is not None
    previous = known[1]
    for version, after in enumerate(steps, start=2):
        storage.save(meta.id, previous, after, version)
        message = decode(encode_message({"values": stored_values(meta, after)}, "worker-a"))
        assert message is not None
        announced = restore_values(message["values"], previous)
        loaded = storage.load_versioned(meta.id, previous)
        assert loaded is not None and loaded[2] == version
        read = loaded[1]
        assert (announced.seats, announced.moves, announced.movers, announced.hidden) == (
            read.seats, read.moves, read.movers, read.hidden)
        assert (announced.state, announced.status, announced.result) == (read.state, read.status, read.result)
        assert (announced.draw_offer, announced.rematch, announced.started, announced.ended) == (
            read.draw_offer, read.rematch, read.started, read.ended)
        assert announced.clock is not None and read.clock is not None
        assert (announced.clock.remaining_ms, announced.clock.running, announced.clock.started_wall) == (
            read.clock.remaining_ms, read.clock.running, read.clock.started_wall)
        previous = read
    storage.close()
    assert previous.status == "over" and len(previous.moves) < 6  # the takeback took moves back
