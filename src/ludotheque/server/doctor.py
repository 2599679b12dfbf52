"""``ludotheque doctor``: check a setup, one :class:`Check` per part, each OK, a problem (with the
fix in words) or skipped (with why); the command prints them, this module only looks.

The checks: the database opens and is migrated to the head revision (Alembic); Redis answers a
PING (``redis``); the SMTP server greets, and takes the login when the URL has one (``smtp``; no
mail is sent); the public URL answers ``GET /api/catalog`` with the catalog (``public_url``); the
database server's clock agrees with this machine's (PostgreSQL; SQLite has no clock of its own).

>>> Check("redis", "ok", "answers at redis://127.0.0.1:6379/0").line()
'OK       redis       answers at redis://127.0.0.1:6379/0'
>>> print(Check("smtp", "problem", "no answer", "start it").line())
PROBLEM  smtp        no answer
                     fix: start it
"""

from __future__ import annotations

import json
import smtplib
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from .config import database_url
from .migrate import alembic_config
from .notify import smtp_settings

Status = Literal["ok", "problem", "skipped"]
TIMEOUT_S = 5.0
MAX_SKEW_S = 2.0
URL_FORMS = "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB"
LABELS = {"ok": "OK", "problem": "PROBLEM", "skipped": "SKIPPED"}


@dataclass(frozen=True)
class Check:
    """One check's outcome: ``fix`` says in words what to do about a problem."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.status != "problem"

    def line(self) -> str:
        """The check in one line (a problem's fix on a second, indented)."""
        head = f"{LABELS[self.status]:<8} {self.name:<11} {self.detail}"
        return f"{head}\n{'':<21}fix: {self.fix}" if self.fix else head

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "fix": self.fix}


def _first_line(error: BaseException) -> str:
    reason = str(getattr(error, "orig", None) or error)
    return (reason.strip().splitlines() or [type(error).__name__])[0]


def _shown(url: URL) -> str:
    return url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)


