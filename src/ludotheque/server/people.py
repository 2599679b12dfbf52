"""Who a request's person is: the session cookie of a browser (a player signed in, or a guest), or
a personal API token (``Authorization: Bearer lpt_...``); and the limits on signing in.

The session cookie ``ludotheque_session`` is ``HttpOnly`` (no script reads it), ``SameSite=Lax``
(another site's page cannot post with it) and ``Secure`` over https; its token is new at every
sign-in and sign-up (the previous one ends), and only its hash is stored. A guest's cookie holds a
guest account: a generated name the guest may change, and the games they play, kept when they sign
up. Resolutions are cached for a few seconds, so that a move does not cost a database read more.

Ending a session (sign-out, sign-in over it, a password change) or revoking a personal token
(:meth:`People.end`) empties that cache on every worker (news ``credentials_ended`` on the bus,
naming only hashes) and closes the sockets opened with it (4401): each socket is held under the
credential that resolved its person (``session:<hash>`` or ``api:<hash>``).

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
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, ParamSpec, TypeVar

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.responses import Response

from .accounts import Account, AccountStore, Sanction, is_api_token, name_key, sanction_error
from .clocks import Instant
from .errors import ApiError, quoted
from .identity import SESSION_COOKIE, Credentials
from .rooms import Connection, encode
from .sessions import hash_token
from .snapshots import iso
from .storage import Storage

SESSION_COOKIE_AGE_S = 400 * 24 * 3600
CACHE_S = 10.0
# The bus's news that sessions or tokens ended (or an account changed): every worker forgets.
CREDENTIALS_ENDED = "credentials_ended"
# A socket whose session or token ended closes with this (4000 + 401, as a refused socket).
ENDED_CLOSE = 4401
# The sanctions under which an account neither signs in nor plays.
BARRED = ("close", "suspend")
# No account barred: the usual answer, shared.
NOBODY: frozenset[str] = frozenset()
Announce = Callable[[dict[str, Any]], Awaitable[None]]

P = ParamSpec("P")
T = TypeVar("T")


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
                 creation: AccountThrottle, announce: Announce | None = None) -> None:
        self.storage = storage
        self.accounts = accounts
        self.signin = signin
        self.creation = creation
        self._announce = announce
        self._cache: dict[str, tuple[float, Account | None]] = {}
        # Bumped by every ``forget``: a lookup that overlapped one is not cached (it may predate it).
        self._generation = 0
        self._sockets: dict[str, set[Connection]] = {}
        # The mutes, suspensions and closures in force (``AccountStore.sanctions``), read again
        # after ``CACHE_S`` or any ``forget`` (a moderator's action ends credentials: news).
        self._sanctions: tuple[float, dict[str, dict[str, Sanction]]] | None = None

    def forget(self) -> None:
        """Drop every cached resolution of this worker (an account changed, a session or token ended)."""
        self._cache.clear()
        self._sanctions = None
        self._generation += 1

    async def sanctions(self) -> dict[str, dict[str, Sanction]]:
        """Account id -> kind (``mute``, ``suspend``, ``close``) -> the sanction in force."""
        now = time.monotonic()
        if self._sanctions is not None and self._sanctions[0] > now:
            return self._sanctions[1]
        generation = self._generation
        found = await self.storage.run(self.accounts.sanctions, time.time())
        if generation == self._generation:
            self._sanctions = (now + CACHE_S, found)
        return found

    async def sanction(self, account_id: str | None, *kinds: str) -> Sanction | None:
        """The first of ``kinds`` in force on ``account_id`` (``None``: none, or no account)."""
        if account_id is None:
            return None
        held = (await self.sanctions()).get(account_id, {})
        now = time.time()
        return next((held[kind] for kind in kinds if kind in held and held[kind].in_force(now)), None)

    async def barred(self) -> frozenset[str]:
        """The accounts that may neither sign in nor play now (suspended or closed)."""
        sanctions = await self.sanctions()
        if not sanctions:  # nearly always: every request asks
            return NOBODY
        now = time.time()
        return frozenset(account for account, kinds in sanctions.items()
                         if any(kinds[kind].in_force(now) for kind in BARRED if kind in kinds))

    async def check_not_barred(self, account_id: str) -> None:
        """403 ``suspended`` (with its end) or ``account_closed`` for a barred account."""
        found = await self.sanction(account_id, *BARRED)
        if found is not None:
            raise sanction_error(found)

    async def _cached(self, key: str, kind: str, token: str) -> Account | None:
        now = time.monotonic()
        hit = self._cache.get(key)
        if hit is not None and hit[0] > now:
            return hit[1]
        lookup = self.accounts.token_account if kind == "api" else self.accounts.session_account
        generation = self._generation
        account = await self.storage.run(lookup, token)
        if generation != self._generation:  # it ended meanwhile, perhaps: ask again
            return await self.storage.run(lookup, token)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (now + CACHE_S, account)
        return account

    async def resolve(self, connection: HTTPConnection, token: str | None = None
                      ) -> tuple[Account | None, str | None]:
        """The person of a request and the credential that names them (``api:<hash>`` or
        ``session:<hash>``; ``None`` for nobody). See :meth:`account_of`."""
        explicit = token or _bearer(connection)
        if explicit is not None and is_api_token(explicit):
            key = f"api:{hash_token(explicit)}"
            account = await self._cached(key, "api", explicit)
            if account is None:
                raise ApiError(401, "this personal token is unknown or was revoked", "token_invalid")
            await self.check_not_barred(account.id)
            return account, key
        session = connection.cookies.get(SESSION_COOKIE)
        if session:
            key = f"session:{hash_token(session)}"
            account = await self._cached(key, "session", session)
            if account is not None and account.id in await self.barred():
                return None, None  # its sessions ended with the suspension; this one raced it
            return account, key if account is not None else None
        return None, None

    async def account_of(self, connection: HTTPConnection, token: str | None = None) -> Account | None:
        """The person of a request: a personal API token (``token``: the WebSocket's ``?token=``,
        else the Bearer header) or the session cookie; ``None`` for nobody. An unknown or revoked
        personal token is ``401 token_invalid``."""
        return (await self.resolve(connection, token))[0]

    async def credentials(self, connection: HTTPConnection, token: str | None = None) -> Credentials:
        """What a game request brings: seat token or seat cookies (``identity``), and its person,
        whose seats count as held (from any of their browsers). A personal token is no seat token."""
        return (await self.credentials_and_key(connection, token))[0]

    async def credentials_and_key(self, connection: HTTPConnection, token: str | None = None
                                  ) -> tuple[Credentials, str | None]:
        """:meth:`credentials`, and the credential that named its person (see :meth:`resolve`)."""
        account, key = await self.resolve(connection, token)
        credentials = Credentials.of(connection, token or None, account=account.id if account else None,
                                     barred=await self.barred())
        return credentials, key

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """An accounts' call (``self.accounts``) on the database threads."""
        return await self.storage.run(function, *args, **kwargs)

    async def new_guest(self) -> tuple[Account, str]:
        """A new guest account, and the token of the session that opens it."""
        guest = await self.storage.run(self.accounts.create_guest, iso(Instant.now()))
        return guest, await self.storage.run(self.accounts.open_session, guest.id)

    async def guest_seat_name(self, name: str | None, default: str) -> str:
        """The name a seat of no account bears: ``name`` (or ``default``), unless it could pass
        for a player's (409 ``name_taken``): a guest seat never wears a registered player's name."""
        if not name:
            return default
        if await self.storage.run(self.accounts.player_like, name) is not None:
            raise ApiError(409, f"the name {quoted(name)} is a player's, or looks like one: choose another",
                           "name_taken")
        return name

    # -- sockets held under a credential, and its end on every worker --------------------------
    def hold(self, key: str | None, connection: Connection) -> None:
        """``connection`` was opened with credential ``key``: it closes when that ends."""
        if key is not None:
            self._sockets.setdefault(key, set()).add(connection)

    def release(self, key: str | None, connection: Connection) -> None:
        if key is None or (held := self._sockets.get(key)) is None:
            return
        held.discard(connection)
        if not held:
            del self._sockets[key]

    async def end(self, *, sessions: Iterable[str] = (), tokens: Iterable[str] = ()) -> None:
        """Sessions and personal tokens (their hashes) ended, or with neither an account changed:
        every worker forgets what it cached and closes the sockets opened with them."""
        keys = [f"session:{digest}" for digest in sessions] + [f"api:{digest}" for digest in tokens]
        self._ended(keys)
        if self._announce is not None:
            await self._announce({"kind": CREDENTIALS_ENDED, "keys": keys})

    async def on_news(self, message: dict[str, Any]) -> None:
        """Another worker's :meth:`end` (``Hub.news_handlers``)."""
        keys = message.get("keys")
        self._ended([key for key in keys if isinstance(key, str)] if isinstance(keys, list) else [])

    def _ended(self, keys: list[str]) -> None:
        self.forget()
        for key in keys:
            for connection in self._sockets.pop(key, set()):
                connection.end(_ended_message(key), ENDED_CLOSE)


def _ended_message(key: str) -> str:
    if key.startswith("api:"):
        error, code = "this personal token was revoked", "token_invalid"
    else:
        error, code = "this session ended: sign in again", "sign_in_required"
    return encode({"type": "error", "status": 401, "error": error, "code": code})


def _bearer(connection: HTTPConnection) -> str | None:
    header = connection.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def guest_seat_name(connection: HTTPConnection, name: str | None, default: str) -> str:
    """:meth:`People.guest_seat_name` of the request's server (a seat taken without an account)."""
    return await people_of(connection).guest_seat_name(name, default)


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
