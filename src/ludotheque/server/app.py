"""The application factory: one process serves the pages, the JSON API and the WebSockets.

>>> app = create_app("sqlite://")
>>> app.title
'Ludothèque'
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from . import pages, routes, sockets
from .bots import BotPool
from .config import DB_ENV, database_url
from .errors import install_error_handlers
from .hub import Hub
from .storage import Storage

GC_THRESHOLDS = (50_000, 20, 100)


def create_app(db: str | None = None, *, bot_workers: int | None = None) -> FastAPI:
    """The server on database ``db`` (``None``: ``$LUDOTHEQUE_DB`` or SQLite in the data folder).

    Migrations are applied and every unfinished game resumed when the app starts.
    """
    url = database_url(db)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(url)
        await storage.run(storage.migrate)
        hub = Hub(storage, BotPool(bot_workers))
        app.state.hub = hub
        await hub.resume()
        # Everything loaded so far (the libraries, the resumed games) lives as long as the
        # process: keep it out of the collector's passes, and make full passes rare. Under
        # load each full pass walks every connection's objects and stalls every game (~0.1 s).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await hub.close()
            storage.close()

    app = FastAPI(title="Ludothèque", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    install_error_handlers(app)
    app.include_router(routes.router)
    app.include_router(sockets.router)
    app.include_router(pages.router)
    pages.mount_static(app)
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory ludotheque.server.app:app_from_env`` (reads ``$LUDOTHEQUE_DB``)."""
    return create_app(os.environ.get(DB_ENV))
