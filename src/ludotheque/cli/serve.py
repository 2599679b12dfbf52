"""``ludotheque serve [--config FILE] [--host 127.0.0.1] [--port 8000] [--db URL] [--smtp URL]
[--redis URL] [--workers N] [--bots ray|ray://HOST:PORT] [--forwarded-allow-ips 127.0.0.1]``: the
web server.

One process serves the pages, the JSON API and a WebSocket per game. Without ``--db`` the
database is ``$LUDOTHEQUE_DB`` or SQLite in the user's data folder (``$XDG_DATA_HOME``).
``--workers N --redis redis://… --db postgresql://…``: N server processes on one port, sharing
the games through PostgreSQL and announcing each change to each other through Redis
(docs/distributed.md).

Every option, and every ``LUDOTHEQUE_*`` setting, may come from a TOML file (``--config``, keys
in docs/operations.md): the file's value gives way to the environment's variable, which gives way
to the command line's option. Behind a reverse proxy (deploy/nginx.conf), ``--forwarded-allow-ips``
names the proxy whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed.

>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> _ = app.command()(serve)
>>> "--port" in CliRunner().invoke(app, ["--help"]).output
True
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import fail

ConfigOption = Annotated[
    Path | None,
    typer.Option("--config", metavar="FILE", help="A TOML file of settings (docs/operations.md; "
                 "deploy/ludotheque.toml): every option below and every LUDOTHEQUE_* setting, by "
                 "its name in lower case (port = 8000, create_limit = \"60/minute\"). LUDOTHEQUE_* "
                 "variables win over the file, options over both."),
]


def serve(
    config: ConfigOption = None,
    host: Annotated[
        str | None, typer.Option("--host", help="Address to listen on (default: $LUDOTHEQUE_HOST, else "
                                 "127.0.0.1).", show_default=False)
    ] = None,
    port: Annotated[
        int | None, typer.Option("--port", min=1, max=65535, help="TCP port (default: $LUDOTHEQUE_PORT, "
                                 "else 8000).", show_default=False)
    ] = None,
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
        int | None,
        typer.Option("--workers", min=1, help="Server processes on this port (more than one: --redis; "
                     "default: $LUDOTHEQUE_WORKERS, else 1).", show_default=False),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="Where bots think: ray (a local Ray) or ray://host:port (a cluster); "
                     "default: $LUDOTHEQUE_BOTS, else local processes."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option("--forwarded-allow-ips", metavar="ADDRESSES",
                     help="The reverse proxies whose X-Forwarded-For (the client's address) and "
                     "X-Forwarded-Proto (https) are believed, comma-separated addresses or networks "
                     "(default: $LUDOTHEQUE_FORWARDED_ALLOW_IPS, else 127.0.0.1). Anybody else's such "
                     "headers are ignored.", show_default=False),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option("--log-format", metavar="FORMAT",
                     help="Log lines: text, or json (one JSON object per line, with each request's id; "
                     "default: $LUDOTHEQUE_LOG_FORMAT, else text; docs/observability.md).",
                     show_default=False),
    ] = None,
) -> None:
    """Serve the lobby, the game pages, the JSON API and the WebSockets until interrupted.

    The database is opened first: a bad URL or an unreachable server ends here, in one line.
    Limits and timeouts come from LUDOTHEQUE_* variables (docs/API.md, "Limits and settings") or
    the --config file. SIGTERM stops gracefully: no new connection, the requests under way
    finish (a move is stored before it is answered), the WebSockets close (clients reconnect).
    """
    # uvicorn and FastAPI load only here
    from ..server.config import ConfigError, layered_settings
    from ..server.run import StartError, listening, prepare, serve_checked

    try:
        env = layered_settings(config)
        if log_format:  # the option wins over the file and the environment, as every option does
            env = {**env, "LUDOTHEQUE_LOG_FORMAT": log_format}
        host, port, workers = listening(env, host, port, workers)
        url, settings = prepare(db, smtp, redis=redis, workers=workers, bots=bots,
                                forwarded_allow_ips=forwarded_allow_ips, env=env)
    except (ConfigError, StartError) as error:
        fail(str(error), "en", command="serve")  # the server speaks English
    shared = f", {workers} workers, Redis" if settings.redis else ""
    print(f"Ludothèque: http://{host}:{port}/  (database: {_without_password(url)}{shared})", file=sys.stderr)
    serve_checked(host, port, url, settings, workers=workers, env=env)


def _without_password(url: str) -> str:
    """The URL to show people: never echo a password to the terminal."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
