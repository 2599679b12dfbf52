"""Running a server for real: ``ludotheque backup``, ``ludotheque restore``,
``ludotheque doctor`` (docs/operations.md) and ``ludotheque moderator`` (docs/moderation.md). The
work is done in ``server/backup.py`` and ``server/doctor.py``; these commands print: a progress
bar on a terminal (stderr), then one summary line (stdout).

``ludotheque backup DEST [--db URL] [--keep N] [--force] [--json]``: a consistent copy while the
server runs (SQLite's online backup, or ``pg_dump`` in custom format); DEST is a file, or a folder
that gets a dated name (``ludotheque-20261127T030000Z.db``), of which ``--keep N`` keeps the newest N.

``ludotheque restore BACKUP [--db URL] [--force]``: into an empty database (``--force``: over one).

``ludotheque doctor [--config FILE] [--db URL] [--redis URL] [--smtp URL] [--public-url URL] [--json]``:
one line per check, the fix of each problem, exit status 1 if any; ``--config`` reads the same file
as ``ludotheque serve --config`` (options, then LUDOTHEQUE_* variables, win over it).

``ludotheque moderator NAME [--revoke] [--db URL]``: grant (or revoke) a player the moderator role.

>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> for command in (backup, restore, doctor):
...     _ = app.command()(command)
>>> "--keep" in CliRunner().invoke(app, ["backup", "--help"]).output
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .common import console, errors, fail

if TYPE_CHECKING:
    from ..server.doctor import Check

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL: sqlite:///path or postgresql://user:password@host/db "
                 "(default: $LUDOTHEQUE_DB, else SQLite in the user's data folder), as for serve."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")]


@contextmanager
def progress_bar(what: str, unit: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr while a terminal shows it (nothing in a cron job's mail); yields
    the ``progress(done, total)`` that moves it."""
    bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
                   TimeElapsedColumn(), console=errors, transient=True, disable=not errors.is_terminal)
    task = bar.add_task(what, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{number} {name}" for name, number in counts.items())


def _size(size: int) -> str:
    """``size`` bytes in words: ``_size(3 * 1024 * 1024) == '3.0 MiB'``."""
    if size < 1024:
        return f"{size} bytes"
    amount = size / 1024
    for unit in ("KiB", "MiB"):
        if amount < 1024:
            return f"{amount:.1f} {unit}"
        amount /= 1024
    return f"{amount:.1f} GiB"


def backup(
    destination: Annotated[
        Path,
        typer.Argument(metavar="DEST", help="The backup file, or a folder: then a dated file in it "
                       "(ludotheque-YYYYMMDDTHHMMSSZ.db for SQLite, .dump for PostgreSQL)."),
    ],
    db: DbOption = None,
    keep: Annotated[
        int | None,
        typer.Option("--keep", min=1, help="DEST being a folder: keep only its newest N dated backups "
                     "(older ones are deleted; other files are never touched)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace DEST if it is an existing file.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Back up the server's database while the server runs: a consistent copy of one moment, even
    while games are played (SQLite: its online backup API; PostgreSQL: pg_dump, custom format),
    written beside DEST and renamed once complete and checked. Schedule it with cron or a systemd
    timer (docs/operations.md); restore it with ludotheque restore."""
    from ..server.backup import BackupError, backup_kind_of_url
    from ..server.backup import backup as make_backup

    try:
        unit = "pages" if backup_kind_of_url(db) == "sqlite" else "tables"
        with progress_bar("Backing up", unit) as progress:
            summary = make_backup(db, destination, force=force, keep=keep, progress=progress)
    except BackupError as error:
        fail(str(error), "en", command="backup")
    if as_json:
        console.print_json(json.dumps(summary.to_json()))
        return
    pruned = f"; {len(summary.pruned)} older backups deleted" if summary.pruned else ""
    console.print(f"Backed up {summary.database} to {summary.path} ({_size(summary.size)}, revision "
                  f"{summary.revision}: {_counts(summary.counts)}) in {summary.seconds:.1f} s{pruned}",
                  markup=False, soft_wrap=True)


def restore(
    source: Annotated[
        Path, typer.Argument(metavar="BACKUP", help="A backup file made by ludotheque backup.")
    ],
    db: DbOption = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Restore over a database that is not empty, replacing its tables "
                     "(stop the server on it first, or restart it after)."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Restore a backup into a database: a new, empty one (a SQLite file that does not exist yet, or
    a PostgreSQL database created for it), or, with --force, over an existing one. A SQLite backup
    restores into SQLite, a PostgreSQL one into PostgreSQL; the server migrates a backup of an older
    version at its next start. Servers on other databases may keep running meanwhile."""
    from ..server.backup import BackupError, backup_kind_of_url
    from ..server.backup import restore as restore_backup

    try:
        unit = "pages" if backup_kind_of_url(db) == "sqlite" else "tables"
        with progress_bar("Restoring", unit) as progress:
            summary = restore_backup(source, db, force=force, progress=progress)
    except BackupError as error:
        fail(str(error), "en", command="restore")
    if as_json:
        console.print_json(json.dumps(summary.to_json()))
        return
    console.print(f"Restored {summary.path} into {summary.database} (revision {summary.revision}: "
                  f"{_counts(summary.counts)}) in {summary.seconds:.1f} s", markup=False, soft_wrap=True)


def doctor(
    config: Annotated[
        Path | None,
        typer.Option("--config", metavar="FILE", help="The TOML file of settings given to ludotheque serve "
                     "--config: check the database, Redis and SMTP server it names (options, then "
                     "LUDOTHEQUE_* variables, win over it)."),
    ] = None,
    db: DbOption = None,
    redis: Annotated[
        str | None,
        typer.Option("--redis", envvar="LUDOTHEQUE_REDIS",
                     help="Check the workers' Redis (redis://host:6379/0) answers."),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option("--smtp", envvar="LUDOTHEQUE_SMTP",
                     help="Check the SMTP server of notifications answers and takes its login "
                     "(smtp://user:password@host:587?from=games@example.org&starttls=1); no mail is sent."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option("--public-url", help="Check that people reach the server there "
                     "(https://games.example.org: GET /api/catalog)."),
    ] = None,
    max_skew: Annotated[
        float, typer.Option("--max-skew", min=0, help="Largest clock difference with the database "
                            "server, in seconds.")
    ] = 2.0,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds each check waits for an answer.")
    ] = 5.0,
    as_json: JsonOption = False,
) -> None:
    """Check a setup, one line per check (OK, PROBLEM with its fix, or SKIPPED with why): the
    database opens and is migrated to the head revision, Redis and the SMTP server answer (when
    given), the public URL serves the catalog (when given), and the database server's clock agrees
    with this machine's (PostgreSQL). The exit status is 1 if any check finds a problem."""
    from ..server.doctor import run_checks

    read: list[Check] = []
    if config is not None:
        read, db, redis, smtp = _with_config(config, db, redis, smtp)
    checks = read + run_checks(db, redis=redis, smtp=smtp, public_url=public_url, max_skew_s=max_skew,
                               timeout_s=timeout)
    healthy = all(check.ok for check in checks)
    if as_json:
        console.print_json(json.dumps({"ok": healthy, "checks": [check.to_json() for check in checks]}))
    else:
        styles = {"ok": "green", "problem": "bold red", "skipped": "yellow"}
        for check in checks:
            console.print(check.line(), style=styles[check.status], markup=False, soft_wrap=True,
                          highlight=False)
    if not healthy:
        raise typer.Exit(1)


def _with_config(config: Path, db: str | None, redis: str | None,
                 smtp: str | None) -> tuple[list[Check], str | None, str | None, str | None]:
    """The ``config`` check (the file reads), and the database, Redis and SMTP server to check: the
    options' (or their variables'), else the file's."""
    from ..server.config import DB_ENV, ENV_PREFIX, REDIS_ENV, ConfigError, read_config
    from ..server.doctor import Check

    try:
        found = read_config(config)
    except ConfigError as error:
        fix = "correct the file: its keys are in docs/operations.md (deploy/ludotheque.toml is an example)"
        return [Check("config", "problem", str(error), fix)], db, redis, smtp
    keys = ", ".join(name.removeprefix(ENV_PREFIX).lower() for name in found) or "no settings"
    env = {**found, **os.environ}
    return ([Check("config", "ok", f"{config} reads: {keys}")], db or env.get(DB_ENV) or None,
            redis or env.get(REDIS_ENV) or None, smtp or env.get("LUDOTHEQUE_SMTP") or None)


def moderator(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The player's name (any case).")],
    revoke: Annotated[bool, typer.Option("--revoke", help="Take the role back.")] = False,
    db: DbOption = None,
) -> None:
    """Grant a player the moderator role (--revoke: take it back): moderators open the moderation
    page (/admin) and its API (docs/moderation.md). The audit log records it. Takes effect within
    seconds on a running server."""
    from ..server.config import database_url
    from ..server.errors import ApiError
    from ..server.moderation import ModerationStore
    from ..server.storage import Storage

    storage = Storage(database_url(db))
    try:
        storage.migrate()
        found = ModerationStore(storage.engine).set_moderator(name, not revoke)
    except ApiError as error:
        fail(error.message, "en", command="moderator")
    finally:
        storage.close()
    console.print(f"{found} is {'no longer ' if revoke else ''}a moderator", markup=False, highlight=False)
