"""Chat over HTTP: read a room's lines, write one (not while a moderator mutes the writer), mute a
seat. Every reader of the game's WebSocket who may read the room gets each new line as
``{"type": "chat", "line": {...}}``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from ..core.contract import Player
from .accounts import sanction_error
from .chat import MAX_LINE, ROOMS, clean_line, hidden
from .errors import ApiError, quoted
from .identity import reading_seat, require_seat
from .openapi import request_body
from .people import people_of
from .routes import credentials_of, guard_origin, hub_of, read_json
from .schemas import Strict, validate

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])


class ChatBody(Strict):
    room: Annotated[str, Field(max_length=20)] = "players"
    text: Annotated[str, Field(min_length=1, max_length=4 * MAX_LINE)]


class MuteBody(Strict):
    seat: Annotated[int, Field(ge=0, le=16)]
    muted: Annotated[bool, Field(strict=True)] = True


def _room(room: str) -> str:
    if room not in ROOMS:
        expected = "expected players or spectators"
        raise ApiError(400, f"unknown chat room {quoted(room)}; {expected}", "bad_request")
    return room


@router.get("/games/{game_id}/chat")
async def read_chat(request: Request, game_id: str, room: str = "players") -> dict[str, Any]:
    """A room's last lines (the players' room: for the seats only), less those of muted seats."""
    hub = hub_of(request)
    session = await hub.games.get(game_id)
    seat = reading_seat(session, await credentials_of(request))
    if _room(room) == "players" and seat is None:
        raise ApiError(401, "the players' chat is read with a seat of the game", "token_required")
    lines = await hub.game_chat.lines(session, room)
    mutes = await hub.game_chat.mutes(session)
    return {"room": room, "lines": [line for line in lines if not hidden(mutes, seat, line["seat"])],
            "muted": sorted(muted for holder, muted in mutes if holder == seat)}


@router.post("/games/{game_id}/chat", status_code=201, openapi_extra=request_body(ChatBody))
async def write_chat(request: Request, game_id: str) -> JSONResponse:
    """Write a line (1–500 characters) in a room: the players' room is the seats'; the
    spectators' room is anyone's with a seat or an account (a guest's too)."""
    body = validate(ChatBody, await read_json(request))
    room = _room(body.room)
    text = clean_line(body.text)
    if text is None or len(text) > MAX_LINE:
        raise ApiError(400, f"a chat line has 1 to {MAX_LINE} characters", "bad_request")
    hub = hub_of(request)
    session = await hub.games.get(game_id)
    seat = reading_seat(session, await credentials_of(request))
    account = await people_of(request).account_of(request)
    if room == "players" and seat is None:
        raise ApiError(403, "spectators cannot write in the players' chat", "spectator")
    if seat is None and account is None:
        raise ApiError(401, "a chat line is written with a seat or signed in (a guest too)",
                       "sign_in_required")
    writer = session.snapshot.seats[seat].account if seat is not None else account.id if account else None
    sanction = await people_of(request).sanction(writer, "close", "suspend", "mute")
    if sanction is not None:  # a moderator muted (or suspended) the writer: a clear refusal
        raise sanction_error(sanction)
    author = session.snapshot.seats[seat].name if seat is not None else account.name if account else ""
    who = f"seat:{seat}" if seat is not None else f"account:{account.id if account else ''}"
    line = await hub.game_chat.write(session, room, seat, author, text, who)
    return JSONResponse({"line": line}, status_code=201)


@router.post("/games/{game_id}/seats/{seat}/mute", openapi_extra=request_body(MuteBody))
async def mute(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    """Seat ``seat`` stops (``"muted": false``: starts again) receiving the lines of ``"seat"``."""
    body = validate(MuteBody, await read_json(request))
    hub = hub_of(request)
    session = await hub.games.get(game_id)
    if not 0 <= seat < session.meta.game.players:
        raise ApiError(404, f"game {game_id} has no seat {seat}", "not_found")
    holder: Player = require_seat(session, await credentials_of(request), seat)
    if body.seat == holder or body.seat >= session.meta.game.players:
        raise ApiError(400, f"seat {holder} cannot mute seat {body.seat}", "bad_request")
    mutes = await hub.game_chat.mute(session, holder, body.seat, body.muted)
    return {"seat": holder, "muted": sorted(muted for who, muted in mutes if who == holder)}
