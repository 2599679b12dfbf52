"""Persistence with SQLAlchemy 2 (SQLite in WAL mode, or PostgreSQL through psycopg 3).

Calls are synchronous and run on a small thread pool (one thread for SQLite, whose writers
queue anyway), so the event loop never waits on the disk. Each change is one transaction.

A move on SQLite is the exception (:meth:`Storage.store_change`): unless the database thread
is writing, its few statements run on the event loop at once. Handing them to the thread and
back cost two thread wake-ups per move, each a wait for the processor and the GIL; on a machine
busy with other work these waits were most of a move's latency (docs/distributed.md, "Per-move
cost and latency under contention").
Such a commit never waits on the disk: in WAL mode with ``synchronous=NORMAL`` a commit only
appends to the WAL, and the loop's connection neither checkpoints (the database thread does,
every ``CHECKPOINT_EVERY`` changes) nor waits for a lock (``busy_timeout=0``: a change that
finds the database locked, by a checkpoint or another write, is stored on the thread instead).

With several workers on PostgreSQL, a move's one guarded statement runs on the event loop too
(:meth:`Storage.change_shared`), on the loop's own asynchronous psycopg connections, for the same
reason; the locked way, rare, stays on the threads.

>>> import asyncio, ludotheque
>>> from ludotheque.server.snapshots import GameMeta, Seat, new_snapshot
>>> storage = Storage("sqlite://")
>>> storage.migrate()
>>> meta = GameMeta("g1", ludotheque.load("pylos"), 7, "2026-01-01T00:00:00+00:00")
>>> storage.insert(meta, new_snapshot(meta.game, 7, (Seat("open", ""), Seat("open", "")), None))
>>> storage.load("g1")[1].status
'waiting'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import psycopg
from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from . import metrics, tables
from .clocks import Instant
from .config import is_sqlite
from .errors import ApiError, is_store_failure, quoted, unavailable
from .migrate import upgrade
from .snapshots import GameMeta, Snapshot
from .stored_games import (
    changed_seats,
    common_prefix,
    deletes_moves,
    game_values,
    guarded_change,
    lobby_entry,
    meta_values,
    restore_rows,
    same_change,
    seat_values,
)

# A change as the hub applies it: the stored snapshot and the instant -> the new snapshot.
Operation = Callable[[Snapshot, Instant], Snapshot]

log = logging.getLogger("ludotheque.server")
P = ParamSpec("P")
T = TypeVar("T")
LOBBY_LIMIT = 100
# PostgreSQL, a move's one guarded statement on the event loop: at most this many connections
# (as many as the database threads); a move that finds them all busy goes the threads' way.
LOOP_CONNECTIONS = 4
# How long opening a PostgreSQL connection may take before the server says it is unreachable.
CONNECT_TIMEOUT_S = 10
_INSERT_MOVE = insert(tables.moves)
# A move's writes, in the driver's own SQL: SQLAlchemy's execution machinery cost more than the
# statements themselves (half of a stored move's time, profiled under load); written once here.
_WRITE_SQL = {
    "delete_moves": "DELETE FROM moves WHERE game_id = :gid AND ply >= :first",
    "insert_move": "INSERT INTO moves (game_id, ply, text, played) VALUES (:game_id, :ply, :text, :played)",
    "update_game": "UPDATE games SET status = :status, result = :result, clock = :clock, "
    "clock_running = :clock_running, clock_started = :clock_started, draw_offer = :draw_offer, "
    "rematch = :rematch, started = :started, ended = :ended, updated = :updated, to_move = :to_move, "
    "version = :version, deadline = :deadline, bot_lease = NULL WHERE id = :gid",
    "update_seat": "UPDATE seats SET kind = :kind, name = :name, level = :level, token_hash = :token_hash, "
    "bot_seed = :bot_seed, invite_hash = :invite_hash, account_id = :account_id, "
    "remaining_ms = :remaining_ms WHERE game_id = :gid AND seat = :number",
    # The game's row lock: every worker's change of one game waits here for the previous one.
    "lock_game": "SELECT version FROM games WHERE id = :gid FOR UPDATE",
}
# A bot's move to think, the game's version it is for, held by one worker for this long.
BOT_LEASE_S = 30.0
# SQLite: changes stored on the event loop between two checkpoints of the WAL (on the thread).
# SQLite's own default checkpoints every 1000 pages; a move writes 2-3.
CHECKPOINT_EVERY = 300
# Checkpoints this far behind (the loop stored faster than the thread could checkpoint): the
# changes go to the thread, whose connection checkpoints by itself (SQLite's default).
CHECKPOINT_BACKLOG = 4
# How long a checkpoint may hold off writers while waiting for readers, and how long any other
# SQLite call waits for a lock.
CHECKPOINT_WAIT_MS = 100
SQLITE_BUSY_S = 30


def _driver_sql(dialect: str) -> dict[str, str]:
    """The statements in the driver's parameter style (sqlite3 reads :name; psycopg %(name)s)."""
    if dialect == "sqlite":
        return dict(_WRITE_SQL)
    return {name: re.sub(r":(\w+)", r"%(\1)s", sql) for name, sql in _WRITE_SQL.items()}


