"""``WS /api/games/{id}/ws?token=...``: the document on connect and after every change, built
for the connection's seat (or a spectator); typed inbound messages act for that seat. Without
``?token=`` the pages' seat cookies name the seat (``?seat=<n>`` picks one; see ``identity``).

A message over 64 KiB gets an error (413) and changes nothing; the connection stays open.
The transport (``run.py``) reads messages up to ``WS_MAX_BYTES`` so that the app sees such a
message and can answer it; only beyond that does uvicorn close the socket itself (1009).

>>> error_message(ApiError(409, "the game is over"))
'{"type":"error","status":409,"error":"the game is over"}'
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..core.contract import Player
from .clocks import Instant
from .config import MAX_BODY_BYTES
from .errors import ApiError
from .hub import GameSession, Hub, Operation
from .identity import Credentials, reading_seat
from .rooms import encode
from .schemas import (
    DrawMessage,
    MoveMessage,
    PingMessage,
    ResignMessage,
    TakebackMessage,
    WsMessage,
    parse_ws_message,
)
from .sessions import Snapshot, offer_draw, play, resign, take_back

router = APIRouter()
# Close codes in the 4000 range mirror the HTTP statuses (4404: no such game, 4401: bad token).
CLOSE_BASE = 4000


def error_message(error: ApiError) -> str:
    return encode({"type": "error", "status": error.status, "error": error.message})


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(socket: WebSocket, game_id: str, token: str | None = None) -> None:
    await socket.accept()
    hub: Hub = socket.app.state.hub
    try:
        session = await hub.get(game_id)
        reader = reading_seat(session, Credentials.of(socket, token or None))
    except ApiError as error:
        await socket.send_text(error_message(error))
        await socket.close(code=CLOSE_BASE + error.status)
        return
    async with session.lock:  # so that no broadcast overtakes the first document
        await socket.send_text(session.document_text(reader, Instant.now()))
        session.room.add(socket, reader)
    try:
        await _listen(socket, hub, session, reader)
    except WebSocketDisconnect:
        pass
    finally:
        session.room.remove(socket)


async def _listen(socket: WebSocket, hub: Hub, session: GameSession, reader: Player | None) -> None:
    while True:
        raw = await socket.receive_text()
        try:
            if len(raw.encode()) > MAX_BODY_BYTES:
                raise ApiError(413, f"the message is over 64 KiB ({MAX_BODY_BYTES} bytes)")
            message = parse_ws_message(raw)
            if isinstance(message, PingMessage):
                await socket.send_text(encode({"type": "pong"}))
                continue
            if reader is None:
                raise ApiError(403, "spectators cannot act: connect with a seat token")
            await hub.change(session, _operation(message, reader))
        except ApiError as error:
            await socket.send_text(error_message(error))


def _operation(message: WsMessage, seat: Player) -> Operation:
    def operate(snap: Snapshot, now: Instant) -> Snapshot:
        if isinstance(message, MoveMessage):
            return play(snap, seat, message.move, message.ply, now)
        if isinstance(message, ResignMessage):
            return resign(snap, seat, now)
        if isinstance(message, DrawMessage):
            return offer_draw(snap, seat, now)
        assert isinstance(message, TakebackMessage)
        return take_back(snap, seat, now)

    return operate
