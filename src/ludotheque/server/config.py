"""Where the server keeps its data, and the limits it enforces.

The default database is SQLite in the user's data folder (``$XDG_DATA_HOME/ludotheque``), unless
``$LUDOTHEQUE_DB`` names another; PostgreSQL URLs get the psycopg 3 driver.

>>> database_url("sqlite:////tmp/x.db")
'sqlite:////tmp/x.db'
>>> database_url("postgres://h/db")
'postgresql+psycopg://h/db'
"""

from __future__ import annotations

import os
from pathlib import Path

DB_ENV = "LUDOTHEQUE_DB"
# DESIGN.md: a request body (or WebSocket message) over 64 KiB is refused.
MAX_BODY_BYTES = 64 * 1024
# The largest WebSocket message the transport reads: well above MAX_BODY_BYTES, so that the app
# sees an oversized message and answers it with an error instead of the transport closing.
WS_MAX_BYTES = 1024 * 1024
# A client that cannot take a document within this delay is dropped rather than slowing a room.
SEND_TIMEOUT_S = 5.0
BOT_LEVELS = ("random", "easy", "medium", "hard")


def data_dir() -> Path:
    """The user's data folder for Ludothèque (XDG base directory specification)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludotheque"


def default_database_url() -> str:
    """``$LUDOTHEQUE_DB`` when set, otherwise SQLite in :func:`data_dir`."""
    override = os.environ.get(DB_ENV)
    if override:
        return database_url(override)
    return f"sqlite:///{data_dir() / 'ludotheque.db'}"


def database_url(url: str | None) -> str:
    """``url`` with the driver SQLAlchemy needs (``None``: the default database)."""
    if not url:
        return default_database_url()
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")
