"""The JSON HTTP API (docs/design.md, "Web API"): thin handlers that decode, dispatch to the hub
and encode. Bodies are read here, capped at 64 KiB and validated, so no request ever gets a 422.
Who a request speaks for (a Bearer token, or the pages' seat cookies) is read by ``identity``.

>>> import ludotheque
>>> seat_request("bot:difficile", ludotheque.load("pylos"))
SeatRequest(kind='bot', level='hard', name='', account=None)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from ..core.contract import Game, Player
from ..core.records import Record, replay
from .accounts import Account
from .bots import check_level
from .clocks import Instant
from .config import MAX_BODY_BYTES
from .documents import game_document, game_record, lobby_document
from .errors import ApiError, quoted
from .games import rated_takeback
from .hub import Hub
from .identity import (
    SESSION_COOKIE,
    Credentials,
    acting_seat,
    bearer_token,
    check_cookie_post,
    expire_seat_cookie,
    held_seats,
    reading_seat,
    require_seat,
    set_seat_cookie,
    stale_seats,
    wants_cookie,
)
from .new_games import SeatRequest, game_of
from .openapi import request_body
from .people import guest_seat_name, people_of, set_session_cookie
from .schemas import (
    ClaimBody,
    CreateGame,
    EmptyBody,
    JoinBody,
    MoveBody,
    allowed_clock,
    natural_number,
    parse_json,
    validate,
)
from .sessions import GameSession, hash_token, new_token
from .snapshots import claim_invite, decline_draw, join, offer_draw, play, resign, take_back
from .throttle import CreationThrottle, client_address, owner_of


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def guard_origin(request: Request) -> None:
    """Every POST (and DELETE): another site's page may not use or set this browser's cookies."""
    if request.method in ("POST", "DELETE"):
        check_cookie_post(request, hub_of(request).settings.allowed_origins)


router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
LOBBY_STATUSES = ("open", "playing", "over")
SEAT_KINDS = ("human", "open", "invite")
TOO_LARGE = f"the body is over 64 KiB ({MAX_BODY_BYTES} bytes)"


async def read_json(request: Request) -> Any:
    """The JSON body (``None`` when empty); 413 over 64 KiB, 400 when not JSON."""
    length = natural_number(request.headers.get("content-length", ""))
    if length is not None and length > MAX_BODY_BYTES:
        raise ApiError(413, TOO_LARGE, "too_large")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, TOO_LARGE, "too_large")
        chunks.append(chunk)
    raw = b"".join(chunks)
    return parse_json(raw) if raw.strip() else None


def seat_request(text: str, game: Game) -> SeatRequest:
    """Read one entry of ``seats``: ``human``, ``open``, ``invite`` or ``bot:<level>`` (French
    level names too, stored under the English one)."""
    if text in SEAT_KINDS:
        return SeatRequest(text)
    kind, _, level = text.partition(":")
    if kind == "bot" and level:
        return SeatRequest("bot", check_level(level, game))
    expected = "expected 'human', 'open', 'invite' or 'bot:<level>'"
    raise ApiError(400, f"invalid seat {quoted(text)}: {expected}", "bad_request")


def page_url(request: Request, game_id: str, query: str = "") -> str:
    base = str(request.base_url).rstrip("/")
    return f"{base}/play/{game_id}{query}"


@router.post("/games", status_code=201, openapi_extra=request_body(CreateGame))
async def create_game(request: Request) -> JSONResponse:
    """Create a game (the design's body, plus the seat kind ``invite``); the read body is checked
    by hand, so that a bad one is a 400, never a 422."""
    body = validate(CreateGame, await read_json(request))
    game = game_of(body.game, body.variant, body.players)
    if len(body.seats) != game.players:
        count = f"{len(body.seats)} seats given for {game.players} players"
        raise ApiError(400, f"{game.id}: {count}", "bad_request")
    requests = [seat_request(text, game) for text in body.seats]
    clock = allowed_clock(body.clock, hub_of(request).settings.min_clock_minutes)
    throttle: CreationThrottle = request.app.state.throttle
    throttle.check(client_address(request), all_bots=all(seat.kind == "bot" for seat in requests))
    people = people_of(request)
    account = await people.account_of(request) or await guest_for_cookie_request(request)
    if body.rated:
        check_rated(account, requests)
    name = account.name if account else await guest_seat_name(request, body.name, "")
    session, given = await hub_of(request).games.create(
        game, requests, clock, name, owner=owner_of(request), account=account.id if account else None,
        rated=body.rated,
    )
    game_id = session.meta.id
    seats = []
    for number, seat in enumerate(requests):
        entry: dict[str, Any] = {"seat": number, "kind": seat.kind}
        if number in given.tokens:
            entry["token"] = given.tokens[number]
            entry["url"] = page_url(request, game_id, f"?token={given.tokens[number]}")
        elif number in given.invites:
            entry["invite"] = given.invites[number]
            entry["url"] = page_url(request, game_id, f"?invite={given.invites[number]}")
        elif seat.kind == "open":
            entry["url"] = page_url(request, game_id, f"?join={number}")
        else:
            entry["url"] = page_url(request, game_id)
        seats.append(entry)
    response = JSONResponse({"id": game_id, "seats": seats}, status_code=201)
    if wants_cookie(request):
        for number, token in given.tokens.items():
            set_seat_cookie(response, request, game_id, number, token)
    keep_new_guest(request, response)
    return response


@router.get("/games")
async def list_games(request: Request, status: str | None = None) -> dict[str, Any]:
    if status is not None and status not in LOBBY_STATUSES:
        raise ApiError(400, f"unknown status {quoted(status)}; expected one of {', '.join(LOBBY_STATUSES)}",
                       "bad_request")
    return lobby_document(await hub_of(request).game_lists.lobby(status))


def document_response(session: GameSession, reader: Player | None) -> Response:
    return Response(session.document_text(reader, Instant.now()), media_type="application/json")


@router.get("/games/{game_id}")
async def read_game(request: Request, game_id: str) -> Response:
    session = await hub_of(request).games.get(game_id)
    return document_response(session, reading_seat(session, await credentials_of(request)))


@router.get("/games/{game_id}/record")
async def read_record(request: Request, game_id: str) -> dict[str, Any]:
    session = await hub_of(request).games.get(game_id)
    return game_record(session.meta, session.snapshot, reading_seat(session, await credentials_of(request)))


@router.get("/games/{game_id}/replay/{ply}")
async def read_replay(request: Request, game_id: str, ply: str) -> dict[str, Any]:
    """A finished game's spectator view after ``ply`` moves, for the page's move-by-move replay."""
    session = await hub_of(request).games.get(game_id)
    snap = session.snapshot
    if snap.status != "over":
        raise ApiError(409, "a game is replayed move by move only once it is over", "game_not_over")
    number = natural_number(ply)
    if number is None or number > len(snap.moves):
        raise ApiError(404, f"no position after {quoted(ply)} moves: the game has {len(snap.moves)} moves",
                       "not_found")
    states = replay(Record.from_json(game_record(session.meta, snap, None)))
    return {"id": game_id, "ply": number, "move": snap.moves[number - 1] if number else None,
            "view": states[number].view(None)}


@router.post("/games/{game_id}/moves")
async def post_move(request: Request, game_id: str) -> Response:
    data = await read_json(request)
    games = hub_of(request).games
    # As it is in memory: the change reads the game again under its row lock if another worker
    # changed it (several workers), so the move makes no round trip to compare versions first.
    session = await games.get(game_id, fresh=False)
    credentials = await credentials_of(request)
    try:
        seat = acting_seat(session, credentials)
    except ApiError:  # this copy may predate a seat taken on another worker: read it again
        session = await games.get(game_id)
        seat = acting_seat(session, credentials)
    if data is None:
        raise ApiError(400, 'a JSON body {"move": "<notation>"} is required', "bad_request")
    body = validate(MoveBody, data)
    await games.change(session, lambda s, now: play(s, seat, body.move, body.ply, now))
    return document_response(session, seat)


@router.get("/games/{game_id}/seats/mine")
async def my_seats(request: Request, game_id: str) -> JSONResponse:
    """The seats this browser's cookies hold; cookies that hold no seat any more are expired."""
    session = await hub_of(request).games.get(game_id)
    credentials = await credentials_of(request)
    response = JSONResponse({"id": game_id, "seats": held_seats(session, credentials)})
    for seat in stale_seats(session, credentials):
        expire_seat_cookie(response, request, game_id, seat)
    return response


@router.post("/games/{game_id}/seats/mine")
async def claim_seat(request: Request, game_id: str) -> JSONResponse:
    """Keep the seat of ``Authorization: Bearer <token>`` (an invite link's) in a cookie."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    session = await hub_of(request).games.get(game_id)
    token = bearer_token(request)
    seat = session.seat_of(token)
    assert token is not None
    held = set(held_seats(session, replace(Credentials.of(request), token=None))) | {seat}
    response = JSONResponse({"id": game_id, "seat": seat, "seats": sorted(held)})
    set_seat_cookie(response, request, game_id, seat, token)
    return response


@router.post("/games/{game_id}/seats/{seat}/join")
async def join_seat(request: Request, game_id: str, seat: int) -> JSONResponse:
    body = validate(JoinBody, await read_json(request) or {})
    session = await _session_with_seat(request, game_id, seat)
    account = await seat_taker(request, session)
    token = new_token()
    name = account.name if account else await guest_seat_name(request, body.name, f"Guest {seat + 1}")
    owner = account.id if account else None
    digest = hash_token(token)
    await hub_of(request).games.change(session, lambda s, now: join(s, seat, name, digest, now, owner))
    return seat_answer(request, game_id, seat, token)


@router.post("/games/{game_id}/seats/{seat}/claim")
async def claim_invite_seat(request: Request, game_id: str, seat: int) -> JSONResponse:
    """Take an invite seat with its code ``{"invite": "<code>"}``: answered like a join, once."""
    body = validate(ClaimBody, await read_json(request) or {})
    session = await _session_with_seat(request, game_id, seat)
    account = await seat_taker(request, session)
    token = new_token()
    name = account.name if account else await guest_seat_name(request, body.name, f"Guest {seat + 1}")
    owner = account.id if account else None
    invite_hash, token_hash = hash_token(body.invite), hash_token(token)
    await hub_of(request).games.change(
        session, lambda s, now: claim_invite(s, seat, invite_hash, name, token_hash, now, owner)
    )
    return seat_answer(request, game_id, seat, token)


def seat_answer(request: Request, game_id: str, seat: Player, token: str) -> JSONResponse:
    """The answer to a join or a claim: the seat's token, once; a cookie too when asked."""
    response = JSONResponse(
        {"id": game_id, "seat": seat, "token": token, "url": page_url(request, game_id, f"?token={token}")}
    )
    if wants_cookie(request):
        set_seat_cookie(response, request, game_id, seat, token)
    keep_new_guest(request, response)
    return response


@router.post("/games/{game_id}/seats/{seat}/resign")
async def resign_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).games.change(session, lambda s, now: resign(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now(), session.people)


@router.post("/games/{game_id}/seats/{seat}/draw")
async def draw_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).games.change(session, lambda s, now: offer_draw(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now(), session.people)


@router.post("/games/{game_id}/seats/{seat}/draw/decline")
async def decline_draw_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    snap = await hub_of(request).games.change(session, lambda s, now: decline_draw(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now(), session.people)


@router.post("/games/{game_id}/seats/{seat}/takeback")
async def take_back_seat(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    session = await _seat_holder(request, game_id, seat)
    if session.meta.rated:  # the hub refuses it too; say so before any other reason
        raise rated_takeback()
    snap = await hub_of(request).games.change(session, lambda s, now: take_back(s, seat, now))
    return game_document(session.meta, snap, seat, Instant.now(), session.people)


@router.post("/games/{game_id}/seats/{seat}/rematch", status_code=201)
async def rematch_seat(request: Request, game_id: str, seat: int) -> JSONResponse:
    session = await _seat_holder(request, game_id, seat)
    fresh, new_seat, token = await hub_of(request).rematches.rematch(session, seat)
    new_id = fresh.meta.id
    response = JSONResponse(
        {"id": new_id, "seat": new_seat, "token": token, "url": page_url(request, new_id, f"?token={token}")},
        status_code=201,
    )
    if wants_cookie(request):
        set_seat_cookie(response, request, new_id, new_seat, token)
    return response


async def _session_with_seat(request: Request, game_id: str, seat: int) -> GameSession:
    session = await hub_of(request).games.get(game_id)
    if not 0 <= seat < session.meta.game.players:
        raise ApiError(404, f"game {game_id} has no seat {seat}", "not_found")
    return session


async def _seat_holder(request: Request, game_id: str, seat: Player) -> GameSession:
    """The session, once the token (or cookie) is checked to be ``seat``'s (401 foreign, 403 other seat)."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    session = await _session_with_seat(request, game_id, seat)
    require_seat(session, await credentials_of(request), seat)
    return session


async def credentials_of(request: Request) -> Credentials:
    return await people_of(request).credentials(request)


async def guest_for_cookie_request(request: Request) -> Account | None:
    """A page's request (``?cookie=1``) of a browser without a session gets a guest account, kept
    in the session cookie of the answer (:func:`keep_new_guest`): its seats are the guest's."""
    if not wants_cookie(request) or SESSION_COOKIE in request.cookies:
        return None
    people = people_of(request)
    people.creation.check(client_address(request))
    guest, token = await people.new_guest()
    request.state.new_session = token
    return guest


def keep_new_guest(request: Request, response: Response) -> None:
    token = getattr(request.state, "new_session", None)
    if token:
        set_session_cookie(response, request, token)


async def seat_taker(request: Request, session: GameSession) -> Account | None:
    """The person taking a seat (a join, an invite): their account, a new guest for a page without
    a session, or nobody (an API client). A rated game's seats are for signed-in players only."""
    account = await people_of(request).account_of(request)
    if session.meta.rated and (account is None or account.is_guest):
        raise ApiError(401, "a rated game is for signed-in players: sign in first", "sign_in_required")
    if session.meta.rated and account is not None and session.seats_of_account(account.id):
        raise ApiError(409, "you hold a seat of this rated game already", "seat_taken")
    return account or await guest_for_cookie_request(request)


def check_rated(account: Account | None, requests: list[SeatRequest]) -> None:
    """A rated game: created by a signed-in player, between people (open or invite seats) or
    against bots only (rated apart), never mixed."""
    if account is None or account.is_guest:
        raise ApiError(401, "rated games are for signed-in players: sign in first", "sign_in_required")
    kinds = {request.kind for request in requests}
    if sum(request.kind == "human" for request in requests) != 1:
        raise ApiError(400, "a rated game has exactly one seat of its creator ('human')", "bad_request")
    if "bot" in kinds and kinds - {"bot", "human"}:
        raise ApiError(400, "a rated game is either between people or against bots only", "bad_request")
