"""``GET /health`` (alive) and ``GET /ready`` (able to serve) for load balancers and orchestrators.

``/health`` answers ``200 {"status": "alive"}`` whenever the process answers at all: it reads
nothing. ``/ready`` answers ``200 {"status": "ready", "checks": {...}}`` when the database answers
a trivial query, its schema is at this version's head migration and Redis (several workers
only) answers a PING, each within ``READY_TIMEOUT_S``; otherwise ``503`` with ``"code":
"unavailable"``, an ``error`` naming the failing parts and ``checks`` giving each part's state
(``ok``, ``not configured`` or the reason). A worker that is not ready should get no traffic;
one that is not alive should be restarted.

>>> sorted(heads()) == sorted(heads())
True
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .logs import redact

READY_TIMEOUT_S = 3.0
router = APIRouter()


@cache
def heads() -> frozenset[str]:
    """The head revisions of this version's migrations."""
    from alembic.script import ScriptDirectory

    from .migrate import alembic_config

    return frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())


def _reason(error: BaseException) -> str:
    original = getattr(error, "orig", None) or error
    text = str(original).strip().splitlines()
    return redact(text[0] if text and text[0] else type(error).__name__)[:200]


def check_database(engine: Any) -> tuple[str, str]:
    """``(database, migrations)``: each ``ok`` or the reason it is not (runs on a thread)."""
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import text

    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            try:
                current = set(MigrationContext.configure(connection).get_current_heads())
            except Exception as error:
                return "ok", f"cannot read the schema's revision: {_reason(error)}"
    except Exception as error:
        return f"unreachable: {_reason(error)}", "unknown: the database is unreachable"
    if current == set(heads()):
        return "ok", "ok"
    shown = ", ".join(sorted(current)) or "none"
    return "ok", f"at revision {shown}, the head is {', '.join(sorted(heads()))}"


async def readiness(hub: Any) -> dict[str, str]:
    """Each part's state: ``database``, ``migrations``, ``redis``."""
    checks: dict[str, str] = {}
    try:
        async with asyncio.timeout(READY_TIMEOUT_S):
            # On the storage's own threads: ready means that the games' queries get through.
            checks["database"], checks["migrations"] = await hub.storage.run(
                check_database, hub.storage.engine)
    except TimeoutError:
        checks["database"] = f"no answer within {READY_TIMEOUT_S:g} s"
        checks["migrations"] = "unknown: the database did not answer"
    if hub.bus is None:
        checks["redis"] = "not configured"
    else:
        try:
            async with asyncio.timeout(READY_TIMEOUT_S):
                await hub.bus.ping()
            checks["redis"] = "ok"
        except TimeoutError:
            checks["redis"] = f"no answer within {READY_TIMEOUT_S:g} s"
        except Exception as error:
            checks["redis"] = f"unreachable: {_reason(error)}"
    return checks


@router.get("/health", include_in_schema=False)
async def health() -> dict[str, str]:
    return {"status": "alive"}


@router.get("/ready", include_in_schema=False)
async def ready(request: Request) -> JSONResponse:
    hub = getattr(request.app.state, "hub", None)
    if hub is None:
        return JSONResponse({"status": "starting", "error": "the server is starting", "code": "unavailable",
                             "checks": {}}, status_code=503)
    checks = await readiness(hub)
    failing = [part for part, state in checks.items() if state not in ("ok", "not configured")]
    if not failing:
        return JSONResponse({"status": "ready", "checks": checks})
    error = "; ".join(f"{part}: {checks[part]}" for part in failing)
    return JSONResponse({"status": "unready", "error": error, "code": "unavailable", "checks": checks},
                        status_code=503)
