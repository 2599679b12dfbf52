"""Prometheus metrics (``GET /metrics``, text format, every name ``ludotheque_``), and the ASGI
middleware that measures each request, gives it its id and logs it (``logs``).

Every figure carries a ``worker`` label: the process id of the server process that measured it.
With several workers (``ludotheque serve --workers N``: uvicorn's worker processes on one port)
a scrape reaches one of them at random, so the workers share their figures through
prometheus-client's multiprocess mode: when ``PROMETHEUS_MULTIPROC_DIR`` names a folder (set
before the workers start; :func:`prepare_multiprocess` makes and empties one), each worker
writes its figures there and whichever answers ``/metrics`` reports every worker's, told apart
by ``worker``. Gauges are written as ``livesum`` (a worker's gauges leave with it) except
``ludotheque_games``, one figure for the whole database (``mostrecent``).

Figures that live in the hub, the bot pool and the storage are read from them when sampled:
at every scrape, and every ``SAMPLE_S`` in multiprocess mode (so that the files hold every
worker's). Counters that only the code doing the work can count (moves stored, a bot's think
time) are incremented there through :func:`moves_played` and :func:`bot_thought`.

>>> route_label({"type": "http", "path": "/api/games/abc"})
'<unmatched>'
>>> statement_kind("  SELECT 1"), statement_kind("WITH x AS (SELECT 1) SELECT * FROM x")
('select', 'other')
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import glob
import logging
import os
import re
import struct
import tempfile
import time
from typing import Any

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import logs

log = logging.getLogger("ludotheque.server")
access_log = logging.getLogger(logs.ACCESS_LOGGER)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
WORKER = str(os.getpid())
# Multiprocess mode: how often each worker writes the figures it reads from its objects.
SAMPLE_S = 5.0
# A scrape waits this long for the database's count of games (else reports the last one).
COUNT_TIMEOUT_S = 2.0
# Close code of a WebSocket reader dropped for not reading (rooms.TOO_SLOW).
DROPPED_CLOSE = 1008
UNMATCHED = "<unmatched>"
# Answers quick enough for a game (ms to s); the last buckets catch stalls.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BOT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
# Probes and scrapes: answered like any request, logged at DEBUG (not every few seconds).
QUIET_ROUTES = frozenset({"/health", "/ready", "/metrics"})
# The server's own registry: every name it exposes starts with ``ludotheque_`` (the process's CPU,
# memory and files too: ``ludotheque_process_*``, single process only). No ``*_created`` series.
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry()
ProcessCollector(namespace="ludotheque", registry=REGISTRY)

REQUESTS = Counter("ludotheque_http_requests", "HTTP requests answered, by route template and status",
                   ["worker", "method", "route", "status"], registry=REGISTRY)
REQUEST_SECONDS = Histogram("ludotheque_http_request_duration_seconds",
                            "Time to answer an HTTP request (to the end of its body), by route template",
                            ["worker", "method", "route"], buckets=LATENCY_BUCKETS, registry=REGISTRY)
IN_PROGRESS = Gauge("ludotheque_http_requests_in_progress", "HTTP requests being answered now",
                    ["worker"], multiprocess_mode="livesum", registry=REGISTRY)
SOCKETS_OPEN = Gauge("ludotheque_websockets_open", "WebSocket connections open now, by route template",
                     ["worker", "route"], multiprocess_mode="livesum", registry=REGISTRY)
SOCKETS = Counter("ludotheque_websocket_connections", "WebSocket connections opened, by route template",
                  ["worker", "route"], registry=REGISTRY)
READERS_DROPPED = Counter("ludotheque_websocket_readers_dropped",
                          "WebSocket readers dropped for not reading (outbox full or send timed out: "
                          "closed by the server with 1008)", ["worker", "route"], registry=REGISTRY)
MOVES = Counter("ludotheque_moves", "Moves stored (HTTP, WebSocket and bots), by game", ["worker", "game"],
                registry=REGISTRY)
GAMES = Gauge("ludotheque_games", "Games in the database by status (waiting, playing, over)",
              ["status"], multiprocess_mode="mostrecent", registry=REGISTRY)
GAMES_LOADED = Gauge("ludotheque_games_loaded", "Game sessions held in this worker's memory",
                     ["worker"], multiprocess_mode="livesum", registry=REGISTRY)
BOT_QUEUE = Gauge("ludotheque_bot_queue", "Bot moves waiting for a bot worker (not yet thinking)",
                  ["worker"], multiprocess_mode="livesum", registry=REGISTRY)
BOT_WORKERS = Gauge("ludotheque_bot_workers", "Bot moves thought at once at most (the pool's size)",
                    ["worker"], multiprocess_mode="livesum", registry=REGISTRY)
BOT_THINK_SECONDS = Histogram("ludotheque_bot_think_seconds",
                              "Time a bot move takes in the pool, from its start to its answer, by level",
                              ["worker", "level"], buckets=BOT_BUCKETS, registry=REGISTRY)
DB_QUERY_SECONDS = Histogram("ludotheque_db_query_seconds",
                             "Time of one SQL statement run through SQLAlchemy, by kind",
                             ["worker", "statement"], buckets=DB_BUCKETS, registry=REGISTRY)
DB_CONNECTION_SECONDS = Histogram("ludotheque_db_connection_seconds",
                                  "Time a storage call holds a database connection (its statements, "
                                  "the driver's own included, and the commit)", ["worker"],
                                  buckets=DB_BUCKETS, registry=REGISTRY)
REDIS_SECONDS = Histogram("ludotheque_redis_seconds", "Time of a Redis command, by operation",
                          ["worker", "operation"], buckets=DB_BUCKETS, registry=REGISTRY)
REDIS_ERRORS = Counter("ludotheque_redis_errors", "Redis commands that failed, by operation",
                       ["worker", "operation"], registry=REGISTRY)
BUS_MESSAGES = Counter("ludotheque_bus_messages", "Messages between workers on Redis, by direction",
                       ["worker", "direction"], registry=REGISTRY)
REDIS_SUBSCRIBED = Gauge("ludotheque_redis_subscribed",
                         "1 while this worker's Redis subscription is up (several workers only)",
                         ["worker"], multiprocess_mode="livesum", registry=REGISTRY)
WORKER_STARTED = Gauge("ludotheque_worker_start_time_seconds", "When this worker's app started (epoch s)",
                       ["worker"], multiprocess_mode="livesum", registry=REGISTRY)


def multiprocess() -> bool:
    """Whether the figures are shared between processes (``PROMETHEUS_MULTIPROC_DIR``)."""
    return bool(os.environ.get(MULTIPROC_ENV))


def prepare_multiprocess(folder: str | None = None) -> str:
    """Before several workers start (in their parent): name an empty folder for their figures in
    ``PROMETHEUS_MULTIPROC_DIR`` (``folder``, else the variable's, else a new temporary one),
    removing the files an earlier run left there. Returns the folder."""
    chosen = folder or os.environ.get(MULTIPROC_ENV) or tempfile.mkdtemp(prefix="ludotheque-metrics-")
    os.makedirs(chosen, exist_ok=True)
    for path in glob.glob(os.path.join(chosen, "*.db")):
        with contextlib.suppress(OSError):
            os.remove(path)
    os.environ[MULTIPROC_ENV] = chosen
    return chosen


@functools.cache
def _child(metric: Any, *values: str) -> Any:
    """``metric.labels(*values)``, looked up once: ``labels`` checks its values and takes a lock on
    every call, and a move's request made five such calls. The label values are few (routes'
    templates, statuses, games), so the children kept are too."""
    return metric.labels(*values)


def started() -> None:
    """This worker's app started (its lifespan): one ``worker`` more in the figures."""
    WORKER_STARTED.labels(WORKER).set(time.time())


