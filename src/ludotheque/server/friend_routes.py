"""Friends over HTTP and WebSocket (docs/clubs.md): follows, who is online, direct challenges,
blocks; the page ``/friends``.

Only signed-in players (not guests) follow, block and challenge, and only players are followed
and challenged. What happens to a person (a challenge received, declined, cancelled or accepted)
goes through ``Notices.tell``: to every socket of theirs on every worker (``WS /api/me/ws`` and
``WS /api/friends/ws`` alike), so two workers need nothing more than the news they share.

``WS /api/friends/ws`` (session cookie, or ``?token=<personal token>``) is the pages' live link:
it sends the pending challenges on connect, then every person's message; while it is open the
person is online (``friends.mark_seen`` every ``HEARTBEAT_S``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from . import friends
from .account_routes import require_account
from .accounts import Account, name_key
from .clocks import ClockSpec
from .errors import ApiError, quoted
from .hub import Hub
from .identity import check_socket_origin
from .new_games import SeatRequest, game_of
from .openapi import request_body
from .pages import answer_page, reader_language, render_page
from .people import people_of
from .rooms import Connection, encode
from .routes import guard_origin, hub_of, page_url, read_json
from .schemas import ClockBody, Strict, allowed_clock, validate
from .sockets import CLOSE_BASE, listen_for_pings, refuse
from .throttle import CreationThrottle, client_address

router = APIRouter()
api = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
# Close code of a friends socket whose person is nobody (4401, as the other sockets).
SIGNED_OUT = CLOSE_BASE + 401


class ChallengeBody(Strict):
    game: Annotated[str, Field(max_length=40)]
    variant: Annotated[str | None, Field(max_length=40)] = None
    players: int | None = None
    clock: ClockBody | None = None
    rated: Annotated[bool, Field(strict=True)] = False


# -- helpers ---------------------------------------------------------------------------------------
async def run(request: Request | WebSocket, function: Any, *args: Any) -> Any:
    """``function(connection, *args)`` in one transaction on the storage's threads."""
    hub: Hub = request.app.state.hub
    engine = hub.storage.engine

    def in_transaction() -> Any:
        with engine.begin() as connection:
            return function(connection, *args)

    return await hub.storage.run(in_transaction)


def challenge_ender(hub: Hub) -> Callable[[str], Awaitable[None]]:
    """What a moderator's suspension or closure of an account calls (``Moderation.suspended_hooks``):
    its pending challenges end, and the other side of each is told as for a cancellation."""
    def in_transaction(account: str) -> list[tuple[friends.Challenge, dict[str, Any]]]:
        with hub.storage.engine.begin() as connection:
            ended = friends.end_challenges_of(connection, account, time.time())
            sides = {c.challenger for c in ended} | {c.challenged for c in ended}
            names = friends.names_of(connection, sides)
            return [(found, found.public(names)) for found in ended]

    async def end(account: str) -> None:
        for found, document in await hub.storage.run(in_transaction, account):
            other = found.challenged if found.challenger == account else found.challenger
            await hub.notices.tell(other, {"type": "challenge_cancelled", "challenge": document})

    return end


async def other_player(request: Request, name: str) -> tuple[str, str]:
    """The id and name of the player ``name``; 404 for no such player (guests are nobody's friends)."""
    row = await run(request, friends.player_row, name_key(name))
    if row is None:
        raise ApiError(404, f"no player {quoted(name)}", "not_found")
    return str(row.id), str(row.name)


async def tell(request: Request, account: str, message: dict[str, Any]) -> None:
    """``message`` to every socket of ``account`` on every worker."""
    await hub_of(request).notices.tell(account, message)


def clock_text(request: Request, body: ChallengeBody) -> str | None:
    """The clock asked for as stored (JSON); 400 for a Fischer clock under the server's minimum."""
    clock = allowed_clock(body.clock, hub_of(request).settings.min_clock_minutes)
    return json.dumps(clock.to_json()) if clock else None


# -- the friends page's data -------------------------------------------------------------------------
@api.get("/friends")
async def my_friends(request: Request) -> dict[str, Any]:
    """The people followed (online, games in progress), followers, blocked, challenges pending."""
    account = await require_account(request, player=True)
    document: dict[str, Any] = await run(request, friends.friends_document, account.id, time.time())
    return document


