"""API errors and their one JSON shape: ``{"error": "<clear reason>", "code": "<stable code>"}``
(never a 422, never a 500 for bad input). Pages translate the code; people read the reason.

>>> ApiError(409, "the game is over", "game_over").body()
{'error': 'the game is over', 'code': 'game_over'}
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from .config import QUOTE_CHARS

log = logging.getLogger("ludotheque.server")

# Every code an error answer may carry (docs/API.md lists them with their statuses).
ERROR_CODES: dict[str, str] = {
    "bad_json": "the body (or WebSocket message) is not JSON the server reads",
    "bad_request": "a field, parameter or path is invalid",
    "not_notation": "the move text is not notation",
    "unknown_game": "no such game, variant or player count",
    "token_required": "the action needs a seat token (or seat cookie)",
    "token_invalid": "the token holds no seat of this game",
    "wrong_seat": "the token holds another seat than the one in the path",
    "spectator": "a spectator's WebSocket cannot act",
    "not_found": "no such game id, seat, position or path",
    "method_not_allowed": "the path exists, not with this method",
    "illegal_move": "the move is not legal in this position",
    "not_your_turn": "another seat is to move",
    "stale_ply": "the ply given is not the number of moves played",
    "not_started": "a seat still waits for a person",
    "game_over": "the game is over (or the mover's time ran out)",
    "game_not_over": "only possible once the game is over",
    "seat_taken": "the seat is not open (taken, or not a place to join)",
    "invite_claimed": "the invite was claimed already",
    "invite_invalid": "the invite code is not this seat's",
    "takeback_refused": "no takeback here (not against bots, nothing to take back, or past a reveal)",
    "draw_refused": "no draw offer here (against bots, or offered already)",
    "too_large": "the body or message is over 64 KiB",
    "rate_limited": "too many games created from this address; retry later",
    "origin_refused": "a request from another site may not use or set seat cookies",
    "unavailable": "the database cannot be read or written now; nothing changed",
    "internal": "a bug in the server; nothing was changed on purpose",
    "name_taken": "another account has this name, or one that looks like it (names differ by more than "
                  "case and look-alike letters)",
    "bad_credentials": "no account has this name and password",
    "sign_in_required": "only a signed-in player may do this (not a guest, not anonymously)",
    "too_many_tokens": "the account holds as many personal tokens as it may",
    "link_invalid": "the e-mail verification link is unknown, used already or expired",
    "too_many_seeks": "as many of your seeks wait as may: cancel one first",
    "rated_takeback": "no takebacks in a rated game",
    "not_creator": "only the tournament's creator may do this",
    "tournament_started": "the tournament has started (or ended): no joining, leaving or starting now",
    "tournament_full": "the tournament has as many entrants as it takes",
    "already_joined": "this person (or account) is entered already",
    "too_few_players": "too few entrants to play the tournament's rounds without a rematch",
    # friends and clubs (docs/clubs.md)
    "blocked": "the person blocked you (or you blocked them): no follow, challenge or chat between you",
    "challenge_closed": "the challenge was answered, cancelled or expired already",
    "not_member": "only the club's members may do this (or read this)",
    "not_admin": "only the club's admins may do this",
    "last_admin": "the club's last admin cannot step down or be removed while it has other members",
    # moderation (docs/moderation.md)
    "suspended": "the account is suspended by a moderator until the date given: no sign-in, no play",
    "account_closed": "a moderator closed the account",
    "muted": "a moderator muted the account until the date given: no chat",
    "forbidden": "only a moderator may do this",
    # hints (docs/analysis.md)
    "hint_refused": "no hints here: only in casual games whose other seats are all bots",
    "no_hints_left": "the seat used every hint this game allows",
}
# An answer's status for a code Starlette gives without one of ours.
_CODE_OF_STATUS = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
MESSAGE_CHARS = 300
# PostgreSQL's SQLSTATEs of a database that refuses writes (a read-only transaction or replica).
READ_ONLY_STATES = frozenset({"25006"})
UNAVAILABLE = "the game store cannot be read or written right now (disk full, read-only or unreachable)"


class ApiError(Exception):
    """A refused request: the HTTP status, a reason people can read and a stable code; nothing
    changed. ``headers`` go with the answer (e.g. ``Retry-After``)."""

    def __init__(self, status: int, message: str, code: str, headers: Mapping[str, str] | None = None
                 ) -> None:
        assert code in ERROR_CODES, code
        # Engines quote what they were given: keep a reason short whatever the input was.
        if len(message) > MESSAGE_CHARS:
            message = message[: MESSAGE_CHARS - 1] + "…"
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.headers = dict(headers or {})

    def body(self) -> dict[str, str]:
        return {"error": self.message, "code": self.code}


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of a client's input, cut to ``limit`` characters: an error never echoes a flood.

    >>> quoted("abcdefghij", limit=4)
    "'abcd'… (10 characters)"
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(value) if isinstance(value, str) else text
    return f"{text[:limit]!r}… ({len(text)} characters)"


def first_problem(problems: Sequence[Any]) -> str:
    """The first of a list of Pydantic problems, in one line naming the field."""
    if not problems:
        return "invalid request"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "body"
    return f"invalid {quoted(where)}: {first.get('msg', 'bad value')}"


def unavailable() -> ApiError:
    return ApiError(503, UNAVAILABLE, "unavailable")


def is_store_failure(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be used (disk full, read-only, unreachable),
    as opposed to a bug in a statement."""
    if isinstance(error, OperationalError):
        return True
    return isinstance(error, DBAPIError) and (
        error.connection_invalidated or getattr(error.orig, "sqlstate", None) in READ_ONLY_STATES
    )


def install_error_handlers(app: FastAPI) -> None:
    """Make every error, FastAPI's own included, answer ``{"error": ..., "code": ...}``."""

    async def on_api_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ApiError)
        return JSONResponse(error.body(), status_code=error.status, headers=error.headers)

    async def on_http_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, StarletteHTTPException)
        status = error.status_code
        code = _CODE_OF_STATUS.get(status, "internal" if status >= 500 else "bad_request")
        return JSONResponse({"error": str(error.detail), "code": code}, status_code=status,
                            headers=error.headers)

    async def on_validation_error(_: Request, error: Exception) -> JSONResponse:
        # docs/design.md: never 422; a malformed path or query parameter is a bad request.
        assert isinstance(error, RequestValidationError)
        return JSONResponse({"error": first_problem(error.errors()), "code": "bad_request"}, status_code=400)

    async def on_disconnect(_: Request, error: Exception) -> JSONResponse:
        # The client went away mid-upload: nobody reads this answer, and it is no server fault.
        return JSONResponse({"error": "the client disconnected", "code": "bad_request"}, status_code=400)

    async def on_store_error(_: Request, error: Exception) -> JSONResponse:
        # Storage.run turns these into ApiError 503 already; this catches any other path.
        if is_store_failure(error):
            return JSONResponse(unavailable().body(), status_code=503)
        return await on_unexpected_error(_, error)

    async def on_unexpected_error(_: Request, error: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=error)
        return JSONResponse({"error": "internal server error", "code": "internal"}, status_code=500)

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(ClientDisconnect, on_disconnect)
    app.add_exception_handler(DBAPIError, on_store_error)
    app.add_exception_handler(Exception, on_unexpected_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