def moves_played(game: str, count: int = 1) -> None:
    """``count`` moves of game ``game`` were stored (a takeback, ``count`` ≤ 0, counts none)."""
    if count > 0:
        _child(MOVES, WORKER, game).inc(count)


def connection_held(seconds: float) -> None:
    """A change stored on one of the event loop's own connections (SQLite's,
    ``Storage.store_change``; PostgreSQL's for a worker's move, ``Storage.change_shared``) held
    it ``seconds``: counted as a storage call's (those connections are never checked in)."""
    _child(DB_CONNECTION_SECONDS, WORKER).observe(seconds)


def bot_thought(level: str, seconds: float) -> None:
    """A bot of ``level`` answered after ``seconds`` in the pool (any thread)."""
    BOT_THINK_SECONDS.labels(WORKER, level).observe(seconds)


def redis_timed(operation: str, seconds: float, *, failed: bool = False) -> None:
    REDIS_SECONDS.labels(WORKER, operation).observe(seconds)
    if failed:
        REDIS_ERRORS.labels(WORKER, operation).inc()


def bus_message(direction: str, count: int = 1) -> None:
    """``count`` messages ``sent`` to, or ``received`` from, the other workers."""
    BUS_MESSAGES.labels(WORKER, direction).inc(count)


# -- the database --------------------------------------------------------------------------------
def statement_kind(statement: str) -> str:
    word = statement.lstrip().split(None, 1)[0].lower() if statement.strip() else ""
    return word if word in ("select", "insert", "update", "delete") else "other"


