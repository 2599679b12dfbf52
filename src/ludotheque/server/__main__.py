"""``python -m ludotheque.server [--host H] [--port P] [--db URL] [--smtp URL] [--redis URL]
[--workers N] [--bots ray|ray://HOST:PORT]``: the server, without the CLI."""

from __future__ import annotations

import argparse
import sys

from .run import StartError, run_server

parser = argparse.ArgumentParser(prog="python -m ludotheque.server")
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=8000)
parser.add_argument("--db", default=None)
parser.add_argument("--smtp", default=None, help="SMTP server for e-mail notifications: "
                    "smtp://[user:password@]host[:port][?from=address&starttls=1] (or smtps://)")
parser.add_argument("--redis", default=None, help="Redis shared by several workers (PostgreSQL only)")
parser.add_argument("--workers", type=int, default=1, help="server processes (more than one: --redis)")
parser.add_argument("--bots", default=None, help="where bots think: ray or ray://HOST:PORT "
                    "(default: local processes)")
arguments = parser.parse_args()
try:
    run_server(arguments.host, arguments.port, arguments.db, arguments.smtp, redis=arguments.redis,
               workers=arguments.workers, bots=arguments.bots)
except StartError as error:
    print(f"python -m ludotheque.server: {error}", file=sys.stderr)
    sys.exit(1)
