"""Dropping the tests' own PostgreSQL databases."""

from __future__ import annotations

import time

from sqlalchemy import Engine, text
from sqlalchemy.exc import ProgrammingError

# How long a drop waits for an autovacuum worker of the database to end.
AUTOVACUUM_WAIT_S = 10.0


def drop_database(admin: Engine, name: str) -> None:
    """``DROP DATABASE … WITH (FORCE)``, which ends the database's connections. It may not end an
    autovacuum worker busy on that database ("must be a member of the role whose process is
    being terminated", seen after a test that wrote a lot): such a worker ends soon, so the drop
    is tried again until it has."""
    deadline = time.monotonic() + AUTOVACUUM_WAIT_S
    while True:
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except ProgrammingError as error:
            if "pg_signal_backend" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)