def watch_engine(engine: Any) -> None:
    """Time ``engine``'s statements (SQLAlchemy's cursor events) and how long each storage call
    holds a connection (the pool's checkout to checkin: it includes the statements the storage
    runs on the driver's cursor itself, and the commit)."""
    from sqlalchemy import event

    if engine.__dict__.get("_ludotheque_watched"):
        return
    engine.__dict__["_ludotheque_watched"] = True
    query_seconds = {kind: DB_QUERY_SECONDS.labels(WORKER, kind)
                     for kind in ("select", "insert", "update", "delete", "other")}
    held_seconds = DB_CONNECTION_SECONDS.labels(WORKER)

    def before(connection: Any, _cursor: Any, _statement: str, *_: Any) -> None:
        connection.info.setdefault("ludotheque_started", []).append(time.perf_counter())

    def after(connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        started = connection.info.get("ludotheque_started")
        if started:
            query_seconds[statement_kind(statement)].observe(time.perf_counter() - started.pop())

    def checkout(_dbapi: Any, record: Any, _proxy: Any) -> None:
        record.info["ludotheque_checkout"] = time.perf_counter()

    def checkin(_dbapi: Any, record: Any) -> None:
        if record is not None and (started := record.info.pop("ludotheque_checkout", None)) is not None:
            held_seconds.observe(time.perf_counter() - started)

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)


def _count_games(engine: Any) -> dict[str, int]:
    from sqlalchemy import text

    with engine.connect() as connection:
        rows = connection.execute(text("SELECT status, COUNT(*) FROM games GROUP BY status"))
        return {str(status): int(count) for status, count in rows}


# -- what lives in the objects: sampled ----------------------------------------------------------
async def sample(app: Any) -> None:
    """Read this worker's figures from its hub, bot pool and Redis bus (and the games from the
    database) into the gauges. Never raises: a figure that cannot be read keeps its last value."""
    hub = getattr(app.state, "hub", None)
    if hub is None:
        return
    try:
        GAMES_LOADED.labels(WORKER).set(len(hub.loaded()))
        BOT_QUEUE.labels(WORKER).set(hub.bots.waiting())
        BOT_WORKERS.labels(WORKER).set(hub.bots.workers)
        if hub.bus is not None:
            REDIS_SUBSCRIBED.labels(WORKER).set(1 if hub.bus.subscribed.is_set() else 0)
    except Exception as error:  # a part being closed (shutdown): the scrape still answers
        log.debug("sampling the hub for /metrics failed: %s", error)
    try:
        async with asyncio.timeout(COUNT_TIMEOUT_S):
            # On the storage's own threads (SQLite's one connection is never shared by two).
            counts = await hub.storage.run(_count_games, hub.storage.engine)
    except Exception as error:  # the database is away: /ready says so, the scrape still answers
        log.debug("counting games for /metrics failed: %s", error)
        return
    for status in ("waiting", "playing", "over", *counts):
        GAMES.labels(status).set(counts.get(status, 0))


async def sample_forever(app: Any) -> None:
    """Multiprocess mode: sample every ``SAMPLE_S``, so that a scrape answered by another
    worker reports this one's figures too."""
    while True:
        await sample(app)
        await asyncio.sleep(SAMPLE_S)


