"""Clubs over HTTP and WebSocket (docs/clubs.md), and their pages ``/clubs`` and ``/clubs/<id>``.

Signed-in players create, join and leave clubs and write in their chat; anyone reads an open
club's page. A chat line is stored, then sent to the members' club sockets (``WS
/api/clubs/{id}/ws``) on this worker and, through the news (kind ``club``), on the others: each
worker delivers to its own sockets, but not to a member who blocked the writer. A member who
leaves or is removed stops receiving at once, on every worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from . import clubs
from .account_routes import require_account
from .errors import ApiError
from .friend_routes import run
from .friends import blocked_by
from .hub import Hub
from .identity import check_socket_origin
from .openapi import request_body
from .pages import answer_page, reader_language, render_page, word
from .people import people_of
from .rooms import Connection, encode
from .routes import guard_origin, hub_of, read_json
from .schemas import Strict, validate
from .sockets import listen_for_pings, refuse

router = APIRouter()
api = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
NEWS_KIND = "club"


class ClubBody(Strict):
    name: Annotated[str, Field(max_length=80)]
    description: Annotated[str, Field(max_length=500)] = ""
    open: Annotated[bool, Field(strict=True)] = True


class SettingsBody(Strict):
    description: Annotated[str | None, Field(max_length=500)] = None
    open: Annotated[bool | None, Field(strict=True)] = None


class JoinBody(Strict):
    invite: Annotated[str | None, Field(max_length=100)] = None


class RoleBody(Strict):
    role: Literal["admin", "member"]


class LineBody(Strict):
    text: Annotated[str, Field(max_length=2000)]


# -- this worker's club sockets ----------------------------------------------------------------------
@dataclass
class Listener:
    """A member's club socket: who, and whom they blocked (their lines are not sent to them)."""

    account: str
    blocked: set[str] = field(default_factory=set)


class ClubSockets:
    """The club sockets of this worker, per club; the others' news delivered to them."""

    def __init__(self) -> None:
        self.clubs: dict[str, dict[Connection, Listener]] = {}

    def add(self, club_id: str, connection: Connection, listener: Listener) -> None:
        self.clubs.setdefault(club_id, {})[connection] = listener

    def remove(self, club_id: str, connection: Connection) -> None:
        held = self.clubs.get(club_id)
        if held is not None:
            held.pop(connection, None)
            if not held:
                del self.clubs[club_id]

    def deliver(self, club_id: str, line: dict[str, Any], writer: str) -> None:
        text = encode({"type": "club_chat", "club": club_id, "line": line})
        for connection, listener in list(self.clubs.get(club_id, {}).items()):
            if writer not in listener.blocked:
                connection.offer(text)

    def gone(self, club_id: str, account: str | None) -> None:
        """``account`` (``None``: everyone, the club ended) left: their sockets end."""
        for connection, listener in list(self.clubs.get(club_id, {}).items()):
            if account is None or listener.account == account:
                connection.end(encode({"type": "club_left", "club": club_id}), 1000)

    async def on_news(self, message: dict[str, Any]) -> None:
        club_id = message.get("club")
        if not isinstance(club_id, str):
            return
        line, writer = message.get("line"), message.get("writer")
        if isinstance(line, dict) and isinstance(writer, str):
            self.deliver(club_id, line, writer)
        elif "gone" in message:
            gone = message.get("gone")
            self.gone(club_id, gone if isinstance(gone, str) else None)


def sockets_of(connection: Request | WebSocket) -> ClubSockets:
    """This app's club sockets, made (and their news handler registered) on first use."""
    state = connection.app.state
    found: ClubSockets | None = getattr(state, "club_sockets", None)
    if found is None:
        found = ClubSockets()
        state.club_sockets = found
        hub: Hub = state.hub
        hub.news_handlers[NEWS_KIND] = found.on_news
    return found


async def announce_gone(request: Request, club_id: str, account: str | None) -> None:
    sockets_of(request).gone(club_id, account)
    await hub_of(request).news.announce({"kind": NEWS_KIND, "club": club_id, "gone": account})


# -- the API -----------------------------------------------------------------------------------------
@api.get("/clubs")
async def club_list(request: Request) -> dict[str, Any]:
    """The person's clubs (none for nobody) and the open clubs."""
    account = await people_of(request).account_of(request)
    listed: dict[str, Any] = await run(request, clubs.listing, account.id if account else None)
    return listed


@api.post("/clubs", status_code=201, openapi_extra=request_body(ClubBody))
async def create_club(request: Request) -> JSONResponse:
    """Create a club (its creator its admin); 409 ``name_taken`` for a name taken or looked like."""
    body = validate(ClubBody, await read_json(request))
    account = await require_account(request, player=True)
    club_id = await run(request, clubs.create, account.id, body.name, body.description, body.open)
    return JSONResponse(await run(request, clubs.document, club_id, account.id, None), status_code=201)


@api.get("/clubs/{club_id}")
async def club(request: Request, club_id: str, invite: str | None = None) -> dict[str, Any]:
    """The club's page: members, admins, ratings per category; its invite code for admins."""
    account = await people_of(request).account_of(request)
    viewer = account.id if account else None
    found: dict[str, Any] = await run(request, clubs.document, club_id, viewer, invite)
    return found


@api.post("/clubs/{club_id}/settings", openapi_extra=request_body(SettingsBody))
async def club_settings(request: Request, club_id: str) -> dict[str, Any]:
    """An admin changes the description, or whether the club is open."""
    body = validate(SettingsBody, await read_json(request) or {})
    account = await require_account(request, player=True)
    await run(request, clubs.describe, club_id, account.id, body.description, body.open)
    found: dict[str, Any] = await run(request, clubs.document, club_id, account.id, None)
    return found


