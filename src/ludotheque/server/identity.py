"""Who a request speaks for: a seat token given explicitly, or this browser's seat cookies.

Outside clients and bots send ``Authorization: Bearer <token>`` (the WebSocket: ``?token=``),
exactly as docs/design.md says. The pages keep no token where scripts can read it: the server keeps
each seat's token in an HttpOnly, SameSite=Strict cookie ``ludotheque_seat_<n>`` with
``Path=/api/games/<id>``, so that it reaches that game's API and WebSocket and nothing else, and
a browser holding several seats of one game (same screen) has one cookie per seat.

Cookies are set only when a client asks for them: ``POST /api/games/{id}/seats/mine`` (claim
the token of an invite link) and ``?cookie=1`` on creation, join and rematch. A client that
never asks (any outside client, cookie jar or not) meets the design's API unchanged: no header
still reads as a spectator and still gets 401 on a move.

The rules, in order: an explicit token wins over every cookie, and a bad explicit token is a 401
(never quietly a spectator). Otherwise ``?seat=<n>`` picks one of the seats the cookies hold
(401 when they hold no such seat); without it a reader is the held seat to move, else the
lowest held seat, else a spectator. A cookie whose token holds no seat of the game (the
database was reset, the game was imported elsewhere) is ignored, not refused: it is ambient, the
page cannot delete an HttpOnly cookie, and a 401 would lock that browser out of even watching;
``GET .../seats/mine`` expires it.

A person's account (a browser's session cookie, or a personal API token; see ``people``) holds
the seats it took: they count as held like seat cookies, from any browser the person signs in on.

A browser sends cookies to a site's API even when another site's page makes the request: so a
WebSocket whose ``Origin`` is another site's is refused, and so is a POST from another site that
would use or set a seat cookie (one without a Bearer token, or one that asks for a cookie). A
request without ``Origin`` comes from a client that is not a browser, and is served.

>>> cookie_name(2)
'ludotheque_seat_2'
>>> seats_in_cookies({"ludotheque_seat_1": "t1", "lang": "fr", "ludotheque_seat_²": "t"})
{1: 't1'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..core.contract import Player
from .accounts import is_api_token
from .errors import ApiError, quoted
from .schemas import natural_number
from .sessions import TOKEN_REQUIRED, GameSession

COOKIE_PREFIX = "ludotheque_seat_"
# The browser's session (a player signed in, or a guest): see ``people``.
SESSION_COOKIE = "ludotheque_session"
# Browsers keep a cookie at most 400 days; a correspondence game may last that long.
COOKIE_MAX_AGE_S = 400 * 24 * 3600
TRUE_WORDS = ("1", "true", "yes")


class _CookieScope(TypedDict):
    path: str
    secure: bool
    httponly: bool
    samesite: Literal["strict"]


def cookie_name(seat: Player) -> str:
    return f"{COOKIE_PREFIX}{seat}"


def cookie_path(game_id: str) -> str:
    # No trailing slash: the path matches /api/games/<id> and everything under it, and no
    # other game's paths (cookie paths match at "/" boundaries).
    return f"/api/games/{game_id}"


def seats_in_cookies(cookies: Mapping[str, str]) -> dict[Player, str]:
    """The seat cookies among ``cookies``: seat number -> token."""
    found: dict[Player, str] = {}
    for name, value in cookies.items():
        if not name.startswith(COOKIE_PREFIX) or not value:
            continue
        number = natural_number(name.removeprefix(COOKIE_PREFIX))
        if number is not None:
            found[number] = value
    return found


def bearer_token(connection: HTTPConnection) -> str | None:
    """The token of ``Authorization: Bearer <token>``; 401 for any other Authorization."""
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must be 'Bearer <seat token>'", "token_invalid")
    return token.strip()


def wants_cookie(connection: HTTPConnection) -> bool:
    """Whether the client asked (``?cookie=1``) for its new seat tokens as cookies."""
    return connection.query_params.get("cookie", "").lower() in TRUE_WORDS


@dataclass(frozen=True)
class Credentials:
    """What a request brings to prove a seat: an explicit token, seat cookies, a seat choice, and
    the account of its person (whose seats it holds too)."""

    token: str | None
    cookies: Mapping[Player, str]
    choice: Player | None = None
    account: str | None = None
    # The accounts a moderator suspended (or closed): their seats read as spectators and never act.
    barred: frozenset[str] = frozenset()

    @classmethod
    def of(cls, connection: HTTPConnection, token: str | None = None, *, account: str | None = None,
           barred: frozenset[str] = frozenset()) -> Credentials:
        """Read a request (``token``: the WebSocket's ``?token=``; HTTP reads the header), with its
        person's ``account`` and the ``barred`` accounts. A personal API token names a person
        (``account``), never a seat: it is no seat token."""
        explicit = token if token else bearer_token(connection)
        if explicit is not None and is_api_token(explicit):
            explicit = None
        return cls(explicit, seats_in_cookies(connection.cookies), seat_choice(connection), account, barred)


def seat_choice(connection: HTTPConnection) -> Player | None:
    """``?seat=<n>``; 400 when it is not a seat number."""
    if not connection.scope.get("query_string"):  # most requests: no query to parse
        return None
    text = connection.query_params.get("seat")
    if text is None:
        return None
    number = natural_number(text)
    if number is None:
        raise ApiError(400, f"invalid seat {quoted(text)}: expected a seat number", "bad_request")
    return number


def held_seats(session: GameSession, credentials: Credentials) -> list[Player]:
    """The seats whose cookie holds that seat's token (stale cookies left out), and the seats of
    the request's account."""
    held = {seat for seat, token in credentials.cookies.items() if session.seat_holding(token) == seat}
    if credentials.account is not None:
        held |= set(session.seats_of_account(credentials.account))
    return sorted(held)


def stale_seats(session: GameSession, credentials: Credentials) -> list[Player]:
    """The seat cookies whose token holds no seat any more."""
    return sorted(seat for seat, token in credentials.cookies.items() if session.seat_holding(token) != seat)


def reading_seat(session: GameSession, credentials: Credentials) -> Player | None:
    """Whose document a read gets: a seat, or ``None`` for a spectator (a suspended player's seat
    reads as a spectator: its WebSocket cannot act either)."""
    seat = _held_seat(session, credentials)
    return None if seat is not None and _is_barred(session, credentials, seat) else seat


def _is_barred(session: GameSession, credentials: Credentials, seat: Player) -> bool:
    """Whether ``seat`` is held by an account a moderator suspended or closed."""
    return bool(credentials.barred) and session.snapshot.seats[seat].account in credentials.barred


def _refuse_barred(session: GameSession, credentials: Credentials, seat: Player) -> Player:
    if _is_barred(session, credentials, seat):
        raise ApiError(403, f"the player of seat {seat} is suspended by a moderator: no play", "suspended")
    return seat


def _held_seat(session: GameSession, credentials: Credentials) -> Player | None:
    """The seat the credentials read as, suspended or not."""
    if credentials.token is not None:
        return session.seat_of(credentials.token)
    held = held_seats(session, credentials)
    if credentials.choice is not None:
        return _chosen(held, credentials.choice)
    to_move = session.snapshot.seat_to_move()
    if to_move in held:
        return to_move
    return held[0] if held else None


def acting_seat(session: GameSession, credentials: Credentials) -> Player:
    """The seat a move is played for; 401 without a token or a seat cookie."""
    seat = _held_seat(session, credentials)
    if seat is None:
        raise ApiError(401, TOKEN_REQUIRED, "token_required")
    return _refuse_barred(session, credentials, seat)


def require_seat(session: GameSession, credentials: Credentials, seat: Player) -> Player:
    """``seat``, once the request proves it holds it (401 no or foreign token, 403 another seat)."""
    if credentials.token is not None:
        held, who = [session.seat_of(credentials.token)], "this token holds"
    else:
        held, who = held_seats(session, credentials), "this browser holds"
        if not held:
            raise ApiError(401, TOKEN_REQUIRED, "token_required")
    if seat not in held:
        holds = ", ".join(str(number) for number in held)
        raise ApiError(403, f"{who} seat {holds}, not seat {seat}", "wrong_seat")
    return _refuse_barred(session, credentials, seat)


def _chosen(held: list[Player], choice: Player) -> Player:
    if choice not in held:
        raise ApiError(401, f"this browser holds no token of seat {choice} (open its invite link)",
                       "token_required")
    return choice


def is_same_origin(connection: HTTPConnection, allowed: Sequence[str] = ()) -> bool:
    """Whether the request's ``Origin`` is this server's (its ``Host``) or an allowed one;
    true without ``Origin`` (not a browser).

    Behind a TLS proxy the ``Host`` is the public one (nginx passes it on) and the request's scheme
    is https (its ``X-Forwarded-Proto``, believed from the proxy only): a request that came over
    https is this server's only from an https page, never from a page served over plain http
    under the same name."""
    origin = connection.headers.get("origin")
    if origin is None or origin in allowed:
        return True
    host = connection.headers.get("host", "")
    parts = urlsplit(origin)
    if is_secure(connection) and parts.scheme.lower() != "https":
        return False
    return bool(host) and parts.netloc.lower() == host.lower()


def is_secure(connection: HTTPConnection) -> bool:
    """Whether the request came over https (directly, or through the trusted proxy's
    ``X-Forwarded-Proto``): its cookies then get ``Secure``."""
    return connection.url.scheme in ("https", "wss")


def check_socket_origin(connection: HTTPConnection, allowed: Sequence[str] = ()) -> None:
    """Refuse (403 ``origin_refused``) a WebSocket opened by another site's page."""
    if not is_same_origin(connection, allowed):
        raise ApiError(403, "this WebSocket was opened by another site's page", "origin_refused")


def check_cookie_post(connection: HTTPConnection, allowed: Sequence[str] = ()) -> None:
    """Refuse (403 ``origin_refused``) a request from another site's page that would use this
    browser's seat cookies (no Bearer token) or set one (``?cookie=1``, ``POST .../seats/mine``).
    A Bearer-token request proves itself and may come from anywhere."""
    if is_same_origin(connection, allowed):
        return
    uses_cookies = connection.headers.get("authorization") is None and (
        bool(seats_in_cookies(connection.cookies)) or SESSION_COOKIE in connection.cookies
    )
    sets_cookie = (wants_cookie(connection) or connection.url.path.endswith("/seats/mine")
                   or connection.url.path.startswith(("/api/account/", "/api/me")))
    if uses_cookies or sets_cookie:
        raise ApiError(403, "another site's page may not act with this browser's seat cookies",
                       "origin_refused")


def set_seat_cookie(response: Response, connection: HTTPConnection, game_id: str, seat: Player,
                    token: str) -> None:
    response.set_cookie(cookie_name(seat), token, max_age=COOKIE_MAX_AGE_S,
                        **_cookie_scope(connection, game_id))


def expire_seat_cookie(response: Response, connection: HTTPConnection, game_id: str, seat: Player) -> None:
    response.delete_cookie(cookie_name(seat), **_cookie_scope(connection, game_id))


def _cookie_scope(connection: HTTPConnection, game_id: str) -> _CookieScope:
    """Where a seat cookie lives and who may read it: the same for setting and expiring it."""
    return {
        "path": cookie_path(game_id),
        "secure": is_secure(connection),
        "httponly": True,
        "samesite": "strict",
    }
