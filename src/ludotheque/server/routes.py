"""The JSON HTTP API (DESIGN.md, "Web API"): thin handlers that decode, dispatch to the hub
and encode. Bodies are read here, capped at 64 KiB and validated, so no request ever gets a 422.

>>> seat_request("bot:easy")
SeatRequest(kind='bot', level='easy', name='')
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..core.contract import Player
from ..core.records import Record, replay
from .bots import check_level
from .clocks import ClockSpec, Instant
from .config import MAX_BODY_BYTES
from .documents import game_document, game_record, lobby_document
from .errors import ApiError
from .hub import GameSession, Hub, SeatRequest, game_of, hash_token, new_token
from .schemas import CreateGame, EmptyBody, JoinBody, MoveBody, parse_json, validate
from .sessions import join, offer_draw, play, resign, take_back

router = APIRouter(prefix="/api")
LOBBY_STATUSES = ("open", "playing", "over")


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def bearer_token(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>``; 401 for any other Authorization."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


async def read_json(request: Request) -> Any:
    """The JSON body (``None`` when empty); 413 over 64 KiB, 400 when not JSON."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise ApiError(413, f"the body is over 64 KiB ({MAX_BODY_BYTES} bytes)")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, f"the body is over 64 KiB ({MAX_BODY_BYTES} bytes)")
        chunks.append(chunk)
    raw = b"".join(chunks)
    return parse_json(raw) if raw.strip() else None


def seat_request(text: str) -> SeatRequest:
    """Read one entry of ``seats``: ``human``, ``open`` or ``bot:<level>``."""
    if text in ("human", "open"):
        return SeatRequest(text)
    kind, _, level = text.partition(":")
    if kind == "bot" and level:
        return SeatRequest("bot", level)
    raise ApiError(400, f"invalid seat {text!r}: expected 'human', 'open' or 'bot:<level>'")


def page_url(request: Request, game_id: str, query: str = "") -> str:
    base = str(request.base_url).rstrip("/")
    return f"{base}/play/{game_id}{query}"


@router.post("/games", status_code=201)
async def create_game(request: Request) -> JSONResponse:
    body = validate(CreateGame, await read_json(request))
    game = game_of(body.game, body.variant, body.players)
    if len(body.seats) != game.players:
        raise ApiError(400, f"{game.id}: {len(body.seats)} seats given for {game.players} players")
    requests = [seat_request(text) for text in body.seats]
    for seat in requests:
        if seat.level is not None:
            check_level(seat.level, game)
    clock = ClockSpec.from_json(body.clock.model_dump()) if body.clock else None
    session, tokens = await hub_of(request).create(game, requests, clock, body.name or "")
    game_id = session.meta.id
    seats = []
    for number, seat in enumerate(requests):
        entry: dict[str, Any] = {"seat": number, "kind": seat.kind}
        if number in tokens:
            entry["token"] = tokens[number]
            entry["url"] = page_url(request, game_id, f"?token={tokens[number]}")
        elif seat.kind == "open":
            entry["url"] = page_url(request, game_id, f"?join={number}")
        else:
            entry["url"] = page_url(request, game_id)
        seats.append(entry)
    return JSONResponse({"id": game_id, "seats": seats}, status_code=201)


@router.get("/games")
async def list_games(request: Request, status: str | None = None) -> dict[str, Any]:
    if status is not None and status not in LOBBY_STATUSES:
        raise ApiError(400, f"unknown status {status!r}; expected one of {', '.join(LOBBY_STATUSES)}")
    storage = hub_of(request).storage
    return lobby_document(await storage.run(storage.lobby, status))


def document_response(session: GameSession, reader: Player | None) -> Response:
    return Response(session.document_text(reader, Instant.now()), media_type="application/json")


@router.get("/games/{game_id}")
async def read_game(request: Request, game_id: str) -> Response:
    session = await hub_of(request).get(game_id)
    return document_response(session, session.reader_of(bearer_token(request)))


@router.get("/games/{game_id}/record")
async def read_record(request: Request, game_id: str) -> dict[str, Any]:
    session = await hub_of(request).get(game_id)
    reader = session.reader_of(bearer_token(request))
    return game_record(session.meta, session.snapshot, reader)


@router.get("/games/{game_id}/replay/{ply}")
async def read_replay(request: Request, game_id: str, ply: str) -> dict[str, Any]:
    """A finished game's spectator view after ``ply`` moves, for the page's move-by-move replay."""
    session = await hub_of(request).get(game_id)
    snap = session.snapshot
    if snap.status != "over":
        raise ApiError(409, "a game is replayed move by move only once it is over")
    if not ply.isdigit() or int(ply) > len(snap.moves):
        raise ApiError(404, f"no position after {ply!r} moves: the game has {len(snap.moves)} moves")
    states = replay(Record.from_json(game_record(session.meta, snap, None)))
    number = int(ply)
    return {"id": game_id, "ply": number, "move": snap.moves[number - 1] if number else None,
            "view": states[number].view(None)}


@router.post("/games/{game_id}/moves")
async def post_move(request: Request, game_id: str) -> Response:
    data = await read_json(request)
    session = await hub_of(request).get(game_id)
    seat = session.seat_of(bearer_token(request))
    if data is None:
        raise ApiError(400, 'a JSON body {"move": "<notation>"} is required')
    body = validate(MoveBody, data)
    await hub_of(request).change(session, lambda s, now: play(s, seat, body.move, body.ply, now))
    return document_response(session, seat)


@router.post("/games/{game_id}/seats/{seat}/join")
async def join_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    body = validate(JoinBody, await read_json(request) or {})
    session = await _session_with_seat(request, game_id, seat)
    token = new_token()
    name = body.name or f"Guest {seat + 1}"
    await hub_of(request).change(session, lambda s, now: join(s, seat, name, hash_token(token), now))
    return {"id": game_id, "seat": seat, "token": token, "url": page_url(request, game_id, f"?token={token}")}


@router.post("/games/{game_id}/seats/{seat}/resign")
async def resign_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).change(session, lambda s, now: resign(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now())


@router.post("/games/{game_id}/seats/{seat}/draw")
async def draw_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).change(session, lambda s, now: offer_draw(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now())


@router.post("/games/{game_id}/seats/{seat}/takeback")
async def take_back_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).change(session, lambda s, now: take_back(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now())


@router.post("/games/{game_id}/seats/{seat}/rematch", status_code=201)
async def rematch_seat(request: Request, game_id: str, seat: int) -> JSONResponse:
    session = await _seat_holder(request, game_id, seat)
    fresh, new_seat, token = await hub_of(request).rematch(session, seat)
    new_id = fresh.meta.id
    return JSONResponse(
        {"id": new_id, "seat": new_seat, "token": token, "url": page_url(request, new_id, f"?token={token}")},
        status_code=201,
    )


async def _session_with_seat(request: Request, game_id: str, seat: int) -> GameSession:
    session = await hub_of(request).get(game_id)
    if not 0 <= seat < session.meta.game.players:
        raise ApiError(404, f"game {game_id} has no seat {seat}")
    return session


async def _seat_holder(request: Request, game_id: str, seat: Player) -> GameSession:
    """The session, once the token is checked to be ``seat``'s (401 foreign, 403 other seat)."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    session = await _session_with_seat(request, game_id, seat)
    holder = session.seat_of(bearer_token(request))
    if holder != seat:
        raise ApiError(403, f"this token holds seat {holder}, not seat {seat}")
    return session