@api.post("/clubs/{club_id}/join", openapi_extra=request_body(JoinBody))
async def join_club(request: Request, club_id: str) -> dict[str, Any]:
    """Join an open club, or any club with ``{"invite": "<code>"}`` from its invite link."""
    body = validate(JoinBody, await read_json(request) or {})
    account = await require_account(request, player=True)
    await run(request, clubs.join, club_id, account.id, body.invite)
    found: dict[str, Any] = await run(request, clubs.document, club_id, account.id, None)
    return found


@api.post("/clubs/{club_id}/leave", status_code=204)
async def leave_club(request: Request, club_id: str) -> Response:
    """Leave the club (its last member leaving ends it)."""
    account = await require_account(request, player=True)
    remains = await run(request, clubs.leave, club_id, account.id)
    await announce_gone(request, club_id, account.id if remains else None)
    return Response(status_code=204)


@api.post("/clubs/{club_id}/invite")
async def renew_invite(request: Request, club_id: str) -> dict[str, Any]:
    """An admin renews the invite link: the old one no longer works."""
    account = await require_account(request, player=True)
    return {"invite_code": await run(request, clubs.renew_code, club_id, account.id)}


@api.post("/clubs/{club_id}/members/{name}/role", openapi_extra=request_body(RoleBody))
async def member_role(request: Request, club_id: str, name: str) -> dict[str, Any]:
    """An admin makes a member admin (``{"role": "admin"}``) or a member again."""
    body = validate(RoleBody, await read_json(request))
    account = await require_account(request, player=True)

    def change(connection: Any) -> None:
        target = clubs.member_id(connection, club_id, name)
        clubs.set_role(connection, club_id, account.id, target, body.role)

    await run(request, change)
    found: dict[str, Any] = await run(request, clubs.document, club_id, account.id, None)
    return found


@api.delete("/clubs/{club_id}/members/{name}", status_code=204)
async def remove_member(request: Request, club_id: str, name: str) -> Response:
    """An admin removes a member: they read the club no more."""
    account = await require_account(request, player=True)

    def change(connection: Any) -> str:
        target = clubs.member_id(connection, club_id, name)
        clubs.remove(connection, club_id, account.id, target)
        return target

    removed = await run(request, change)
    await announce_gone(request, club_id, removed)
    return Response(status_code=204)


@api.get("/clubs/{club_id}/chat")
async def chat_lines(request: Request, club_id: str) -> dict[str, Any]:
    account = await require_account(request, player=True)
    return {"lines": await run(request, clubs.chat_lines, club_id, account.id)}


@api.post("/clubs/{club_id}/chat", status_code=201, openapi_extra=request_body(LineBody))
async def say(request: Request, club_id: str) -> JSONResponse:
    """A member's chat line: stored, then sent to the members' club sockets on every worker."""
    body = validate(LineBody, await read_json(request))
    account = await require_account(request, player=True)
    hub = hub_of(request)
    hub.chat_throttle.check(f"club:{club_id}:{account.id}")
    line = await run(request, clubs.add_line, club_id, account.id, account.name, body.text)
    sockets_of(request).deliver(club_id, line, account.id)
    await hub.news.announce({"kind": NEWS_KIND, "club": club_id, "line": line, "writer": account.id})
    return JSONResponse(line, status_code=201)


@router.websocket("/api/clubs/{club_id}/ws")
async def club_socket(socket: WebSocket, club_id: str, token: str | None = None) -> None:
    """A member's live chat: ``{"type": "club_chat", "club", "line"}`` for each new line (none of
    people they blocked), ``{"type": "club_left"}`` then the end when they leave or are removed."""
    await socket.accept()
    hub: Hub = socket.app.state.hub
    people = people_of(socket)
    try:
        check_socket_origin(socket, hub.settings.allowed_origins)
        account, key = await people.resolve(socket, token or None)
        if account is None or account.is_guest:
            raise ApiError(401, "sign in, or give ?token=<personal token>", "sign_in_required")
        await run(socket, clubs.require_member, club_id, account.id)
        blocked = await run(socket, blocked_by, account.id)
    except ApiError as error:
        await refuse(socket, error)
        return
    connection = Connection(socket, None)
    people.hold(key, connection)
    club_sockets = sockets_of(socket)
    club_sockets.add(club_id, connection, Listener(account.id, blocked))
    connection.offer(encode({"type": "club_ready", "club": club_id}))
    writer = connection.start()
    listener = asyncio.get_running_loop().create_task(listen_for_pings(connection))
    try:
        await asyncio.wait({writer, listener}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        club_sockets.remove(club_id, connection)
        people.release(key, connection)
        gone = listener.done()
        listener.cancel()
        connection.drop()
        await asyncio.wait({writer, listener})
    if not gone:
        with contextlib.suppress(Exception):
            await connection.close(connection.close_code)


# -- the pages ----------------------------------------------------------------------------------------
@router.get("/clubs", include_in_schema=False)
async def clubs_page(request: Request) -> Response:
    """The clubs: the person's, the open ones, and the form that creates one (filled by its script)."""
    lang = reader_language(request)
    return answer_page(request, render_page("clubs.html", lang, {}), lang)


@router.get("/clubs/{club_id}", include_in_schema=False)
async def club_page(request: Request, club_id: str) -> Response:
    """A club's page (filled by its script); its name written here, 404 for no such club."""
    lang = reader_language(request)
    status = 200
    try:
        name = str((await run(request, clubs.club_row, club_id)).name)
    except ApiError as error:
        if error.status != 404:
            raise
        name, status = word("club.unknown", lang), 404
    values = {"name": html.escape(name)}
    return answer_page(request, render_page("club.html", lang, values), lang, status)


router.include_router(api)