def _hide(url: str) -> str:
    """A Redis or SMTP URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, _credentials = head.partition("://")
    return f"{scheme}://…@{tail}"


# -- the database -----------------------------------------------------------------------------------
def open_database(db: str | None, timeout_s: float = TIMEOUT_S) -> tuple[Engine | None, Check]:
    """An engine on ``db`` (``None``: the server's default) and the check that it opens; the
    engine is ``None`` when it does not. A SQLite file is never created here."""
    full = database_url(db)
    try:
        url = make_url(full)
        backend = url.get_backend_name()
    except ArgumentError:
        return None, Check("database", "problem", f"not a database URL {full[:40]!r}",
                           f"give --db {URL_FORMS}")
    if backend == "sqlite":
        path = Path(url.database or "")
        if not url.database or url.database == ":memory:":
            return None, Check("database", "problem", "an in-memory SQLite database is nobody's database",
                               f"give --db {URL_FORMS}")
        if not url.database.startswith("file:") and not path.is_file():
            return None, Check("database", "problem", f"no SQLite database at {path}",
                               "check --db (default: $LUDOTHEQUE_DB, else the user's data folder); "
                               "ludotheque serve creates the database at its first start")
        engine = create_engine(url, connect_args={"timeout": timeout_s})
    elif backend == "postgresql":
        engine = create_engine(url, connect_args={"connect_timeout": max(1, round(timeout_s))})
    else:
        return None, Check("database", "problem", f"unknown kind of database {full.split(':', 1)[0]!r}",
                           f"give --db {URL_FORMS}")
    try:
        with engine.connect() as connection:
            version = connection.execute(text(
                "SELECT sqlite_version()" if backend == "sqlite" else "SHOW server_version")).scalar()
    except (DBAPIError, NoSuchModuleError) as error:
        engine.dispose()
        fix = ("check that PostgreSQL runs and accepts this user and password from this machine "
               "(pg_hba.conf), and that the database exists" if backend == "postgresql"
               else "check the file's permissions and that it is a SQLite database")
        return None, Check("database", "problem", f"cannot open {_shown(url)}: {_first_line(error)}", fix)
    kind = "SQLite" if backend == "sqlite" else "PostgreSQL"
    return engine, Check("database", "ok", f"{kind} {version} at {_shown(url)}")


def check_migrations(engine: Engine | None) -> Check:
    """The database's Alembic revision against this version's head."""
    if engine is None:
        return Check("migrations", "skipped", "the database cannot be opened")
    heads = set(ScriptDirectory.from_config(alembic_config()).get_heads())
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    try:
        with engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
    except DBAPIError as error:
        return Check("migrations", "problem", f"cannot read the schema's revision: {_first_line(error)}",
                     "check the database user's rights on the alembic_version table")
    head = ", ".join(sorted(heads))
    if current == heads:
        return Check("migrations", "ok", f"at the head revision {head}")
    if not current:
        return Check("migrations", "problem", "the database has no Ludothèque tables yet",
                     "start ludotheque serve once on it: it creates and migrates the tables at start")
    unknown = current - known
    if unknown:
        return Check("migrations", "problem",
                     f"at revision {', '.join(sorted(unknown))}, which this version of Ludothèque does not "
                     f"know (its head is {head})",
                     "upgrade Ludothèque to the version that wrote this database, or restore a backup")
    return Check("migrations", "problem", f"at revision {', '.join(sorted(current))}, the head is {head}",
                 "start ludotheque serve once (it migrates at start; take a backup first: ludotheque backup)")


def check_clock(engine: Engine | None, max_skew_s: float = MAX_SKEW_S,
                clock: Callable[[], float] = time.time) -> Check:
    """The database server's clock against this machine's (``clock``), half a round trip aside."""
    if engine is None:
        return Check("clock", "skipped", "the database cannot be opened")
    if engine.dialect.name == "sqlite":
        return Check("clock", "skipped", "SQLite runs on this machine: it has no clock of its own to compare")
    try:
        with engine.connect() as connection:
            before = clock()
            query = text("SELECT extract(epoch FROM clock_timestamp())")
            theirs = float(connection.execute(query).scalar_one())
            after = clock()
    except DBAPIError as error:
        return Check("clock", "problem", f"cannot read the database's clock: {_first_line(error)}",
                     "check the database connection")
    skew = theirs - (before + after) / 2
    side = "ahead of" if skew > 0 else "behind"
    detail = (f"the database's clock is {abs(skew):.3f} s {side} this machine's "
              f"(round trip {1000 * (after - before):.0f} ms)")
    if abs(skew) > max_skew_s:
        return Check("clock", "problem", f"{detail}, over {max_skew_s:g} s",
                     "synchronise both machines' clocks with NTP (systemd-timesyncd or chrony): "
                     "clocks of games and deadlines count from them")
    return Check("clock", "ok", detail)


# -- other parts ------------------------------------------------------------------------------------
def check_redis(url: str, timeout_s: float = TIMEOUT_S) -> Check:
    """Redis answers a PING at ``url``."""
    try:
        from redis import Redis
        from redis.exceptions import RedisError
    except ImportError:
        return Check("redis", "problem", "the redis package is not installed",
                     "pip install 'ludotheque[distributed]'")
    try:
        client = Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
        try:
            client.ping()
            version = client.info("server").get("redis_version", "?")
        finally:
            client.close()
    except (RedisError, ValueError, OSError) as error:
        return Check("redis", "problem", f"no answer at {_hide(url)}: {_first_line(error)}",
                     "start Redis (systemctl start redis-server), or correct --redis redis://HOST:PORT/DB")
    return Check("redis", "ok", f"Redis {version} answers at {_hide(url)}")


def check_smtp(url: str, timeout_s: float = TIMEOUT_S) -> Check:
    """The SMTP server greets (EHLO), starts TLS if asked and takes the login if any; sends nothing."""
    try:
        settings = smtp_settings(url)
    except ValueError as error:
        return Check("smtp", "problem", str(error),
                     "give --smtp smtp://USER:PASSWORD@HOST:587?from=ADDRESS&starttls=1")
    where = f"{settings.host}:{settings.port}"
    client_class = smtplib.SMTP_SSL if settings.tls == "tls" else smtplib.SMTP
    try:
        with client_class(settings.host, settings.port, timeout=timeout_s) as client:
            client.ehlo()
            if settings.tls == "starttls":
                client.starttls()
                client.ehlo()
            if settings.user:
                client.login(settings.user, settings.password or "")
    except smtplib.SMTPAuthenticationError as error:
        return Check("smtp", "problem", f"{where} refuses the login of {settings.user!r}: {error.smtp_code}",
                     "correct the user and password in the SMTP URL")
    except (OSError, smtplib.SMTPException) as error:
        reason = _first_line(error) or type(error).__name__
        return Check("smtp", "problem", f"no SMTP answer at {where}: {reason}",
                     "start the mail server or correct the host and port of --smtp")
    login = f", login as {settings.user!r} accepted" if settings.user else ""
    return Check("smtp", "ok", f"{where} answers ({settings.tls} TLS{login})")


def check_public_url(url: str, timeout_s: float = TIMEOUT_S) -> Check:
    """``GET <url>/api/catalog`` answers 200 with the catalog of games."""
    address = url.rstrip("/") + "/api/catalog"
    if not address.startswith(("http://", "https://")):
        return Check("public-url", "problem", f"not an http(s) URL: {url[:60]!r}",
                     "give --public-url https://games.example.org")
    fix = ("check that ludotheque serve runs and that the proxy (nginx) forwards / to it "
           "(deploy/nginx.conf)")
    try:
        with urllib.request.urlopen(address, timeout=timeout_s) as answer:
            body = json.loads(answer.read(1_000_000))
    except urllib.error.HTTPError as error:
        return Check("public-url", "problem", f"GET {address} answers {error.code} {error.reason}", fix)
    except OSError as error:  # URLError, timeouts, refused connections
        reason = getattr(error, "reason", error)
        return Check("public-url", "problem", f"GET {address} fails: {reason}", fix)
    except ValueError:
        return Check("public-url", "problem", f"GET {address} answers something else than JSON", fix)
    if not isinstance(body, (dict, list)) or not body:
        return Check("public-url", "problem", f"GET {address} answers no catalog of games", fix)
    return Check("public-url", "ok", f"GET {address} answers the catalog")


def run_checks(db: str | None = None, *, redis: str | None = None, smtp: str | None = None,
               public_url: str | None = None, max_skew_s: float = MAX_SKEW_S, timeout_s: float = TIMEOUT_S,
               clock: Callable[[], float] = time.time) -> list[Check]:
    """Every check of a setup, in order; those of parts not given are left out."""
    engine, opened = open_database(db, timeout_s)
    try:
        checks = [opened, check_migrations(engine)]
        if redis:
            checks.append(check_redis(redis, timeout_s))
        if smtp:
            checks.append(check_smtp(smtp, timeout_s))
        if public_url:
            checks.append(check_public_url(public_url, timeout_s))
        checks.append(check_clock(engine, max_skew_s, clock))
    finally:
        if engine is not None:
            engine.dispose()
    return checks
