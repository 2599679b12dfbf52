"""Back up and restore the server's database while the server runs (``ludotheque backup`` and
``ludotheque restore``; the command prints, this module only does the work).

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``), page by page, inside one read
transaction of the source: in WAL mode the server keeps writing while the copy is made, and the
copy is the database as it was when the backup began, never a mix of two moments. The backup is
one SQLite file (rollback journal, no ``-wal`` beside it), checked with ``PRAGMA integrity_check``.

PostgreSQL: ``pg_dump --format=custom`` under a snapshot this module exports and holds (so the
counts it reports are those of the dump), restored with ``pg_restore`` in one transaction.

A backup is written beside its final name (``….partial``) and renamed once complete: a backup
that failed half-way never passes for a whole one.

>>> backup_kind_of_url("sqlite:////var/lib/ludotheque/ludotheque.db")
'sqlite'
>>> backup_kind_of_url("postgresql://u:p@db/ludo")
'postgresql'
>>> backup_kind_of_url("mysql://u@db/ludo")
Traceback (most recent call last):
...
ludotheque.server.backup.BackupError: unknown kind of database 'mysql': expected sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB
>>> backup_name("sqlite", datetime(2026, 11, 27, 3, 0, tzinfo=UTC))
'ludotheque-20261127T030000Z.db'
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from .config import database_url

Kind = Literal["sqlite", "postgresql"]
# ``progress(done, total)``: pages copied (SQLite) or tables dumped or restored (PostgreSQL).
Progress = Callable[[int, int], None]

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
SUFFIXES: dict[Kind, str] = {"sqlite": ".db", "postgresql": ".dump"}
# A backup named by ``ludotheque backup DIR``: only these are ever pruned by ``--keep``.
BACKUP_NAME = re.compile(r"^ludotheque-\d{8}T\d{6}Z\.(db|dump)$")
# Pages copied per step of SQLite's backup (4 MiB of 4 KiB pages): the progress moves, the
# source's read transaction holds the snapshot between steps.
PAGES_PER_STEP = 1024
BUSY_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10
# The tables whose rows a summary counts.
COUNTED = ("games", "moves", "accounts", "ratings")
URL_FORMS = "expected sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB"


class BackupError(Exception):
    """A backup or a restore cannot be made; the message is one line for people, with the fix."""


@dataclass(frozen=True)
class Summary:
    """What a backup holds, or what a restore put into a database."""

    kind: Kind
    path: Path
    database: str  # the database's URL, without its password
    size: int  # bytes of the backup file
    revision: str | None  # the schema's Alembic revision
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    pruned: tuple[Path, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "path": str(self.path), "database": self.database, "bytes": self.size,
                "revision": self.revision, "counts": self.counts, "seconds": round(self.seconds, 3),
                "pruned": [str(path) for path in self.pruned]}


# -- URLs and files ---------------------------------------------------------------------------------
def _parse(url: str | None) -> tuple[Kind, URL]:
    full = database_url(url)
    try:
        parsed = make_url(full)
    except ArgumentError:
        raise BackupError(f"not a database URL {full[:40]!r}: {URL_FORMS}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return "sqlite", parsed
    if backend == "postgresql":
        return "postgresql", parsed
    raise BackupError(f"unknown kind of database {full.split(':', 1)[0]!r}: {URL_FORMS}")


def backup_kind_of_url(url: str | None) -> Kind:
    """``sqlite`` or ``postgresql``: what kind of backup the database of ``url`` makes."""
    return _parse(url)[0]


def shown(url: URL) -> str:
    """The URL to show people, never with its password (nor the driver's name)."""
    return url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)


def sqlite_path(url: URL) -> Path:
    database = url.database or ""
    if not database or database == ":memory:" or "mode=memory" in database:
        raise BackupError("an in-memory SQLite database cannot be backed up or restored: give a file, "
                          "sqlite:///PATH")
    if database.startswith("file:"):
        database = database[len("file:"):].split("?", 1)[0]
    return Path(database)


def backup_kind_of_file(path: Path) -> Kind:
    """``sqlite`` or ``postgresql``: what kind of backup the file ``path`` is (by its first bytes)."""
    if not path.exists():
        raise BackupError(f"no backup file at {path}")
    if path.is_dir():
        raise BackupError(f"{path} is a folder: name the backup file to restore")
    with path.open("rb") as file:
        head = file.read(len(SQLITE_MAGIC))
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is not a Ludothèque backup: expected a SQLite database or a pg_dump "
                      "archive in custom format (ludotheque backup makes them)")


