"""Moderation over HTTP: anyone with a session (a guest too) reports a player or a chat line;
moderators read the reports queue, a player's file and the audit log, and act (warn, mute,
suspend, close, lift, hide a chat line, handle a report). docs/moderation.md lists them; the
moderation page (``/admin``, :mod:`moderation_admin`) calls the same functions."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from .accounts import Account
from .errors import ApiError
from .moderation import HANDLED, OPEN, Moderation, sanction_json
from .openapi import request_body
from .people import people_of
from .routes import guard_origin, read_json
from .schemas import Strict, validate
from .throttle import client_address

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
REASON_CHARS = 500
Reason = Annotated[str, Field(min_length=1, max_length=REASON_CHARS)]


class ReportBody(Strict):
    player: Annotated[str, Field(min_length=1, max_length=40)]
    reason: Reason
    chat_line: Annotated[int | None, Field(ge=1)] = None
    game: Annotated[str | None, Field(max_length=32)] = None


class ActionBody(Strict):
    reason: Reason
    minutes: Annotated[int | None, Field(ge=1)] = None


class NoteBody(Strict):
    reason: Annotated[str, Field(max_length=REASON_CHARS)] = ""


class SeenBody(Strict):
    ids: Annotated[list[int], Field(max_length=100)]


def moderation_of(request: Request) -> Moderation:
    moderation: Moderation = request.app.state.moderation
    return moderation


async def require_moderator(request: Request) -> Account:
    """The request's person if a moderator: 401 ``sign_in_required`` for nobody, 403 ``forbidden``
    for anyone else."""
    account = await people_of(request).account_of(request)
    if account is None:
        raise ApiError(401, "sign in as a moderator first", "sign_in_required")
    if not account.moderator:
        raise ApiError(403, "only a moderator may do this", "forbidden")
    return account


@router.post("/reports", status_code=201, openapi_extra=request_body(ReportBody))
async def report(request: Request) -> JSONResponse:
    """Report a player (by name), or one of their chat lines (``chat_line``: its text is kept as
    it is now), to the moderators. Any person with a session (a guest too); a few per minute."""
    body = validate(ReportBody, await read_json(request))
    reporter = await people_of(request).account_of(request)
    if reporter is None:
        raise ApiError(401, "a report is sent signed in (a guest too)", "sign_in_required")
    found = await moderation_of(request).report(reporter, client_address(request), body.player,
                                                body.reason.strip(), body.chat_line, body.game)
    return JSONResponse({"report": found}, status_code=201)


@router.post("/me/warnings/seen", openapi_extra=request_body(SeenBody))
async def saw_warnings(request: Request) -> dict[str, Any]:
    """The person read their warnings ``ids`` (``GET /api/me`` lists the unread ones)."""
    body = validate(SeenBody, await read_json(request))
    account = await people_of(request).account_of(request)
    if account is None:
        raise ApiError(401, "sign in first", "sign_in_required")
    moderation = moderation_of(request)
    return {"seen": await moderation.run(moderation.store.saw_warnings, account.id, body.ids)}


@router.get("/moderation/reports")
async def reports(request: Request, status: str = OPEN) -> dict[str, Any]:
    """The reports queue: ``status`` open (the default, oldest first), handled or all."""
    await require_moderator(request)
    if status not in (OPEN, HANDLED, "all"):
        raise ApiError(400, "status is open, handled or all", "bad_request")
    moderation = moderation_of(request)
    return {"reports": await moderation.run(moderation.store.reports, None if status == "all" else status)}


@router.post("/moderation/reports/{report_id}/handle", openapi_extra=request_body(NoteBody))
async def handle_report(request: Request, report_id: int) -> dict[str, Any]:
    """The report leaves the queue (whatever was done about it); an audit entry says who did it."""
    moderator = await require_moderator(request)
    body = validate(NoteBody, await read_json(request) or {})
    return {"entry": await moderation_of(request).handle(moderator, report_id, body.reason)}


@router.get("/moderation/players/{name}")
async def player_file(request: Request, name: str) -> dict[str, Any]:
    """A player's account, sanctions, the reports of them, last games and chat lines."""
    await require_moderator(request)
    moderation = moderation_of(request)
    found = await moderation.run(moderation.store.player, name)
    now = time.time()
    return {**found, "sanctions": [sanction_json(row, now) for row in found["sanctions"]]}


@router.post("/moderation/players/{name}/{action}", openapi_extra=request_body(ActionBody))
async def act(request: Request, name: str, action: str) -> dict[str, Any]:
    """``warn``, ``mute`` and ``suspend`` (``minutes``), ``close``, ``unmute``, ``unsuspend``
    (lifts a suspension or a closure) player ``name``, for ``reason``; the audit entry."""
    moderator = await require_moderator(request)
    body = validate(ActionBody, await read_json(request))
    entry = await moderation_of(request).act(moderator, name, action, body.reason.strip(), body.minutes)
    return {"entry": entry}


@router.post("/moderation/chat/{line_id}/hide", openapi_extra=request_body(NoteBody))
async def hide_line(request: Request, line_id: int) -> dict[str, Any]:
    """Hide a chat line: nobody reads it again (its readers are told at once)."""
    moderator = await require_moderator(request)
    body = validate(NoteBody, await read_json(request) or {})
    return await moderation_of(request).hide(moderator, line_id, body.reason)


@router.get("/moderation/log")
async def audit_log(request: Request) -> dict[str, Any]:
    """The audit log (read-only), newest first."""
    await require_moderator(request)
    moderation = moderation_of(request)
    return {"entries": await moderation.run(moderation.store.log)}