@api.get("/players/{name}/relation")
async def relation(request: Request, name: str) -> dict[str, Any]:
    """For a player's page: whether the viewer follows and blocked this player, and whether it is
    online (as the viewer may see it); a viewer who is nobody or a guest gets all false."""
    other, shown = await other_player(request, name)
    account = await people_of(request).account_of(request)
    if account is None or account.is_guest or account.id == other:
        return {"name": shown, "following": False, "blocked": False, "online": False, "self": bool(
            account and account.id == other)}
    found: dict[str, Any] = await run(request, friends.relation, account.id, other, time.time())
    return {"name": shown, **found, "self": False}


@api.post("/players/{name}/follow")
async def follow(request: Request, name: str) -> dict[str, Any]:
    account = await require_account(request, player=True)
    other, shown = await other_player(request, name)
    await run(request, friends.follow, account.id, other)
    return {"name": shown, "following": True}


@api.delete("/players/{name}/follow", status_code=204)
async def unfollow(request: Request, name: str) -> Response:
    account = await require_account(request, player=True)
    other, _ = await other_player(request, name)
    await run(request, friends.unfollow, account.id, other)
    return Response(status_code=204)


@api.post("/players/{name}/block")
async def block(request: Request, name: str) -> dict[str, Any]:
    """Block a player: no follow, challenge or chat line of theirs; they no longer see you online."""
    account = await require_account(request, player=True)
    other, shown = await other_player(request, name)
    await run(request, friends.block, account.id, other)
    return {"name": shown, "blocked": True}


@api.delete("/players/{name}/block", status_code=204)
async def unblock(request: Request, name: str) -> Response:
    account = await require_account(request, player=True)
    other, _ = await other_player(request, name)
    await run(request, friends.unblock, account.id, other)
    return Response(status_code=204)


# -- challenges ----------------------------------------------------------------------------------------
@api.post("/players/{name}/challenge", status_code=201, openapi_extra=request_body(ChallengeBody))
async def challenge(request: Request, name: str) -> JSONResponse:
    """Challenge a player directly to a game (variant, player count, clock, rated); it waits
    ``CHALLENGE_S`` for their answer, and reaches their pages at once."""
    body = validate(ChallengeBody, await read_json(request))
    account = await require_account(request, player=True)
    other, shown = await other_player(request, name)
    game = game_of(body.game, body.variant, body.players)
    clock = clock_text(request, body)
    throttle: CreationThrottle = request.app.state.throttle
    throttle.check(client_address(request), all_bots=False)
    ask = friends.ChallengeAsk(account.id, other, game.id, game.variant, game.players, clock, body.rated)
    made: friends.Challenge = await run(request, friends.add_challenge, ask, time.time())
    document = made.public({account.id: account.name, other: shown})
    await tell(request, other, {"type": "challenge", "challenge": document})
    return JSONResponse(document, status_code=201)


async def answer(request: Request, challenge_id: str, status: str) -> tuple[Account, friends.Challenge]:
    account = await require_account(request, player=True)
    data = await read_json(request)
    if data not in (None, {}):
        raise ApiError(400, "this request takes no body", "bad_request")
    done: friends.Challenge = await run(request, friends.answer_challenge, challenge_id, account.id, status,
                                        time.time())
    return account, done


async def public(request: Request, found: friends.Challenge) -> dict[str, Any]:
    names = await run(request, friends.names_of, {found.challenger, found.challenged})
    document: dict[str, Any] = found.public(names)
    return document


@api.post("/challenges/{challenge_id}/accept", status_code=201)
async def accept(request: Request, challenge_id: str) -> JSONResponse:
    """Accept a challenge: a game is made as a seek makes one, both seated (in a random order;
    more seats than two are open to join); both are told."""
    account, found = await answer(request, challenge_id, friends.ACCEPTED)
    hub = hub_of(request)
    game = game_of(found.game, found.variant, found.players)
    names = await run(request, friends.names_of, {found.challenger, found.challenged})
    pair = [found.challenger, found.challenged]
    if secrets.randbelow(2):
        pair.reverse()
    requests = [SeatRequest("human", name=names.get(person, ""), account=person) for person in pair]
    requests += [SeatRequest("open")] * (game.players - 2)
    clock = ClockSpec.from_json(json.loads(found.clock)) if found.clock else None
    session, _ = await hub.games.create(game, requests, clock, "", rated=found.rated,
                                        account=found.challenger)
    game_id = session.meta.id
    await run(request, friends.set_challenge_game, found.id, game_id)
    document = {**found.public(names), "game_id": game_id}
    await tell(request, found.challenger,
               {"type": "challenge_accepted", "challenge": document, "game": game_id})
    hub.notices.tell_matched(session, pair)
    seat = pair.index(account.id)
    return JSONResponse({"id": game_id, "seat": seat, "url": page_url(request, game_id),
                         "challenge": document}, status_code=201)


