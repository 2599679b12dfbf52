"""The application factory: one process serves the pages, the JSON API and the WebSockets.

>>> app = create_app("sqlite://")
>>> app.title
'Ludothèque'
>>> redact('GET /api/games/x/ws?token=abc&seat=1 HTTP/1.1')
'GET /api/games/x/ws?token=…&seat=1 HTTP/1.1'
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import (
    account_routes,
    analysis_routes,
    chat_routes,
    club_routes,
    friend_routes,
    health,
    lesson_routes,
    logs,
    metrics,
    moderation_routes,
    pages,
    player_routes,
    puzzle_routes,
    routes,
    seek_routes,
    sockets,
    tournament_routes,
)
from .bots import BotPool
from .config import DB_ENV, ServerSettings, database_url
from .errors import install_error_handlers
from .hub import Hub
from .logs import redact
from .moderation import Moderation, ModerationStore
from .moderation_admin import ADMIN_PATH, bind_admin, mount_admin
from .move_route import MoveShortcut
from .openapi import DOCS_PATH, mount_docs
from .people import CREDENTIALS_ENDED, AccountThrottle, People, SigninThrottle
from .storage import Storage
from .throttle import CreationThrottle

GC_THRESHOLDS = (50_000, 20, 100)
# uvicorn logs each request's path with its query ("uvicorn.access"), and each WebSocket's
# ("uvicorn.error"): seat tokens and invite codes travel in queries (?token=, ?invite=).
LOGGERS_WITH_PATHS = ("uvicorn.access", "uvicorn.error")
__all__ = ["SecretRedactor", "app_from_env", "create_app", "install_redactor", "redact"]


# The pages load only this server's scripts, styles, images and sockets (no inline script or
# style, no plugin); no other site may frame them (clickjacking); a link to another site does not
# tell it the page's address (invite links carry their code in the query).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# Swagger UI's CSS (/api/docs) draws its icons as data: images; so does the moderation page's (/admin).
DOCS_POLICY = CONTENT_SECURITY_POLICY.replace("img-src 'self'", "img-src 'self' data:")
# Not "no-referrer": browsers then send "Origin: null" with a page's POSTs, and the server
# checks Origin against cross-site requests (identity.check_cookie_post).
REFERRER_POLICY = "same-origin"


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (an answer that sets one keeps its own)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope["path"].startswith((DOCS_PATH, ADMIN_PATH)) else CONTENT_SECURITY_POLICY
        extra = [(b"content-security-policy", policy.encode()), (b"x-frame-options", b"DENY"),
                 (b"referrer-policy", REFERRER_POLICY.encode()), (b"x-content-type-options", b"nosniff")]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SecretRedactor(logging.Filter):
    """Keeps seat tokens and invite codes out of the logs, whatever started the server."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def install_redactor() -> None:
    """Add the redactor to uvicorn's loggers (once each; logging configuration keeps filters)."""
    for name in LOGGERS_WITH_PATHS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, SecretRedactor) for existing in logger.filters):
            logger.addFilter(SecretRedactor())


def create_app(
    db: str | None = None, *, bot_workers: int | None = None, settings: ServerSettings | None = None,
    log_format: str | None = None,
) -> FastAPI:
    """The server on database ``db`` (``None``: ``$LUDOTHEQUE_DB`` or SQLite in the data folder),
    with ``settings`` (``None``: from ``LUDOTHEQUE_*`` variables, see ``config``), logging in
    ``log_format`` (``text`` or ``json``; ``None``: ``$LUDOTHEQUE_LOG_FORMAT``, else ``text``).

    Migrations are applied, old games expired and unfinished ones resumed when the app starts.
    ``/metrics``, ``/health`` and ``/ready``: docs/observability.md.
    """
    url = database_url(db)
    settings = settings or ServerSettings.from_env()
    install_redactor()
    chosen_format = logs.configure(log_format)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_redactor()  # again: a logging configuration made after create_app may have run
        logs.configure(chosen_format)  # again: uvicorn configures its loggers after create_app
        storage = Storage(url)
        metrics.watch_engine(storage.engine)
        await storage.run(storage.migrate)
        bots = BotPool(bot_workers, settings.bots)
        await bots.prepare()
        hub = Hub(storage, bots, settings)
        app.state.hub = hub
        app.state.throttle = CreationThrottle(settings.create_limit, settings.bot_game_limit)
        app.state.people = People(
            storage, hub.accounts, SigninThrottle(settings.signin_limit, settings.signin_account_limit),
            AccountThrottle(settings.account_limit), announce=hub.announce,
        )
        hub.news_handlers[CREDENTIALS_ENDED] = app.state.people.on_news
        app.state.moderation = Moderation(ModerationStore(storage.engine), app.state.people, hub)
        app.state.moderation.suspended_hooks.append(friend_routes.challenge_ender(hub))
        bind_admin(admin, storage.engine)
        if settings.redis:
            await hub.share(settings.redis)
        await hub.resume()
        sweeper = asyncio.get_running_loop().create_task(hub.sweep_forever())
        # Several workers: each one watches for overdue clocks and bot moves nobody thinks.
        watcher = asyncio.get_running_loop().create_task(hub.watch_forever()) if hub.bus else None
        metrics.started()
        # Several workers sharing their figures: each writes its own every few seconds.
        sampler = (asyncio.get_running_loop().create_task(metrics.sample_forever(app))
                   if metrics.multiprocess() else None)
        # Everything loaded so far (the libraries, the resumed games) lives as long as the
        # process: keep it out of the collector's passes, and make full passes rare. Under
        # load each full pass walks every connection's objects and stalls every game (~0.1 s).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            for task in (sweeper, watcher, sampler):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            await hub.close()
            await storage.close_loop_connections()
            storage.close()

    # The server's figures are Prometheus' (metrics.py); FastAPI's native OpenTelemetry, on
    # by default, would ask OpenTelemetry's global providers on every request (3% of the
    # samples of a move in a profile).
    app = FastAPI(title="Ludothèque", lifespan=lifespan, docs_url=None, redoc_url=None,
                  telemetry={"tracing": False, "metrics": False, "logs": False})
    app.add_middleware(MoveShortcut, router=routes.router, endpoint=routes.post_move)  # innermost
    app.add_middleware(SecurityHeaders)
    app.add_middleware(metrics.Observe)  # outermost: its time and status are the client's
    install_error_handlers(app)
    app.include_router(routes.router)
    app.include_router(account_routes.router)
    app.include_router(player_routes.router)
    app.include_router(seek_routes.router)
    app.include_router(chat_routes.router)
    app.include_router(sockets.router)
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(lesson_routes.router)
    app.include_router(tournament_routes.router)
    app.include_router(analysis_routes.router)
    app.include_router(puzzle_routes.router)
    app.include_router(friend_routes.router)
    app.include_router(club_routes.router)
    app.include_router(moderation_routes.router)
    app.include_router(pages.router)
    mount_docs(app)
    admin = mount_admin(app)
    pages.mount_static(app)
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory ludotheque.server.app:app_from_env`` (reads ``$LUDOTHEQUE_DB``
    and the other ``LUDOTHEQUE_*`` settings)."""
    return create_app(os.environ.get(DB_ENV))
