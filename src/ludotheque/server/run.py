"""Run the server with uvicorn (used by ``ludotheque serve`` and ``python -m ludotheque.server``).

The database is checked before uvicorn starts, so that a bad URL or an unreachable PostgreSQL
ends in one clear line (:class:`StartError`) instead of a traceback from the app's startup.
"""

from __future__ import annotations

from dataclasses import replace

import uvicorn

from .app import create_app
from .config import WS_MAX_BYTES, ServerSettings, database_url
from .notify import smtp_settings
from .storage import DatabaseUnavailable, check_database


class StartError(Exception):
    """The server cannot start; the message is one line for people."""


def prepare(db: str | None, smtp: str | None = None) -> tuple[str, ServerSettings]:
    """The database URL (checked: it opens) and the settings (``smtp``: the SMTP server's URL for
    e-mail notifications, over ``$LUDOTHEQUE_SMTP``); raises :class:`StartError`."""
    url = database_url(db)
    try:
        check_database(url)
        settings = ServerSettings.from_env()
        if smtp:
            settings = replace(settings, smtp=smtp)
        if settings.smtp:
            smtp_settings(settings.smtp)
    except (DatabaseUnavailable, ValueError) as error:
        raise StartError(str(error)) from None
    return url, settings


def run_server(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, smtp: str | None = None
               ) -> None:
    """Check the database, then serve until interrupted; raises :class:`StartError`."""
    url, settings = prepare(db, smtp)
    serve_checked(host, port, url, settings)


def serve_checked(host: str, port: int, url: str, settings: ServerSettings) -> None:
    """Serve on a database :func:`prepare` checked. The transport reads WebSocket messages up to
    ``WS_MAX_BYTES`` (1 MiB), so that the app itself answers one over 64 KiB with an error;
    beyond that uvicorn closes the connection (1009) without reading on. Idle keep-alive
    connections close after ``keep_alive_s``; a WebSocket that does not answer uvicorn's ping
    within ``ws_ping_timeout_s`` is closed."""
    uvicorn.run(
        create_app(url, settings=settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=settings.ws_ping_interval_s,
        ws_ping_timeout=settings.ws_ping_timeout_s,
        timeout_keep_alive=max(1, round(settings.keep_alive_s)),
        log_level="warning",
    )
