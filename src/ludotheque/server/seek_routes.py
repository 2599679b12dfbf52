"""Seeks over HTTP: seek a game and be matched at once, list the waiting seeks, cancel one."""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from .account_routes import require_account
from .accounts import Account
from .errors import ApiError, quoted
from .new_games import game_of
from .openapi import request_body
from .ratings import NEW_RATING
from .routes import guard_origin, hub_of, read_json
from .schemas import ClockBody, Strict, allowed_clock, validate
from .seeks import SeekRow, public
from .throttle import CreationThrottle, client_address

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])


class SeekBody(Strict):
    game: Annotated[str, Field(max_length=40)]
    variant: Annotated[str | None, Field(max_length=40)] = None
    players: int | None = None
    clock: ClockBody | None = None
    rated: Annotated[bool, Field(strict=True)] = False
    rating_min: Annotated[int | None, Field(ge=0, le=4000)] = None
    rating_max: Annotated[int | None, Field(ge=0, le=4000)] = None


@router.post("/seeks", status_code=201, openapi_extra=request_body(SeekBody))
async def seek(request: Request) -> JSONResponse:
    """Seek a game: ``{"matched": true, "id", "seat"}`` (a game started with compatible seekers;
    the seats are the accounts', so their pages find it in "my games") or ``{"matched": false,
    "seek"}`` (it waits). Each seek counts as a game created from the client's address (the
    creation limits), and at most ``SEEKS_PER_ACCOUNT`` of a person's wait at once."""
    body = validate(SeekBody, await read_json(request))
    account = await require_account(request, player=body.rated)
    game = game_of(body.game, body.variant, body.players)
    clock = allowed_clock(body.clock, hub_of(request).settings.min_clock_minutes)
    throttle: CreationThrottle = request.app.state.throttle
    throttle.check(client_address(request), all_bots=False)
    hub = hub_of(request)
    clock_text = json.dumps(clock.to_json()) if clock else None
    row = SeekRow(secrets.token_urlsafe(9), account.id, game.id, game.variant, game.players, clock_text,
                  body.rated, body.rating_min, body.rating_max, time.time(), NEW_RATING)
    matched = await hub.matchmaking.seek(account, game, clock, body.rated, row)
    if matched is None:
        return JSONResponse({"matched": False, "seek": public(row, account.name)}, status_code=201)
    session, seat = matched
    return JSONResponse({"matched": True, "id": session.meta.id, "seat": seat}, status_code=201)


@router.get("/seeks")
async def waiting_seeks(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    return {"seeks": await hub.matchmaking.waiting()}


@router.delete("/seeks/{seek_id}", status_code=204)
async def cancel_seek(request: Request, seek_id: str) -> Response:
    account: Account = await require_account(request)
    hub = hub_of(request)
    if not await hub.matchmaking.cancel(account.id, seek_id):
        raise ApiError(404, f"no seek {quoted(seek_id)} of yours", "not_found")
    return Response(status_code=204)