def _forget_dead_workers(folder: str) -> None:
    """Drop the gauge files of worker processes that are gone (uvicorn replaced them)."""
    pids = set()
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        match = re.search(r"_(\d+)\.db$", path)
        if match:
            pids.add(int(match.group(1)))
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            _multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:
            pass


# How many times a scrape reads the workers' files when one is caught being made.
READ_TRIES = 4


def exposition() -> bytes:
    """The text of every figure (every worker's in multiprocess mode)."""
    folder = os.environ.get(MULTIPROC_ENV)
    if not folder:
        return generate_latest(REGISTRY)
    _forget_dead_workers(folder)
    registry = CollectorRegistry()
    _multiprocess.MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
    for attempt in range(READ_TRIES):
        try:
            return generate_latest(registry)
        except (ValueError, OSError, struct.error):
            # A worker that is starting creates its files while this one reads them: a file
            # caught half made reads as garbage for a moment, so read them all again.
            if attempt == READ_TRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Prometheus' text exposition format."""
    await sample(request.app)
    body = await asyncio.to_thread(exposition) if multiprocess() else exposition()
    return Response(body, media_type=CONTENT_TYPE_LATEST)


# -- each request: its id, its figures, its log line -----------------------------------------------
def route_label(scope: Scope) -> str:
    """The template of the route that answered (``/api/games/{game_id}``), never the raw path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return UNMATCHED
    if type(route).__name__ == "Mount":
        return f"{path}/{{path}}"
    return path or "/"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            try:
                return str(value.decode("latin-1"))
            except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
                return None
    return None


class Observe:
    """ASGI middleware: a request id for every request and WebSocket (``X-Request-ID`` in and
    out), the request's figures, and its line in the log (``ludotheque.access``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = logs.sane_request_id(_header(scope, b"x-request-id")) or logs.new_request_id()
        context = {"request_id": request_id, "method": scope.get("method", "WS")}
        token = logs.request_context.set(context)
        try:
            if scope["type"] == "http":
                await self._http(scope, receive, send, context)
            else:
                await self._websocket(scope, receive, send, context)
        finally:
            logs.request_context.reset(token)

    async def _http(self, scope: Scope, receive: Receive, send: Send, context: dict[str, str]) -> None:
        started = time.perf_counter()
        status = 500
        header = (b"x-request-id", context["request_id"].encode())

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                context["route"] = route_label(scope)
                message = {**message, "headers": [*message.get("headers", []), header]}
            await send(message)

        in_progress = _child(IN_PROGRESS, WORKER)
        in_progress.inc()
        try:
            await self.app(scope, receive, sending)
        finally:
            in_progress.dec()
            elapsed = time.perf_counter() - started
            method = str(scope.get("method", ""))
            route = context["route"] = route_label(scope)
            _child(REQUESTS, WORKER, method, route, str(status)).inc()
            _child(REQUEST_SECONDS, WORKER, method, route).observe(elapsed)
            level = logging.DEBUG if route in QUIET_ROUTES and status < 500 else logging.INFO
            if access_log.isEnabledFor(level):
                access_log.log(level, "%s %s %s", method, route, status,
                               extra={"status": status, "duration_ms": round(elapsed * 1000, 3)})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send, context: dict[str, str]) -> None:
        started = time.perf_counter()
        opened: list[str] = []
        header = (b"x-request-id", context["request_id"].encode())

        async def sending(message: Message) -> None:
            kind = message["type"]
            if kind == "websocket.accept":
                route = context["route"] = route_label(scope)
                message = {**message, "headers": [*message.get("headers", []), header]}
                SOCKETS.labels(WORKER, route).inc()
                SOCKETS_OPEN.labels(WORKER, route).inc()
                opened.append(route)
            elif kind == "websocket.close" and message.get("code") == DROPPED_CLOSE:
                READERS_DROPPED.labels(WORKER, route_label(scope)).inc()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            for route in opened:
                SOCKETS_OPEN.labels(WORKER, route).dec()
            route = context["route"] = route_label(scope)
            if access_log.isEnabledFor(logging.INFO):
                elapsed = time.perf_counter() - started
                access_log.info("WS %s closed", route,
                                extra={"status": 101 if opened else 403,
                                       "duration_ms": round(elapsed * 1000, 3)})

