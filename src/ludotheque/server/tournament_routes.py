"""Tournaments over HTTP (docs/API.md, "Tournaments"): create, list, read, join, leave, start.

The router's lifespan runs the tournaments beside the hub (``tournaments.running``): included in
the app, it needs nothing else from the app factory.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request
from pydantic import Field

from .account_routes import require_account
from .accounts import Account
from .bots import check_level
from .errors import ApiError, quoted
from .hub import game_of
from .openapi import request_body
from .routes import guard_origin, hub_of, read_json
from .schemas import ClockBody, EmptyBody, Strict, allowed_clock, validate
from .tournament_store import LIST_LIMIT, MAX_LIST_LIMIT, NewTournament
from .tournaments import (
    DEFAULT_ENTRIES,
    MAX_DURATION,
    MAX_ENTRIES,
    MAX_ROUNDS,
    STATUSES,
    SYSTEMS,
    Tournaments,
    running,
)

YEAR_S = 366 * 86_400.0


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Entered after the app's own lifespan made the hub (FastAPI nests an included router's)."""
    async with running(app.state.hub) as service:
        app.state.tournaments = service
        yield


router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)], lifespan=lifespan)


def tournaments_of(request: Request) -> Tournaments:
    service: Tournaments = request.app.state.tournaments
    return service


class CreateTournament(Strict):
    name: Annotated[str | None, Field(min_length=1, max_length=80)] = None
    system: Literal["swiss", "arena"] = "swiss"
    game: Annotated[str, Field(max_length=40)]
    variant: Annotated[str | None, Field(max_length=40)] = None
    players: int | None = None
    rounds: Annotated[int | None, Field(strict=True, ge=1, le=MAX_ROUNDS, description="a Swiss's")] = None
    duration: Annotated[int | None, Field(strict=True, ge=1, le=MAX_DURATION,
                                          description="an arena's, in minutes")] = None
    club: Annotated[str | None, Field(min_length=1, max_length=32, description="a club's tournament")] = None
    clock: ClockBody | None = None
    rated: Annotated[bool, Field(strict=True)] = False
    starts_at: Annotated[str | None, Field(max_length=40, description="ISO 8601; none: the creator starts it")
                         ] = None
    max_entries: Annotated[int, Field(strict=True, ge=2, le=MAX_ENTRIES)] = DEFAULT_ENTRIES


class JoinTournament(Strict):
    bot: Annotated[str | None, Field(max_length=40, description="a bot level, entered by the creator")] = None


class LeaveTournament(Strict):
    entry: Annotated[int | None, Field(strict=True, ge=1, description="the creator removes this entrant")
                     ] = None


