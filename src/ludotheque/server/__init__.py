"""The web server: JSON HTTP API, one WebSocket per game, persistence, clocks and bots.

Transport only: every rule lives in ``ludotheque.engines``; every message to a client is built
from ``view(player)`` or ``view(None)``.

>>> from ludotheque.server.config import database_url
>>> database_url("postgresql://u:p@db/ludo")
'postgresql+psycopg://u:p@db/ludo'
"""

from .app import create_app

__all__ = ["create_app"]