class Storage:
    """The database of games: create, save a change, load, list."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        self._executor = ThreadPoolExecutor(
            max_workers=1 if is_sqlite(url) else 4, thread_name_prefix="ludotheque-db"
        )
        dialect = self.engine.dialect
        self._sql = _driver_sql(dialect.name)
        self._driver_error: type[Exception] = dialect.loaded_dbapi.Error
        # SQLite in a file: the event loop's own connection for store_change (opened at first use).
        self._inline = is_sqlite(url) and _is_file(url)
        self._loop_connection: Connection | None = None
        self._since_checkpoint = 0  # changes stored on the loop since the last checkpoint
        self._checkpointing = False
        # PostgreSQL: each database thread's own connection for the locked way (change_locked), kept.
        self._held = threading.local()
        self._held_all: list[Connection] = []
        self._held_guard = threading.Lock()
        # PostgreSQL: the event loop's idle connections for a move's guarded statement
        # (change_shared), opened on the loop when none is idle, and how many are open.
        self._loop_idle: list[psycopg.AsyncConnection[Any]] = []
        self._loop_opened = 0

    def migrate(self) -> None:
        upgrade(self.engine)

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a storage call on the database threads; a database that cannot be used (disk
        full, read-only, unreachable) raises ``ApiError`` 503 ``unavailable``, and since
        each change is one transaction, nothing of it was kept."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, lambda: function(*args, **kwargs))
        except DBAPIError as error:
            if not is_store_failure(error):
                raise
            raise _unavailable(error) from None

    async def store_change(self, game_id: str, old: Snapshot, new: Snapshot, version: int) -> None:
        """:meth:`save` the change, on the event loop at once when that cannot wait (SQLite, the
        database not locked by a write of the database thread: see the module's docstring),
        else on the database thread. The game's lock orders a game's changes, whichever way
        each is stored; SQLite in WAL mode lets the thread's reads go on meanwhile. Raises as
        :meth:`run` does."""
        # A loop too busy for the thread to checkpoint: the thread stores (and checkpoints) too.
        if self._inline and self._since_checkpoint < CHECKPOINT_BACKLOG * CHECKPOINT_EVERY:
            try:
                if self._save_here(game_id, old, new, version):
                    return
            except DBAPIError as error:
                self._drop_loop_connection()
                if not is_store_failure(error):
                    raise
                raise _unavailable(error) from None
        await self.run(self.save, game_id, old, new, version)

    def _save_here(self, game_id: str, old: Snapshot, new: Snapshot, version: int) -> bool:
        """Store the change on the loop's connection; ``False`` (nothing kept) if the database
        is locked by another connection, which the caller's thread may wait for."""
        connection = self._loop_connection
        if connection is None or connection.closed:
            connection = self._loop_connection = self.engine.connect()
            connection.exec_driver_sql("PRAGMA busy_timeout = 0")  # never wait for a lock here
            connection.exec_driver_sql("PRAGMA wal_autocheckpoint = 0")  # the thread checkpoints
            connection.commit()
        started = time.perf_counter()
        # The transaction is the driver's own (sqlite3 begins it at the first write): this
        # connection serves nothing else, and SQLAlchemy's transaction objects cost more than
        # the commit itself.
        try:
            self._write(connection, game_id, old, new, version)
            self._execute_sql(connection, "COMMIT", {})
        except DBAPIError as error:
            with contextlib.suppress(self._driver_error):
                connection.connection.dbapi_connection.rollback()  # type: ignore[union-attr]
            if _is_locked(error):
                return False
            raise
        metrics.connection_held(time.perf_counter() - started)
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY and not self._checkpointing:
            self._checkpoint_soon()
        return True

    def _drop_loop_connection(self) -> None:
        """After a failure the loop's connection is closed; the next change opens another. It is
        discarded, not given back to the pool: its pragmas (no lock wait, no checkpoint) would
        follow it to the database thread."""
        if self._loop_connection is not None:
            with contextlib.suppress(DBAPIError):
                self._loop_connection.invalidate()
                self._loop_connection.close()
            self._loop_connection = None

    def _checkpoint_soon(self) -> None:
        """Copy the WAL into the database file on the database thread (its fsyncs stay there)."""
        self._checkpointing, started_at = True, self._since_checkpoint
        future = asyncio.get_running_loop().run_in_executor(self._executor, self._checkpoint)

        def done(finished: asyncio.Future[None]) -> None:
            self._checkpointing = False
            if not finished.cancelled() and (error := finished.exception()) is not None:
                log.warning("WAL checkpoint failed: %s", error)
                return
            self._since_checkpoint -= started_at  # the changes stored meanwhile wait for the next

        future.add_done_callback(done)

    def _checkpoint(self) -> None:
        """RESTART, not PASSIVE: it holds off writers until every frame is copied, so that the
        next write starts the WAL again from its beginning (with moves stored at any moment, a
        passive checkpoint never finds the WAL still, and the file would only grow). A move
        that comes meanwhile finds the database locked and is stored on this thread after it."""
        with self.engine.connect() as connection:
            # It holds off writers while it waits for readers: a long reader (a backup reads in
            # one transaction) makes it give up soon, to be tried again CHECKPOINT_EVERY later.
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
            try:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(RESTART)")
            finally:
                connection.exec_driver_sql(f"PRAGMA busy_timeout = {SQLITE_BUSY_S * 1000}")

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self._drop_loop_connection()
        with self._held_guard:
            held, self._held_all = self._held_all, []
        for connection in held:  # the threads are gone: no one uses them any more
            with contextlib.suppress(Exception):
                connection.close()
        self.engine.dispose()

    # -- writing --------------------------------------------------------------------------------
    def insert(self, meta: GameMeta, snap: Snapshot) -> None:
        """Store a new game with its seats."""
        with self.engine.begin() as connection:
            connection.execute(insert(tables.games).values(**meta_values(meta), **game_values(snap)))
            connection.execute(
                insert(tables.seats),
                [{"game_id": meta.id, "seat": n, **seat_values(snap, n)} for n in range(len(snap.seats))],
            )
            _insert_moves(connection, meta.id, snap, 0)

    def save(self, game_id: str, old: Snapshot, new: Snapshot, version: int = 1) -> None:
        """Store the change from ``old`` to ``new`` in one transaction, as the game's ``version``."""
        with self.engine.begin() as connection:
            self._write(connection, game_id, old, new, version)

    def change_locked(self, game_id: str, version: int, old: Snapshot, operation: Operation
                      ) -> tuple[Snapshot, Snapshot, int]:
        """Apply ``operation`` to the stored game (PostgreSQL, several workers). Returns the
        snapshot the operation saw, its result and the stored version; ``ApiError`` from the
        operation stores nothing.

        When this worker's copy (``old``, at ``version``) is up to date, as it nearly always is,
        the change is made on it and stored in one statement that changes nothing if the game
        is no longer at ``version`` (:meth:`_store_if_unchanged`): one round trip, no lock held
        between two. Otherwise (the copy is behind, the operation refuses on it, moves are taken
        back) the change is made under the game's row lock (:meth:`_change_under_lock`), on the
        game read again if another worker changed it. Both run on this thread's own connection
        (:meth:`_held_connection`)."""
        new = _appending_change(old, operation)
        sent: Snapshot | None = None
        if new is not None:
            connection = self._held_connection()
            try:
                if self._store_if_unchanged(connection, game_id, version, old, new):
                    return old, new, version + 1
            except DBAPIError as error:
                self._drop_held(connection)
                if not error.connection_invalidated:
                    raise
                sent = new  # the connection broke: the change may or may not have been stored
        return self._change_under_lock(game_id, version, old, operation, sent)

    async def change_shared(self, game_id: str, version: int, old: Snapshot, operation: Operation
                            ) -> tuple[Snapshot, Snapshot, int]:
        """:meth:`change_locked`, with its usual case on the event loop: the guarded statement
        runs on one of the loop's own connections (psycopg's asynchronous ones), so that a move
        is not handed to a database thread and back, two thread wake-ups that cost a worker more
        than the statement itself (docs/distributed.md). When that way does not store the change
        (the copy is behind, the operation refuses, a takeback, every loop connection busy, an
        error) the locked way decides, on a database thread, as in :meth:`change_locked`.
        Raises as :meth:`run` does."""
        new = _appending_change(old, operation)
        sent: Snapshot | None = None
        if new is not None:
            sql, parameters = guarded_change(game_id, version, old, new)
            try:
                if await self._store_on_loop(sql, parameters):
                    return old, new, version + 1
            except LostAnswer:
                sent = new  # the connection broke: the change may or may not have been stored
            except psycopg.Error as error:
                # Nothing was stored: the connection could not be opened, or the one
                # autocommitted statement failed. The locked way tries, and says why if it fails.
                log.debug("a move's statement on the event loop failed: %s", error)
        return await self.run(self._change_under_lock, game_id, version, old, operation, sent)

    async def _store_on_loop(self, sql: str, parameters: Mapping[str, Any]) -> bool:
        """Run the guarded statement ``sql`` on an idle loop connection, autocommitted; whether it
        changed the game (``False`` too when every connection is busy: nothing was sent).
        ``LostAnswer`` when the connection broke under it.

        The idle connections are a plain list rather than psycopg_pool's pool: its checkout
        and return cost 30-50 µs, a third of the statement (measured, 2026-11-27), and a move
        needs none of its features (no check before lending: a broken connection fails its
        statement, and the thread's way follows)."""
        if self._loop_idle:
            connection = self._loop_idle.pop()
        elif self._loop_opened < LOOP_CONNECTIONS:
            self._loop_opened += 1
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False),
                    autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
            except BaseException:
                self._loop_opened -= 1
                raise
        else:
            return False
        started = time.perf_counter()
        try:
            cursor = await connection.execute(sql, parameters)
            row = await cursor.fetchone()
        except BaseException as error:
            self._loop_opened -= 1
            with contextlib.suppress(Exception):
                await connection.close()
            if isinstance(error, psycopg.Error) and connection.broken:
                raise LostAnswer from error
            raise
        self._loop_idle.append(connection)
        metrics.connection_held(time.perf_counter() - started)
        return bool(row and row[0])

    async def close_loop_connections(self) -> None:
        """Close the loop's connections (on the loop that opened them, before :meth:`close`)."""
        idle, self._loop_idle, self._loop_opened = self._loop_idle, [], 0
        for connection in idle:
            with contextlib.suppress(Exception):
                await connection.close()

    def _change_under_lock(self, game_id: str, version: int, old: Snapshot, operation: Operation,
                           sent: Snapshot | None) -> tuple[Snapshot, Snapshot, int]:
        """The change made under the game's row lock. A connection that broke since the last
        change (the database restarted) fails on the lock, before anything is written: the
        change is tried once more on a new connection, as the pool's ping before a checkout
        would have done. ``sent``: a change whose statement may have been stored before its
        connection broke; found stored, it is not made again."""
        for attempt in (1, 2):
            connection = self._held_connection()
            locked = False
            try:
                with connection.begin():
                    stored = self._execute(connection, "lock_game", {"gid": game_id})
                    locked = True
                    if sent is not None and stored == version + 1:
                        loaded = _load_on(connection, game_id, old)
                        if loaded is not None and same_change(loaded[1], sent):
                            return old, sent, version + 1
                    return self._change_on(connection, game_id, stored, version, old, operation)
            except DBAPIError as error:
                self._drop_held(connection)
                if locked or attempt == 2 or not error.connection_invalidated:
                    raise
        raise AssertionError("unreachable")

    def _store_if_unchanged(self, connection: Connection, game_id: str, version: int, old: Snapshot,
                            new: Snapshot) -> bool:
        """Store the change from ``old`` to ``new`` in one statement, only if the game is still at
        ``version`` (``False``: it is not, or is gone, and nothing was written)."""
        sql, parameters = guarded_change(game_id, version, old, new)
        driver = connection.connection.driver_connection
        assert driver is not None
        driver.autocommit = True  # one statement: its own transaction, one round trip
        try:
            return bool(self._execute_sql(connection, sql, parameters))
        finally:
            with contextlib.suppress(Exception):
                driver.autocommit = False

    def _change_on(self, connection: Connection, game_id: str, stored: int | None, version: int,
                   old: Snapshot, operation: Operation) -> tuple[Snapshot, Snapshot, int]:
        if stored is None:
            raise ApiError(404, f"no game {quoted(game_id)}", "not_found")
        if stored != version:
            loaded = _load_on(connection, game_id, old)
            assert loaded is not None  # the row is locked: it cannot have gone
            old, version = loaded[1], loaded[2]
        new = operation(old, Instant.now())
        if new is old:
            return old, old, version
        self._write(connection, game_id, old, new, version + 1)
        return old, new, version + 1

    def _held_connection(self) -> Connection:
        """This database thread's connection for moves, opened at its first move and kept: a move
        pays neither the pool's ping before a checkout nor its reset at the return (a round
        trip each, a third of a move's database work on a worker)."""
        connection: Connection | None = getattr(self._held, "connection", None)
        if connection is None or connection.closed or connection.invalidated:
            connection = self._held.connection = self.engine.connect()
            with self._held_guard:
                self._held_all.append(connection)
        return connection

    def _drop_held(self, connection: Connection) -> None:
        """Discard a held connection after a failure; the thread's next move opens another."""
        self._held.connection = None
        with self._held_guard:
            if connection in self._held_all:
                self._held_all.remove(connection)
        with contextlib.suppress(Exception):
            connection.invalidate()
            connection.close()

    def _write(
        self, connection: Connection, game_id: str, old: Snapshot, new: Snapshot, version: int
    ) -> None:
        kept = common_prefix(old.moves, new.moves)
        seats = [{"gid": game_id, "number": number, **values}
                 for number, values in changed_seats(old, new).items()]
        if kept < len(old.moves):
            self._execute(connection, "delete_moves", {"gid": game_id, "first": kept})
        if kept < len(new.moves):
            played = time.time()
            rows = [{"game_id": game_id, "ply": ply, "text": new.moves[ply], "played": played}
                    for ply in range(kept, len(new.moves))]
            # One move (nearly always): a plain execute, cheaper than the drivers' executemany.
            self._execute(connection, "insert_move", rows[0] if len(rows) == 1 else rows)
        self._execute(connection, "update_game", {"gid": game_id, "version": version, **game_values(new)})
        if seats:
            self._execute(connection, "update_seat", seats)

    def _execute(self, connection: Connection, name: str,
                 parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Any:
        """Run statement ``name`` on the driver's cursor of ``connection``'s transaction; the
        first column of its first row (``None`` if none). Driver errors are raised as
        SQLAlchemy's, which :meth:`run` tells apart."""
        return self._execute_sql(connection, self._sql[name], parameters)

    def _execute_sql(self, connection: Connection, sql: str,
                     parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Any:
        cursor = connection.connection.cursor()
        try:
            if isinstance(parameters, Mapping):
                cursor.execute(sql, parameters)
                row = cursor.fetchone() if cursor.description else None
                return row[0] if row else None
            cursor.executemany(sql, parameters)
            return None
        except self._driver_error as error:
            # The driver's own cursor: SQLAlchemy does not see the error, so it is told whether
            # the connection broke (``change_locked`` then tries once more on a new one).
            driver_error: Any = error
            broken = self.engine.dialect.is_disconnect(
                driver_error, connection.connection.dbapi_connection, cursor)
            raise DBAPIError.instance(sql, parameters, error, self._driver_error,
                                      connection_invalidated=broken, dialect=self.engine.dialect) from None
        finally:
            cursor.close()

    def claim_bot(self, game_id: str, version: int) -> bool:
        """Take the bot's move of ``game_id`` at ``version`` to think, unless another worker
        holds it (its lease not yet run out); whether this worker has it."""
        games = tables.games.c
        now = time.time()
        claim = update(tables.games).where(
            games.id == game_id, games.version == version,
            games.bot_lease.is_(None) | (games.bot_lease < now),
        ).values(bot_lease=now + BOT_LEASE_S)
        with self.engine.begin() as connection:
            return bool(connection.execute(claim).rowcount)

    def overdue(self, now: float, limit: int = 100) -> list[str]:
        """Games being played whose running seat's flag fell before ``now`` (epoch seconds)."""
        games = tables.games.c
        query = select(games.id).where(games.status == "playing", games.deadline < now).limit(limit)
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def bots_waiting(self, changed_before: float, limit: int = 50) -> list[str]:
        """Games where a bot is to move that no worker holds (never claimed, or its lease ran
        out: the worker died), unchanged since ``changed_before``."""
        games, seats = tables.games.c, tables.seats.c
        now = time.time()
        query = (
            select(games.id)
            .join(tables.seats, (seats.game_id == games.id) & (seats.seat == games.to_move))
            .where(games.status == "playing", seats.kind == "bot", games.updated < changed_before,
                   games.bot_lease.is_(None) | (games.bot_lease < now))
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def versions(self, ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each game of ``ids`` (those that exist)."""
        games = tables.games.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(games.id, games.version).where(games.id.in_(list(ids))))
            return {game_id: version for game_id, version in rows}

    # -- reading --------------------------------------------------------------------------------
    def load(self, game_id: str) -> tuple[GameMeta, Snapshot] | None:
        """The game ``game_id`` replayed from its seed and moves, its clock resumed; ``None``
        when there is no such game."""
        loaded = self.load_versioned(game_id)
        return None if loaded is None else loaded[:2]

    def load_versioned(self, game_id: str, known: Snapshot | None = None
                       ) -> tuple[GameMeta, Snapshot, int] | None:
        """:meth:`load` with the game's stored version; ``known``: the copy in memory, older,
        whose moves need not be played again."""
        with self.engine.connect() as connection:
            return _load_on(connection, game_id, known)

    def ids_to_resume(self, changed_since: float) -> list[str]:
        """Games being played whose clock runs, or that have a bot and changed since
        ``changed_since`` (epoch seconds; older ones are abandoned): the server resumes them
        (the flag timer, the bot's turn) at start. Other games wait until asked for."""
        games = tables.games.c
        bot_games = select(tables.seats.c.game_id).where(tables.seats.c.kind == "bot")
        query = select(games.id).where(
            games.status == "playing",
            games.clock_running.is_not(None) | (games.id.in_(bot_games) & (games.updated >= changed_since)),
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def exists(self, game_id: str) -> bool:
        with self.engine.connect() as connection:
            found = connection.execute(select(tables.games.c.id).where(tables.games.c.id == game_id))
            return found.first() is not None

    def delete_waiting(self, before: float) -> list[str]:
        """Delete the casual games still waiting for a person, untouched since ``before`` (epoch
        seconds); returns their ids. (Rated ones are archived, never deleted.)"""
        games = tables.games.c
        with self.engine.begin() as connection:
            stale = (games.status == "waiting", games.updated < before)
            rated = update(tables.games).where(*stale, games.rated.is_(True))
            connection.execute(rated.values(archived=True))
            ids = list(connection.execute(select(games.id).where(*stale, games.rated.is_(False))).scalars())
            if ids:
                connection.execute(delete(tables.moves).where(tables.moves.c.game_id.in_(ids)))
                connection.execute(delete(tables.seats).where(tables.seats.c.game_id.in_(ids)))
                connection.execute(delete(tables.games).where(games.id.in_(ids)))
        return ids

    def archive_guest_games(self, before: float) -> int:
        """Archive the games untouched since ``before`` (epoch seconds) that no signed-in player
        holds a seat of (guests', or nobody's): they leave every list, stay readable by id, and
        are never deleted. Returns how many were archived."""
        games, seats, accounts = tables.games.c, tables.seats.c, tables.accounts.c
        players = select(seats.game_id).join(tables.accounts, accounts.id == seats.account_id).where(
            accounts.is_guest.is_(False))
        with self.engine.begin() as connection:
            done = connection.execute(update(tables.games).where(
                games.archived.is_(False), games.updated < before, games.id.not_in(players)
            ).values(archived=True))
        return int(done.rowcount or 0)

    def abandoned_ids(self, before: float) -> list[str]:
        """Games being played without a clock, untouched since ``before`` (epoch seconds)."""
        games = tables.games.c
        query = select(games.id).where(
            games.status == "playing", games.clock.is_(None), games.updated < before
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def lobby(self, status: str | None) -> list[dict[str, Any]]:
        """The most recently changed games (``status``: open, playing or over), for the lobby."""
        query = (select(tables.games).where(tables.games.c.archived.is_(False))
                 .order_by(tables.games.c.updated.desc()).limit(LOBBY_LIMIT))
        if status == "open":
            open_games = select(tables.seats.c.game_id).where(tables.seats.c.kind == "open")
            query = query.where(tables.games.c.status == "waiting", tables.games.c.id.in_(open_games))
        elif status is not None:
            query = query.where(tables.games.c.status == status)
        with self.engine.connect() as connection:
            games = [dict(r) for r in connection.execute(query).mappings()]
            ids = [g["id"] for g in games]
            seat_rows = (
                connection.execute(
                    select(tables.seats).where(tables.seats.c.game_id.in_(ids)).order_by(tables.seats.c.seat)
                )
                .mappings()
                .all()
                if ids
                else []
            )
        seats_of: dict[str, list[dict[str, Any]]] = {}
        for seat in seat_rows:
            seats_of.setdefault(seat["game_id"], []).append(
                {"seat": seat["seat"], "kind": seat["kind"], "name": seat["name"], "level": seat["level"]}
            )
        return [lobby_entry(g, seats_of.get(g["id"], [])) for g in games]


class DatabaseUnavailable(Exception):
    """The database named at start cannot be used; the message is one line for people."""


def check_database(url: str) -> None:
    """Open the database once and run a trivial query, before the server starts; raises
    :class:`DatabaseUnavailable` with one clear line (unknown kind of URL, unreachable server,
    bad password, a folder that cannot be created)."""
    try:
        engine = _engine(url)
    except (NoSuchModuleError, ArgumentError):
        kind = url.split(":", 1)[0]
        raise DatabaseUnavailable(
            f"unknown kind of database {kind!r}: expected sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB"
        ) from None
    except OSError as error:
        raise DatabaseUnavailable(f"cannot create the database's folder: {error}") from None
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except DBAPIError as error:
        raise DatabaseUnavailable(f"cannot open the database: {_first_line(error)}") from None
    finally:
        engine.dispose()


def _load_on(connection: Connection, game_id: str, known: Snapshot | None = None
             ) -> tuple[GameMeta, Snapshot, int] | None:
    """The game ``game_id`` and its version, read on ``connection``; ``None`` if unknown.
    ``known``: an older snapshot of the same game, whose moves are not played again."""
    row = (
        connection.execute(select(tables.games).where(tables.games.c.id == game_id))
        .mappings()
        .first()
    )
    if row is None:
        return None
    seat_rows = (
        connection.execute(
            select(tables.seats)
            .where(tables.seats.c.game_id == game_id)
            .order_by(tables.seats.c.seat)
        )
        .mappings()
        .all()
    )
    texts = (
        connection.execute(
            select(tables.moves.c.text)
            .where(tables.moves.c.game_id == game_id)
            .order_by(tables.moves.c.ply)
        )
        .scalars()
        .all()
    )
    meta, snap = restore_rows(dict(row), [dict(r) for r in seat_rows], list(texts), known)
    return meta, snap, int(row["version"])


def _unavailable(error: DBAPIError) -> ApiError:
    """503 ``unavailable`` for a database that cannot be used (disk full, read-only,
    unreachable), logged with the driver's reason."""
    log.warning("database unavailable: %s", _first_line(error))
    return unavailable()


def _is_locked(error: DBAPIError) -> bool:
    """SQLite's "database is locked" (another connection writes): busy, not broken."""
    return "database is locked" in str(error.orig)


def _is_file(url: str) -> bool:
    """Whether SQLite ``url`` names a file (not a database in memory, which one connection holds)."""
    parsed = make_url(url)
    return parsed.database not in (None, "", ":memory:") and parsed.query.get("mode") != "memory"


def _first_line(error: DBAPIError) -> str:
    """The driver's own reason, in one line (SQLAlchemy adds the statement and a link)."""
    reason = str(error.orig) if error.orig is not None else str(error)
    return (reason.strip().splitlines() or ["unknown error"])[0]


class LostAnswer(Exception):
    """A guarded statement's connection broke before its answer came: stored or not, unknown."""


def _appending_change(old: Snapshot, operation: Operation) -> Snapshot | None:
    """What ``operation`` makes of this worker's copy ``old``, when it is a change that the
    guarded statement can store (it appends moves and takes none back); ``None`` when the
    locked way must decide (no change, a refusal perhaps due to a stale copy, a takeback)."""
    try:
        new = operation(old, Instant.now())
    except ApiError:
        return None  # perhaps only on this worker's copy: the locked way decides
    return new if new is not old and not deletes_moves(old, new) else None


def _engine(url: str) -> Engine:
    if not is_sqlite(url):
        return create_engine(
            url, pool_pre_ping=True, pool_size=5, max_overflow=5,
            connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
        )
    database = make_url(url).database
    if not database or database == ":memory:":
        # One shared connection, or each thread would see its own empty database.
        engine = create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
    else:
        if not database.startswith("file:"):  # a URI (?uri=true) names an existing file
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_S})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        # WAL: readers never block the writer; NORMAL sync is safe with WAL (a power loss may
        # lose the last commits, never corrupt the database).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def _insert_moves(connection: Connection, game_id: str, snap: Snapshot, start: int) -> None:
    if start < len(snap.moves):
        played = time.time()
        connection.execute(
            _INSERT_MOVE,
            [
                {"game_id": game_id, "ply": ply, "text": snap.moves[ply], "played": played}
                for ply in range(start, len(snap.moves))
            ],
        )


