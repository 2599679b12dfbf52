"""``ludotheque doctor``: each check passing and failing against real parts (SQLite files, a new
PostgreSQL database, a real Redis started and stopped by its pid, aiosmtpd for SMTP, a real
server for the public URL); one line per check, exit status 1 on a problem, ``--json``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import create_engine, text

from ludotheque.server.config import database_url
from ludotheque.server.doctor import (
    check_clock,
    check_migrations,
    check_public_url,
    check_redis,
    check_smtp,
    open_database,
    run_checks,
)
from ludotheque.server.migrate import upgrade
from tests.distributed.parts import RedisServer
from tests.support.server import ServerProcess, free_port

from .conftest import NewDatabase, invoke


def migrated(url: str, revision: str = "head") -> str:
    engine = create_engine(database_url(url))
    upgrade(engine, revision)
    engine.dispose()
    return url


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return migrated(f"sqlite:///{tmp_path / 'ludotheque.db'}")


class Sink:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


@pytest.fixture
def smtp_url() -> Iterator[str]:
    port = free_port()
    controller = Controller(Sink(), hostname="127.0.0.1", port=port)
    controller.start()
    yield f"smtp://127.0.0.1:{port}?from=games@ludotheque.test"
    controller.stop()


def test_the_database_check(new_database: NewDatabase, tmp_path: Path) -> None:
    url = migrated(new_database())
    engine, check = open_database(url)
    assert engine is not None and check.status == "ok", check
    assert ("SQLite" in check.detail or "PostgreSQL" in check.detail) and ":ludotheque@" not in check.detail
    engine.dispose()
    missing = tmp_path / "nowhere.db"
    engine, check = open_database(f"sqlite:///{missing}")
    assert engine is None and check.status == "problem" and "no SQLite database" in check.detail
    assert not missing.exists() and "ludotheque serve" in check.fix
    engine, check = open_database("mysql://u@h/db")
    assert engine is None and "unknown kind of database 'mysql'" in check.detail


def test_an_unreachable_postgresql_is_a_problem(new_postgres: NewDatabase) -> None:
    url = new_postgres()
    engine, check = open_database(url.replace("ludotheque:ludotheque@", "ludotheque:wrong@"))
    assert engine is None and check.status == "problem", check
    assert "wrong" not in check.detail and "pg_hba.conf" in check.fix
    closed = f"postgresql://ludotheque:ludotheque@127.0.0.1:{free_port()}/ludotheque"
    engine, check = open_database(closed, timeout_s=2)
    assert engine is None and check.status == "problem" and "cannot open" in check.detail


def test_the_migrations_check(new_database: NewDatabase) -> None:
    url = migrated(new_database())
    engine, _ = open_database(url)
    assert engine is not None
    assert check_migrations(engine).status == "ok"
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    unknown = check_migrations(engine)
    assert unknown.status == "problem" and "does not know" in unknown.detail, unknown
    engine.dispose()
    old = migrated(new_database(), "0004")
    engine, _ = open_database(old)
    assert engine is not None
    behind = check_migrations(engine)
    assert behind.status == "problem" and "at revision 0004, the head is" in behind.detail
    assert "ludotheque serve" in behind.fix
    engine.dispose()
    assert check_migrations(None).status == "skipped"


def test_an_empty_database_has_no_tables_yet(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    import sqlite3
    sqlite3.connect(path).close()
    engine, opened = open_database(f"sqlite:///{path}")
    assert engine is not None and opened.status == "ok"
    check = check_migrations(engine)
    assert check.status == "problem" and "no Ludothèque tables" in check.detail
    engine.dispose()


def test_the_clock_check(new_postgres: NewDatabase, sqlite_db: str) -> None:
    engine, _ = open_database(migrated(new_postgres()))
    assert engine is not None
    fine = check_clock(engine)
    assert fine.status == "ok" and "round trip" in fine.detail, fine
    # This machine two minutes ahead of the database server.
    ahead = check_clock(engine, 2.0, clock=lambda: time.time() + 120)
    assert ahead.status == "problem" and "behind this machine's" in ahead.detail, ahead
    assert "NTP" in ahead.fix
    engine.dispose()
    engine, _ = open_database(sqlite_db)
    assert engine is not None
    skipped = check_clock(engine)
    assert skipped.status == "skipped" and "SQLite" in skipped.detail
    engine.dispose()


def test_the_redis_check(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path).start()
    try:
        check = check_redis(redis.url)
        assert check.status == "ok" and "answers" in check.detail, check
    finally:
        redis.stop()
    down = check_redis(redis.url, timeout_s=2)
    assert down.status == "problem" and f":{redis.port}" in down.detail and "start Redis" in down.fix


def test_the_smtp_check(smtp_url: str) -> None:
    check = check_smtp(smtp_url)
    assert check.status == "ok", check
    nobody = check_smtp(f"smtp://127.0.0.1:{free_port()}", timeout_s=2)
    assert nobody.status == "problem" and "no SMTP answer" in nobody.detail
    # aiosmtpd offers no login: a URL with a user and password is refused.
    login = check_smtp(smtp_url.replace("smtp://", "smtp://ada:secret@"), timeout_s=2)
    assert login.status == "problem" and "secret" not in login.detail, login
    bad = check_smtp("http://mail.example")
    assert bad.status == "problem" and "smtp://" in bad.detail


def test_the_public_url_check(sqlite_db: str) -> None:
    with ServerProcess(sqlite_db) as server:
        check = check_public_url(server.url + "/")
        assert check.status == "ok", check
        missing = check_public_url(server.url + "/not/here")
        assert missing.status == "problem" and "404" in missing.detail
    down = check_public_url(f"http://127.0.0.1:{free_port()}", timeout_s=2)
    assert down.status == "problem" and "fails" in down.detail and "nginx" in down.fix
    assert check_public_url("ftp://x").status == "problem"


def test_the_command_prints_one_line_per_check_and_fails_on_a_problem(
        sqlite_db: str, smtp_url: str, tmp_path: Path, redis_server: RedisServer) -> None:
    with ServerProcess(sqlite_db) as server:
        answer = invoke("doctor", "--db", sqlite_db, "--redis", redis_server.url, "--smtp", smtp_url,
                        "--public-url", server.url)
        assert answer.exit_code == 0, answer.output
        lines = answer.output.strip().splitlines()
        assert [line.split()[:2] for line in lines] == [
            ["OK", "database"], ["OK", "migrations"], ["OK", "redis"], ["OK", "smtp"], ["OK", "public-url"],
            ["SKIPPED", "clock"]]
        as_json = json.loads(invoke("doctor", "--db", sqlite_db, "--json").output)
        assert as_json["ok"] is True and [c["name"] for c in as_json["checks"]] == [
            "database", "migrations", "clock"]
    missing = invoke("doctor", "--db", f"sqlite:///{tmp_path / 'nowhere.db'}", "--smtp",
                     f"smtp://127.0.0.1:{free_port()}", "--timeout", "2")
    assert missing.exit_code == 1
    assert "PROBLEM  database" in missing.output and "fix: " in missing.output
    assert "PROBLEM  smtp" in missing.output and "SKIPPED  migrations" in missing.output
    report = json.loads(invoke("doctor", "--db", f"sqlite:///{tmp_path / 'nowhere.db'}", "--json").output)
    assert report["ok"] is False and report["checks"][0]["status"] == "problem" and report["checks"][0]["fix"]


def test_every_check_together(new_postgres: NewDatabase) -> None:
    checks = run_checks(migrated(new_postgres()), max_skew_s=5)
    assert [(c.name, c.status) for c in checks] == [("database", "ok"), ("migrations", "ok"), ("clock", "ok")]


def test_the_real_command_runs_doctor(sqlite_db: str) -> None:
    from .test_backup import registered

    assert registered("doctor")
    done = subprocess.run([sys.executable, "-m", "ludotheque", "doctor", "--db", sqlite_db],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "OK       database" in done.stdout, done.stdout + done.stderr
    done = subprocess.run([sys.executable, "-m", "ludotheque", "doctor", "--db", "sqlite:///nowhere/x.db"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "PROBLEM  database" in done.stdout