def backup_name(kind: Kind, now: datetime | None = None) -> str:
    """The file name ``ludotheque backup DIR`` gives a backup made at ``now`` (UTC)."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return f"ludotheque-{moment:%Y%m%dT%H%M%SZ}{SUFFIXES[kind]}"


def destination_file(destination: Path, kind: Kind, *, force: bool = False) -> Path:
    """The file a backup goes to: ``destination`` itself, or a new dated name in it if it is a
    folder; an existing file is replaced only with ``force``."""
    target = destination / backup_name(kind) if destination.is_dir() else destination
    if not target.parent.is_dir():
        raise BackupError(f"no folder {target.parent} to write the backup in: create it first")
    if target.exists() and not force:
        raise BackupError(f"{target} exists already: choose another name, or give --force to replace it")
    return target


def prune(folder: Path, keep: int) -> tuple[Path, ...]:
    """Delete the dated backups (``ludotheque-<UTC time>.db|.dump``) in ``folder`` but the newest
    ``keep``; returns what was deleted. Other files are never touched."""
    if keep < 1:
        raise BackupError("--keep must keep at least 1 backup")
    dated = sorted((p for p in folder.iterdir() if BACKUP_NAME.match(p.name) and p.is_file()),
                   key=lambda p: p.name, reverse=True)
    old = tuple(dated[keep:])
    for path in old:
        path.unlink()
    return old


def _partial(target: Path) -> Path:
    return target.with_name(target.name + ".partial")


def _finish(partial: Path, target: Path) -> None:
    """Make the complete backup durable, then give it its name."""
    with partial.open("rb") as file:
        os.fsync(file.fileno())
    os.replace(partial, target)


# -- SQLite -----------------------------------------------------------------------------------------
def _sqlite_connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path), isolation_level=None, timeout=BUSY_TIMEOUT_S)


def _sqlite_tables(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def _sqlite_facts(connection: sqlite3.Connection) -> tuple[str | None, dict[str, int]]:
    tables = _sqlite_tables(connection)
    revision = None
    if "alembic_version" in tables:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = str(row[0]) if row else None
    counts = {name: int(connection.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
              for name in COUNTED if name in tables}
    return revision, counts


def _sqlite_is_ludotheque(connection: sqlite3.Connection, path: Path, what: str) -> None:
    try:
        tables = _sqlite_tables(connection)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{what} {path} is not a SQLite database ({error})") from None
    if "alembic_version" not in tables or "games" not in tables:
        raise BackupError(f"{what} {path} is not a Ludothèque database (no games and alembic_version tables)")


def _copy_pages(source: sqlite3.Connection, target: sqlite3.Connection, progress: Progress | None,
                pages_per_step: int) -> None:
    def step(_status: int, remaining: int, total: int) -> None:
        if progress is not None:
            progress(total - remaining, total)

    source.backup(target, pages=max(1, pages_per_step), progress=step)


def _backup_sqlite(url: URL, target: Path, progress: Progress | None, pages_per_step: int) -> Summary:
    path = sqlite_path(url)
    if not path.is_file():
        raise BackupError(f"no SQLite database at {path}: check --db (default: $LUDOTHEQUE_DB, else the "
                          "user's data folder)")
    partial = _partial(target)
    partial.unlink(missing_ok=True)
    try:
        with closing(_sqlite_connect(path)) as source, closing(sqlite3.connect(str(partial))) as copy:
            _sqlite_is_ludotheque(source, path, "the database at")
            # One read transaction for the whole copy: every step reads the same snapshot while
            # the server goes on writing (WAL), so the backup never restarts and never mixes moments.
            source.execute("BEGIN")
            try:
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()
                _copy_pages(source, copy, progress, pages_per_step)
            finally:
                source.execute("COMMIT")
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
            check = copy.execute("PRAGMA integrity_check").fetchone()
            if not check or check[0] != "ok":
                raise BackupError(f"the copy of {path} fails SQLite's integrity check: {check}")
            revision, counts = _sqlite_facts(copy)
        _finish(partial, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {path}: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return Summary("sqlite", target, shown(url), target.stat().st_size, revision, counts)


def _restore_sqlite(source_path: Path, url: URL, force: bool, progress: Progress | None,
                    pages_per_step: int) -> Summary:
    path = sqlite_path(url)
    if path.is_dir():
        raise BackupError(f"{path} is a folder: --db names the database file, sqlite:///PATH")
    try:
        with closing(sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True)) as source:
            _sqlite_is_ludotheque(source, source_path, "the backup")
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True, exist_ok=True)
            with closing(_sqlite_connect(path)) as target:
                tables = _sqlite_tables(target)
                if tables and not force:
                    raise BackupError(
                        f"the database at {path} is not empty ({len(tables)} tables): restore into a new "
                        "database, or give --force to replace it (stop the server on it first, or restart "
                        "it after)")
                _copy_pages(source, target, progress, pages_per_step)
                target.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
                revision, counts = _sqlite_facts(target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {source_path} into {path}: {error}") from None
    return Summary("sqlite", source_path, shown(url), source_path.stat().st_size, revision, counts)


# -- PostgreSQL -------------------------------------------------------------------------------------
def pg_tool(name: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: on PATH, else the newest Debian install."""
    found = shutil.which(name)
    if found:
        return found

    def version(path: str) -> int:
        match = re.search(r"/postgresql/(\d+)/", path)
        return int(match.group(1)) if match else 0

    installed = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=version)
    if installed:
        return installed[-1]
    raise BackupError(f"{name} is not installed: install PostgreSQL's client programs (Debian: apt-get "
                      "install postgresql-client), of the server's major version or newer")


def libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL for PostgreSQL's own programs (no driver name, no password) and their environment
    (the password in ``PGPASSWORD``: never on a command line that ``ps`` shows)."""
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


@contextmanager
def _pg_connection(url: URL) -> Iterator[Connection]:
    engine = create_engine(url, connect_args={"connect_timeout": CONNECT_TIMEOUT_S})
    try:
        with engine.connect() as connection:
            yield connection
    except DBAPIError as error:
        reason = str(error.orig) if error.orig is not None else str(error)
        line = (reason.strip().splitlines() or ["unknown error"])[0]
        hint = ""
        if "does not exist" in line and "database" in line:
            hint = ": create it first (createdb NAME, or CREATE DATABASE)"
        raise BackupError(f"cannot open the database {shown(url)}: {line}{hint}") from None
    except NoSuchModuleError:
        raise BackupError(f"unknown kind of database: {URL_FORMS}") from None
    finally:
        engine.dispose()


def _user_tables(connection: Connection) -> list[str]:
    rows = connection.execute(text(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables "
        "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'"))
    return [str(row[0]) for row in rows]


def _pg_facts(connection: Connection) -> tuple[str | None, dict[str, int]]:
    names = {name.rsplit(".", 1)[1] for name in _user_tables(connection)}
    visible = {str(row[0]) for row in connection.execute(text(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"))}
    revision = None
    if "alembic_version" in visible:
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    counts = {name: int(connection.execute(text(f"SELECT count(*) FROM {name}")).scalar() or 0)
              for name in COUNTED if name in visible and name in names}
    return (str(revision) if revision is not None else None), counts


def _run_pg(command: list[str], env: dict[str, str], marker: str, total: int,
            progress: Progress | None) -> None:
    """Run ``pg_dump``/``pg_restore -v``; each stderr line holding ``marker`` is one table done."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                               text=True, errors="replace")
    assert process.stderr is not None
    done = 0
    problems: list[str] = []
    if progress is not None:
        progress(0, total)
    for line in process.stderr:
        if marker in line:
            done += 1
            if progress is not None:
                progress(min(done, total), total)
        elif "error" in line.lower() or "fatal" in line.lower():
            problems.append(line.strip())
    if process.wait() != 0:
        tool = Path(command[0]).name
        reason = problems[0] if problems else f"exit status {process.returncode}"
        raise BackupError(f"{tool} failed: {reason}")
    if progress is not None:
        progress(total, total)


