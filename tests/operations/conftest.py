"""Fixtures of the operations tests (``ludotheque backup``, ``restore`` and ``doctor``), on real
parts only: SQLite files, new PostgreSQL databases made through ``$LUDOTHEQUE_TEST_POSTGRES`` (its
role may CREATE DATABASE), real servers (``tests.support.server``), Redis (``tests.distributed``).

Until ``cli/main.py`` registers the three commands, they run through :func:`invoke`'s own Typer
app, built like the real one (same command class, same one-line errors).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import typer
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner, Result

from ludotheque.cli.common import RegistryCommand, RegistryGroup
from ludotheque.cli.operate import backup, doctor, restore
from ludotheque.server.config import database_url
from tests.distributed.conftest import redis_server  # noqa: F401 (a fixture of these tests too)
from tests.support.postgres import drop_database

POSTGRES_ENV = "LUDOTHEQUE_TEST_POSTGRES"
# Settings a developer's shell may hold that would change what the commands check.
CLEAN_ENV: dict[str, str | None] = {"LUDOTHEQUE_DB": None, "LUDOTHEQUE_REDIS": None, "LUDOTHEQUE_SMTP": None}

operations = typer.Typer(cls=RegistryGroup, no_args_is_help=True, add_completion=False,
                         pretty_exceptions_enable=False)
for command in (backup, restore, doctor):
    operations.command(cls=RegistryCommand)(command)


def invoke(*args: str) -> Result:
    """``ludotheque <args>`` for the three commands (stdout and stderr together in ``output``)."""
    return CliRunner().invoke(operations, list(args), env=CLEAN_ENV)


NewDatabase = Callable[[], str]


def postgres_url() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
    return url


@pytest.fixture
def new_postgres() -> Iterator[NewDatabase]:
    """Make new, empty PostgreSQL databases (each dropped after the test); returns their URLs."""
    url = postgres_url()
    admin = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def new() -> str:
        name = f"ludotheque_ops_{secrets.token_hex(4)}"
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        made.append(name)
        return make_url(url).set(database=name).render_as_string(hide_password=False)

    try:
        yield new
    finally:
        for name in made:
            drop_database(admin, name)
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> NewDatabase:
    """Make new databases of one kind (SQLite files that do not exist yet, or new PostgreSQL
    databases); the test runs once with each kind."""
    if request.param == "postgresql":
        maker: NewDatabase = request.getfixturevalue("new_postgres")
        return maker
    count = iter(range(1_000))
    return lambda: f"sqlite:///{tmp_path / f'ludotheque-{next(count)}.db'}"
