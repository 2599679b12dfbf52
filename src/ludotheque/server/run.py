"""Run the server with uvicorn (used by ``ludotheque serve`` and ``python -m ludotheque.server``).

The database is checked before uvicorn starts, so that a bad URL or an unreachable PostgreSQL
ends in one clear line (:class:`StartError`) instead of a traceback from the app's startup.

Several workers (``workers > 1``) are uvicorn's worker processes on one listening socket, each a
whole server; they need PostgreSQL (the games, their row locks) and Redis (each change announced
to every worker), checked here too. uvicorn starts a worker again if one dies.

Settings come from a configuration file (``--config``), under the ``LUDOTHEQUE_*`` variables,
under the command line's options (:func:`~.config.layered_settings`). Behind a reverse proxy,
``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed from ``forwarded_allow_ips`` only
(uvicorn's proxy headers): the client's address (rate limits) and https (secure cookies, origin
checks) are then the proxy's word; anybody else's such headers are ignored. On SIGTERM uvicorn
stops accepting, lets the requests under way finish (a move is stored before it is answered) for
at most ``graceful_timeout_s``, closes the WebSockets (1012: clients reconnect), then the app
closes its hub.

>>> prepare_workers(2, None, "sqlite:////tmp/x.db", "en")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ludotheque.server.run.StartError: several workers (--workers 2) need --redis redis://HOST:PORT and a ...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace

import uvicorn

from ..i18n import detect_language
from . import metrics
from .analysis_jobs import AnalysisSettings
from .app import create_app
from .bots import is_ray
from .config import (
    BOTS_ENV,
    DB_ENV,
    ENV_PREFIX,
    REDIS_ENV,
    WS_MAX_BYTES,
    ServerSettings,
    database_url,
    is_sqlite,
    whole_setting,
)
from .logs import LOG_FORMAT_ENV, log_format
from .notify import smtp_settings
from .storage import DatabaseUnavailable, check_database

# How long the start waits for Redis to answer a PING.
REDIS_CHECK_S = 3.0
_WORDS = {
    "workers": {
        "en": "several workers (--workers {n}) need --redis redis://HOST:PORT and a PostgreSQL --db",
        "fr": "plusieurs processus (--workers {n}) demandent --redis redis://HÔTE:PORT et une base "
              "PostgreSQL (--db)",
    },
    "redis_sqlite": {
        "en": "--redis shares games between workers through PostgreSQL: give --db postgresql://…, not SQLite",
        "fr": "--redis partage les parties entre processus par PostgreSQL : donnez --db postgresql://…, "
              "pas SQLite",
    },
    "bots": {
        "en": "--bots takes ray (a local Ray) or ray://HOST:PORT (a cluster), not {value}",
        "fr": "--bots prend ray (un Ray local) ou ray://HÔTE:PORT (une grappe), pas {value}",
    },
    "redis_down": {
        "en": "cannot reach Redis at {url}: {reason}",
        "fr": "Redis ne répond pas à {url} : {reason}",
    },
}


class StartError(Exception):
    """The server cannot start; the message is one line for people."""


DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def listening(env: Mapping[str, str], host: str | None = None, port: int | None = None,
              workers: int | None = None) -> tuple[str, int, int]:
    """Where to listen and how many workers: the options given, else ``LUDOTHEQUE_HOST``,
    ``LUDOTHEQUE_PORT`` and ``LUDOTHEQUE_WORKERS`` of ``env`` (the configuration file's under the
    environment's), else 127.0.0.1, 8000 and 1; raises :class:`StartError`.

    >>> listening({"LUDOTHEQUE_PORT": "8001", "LUDOTHEQUE_WORKERS": "2"}, port=None)
    ('127.0.0.1', 8001, 2)
    >>> listening({"LUDOTHEQUE_PORT": "0"})
    Traceback (most recent call last):
    ...
    ludotheque.server.run.StartError: LUDOTHEQUE_PORT (port) must be a TCP port, 1 to 65535, not 0
    """
    try:
        chosen_port = port if port is not None else whole_setting(env, "LUDOTHEQUE_PORT", DEFAULT_PORT)
        chosen_workers = workers if workers is not None else whole_setting(env, "LUDOTHEQUE_WORKERS", 1)
    except ValueError as error:
        raise StartError(str(error)) from None
    if not 1 <= chosen_port <= 65535:
        raise StartError(f"LUDOTHEQUE_PORT (port) must be a TCP port, 1 to 65535, not {chosen_port}")
    if chosen_workers < 1:
        raise StartError(f"LUDOTHEQUE_WORKERS (workers) must be 1 or more, not {chosen_workers}")
    chosen_host = host or (env.get("LUDOTHEQUE_HOST") or "").strip() or DEFAULT_HOST
    return chosen_host, chosen_port, chosen_workers


def prepare(db: str | None, smtp: str | None = None, *, redis: str | None = None, workers: int = 1,
            bots: str | None = None, forwarded_allow_ips: str | None = None,
            env: Mapping[str, str] | None = None) -> tuple[str, ServerSettings]:
    """The database URL (checked: it opens) and the settings (``smtp``: the SMTP server's URL for
    e-mail notifications, over ``$LUDOTHEQUE_SMTP``; ``redis``: the workers' Redis, over
    ``$LUDOTHEQUE_REDIS``; ``bots``: where bots think; ``forwarded_allow_ips``: the proxies whose
    ``X-Forwarded-*`` headers are believed). ``env``: the ``LUDOTHEQUE_*`` settings (default
    ``os.environ``; :func:`~.config.layered_settings` puts a configuration file's under them).
    Raises :class:`StartError`."""
    env = os.environ if env is None else env
    url = database_url(db or env.get(DB_ENV))
    try:
        settings = ServerSettings.from_env(env)
        log_format(env.get(LOG_FORMAT_ENV))
        AnalysisSettings.from_env(env)  # a bad one stops the start, not the first analysis
    except ValueError as error:
        raise StartError(str(error)) from None
    settings = replace(settings, redis=redis or settings.redis, bots=bots or settings.bots,
                       forwarded_allow_ips=_addresses(forwarded_allow_ips) or settings.forwarded_allow_ips)
    prepare_workers(workers, settings.redis, url, detect_language())
    if settings.bots and settings.bots != "local" and not is_ray(settings.bots):
        words = _WORDS["bots"]
        raise StartError(words.get(detect_language(), words["en"]).format(value=settings.bots[:40]))
    try:
        check_database(url)
        if smtp:
            settings = replace(settings, smtp=smtp)
        if settings.smtp:
            smtp_settings(settings.smtp)
    except (DatabaseUnavailable, ValueError) as error:
        raise StartError(str(error)) from None
    if settings.redis:
        check_redis(settings.redis, detect_language())
    return url, settings


def prepare_workers(workers: int, redis: str | None, url: str, lang: str) -> None:
    """Refuse several workers without Redis, and Redis (shared games) on SQLite."""
    lang = lang if lang in ("fr", "en") else "en"
    if workers > 1 and (not redis or is_sqlite(url)):
        raise StartError(_WORDS["workers"][lang].format(n=workers))
    if redis and is_sqlite(url):
        raise StartError(_WORDS["redis_sqlite"][lang])


def check_redis(url: str, lang: str) -> None:
    """Ping Redis once; raises :class:`StartError` with one line if it does not answer."""
    from redis import Redis
    from redis.exceptions import RedisError

    lang = lang if lang in ("fr", "en") else "en"
    try:
        client = Redis.from_url(url, socket_connect_timeout=REDIS_CHECK_S, socket_timeout=REDIS_CHECK_S)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, ValueError, OSError) as error:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        shown = _without_password(url)
        raise StartError(_WORDS["redis_down"][lang].format(url=shown, reason=reason)) from None


def _addresses(value: str | None) -> str:
    return ",".join(part for part in (value or "").replace(",", " ").split() if part)


def _without_password(url: str) -> str:
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, _credentials = head.partition("://")
    return f"{scheme}://…@{tail}"


def run_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, db: str | None = None,
               smtp: str | None = None, *, redis: str | None = None, workers: int = 1,
               bots: str | None = None, forwarded_allow_ips: str | None = None) -> None:
    """Check the database (and Redis), then serve until interrupted; raises :class:`StartError`."""
    url, settings = prepare(db, smtp, redis=redis, workers=workers, bots=bots,
                            forwarded_allow_ips=forwarded_allow_ips)
    serve_checked(host, port, url, settings, workers=workers)


def serve_checked(host: str, port: int, url: str, settings: ServerSettings, *, workers: int = 1,
                  env: Mapping[str, str] | None = None) -> None:
    """Serve on a database :func:`prepare` checked. The transport reads WebSocket messages up to
    ``WS_MAX_BYTES`` (1 MiB), so that the app itself answers one over 64 KiB with an error;
    beyond that uvicorn closes the connection (1009) without reading on. Idle keep-alive
    connections close after ``keep_alive_s``; a WebSocket that does not answer uvicorn's ping
    within ``ws_ping_timeout_s`` is closed. ``X-Forwarded-For``/``-Proto`` are believed from
    ``forwarded_allow_ips`` only; SIGTERM stops gracefully within ``graceful_timeout_s``.
    ``workers > 1``: uvicorn's worker processes, each building its app from the ``LUDOTHEQUE_*``
    variables set here (``env``: the settings :func:`prepare` read, a configuration file's
    included, which are passed on to them)."""
    options = {
        "host": host,
        "port": port,
        "ws_max_size": WS_MAX_BYTES,
        "ws_ping_interval": settings.ws_ping_interval_s,
        "ws_ping_timeout": settings.ws_ping_timeout_s,
        "timeout_keep_alive": max(1, round(settings.keep_alive_s)),
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        "timeout_graceful_shutdown": max(1, round(settings.graceful_timeout_s)),
        "log_level": "warning",
    }
    env = os.environ if env is None else env
    if log_format(env.get(LOG_FORMAT_ENV)) == "json":
        options["log_config"] = None  # uvicorn's own lines go through the app's JSON logging
    if workers <= 1:
        app = create_app(url, settings=settings, log_format=env.get(LOG_FORMAT_ENV))
        # The analyses' settings of a configuration file too (several workers read them from
        # the environment, where the file's settings are put below).
        app.state.analysis_settings = AnalysisSettings.from_env(env)
        uvicorn.run(app, **options)  # type: ignore[arg-type]
        return
    for name, setting in env.items():  # a configuration file's settings, under the environment's
        if name.startswith(ENV_PREFIX):
            os.environ[name] = setting
    os.environ[DB_ENV] = url
    for variable, value in ((REDIS_ENV, settings.redis), (BOTS_ENV, settings.bots),
                            ("LUDOTHEQUE_SMTP", settings.smtp)):
        if value:
            os.environ[variable] = value
    metrics.prepare_multiprocess()  # the workers share their figures (docs/observability.md)
    uvicorn.run("ludotheque.server.app:app_from_env", factory=True, workers=workers,
                **options)  # type: ignore[arg-type]
