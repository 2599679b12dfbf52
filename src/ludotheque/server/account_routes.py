"""Accounts over HTTP: guests, sign up, sign in, sign out, password, name, e-mail, personal tokens.

Every answer that starts a session sets a new session cookie (``people``); bodies are read and
validated by hand like every other route (400, never 422). docs/API.md, "Players", lists them.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from .accounts import (
    Account,
    check_name,
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
)
from .clocks import Instant
from .errors import ApiError, quoted
from .identity import SESSION_COOKIE
from .notify import verification_mail
from .openapi import request_body
from .people import expire_session_cookie, people_of, set_session_cookie
from .routes import guard_origin, hub_of, read_json
from .schemas import EmailBody, NameBody, PasswordChange, SignBody, TokenBody, validate
from .sessions import hash_token
from .snapshots import iso
from .throttle import client_address

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
SIGN_IN_FIRST = "sign in first"
VERIFY_PATH = "/api/account/email/verify"


async def _run(request: Request, function: Any, *args: Any) -> Any:
    return await people_of(request).run(function, *args)


def _answer(account: Account | None, status: int = 200) -> JSONResponse:
    return JSONResponse({"account": account.to_json() if account else None}, status_code=status)


async def require_account(request: Request, *, player: bool = False) -> Account:
    """The request's person; 401 ``sign_in_required`` for nobody (or a guest, when ``player``)."""
    account = await people_of(request).account_of(request)
    if account is None or (player and account.is_guest):
        raise ApiError(401, "this needs a signed-in player" if player else SIGN_IN_FIRST, "sign_in_required")
    return account


def require_session(request: Request) -> str:
    """The session cookie's token: what managing tokens and passwords needs (never a personal
    token, which cannot make more of itself)."""
    token = request.cookies.get(SESSION_COOKIE)
    if request.headers.get("authorization") is not None or not token:
        raise ApiError(401, "this is done from the player's page, signed in", "sign_in_required")
    return token


async def _started(request: Request, response: JSONResponse, token: str) -> JSONResponse:
    """Set the new session's cookie; the browser's previous session (if any) ended."""
    previous = request.cookies.get(SESSION_COOKIE)
    await people_of(request).end(sessions=[hash_token(previous)] if previous else [])
    set_session_cookie(response, request, token)
    return response


@router.get("/me")
async def me(request: Request) -> JSONResponse:
    """The browser's person (a player or a guest), or ``{"account": null}``; with the warnings of
    moderators they have not seen yet (``"warnings"``, marked seen by ``POST /api/me/warnings/seen``)."""
    account = await people_of(request).account_of(request)
    answer = _answer(account)
    if account is not None:
        moderation = request.app.state.moderation
        warnings = await moderation.run(moderation.store.warnings, account.id)
        answer = JSONResponse({"account": account.to_json(), "warnings": warnings})
    return answer


@router.post("/account/guest", status_code=201)
async def become_guest(request: Request) -> JSONResponse:
    """A guest account with a generated name, kept in the session cookie; a browser that has a
    person already gets it back (200)."""
    people = people_of(request)
    current = await people.account_of(request)
    if current is not None:
        return _answer(current)
    people.creation.check(client_address(request))
    guest, token = await people.new_guest()
    return await _started(request, _answer(guest, 201), token)


@router.post("/account/signup", status_code=201, openapi_extra=request_body(SignBody))
async def sign_up(request: Request) -> JSONResponse:
    """A new player; a guest who signs up becomes that player and keeps their games."""
    body = validate(SignBody, await read_json(request))
    name, password = check_name(body.name), check_password(body.password)
    people = people_of(request)
    current = await people.account_of(request)
    digest = await asyncio.to_thread(hash_password, password)
    if current is not None and current.is_guest and request.headers.get("authorization") is None:
        account = await _run(request, people.accounts.promote, current.id, name, digest)
        await hub_of(request).games.rename_seats(account.id, account.name)
    else:
        people.creation.check(client_address(request))
        account = await _run(request, people.accounts.create_player, name, digest, iso(Instant.now()))
    token = await _run(request, people.accounts.open_session, account.id, request.cookies.get(SESSION_COOKIE))
    return await _started(request, _answer(account, 201), token)


@router.post("/account/signin", openapi_extra=request_body(SignBody))
async def sign_in(request: Request) -> JSONResponse:
    """Sign in with a name and password: a new session (the browser's previous one ends)."""
    body = validate(SignBody, await read_json(request))
    people = people_of(request)
    people.signin.check(client_address(request), body.name)
    found = await _run(request, people.accounts.by_name, body.name)
    stored = found[1] if found else None
    if not await asyncio.to_thread(verify_password, stored, body.password) or found is None:
        raise ApiError(401, "no account has this name and password", "bad_credentials")
    account = found[0]
    await people.check_not_barred(account.id)  # suspended or closed: 403 with the end date
    if stored and needs_rehash(stored):
        await _run(request, people.accounts.set_password, account.id,
                   await asyncio.to_thread(hash_password, body.password))
    token = await _run(request, people.accounts.open_session, account.id, request.cookies.get(SESSION_COOKIE))
    return await _started(request, _answer(account), token)