def _backup_postgres(url: URL, target: Path, progress: Progress | None) -> Summary:
    pg_dump = pg_tool("pg_dump")
    uri, env = libpq(url)
    partial = _partial(target)
    partial.unlink(missing_ok=True)
    try:
        with _pg_connection(url) as connection:
            # The dump and the counts reported read one snapshot, held until pg_dump is done.
            connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
            snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar()
            revision, counts = _pg_facts(connection)
            if revision is None:
                raise BackupError(f"the database {shown(url)} is not a Ludothèque database (no "
                                  "alembic_version table)")
            total = len(_user_tables(connection))
            command = [pg_dump, "--format=custom", "--verbose", f"--snapshot={snapshot}",
                       f"--file={partial}", f"--dbname={uri}"]
            _run_pg(command, env, "dumping contents of table", total, progress)
            connection.rollback()
        _finish(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Summary("postgresql", target, shown(url), target.stat().st_size, revision, counts)


def _restore_postgres(source_path: Path, url: URL, force: bool, progress: Progress | None) -> Summary:
    pg_restore = pg_tool("pg_restore")
    uri, env = libpq(url)
    listing = subprocess.run([pg_restore, "--list", str(source_path)], capture_output=True, text=True,
                             errors="replace", env=env)
    if listing.returncode != 0:
        reason = (listing.stderr.strip().splitlines() or ["unreadable"])[0]
        raise BackupError(f"cannot read the backup {source_path}: {reason}")
    if " alembic_version " not in listing.stdout:
        raise BackupError(f"the backup {source_path} is not a Ludothèque database (no alembic_version table)")
    total = sum(1 for line in listing.stdout.splitlines() if " TABLE DATA " in line)
    with _pg_connection(url) as connection:
        tables = _user_tables(connection)
        connection.rollback()
    if tables and not force:
        raise BackupError(f"the database {shown(url)} is not empty ({len(tables)} tables): restore into "
                          "a new database, or give --force to replace its tables (stop the server on it "
                          "first, or restart it after)")
    command = [pg_restore, "--verbose", "--no-owner", "--no-privileges", "--exit-on-error",
               "--single-transaction", f"--dbname={uri}"]
    if force:
        command += ["--clean", "--if-exists"]
    _run_pg([*command, str(source_path)], env, "processing data for table", total, progress)
    with _pg_connection(url) as connection:
        revision, counts = _pg_facts(connection)
    return Summary("postgresql", source_path, shown(url), source_path.stat().st_size, revision, counts)


# -- the two operations -----------------------------------------------------------------------------
def backup(db: str | None, destination: Path, *, force: bool = False, keep: int | None = None,
           progress: Progress | None = None, pages_per_step: int = PAGES_PER_STEP) -> Summary:
    """Back up the database ``db`` (``None``: the server's default) to ``destination``, a file or a
    folder (then a dated name in it, and with ``keep`` only the newest ``keep`` dated backups
    stay). Safe while the server runs; raises :class:`BackupError`."""
    started = time.monotonic()
    kind, url = _parse(db)
    if keep is not None and not destination.is_dir():
        raise BackupError("--keep prunes the dated backups of a folder: give a folder, not a file")
    if keep is not None and keep < 1:
        raise BackupError("--keep must keep at least 1 backup")
    target = destination_file(destination, kind, force=force)
    if kind == "sqlite":
        summary = _backup_sqlite(url, target, progress, pages_per_step)
    else:
        summary = _backup_postgres(url, target, progress)
    pruned = prune(destination, keep) if keep is not None else ()
    return Summary(summary.kind, summary.path, summary.database, summary.size, summary.revision,
                   summary.counts, time.monotonic() - started, pruned)


def restore(source: Path, db: str | None, *, force: bool = False, progress: Progress | None = None,
            pages_per_step: int = PAGES_PER_STEP) -> Summary:
    """Restore the backup file ``source`` into the database ``db`` (``None``: the server's default),
    which must be empty unless ``force``; raises :class:`BackupError`."""
    started = time.monotonic()
    kind, url = _parse(db)
    made_by = backup_kind_of_file(source)
    if made_by != kind:
        wanted = "sqlite:///PATH" if made_by == "sqlite" else "postgresql://USER:PASSWORD@HOST/DB"
        raise BackupError(f"{source} is a {'SQLite' if made_by == 'sqlite' else 'PostgreSQL'} backup: "
                          f"restore it into a database of the same kind (--db {wanted})")
    if kind == "sqlite":
        summary = _restore_sqlite(source, url, force, progress, pages_per_step)
    else:
        summary = _restore_postgres(source, url, force, progress)
    return Summary(summary.kind, summary.path, summary.database, summary.size, summary.revision,
                   summary.counts, time.monotonic() - started)