def _starts_at(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        message = f"invalid 'starts_at' {quoted(text)}: expected an ISO 8601 time"
        raise ApiError(400, message, "bad_request") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    epoch = moment.timestamp()
    if epoch > time.time() + YEAR_S:
        raise ApiError(400, "invalid 'starts_at': at most a year ahead", "bad_request")
    return epoch


@router.post("/tournaments", status_code=201, openapi_extra=request_body(CreateTournament))
async def create_tournament(request: Request) -> dict[str, Any]:
    """A new Swiss tournament or arena (its creator: a signed-in player); answers its document."""
    body = validate(CreateTournament, await read_json(request))
    account = await require_account(request, player=True)
    game = game_of(body.game, body.variant, body.players)
    clock = allowed_clock(body.clock, hub_of(request).settings.min_clock_minutes)
    if body.system == "swiss" and (body.rounds is None or body.duration is not None):
        raise ApiError(400, "a Swiss tournament takes 'rounds' (and no 'duration')", "bad_request")
    if body.system == "arena" and (body.duration is None or body.rounds is not None):
        raise ApiError(400, "an arena takes 'duration' in minutes (and no 'rounds')", "bad_request")
    name = body.name or f"{game.id} {'Arena' if body.system == 'arena' else 'Swiss'}"
    service = tournaments_of(request)
    tournament_id = await service.create(NewTournament(
        name, game, body.rounds or 0, clock, body.rated, account.id, _starts_at(body.starts_at),
        body.max_entries, body.system, body.duration, body.club))
    return await service.document(tournament_id)


@router.get("/tournaments")
async def list_tournaments(request: Request, status: str | None = None, system: str | None = None,
                           club: str | None = None, limit: str | None = None, offset: str | None = None
                           ) -> dict[str, Any]:
    """A page of tournaments, newest first; ``next_offset``: where the next page starts (null:
    none after)."""
    if status is not None and status not in STATUSES:
        raise ApiError(400, f"unknown status {quoted(status)}; expected one of {', '.join(STATUSES)}",
                       "bad_request")
    if system is not None and system not in SYSTEMS:
        raise ApiError(400, f"unknown system {quoted(system)}; expected one of {', '.join(SYSTEMS)}",
                       "bad_request")
    count = _whole("limit", limit, LIST_LIMIT, 1, MAX_LIST_LIMIT)
    start = _whole("offset", offset, 0, 0, 1_000_000)
    service = tournaments_of(request)
    # One more than asked: whether a next page exists.
    found = await service.hub.storage.run(service.store.listing, status, system, club, count + 1, start)
    return {"tournaments": found[:count], "next_offset": start + count if len(found) > count else None}


def _whole(name: str, text: str | None, default: int, least: int, most: int) -> int:
    """A query's whole number within bounds (400 otherwise)."""
    if text is None:
        return default
    if not text.isdigit() or not least <= int(text) <= most:
        raise ApiError(400, f"invalid {name!r} {quoted(text)}: a whole number from {least} to {most}",
                       "bad_request")
    return int(text)


@router.get("/tournaments/{tournament_id}")
async def read_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    return await tournaments_of(request).document(tournament_id)


async def _creator(request: Request, tournament_id: str) -> Account:
    account = await require_account(request)
    service = tournaments_of(request)
    row = await service.hub.storage.run(service.store.row, tournament_id)
    if row.creator != account.id:
        raise ApiError(403, "only the tournament's creator may do this", "not_creator")
    return account


@router.post("/tournaments/{tournament_id}/join", openapi_extra=request_body(JoinTournament))
async def join_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """Enter the request's person; ``{"bot": "<level>"}``: the creator enters a bot (practice
    tournaments only)."""
    data = await read_json(request)
    body = validate(JoinTournament, data if data is not None else {})
    service = tournaments_of(request)
    row = await service.hub.storage.run(service.store.row, tournament_id)
    if body.bot is not None:
        await _creator(request, tournament_id)
        if row.rated:
            raise ApiError(400, "bots play only in practice (unrated) tournaments", "bad_request")
        level = check_level(body.bot, game_of(row.game, row.variant, row.players))
        await service.add_bot(tournament_id, level)
    else:
        account = await require_account(request, player=bool(row.rated))
        await service.join(tournament_id, account.id, account.name)
    return await service.document(tournament_id)


@router.post("/tournaments/{tournament_id}/leave", openapi_extra=request_body(LeaveTournament))
async def leave_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """Leave before the start (a running arena: pause); ``{"entry": n}``: the creator removes an
    entrant (a bot)."""
    data = await read_json(request)
    body = validate(LeaveTournament, data if data is not None else {})
    service = tournaments_of(request)
    if body.entry is not None:
        await _creator(request, tournament_id)
        await service.leave(tournament_id, entry=body.entry)
    else:
        account = await require_account(request)
        await service.leave(tournament_id, account=account.id)
    return await service.document(tournament_id)


@router.post("/tournaments/{tournament_id}/start")
async def start_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """The creator starts the tournament now: the first round is paired and its games begin."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    await _creator(request, tournament_id)
    service = tournaments_of(request)
    await service.start(tournament_id)
    return await service.document(tournament_id)