@api.post("/challenges/{challenge_id}/decline")
async def decline(request: Request, challenge_id: str) -> dict[str, Any]:
    """Decline a challenge: the challenger is told."""
    _, found = await answer(request, challenge_id, friends.DECLINED)
    document = await public(request, found)
    await tell(request, found.challenger, {"type": "challenge_declined", "challenge": document})
    return document


@api.delete("/challenges/{challenge_id}", status_code=204)
async def cancel(request: Request, challenge_id: str) -> Response:
    """The challenger takes a pending challenge back: the challenged is told."""
    _, found = await answer(request, challenge_id, friends.CANCELLED)
    document = await public(request, found)
    await tell(request, found.challenged, {"type": "challenge_cancelled", "challenge": document})
    return Response(status_code=204)


# -- the friends socket --------------------------------------------------------------------------------
def local_counts(socket: WebSocket) -> dict[str, int]:
    """This worker's friends sockets per account (an account's last one closing takes it offline)."""
    counts: dict[str, int] | None = getattr(socket.app.state, "friends_sockets", None)
    if counts is None:
        counts = {}
        socket.app.state.friends_sockets = counts
    return counts


async def heartbeat(socket: WebSocket, account: str, stop: asyncio.Event) -> None:
    """Mark ``account`` seen every ``HEARTBEAT_S`` until ``stop``; then, when this worker
    holds no other friends socket of theirs, offline at once (another worker's beats again). One
    task writes both, so a beat never lands after the last word."""
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), friends.HEARTBEAT_S)
        if stop.is_set():
            break
        with contextlib.suppress(ApiError):  # the database away a moment: the next beat tells
            await run(socket, friends.mark_seen, account, time.time())
    if not local_counts(socket).get(account):
        with contextlib.suppress(ApiError):
            await run(socket, friends.mark_seen, account, time.time() - friends.ONLINE_S)


@router.websocket("/api/friends/ws")
async def friends_socket(socket: WebSocket, token: str | None = None) -> None:
    """The pages' live link: ``{"type": "challenges", "received", "sent"}`` on connect, then the
    person's messages (``challenge``, ``challenge_declined``, ``challenge_cancelled``,
    ``challenge_accepted``, and those of ``/api/me/ws``); the person is online while it is open."""
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
    counts = local_counts(socket)
    counts[account.id] = counts.get(account.id, 0) + 1
    await run(socket, friends.mark_seen, account.id, time.time())  # online before the first word
    received, sent = await run(socket, friends.pending_challenges, account.id, time.time())
    connection.offer(encode({"type": "challenges", "received": received, "sent": sent}))
    hub.people_sockets.add(account.id, connection)
    writer = connection.start()
    listener = asyncio.get_running_loop().create_task(listen_for_pings(connection))
    stop = asyncio.Event()
    beating = asyncio.get_running_loop().create_task(heartbeat(socket, account.id, stop))
    try:
        await asyncio.wait({writer, listener, beating}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone = listener.done()  # the client left
        hub.people_sockets.remove(account.id, connection)
        people.release(key, connection)
        counts[account.id] -= 1
        if not counts[account.id]:
            del counts[account.id]
        listener.cancel()
        connection.drop()
        stop.set()
        await asyncio.wait({writer, listener, beating})
    if not gone:  # dropped for not reading, or its credential ended: say so
        with contextlib.suppress(Exception):
            await connection.close(connection.close_code)


# -- the page -----------------------------------------------------------------------------------------
@router.get("/friends", include_in_schema=False)
async def friends_page(request: Request) -> Response:
    """The friends page: follows, online, games in progress, challenges (filled by its script)."""
    lang = reader_language(request)
    return answer_page(request, render_page("friends.html", lang, {}), lang)


router.include_router(api)