@router.post("/account/signout")
async def sign_out(request: Request) -> JSONResponse:
    """End this browser's session (its seat cookies stay: games on this browser still play)."""
    token = request.cookies.get(SESSION_COOKIE)
    people = people_of(request)
    if token:
        await _run(request, people.accounts.close_session, token)
    await people.end(sessions=[hash_token(token)] if token else [])
    response = _answer(None)
    expire_session_cookie(response, request)
    return response


@router.post("/account/password", openapi_extra=request_body(PasswordChange))
async def change_password(request: Request) -> JSONResponse:
    """A new password, given the current one; every other session of the account ends, and this
    browser's session token changes."""
    body = validate(PasswordChange, await read_json(request))
    session = require_session(request)
    account = await require_account(request, player=True)
    new_password = check_password(body.new_password)
    people = people_of(request)
    people.signin.check(client_address(request), account.name)
    stored = await _run(request, people.accounts.password_hash, account.id)
    if not await asyncio.to_thread(verify_password, stored, body.password):
        raise ApiError(401, "the current password is not this one", "bad_credentials")
    digest = await asyncio.to_thread(hash_password, new_password)
    await _run(request, people.accounts.set_password, account.id, digest)
    token = await _run(request, people.accounts.open_session, account.id, session)
    others = await _run(request, people.accounts.close_other_sessions, account.id, token)
    await people.end(sessions=others)
    return await _started(request, _answer(account), token)


@router.post("/me/name", openapi_extra=request_body(NameBody))
async def rename(request: Request) -> JSONResponse:
    """A new name for the browser's person (guests choose theirs; it stays theirs at sign-up)."""
    body = validate(NameBody, await read_json(request))
    account = await require_account(request)
    people = people_of(request)
    renamed = await _run(request, people.accounts.rename, account.id, check_name(body.name))
    await people.end()  # every worker forgets the old name
    await hub_of(request).games.rename_seats(account.id, renamed.name)
    return _answer(renamed)


@router.post("/me/email", openapi_extra=request_body(EmailBody))
async def set_email(request: Request) -> JSONResponse:
    """The player's e-mail address and whether a correspondence turn is told by e-mail. A new
    address is mailed a link that verifies it (once); until then nothing else is sent to it."""
    body = validate(EmailBody, await read_json(request))
    account = await require_account(request, player=True)
    people = people_of(request)
    changed, token = await _run(request, people.accounts.set_email, account.id, body.email, body.notify)
    await people.end()
    hub = hub_of(request)
    if token is not None and changed.email and hub.mailer is not None:
        link = f"{hub.settings.public_url.rstrip('/')}{VERIFY_PATH}?{urlencode({'token': token})}"
        await hub.mailer.send(changed.email, *verification_mail(link))
    return _answer(changed)


@router.get("/account/email/verify")
async def verify_email(request: Request, token: str = "") -> Response:
    """The link mailed to a new address: the address is verified (the link is spent), and the
    browser goes on to the player's page."""
    people = people_of(request)
    account = await _run(request, people.accounts.verify_email, token) if token else None
    if account is None:
        raise ApiError(400, "this link is unknown, was used already or expired: save the address "
                       "again on your page", "link_invalid")
    await people.end()
    return RedirectResponse("/account?email=verified", status_code=303)


@router.get("/me/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    require_session(request)
    account = await require_account(request, player=True)
    return {"tokens": await _run(request, people_of(request).accounts.tokens, account.id)}


@router.post("/me/tokens", status_code=201, openapi_extra=request_body(TokenBody))
async def create_token(request: Request) -> JSONResponse:
    """A personal API token, shown once: ``Authorization: Bearer <token>`` acts as the player."""
    body = validate(TokenBody, await read_json(request) or {})
    require_session(request)
    account = await require_account(request, player=True)
    entry, token = await _run(request, people_of(request).accounts.create_token, account.id,
                              body.label or "API", iso(Instant.now()))
    return JSONResponse({**entry, "token": token}, status_code=201)


@router.delete("/me/tokens/{token_id}", status_code=204)
async def revoke_token(request: Request, token_id: str) -> Response:
    require_session(request)
    account = await require_account(request, player=True)
    people = people_of(request)
    digest = await _run(request, people.accounts.revoke_token, account.id, token_id)
    if digest is None:
        raise ApiError(404, f"no token {quoted(token_id)} of this account", "not_found")
    await people.end(tokens=[digest])
    return Response(status_code=204)
