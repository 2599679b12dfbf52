"""Who a request's person is: the session cookie of a browser (a player signed in, or a guest), or
a personal API token (``Authorization: Bearer lpt_...``); and the limits on signing in.

The session cookie ``ludotheque_session`` is ``HttpOnly`` (no script reads it), ``SameSite=Lax``
(another site's page cannot post with it) and ``Secure`` over https; its token is new at every
sign-in and sign-up (the previous one ends), and only its hash is stored. A guest's cookie holds a
guest account: a generated name the guest may change, and the games they play, kept when they sign
up. Resolutions are cached for a few seconds, so that a move does not cost a database read more.

>>> throttle = SigninThrottle("5/minute", "1/minute")
>>> throttle.check("1.2.3.4", "ada")
>>> throttle.check("1.2.3.4", "Ada")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: too many sign-in attempts for this account: at most 1 per 1 minute; ...
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.responses import Response

from .accounts import Account, AccountStore, is_api_token, name_key
from .errors import ApiError
from .identity import SESSION_COOKIE, Credentials
from .sessions import hash_token
from .storage import Storage

SESSION_COOKIE_AGE_S = 400 * 24 * 3600
CACHE_S = 10.0


class SigninThrottle:
    """Sign-in attempts per client address and per account name (``limits``, a moving window in
    memory); a refused attempt is ``429 rate_limited`` with ``Retry-After`` and counts nothing."""

    def __init__(self, per_address: str | None, per_account: str | None) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._address = parse_many(per_address) if per_address else []
        self._account = parse_many(per_account) if per_account else []

    def check(self, address: str, name: str) -> None:
        checks = [(item, f"address:{address}") for item in self._address]
        checks += [(item, f"account:{name_key(name)}") for item in self._account]
        for item, key in checks:
            if not self._limiter.test(item, key):
                raise _refusal(item, self._retry_after(item, key), key.startswith("account:"))
        for item, key in checks:
            self._limiter.hit(item, key)

    def _retry_after(self, item: RateLimitItem, key: str) -> int:
        reset = self._limiter.get_window_stats(item, key).reset_time
        return max(1, math.ceil(reset - time.time()))


class AccountThrottle:
    """New accounts (guests and players) per client address."""

    def __init__(self, limit: str | None) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items = parse_many(limit) if limit else []

    def check(self, address: str) -> None:
        for item in self._items:
            if not self._limiter.test(item, address):
                reset = self._limiter.get_window_stats(item, address).reset_time
                seconds = max(1, math.ceil(reset - time.time()))
                raise ApiError(429, f"too many accounts created from this address; retry in {seconds} s",
                               "rate_limited", headers={"Retry-After": str(seconds)})
        for item in self._items:
            self._limiter.hit(item, address)


def _refusal(item: RateLimitItem, seconds: int, per_account: bool) -> ApiError:
    whose = "for this account" if per_account else "from this address"
    window = f"{item.multiples} {item.GRANULARITY.name}"
    return ApiError(429, f"too many sign-in attempts {whose}: at most {item.amount} per {window}; "
                    f"retry in {seconds} s", "rate_limited", headers={"Retry-After": str(seconds)})


class People:
    """Resolves a request's person (cached briefly), and guards signing in."""

    def __init__(self, storage: Storage, accounts: AccountStore, signin: SigninThrottle,
                 creation: AccountThrottle) -> None:
        self.storage = storage
        self.accounts = accounts
        self.signin = signin
        self.creation = creation
        self._cache: dict[str, tuple[float, Account | None]] = {}

    def forget(self) -> None:
        """Drop every cached resolution (an account changed, a session or token ended)."""
        self._cache.clear()

    async def _cached(self, kind: str, token: str) -> Account | None:
        key = f"{kind}:{hash_token(token)}"
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return hit[1]
        lookup = self.accounts.token_account if kind == "api" else self.accounts.session_account
        account = await self.storage.run(lookup, token)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (now + CACHE_S, account)
        return account

    async def account_of(self, connection: HTTPConnection, token: str | None = None) -> Account | None:
        """The person of a request: a personal API token (``token``: the WebSocket's ``?token=``,
        else the Bearer header) or the session cookie; ``None`` for nobody. An unknown or revoked
        personal token is ``401 token_invalid``."""
        explicit = token or _bearer(connection)
        if explicit is not None and is_api_token(explicit):
            account = await self._cached("api", explicit)
            if account is None:
                raise ApiError(401, "this personal token is unknown or was revoked", "token_invalid")
            return account
        session = connection.cookies.get(SESSION_COOKIE)
        if session:
            return await self._cached("session", session)
        return None

    async def credentials(self, connection: HTTPConnection, token: str | None = None) -> Credentials:
        """What a game request brings: seat token or seat cookies (``identity``), and its person,
        whose seats count as held (from any of their browsers). A personal token is no seat token."""
        account = await self.account_of(connection, token)
        base = Credentials.of(connection, token or None)
        if base.token is not None and is_api_token(base.token):
            base = replace(base, token=None)
        return replace(base, account=account.id if account else None)


def _bearer(connection: HTTPConnection) -> str | None:
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def people_of(connection: HTTPConnection) -> People:
    people: People = connection.app.state.people
    return people


def set_session_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_COOKIE_AGE_S, path="/", httponly=True,
                        samesite="lax", secure=connection.url.scheme in ("https", "wss"))


def expire_session_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=connection.url.scheme in ("https", "wss"))


def uses_session(connection: HTTPConnection) -> bool:
    """Whether a request would act with this browser's session cookie (no Bearer token)."""
    return connection.headers.get("authorization") is None and SESSION_COOKIE in connection.cookies
