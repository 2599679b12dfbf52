"""``ludotheque serve [--host 127.0.0.1] [--port 8000] [--db URL] [--smtp URL] [--redis URL]
[--workers N] [--bots ray|ray://HOST:PORT]``: the web server.

One process serves the pages, the JSON API and a WebSocket per game. Without ``--db`` the
database is ``$LUDOTHEQUE_DB`` or SQLite in the user's data folder (``$XDG_DATA_HOME``).
``--workers N --redis redis://… --db postgresql://…``: N server processes on one port, sharing
the games through PostgreSQL and announcing each change to each other through Redis
(docs/distributed.md).

>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> _ = app.command()(serve)
>>> "--port" in CliRunner().invoke(app, ["--help"]).output
True
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .common import fail


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///path or postgresql://user:password@host/db "
            "(default: $LUDOTHEQUE_DB, else SQLite in the user's data folder).",
        ),
    ] = None,
    smtp: Annotated[
        str | None,
        typer.Option(
            "--smtp",
            help="SMTP server for e-mail notifications of correspondence games: "
            "smtp://user:password@host:587?from=games@example.org&starttls=1 (default: $LUDOTHEQUE_SMTP; "
            "none: no e-mail).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option("--redis", help="Redis shared by several workers, redis://host:6379/0 (needs a "
                     "PostgreSQL --db; default: $LUDOTHEQUE_REDIS; none: one process)."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Server processes on this port (more than one: --redis).")
    ] = 1,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Where bots think: ray (a local Ray) or ray://host:port (a cluster); "
                     "default: $LUDOTHEQUE_BOTS, else local processes."),
    ] = None,
) -> None:
    """Serve the lobby, the game pages, the JSON API and the WebSockets until interrupted.

    The database is opened first: a bad URL or an unreachable server ends here, in one line.
    Limits and timeouts come from LUDOTHEQUE_* variables (docs/API.md, "Limits and settings").
    """
    from ..server.run import StartError, prepare, serve_checked  # uvicorn and FastAPI load only here

    try:
        url, settings = prepare(db, smtp, redis=redis, workers=workers, bots=bots)
    except StartError as error:
        fail(str(error), "en", command="serve")  # the server speaks English
    shared = f", {workers} workers, Redis" if settings.redis else ""
    print(f"Ludothèque: http://{host}:{port}/  (database: {_without_password(url)}{shared})", file=sys.stderr)
    serve_checked(host, port, url, settings, workers=workers)


def _without_password(url: str) -> str:
    """The URL to show people: never echo a password to the terminal."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
