"""``WS /api/games/{id}/ws?token=...``: the document on connect and after every change, built
for the connection's seat (or a spectator); typed inbound messages act for that seat. Without
``?token=`` the pages' seat cookies name the seat (``?seat=<n>`` picks one; see ``identity``).

Bad input of any shape (not JSON, JSON Python will not read, a binary frame, a message over
64 KiB) gets an error message and changes nothing; the connection stays open. The transport
(``run.py``) reads messages up to ``WS_MAX_BYTES`` so that the app sees such a message and can
answer it; only beyond that does uvicorn close the socket itself (1009).

Everything sent goes through the connection's outbox (``rooms.Connection``): a client that
stops reading, with or without sending, fills only its own outbox and is dropped.

>>> error_message(ApiError(409, "the game is over", "game_over"))
'{"type":"error","status":409,"error":"the game is over","code":"game_over"}'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket

from ..core.contract import Player
from .clocks import Instant
from .config import CLOSE_TIMEOUT_S, MAX_BODY_BYTES, SEND_TIMEOUT_S
from .errors import ApiError
from .games import Operation
from .hub import Hub
from .identity import check_socket_origin, reading_seat
from .people import people_of
from .rooms import Connection, encode
from .schemas import (
    DeclineDrawMessage,
    DrawMessage,
    MoveMessage,
    PingMessage,
    ResignMessage,
    TakebackMessage,
    WsMessage,
    parse_json,
    parse_ws_message,
)
from .sessions import GameSession
from .snapshots import Snapshot, decline_draw, offer_draw, play, resign, take_back

log = logging.getLogger("ludotheque.server")
router = APIRouter()
# Close codes in the 4000 range mirror the HTTP statuses (4404: no such game, 4401: bad token).
CLOSE_BASE = 4000


def error_message(error: ApiError) -> str:
    return encode({"type": "error", "status": error.status, "error": error.message, "code": error.code})


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(socket: WebSocket, game_id: str, token: str | None = None) -> None:
    await socket.accept()
    hub: Hub = socket.app.state.hub
    people = people_of(socket)
    try:
        check_socket_origin(socket, hub.settings.allowed_origins)
        session = await hub.games.get(game_id)
        credentials, key = await people.credentials_and_key(socket, token or None)
        reader = reading_seat(session, credentials)
        key = key if credentials.token is None else None  # a seat token speaks for itself
    except ApiError as error:
        await refuse(socket, error)
        return
    connection = Connection(socket, reader)
    people.hold(key, connection)  # before any wait: an end of the credential from now on closes it
    async with session.lock:  # so that no broadcast overtakes the first document
        connection.offer(session.document_text(reader, Instant.now()))
        session.room.add(connection)
    hub.games.watched(session)
    writer = connection.start()
    listener = asyncio.get_running_loop().create_task(_listen(connection, hub, session, reader))
    try:
        await asyncio.wait({writer, listener}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        session.room.remove(connection)
        people.release(key, connection)
        gone = listener.done()  # the client left (or its listener failed)
        listener.cancel()
        connection.drop()
        # wait, not gather: a cancellation of this task must stay its own (gather would raise
        # a child's, which frameworks that cancel the endpoint do not recognise).
        await asyncio.wait({writer, listener})
        if not listener.cancelled() and (failure := listener.exception()) is not None:
            log.error("WebSocket of game %s failed", game_id, exc_info=failure)
    if not gone:  # dropped for not reading, or its credential ended: say so
        await connection.close(connection.close_code)


@router.websocket("/api/me/ws")
async def person_socket(socket: WebSocket, token: str | None = None) -> None:
    """The person's own socket (session cookie, or ``?token=<personal token>``): ``{"type":
    "turns", "count", "games"}`` on connect and whenever it changes, and what happens to them
    (``your_turn``, ``game_over``, ``matched``); answers pings."""
    await socket.accept()
    hub: Hub = socket.app.state.hub
    people = people_of(socket)
    try:
        check_socket_origin(socket, hub.settings.allowed_origins)
        account, key = await people.resolve(socket, token or None)
        if account is None:
            raise ApiError(401, "sign in, or give ?token=<personal token>", "sign_in_required")
    except ApiError as error:
        await refuse(socket, error)
        return
    connection = Connection(socket, None)
    people.hold(key, connection)
    hub.people_sockets.add(account.id, connection)
    writer = connection.start()
    await hub.notices.tell_turns({account.id})
    listener = asyncio.get_running_loop().create_task(listen_for_pings(connection))
    try:
        await asyncio.wait({writer, listener}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        hub.people_sockets.remove(account.id, connection)
        people.release(key, connection)
        gone = listener.done()
        listener.cancel()
        connection.drop()
        await asyncio.wait({writer, listener})
    if not gone:
        await connection.close(connection.close_code)


async def listen_for_pings(connection: Connection) -> None:
    """Answer pings until the client leaves; anything else gets an error message (the sockets
    that only send: a person's, the friends' and the clubs' ones)."""
    while True:
        message = await connection.socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            raw = message.get("text")
            if raw is None or len(raw) > MAX_BODY_BYTES:
                raise ApiError(400, "send small JSON text messages", "bad_request")
            if not isinstance(parsed := parse_json(raw), dict) or parsed.get("type") != "ping":
                raise ApiError(400, "this socket only answers {\"type\": \"ping\"}", "bad_request")
            connection.offer(encode({"type": "pong"}))
        except ApiError as error:
            connection.offer(error_message(error))


async def refuse(socket: WebSocket, error: ApiError) -> None:
    """Answer a connection that cannot be served, then close it; neither waits for long."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(SEND_TIMEOUT_S):
            await socket.send_text(error_message(error))
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_TIMEOUT_S):
            await socket.close(code=CLOSE_BASE + error.status)


async def _listen(connection: Connection, hub: Hub, session: GameSession, reader: Player | None) -> None:
    """Read messages until the client leaves; each gets its answer through the outbox."""
    socket = connection.socket
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            await _answer(connection, hub, session, reader, message.get("text"))
        except ApiError as error:
            connection.offer(error_message(error))


async def _answer(
    connection: Connection, hub: Hub, session: GameSession, reader: Player | None, raw: str | None
) -> None:
    if raw is None:
        raise ApiError(400, "binary messages are not read: send JSON text", "bad_request")
    if len(raw) > MAX_BODY_BYTES or len(raw.encode()) > MAX_BODY_BYTES:
        raise ApiError(413, f"the message is over 64 KiB ({MAX_BODY_BYTES} bytes)", "too_large")
    message = parse_ws_message(raw)
    if connection.ending:  # its session or token ended: it acts no more
        return
    if isinstance(message, PingMessage):
        connection.offer(encode({"type": "pong"}))
        return
    if reader is None:
        raise ApiError(403, "spectators cannot act: connect with a seat token", "spectator")
    # A seat token outlives a suspension (it is the seat's, not the session's): check its holder.
    holder = session.snapshot.seats[reader].account
    if holder is not None:
        await people_of(connection.socket).check_not_barred(holder)
    await hub.games.change(session, _operation(message, reader))


def _operation(message: WsMessage, seat: Player) -> Operation:
    def operate(snap: Snapshot, now: Instant) -> Snapshot:
        if isinstance(message, MoveMessage):
            return play(snap, seat, message.move, message.ply, now)
        if isinstance(message, ResignMessage):
            return resign(snap, seat, now)
        if isinstance(message, DrawMessage):
            return offer_draw(snap, seat, now)
        if isinstance(message, DeclineDrawMessage):
            return decline_draw(snap, seat, now)
        assert isinstance(message, TakebackMessage)
        return take_back(snap, seat, now)

    return operate
