"""Per-client limits on game creation, with the ``limits`` library (a moving window in memory).

Every creation counts against ``create_limit``; a game whose seats are all bots (it burns CPU
with nobody playing) also counts against the stricter ``bot_game_limit``. A refused creation
answers 429 ``rate_limited`` with ``Retry-After`` and does not count.

>>> throttle = CreationThrottle("2/minute", None)
>>> throttle.check("1.2.3.4", all_bots=False); throttle.check("1.2.3.4", all_bots=False)
>>> throttle.check("1.2.3.4", all_bots=False)
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: too many games created from this address: at most 2 per 1 minute; ...
"""

from __future__ import annotations

import hashlib
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from .errors import ApiError


class CreationThrottle:
    """Counts the games each client address creates; ``None`` turns a limit off."""

    def __init__(self, create_limit: str | None, bot_game_limit: str | None) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._every_game = parse_many(create_limit) if create_limit else []
        self._bot_games = parse_many(bot_game_limit) if bot_game_limit else []

    def check(self, client: str, *, all_bots: bool) -> None:
        """Count one creation by ``client``; raises ``ApiError`` 429 (counting nothing) when a
        limit is reached."""
        items = [*self._every_game, *(self._bot_games if all_bots else [])]
        for item in items:
            if not self._limiter.test(item, client):
                raise _refusal(item, self._retry_after(item, client), all_bots=all_bots)
        for item in items:
            self._limiter.hit(item, client)

    def _retry_after(self, item: RateLimitItem, client: str) -> int:
        reset = self._limiter.get_window_stats(item, client).reset_time
        return max(1, math.ceil(reset - time.time()))


def _refusal(item: RateLimitItem, seconds: int, *, all_bots: bool) -> ApiError:
    what = "games of bots only" if all_bots else "games"
    window = f"{item.multiples} {item.GRANULARITY.name}"
    return ApiError(
        429,
        f"too many {what} created from this address: at most {item.amount} per {window}; "
        f"retry in {seconds} s",
        "rate_limited",
        headers={"Retry-After": str(seconds)},
    )


def client_address(connection: HTTPConnection) -> str:
    """The client's address (behind a proxy, uvicorn's ``--proxy-headers`` sets it)."""
    return connection.client.host if connection.client else "unknown"


def owner_of(connection: HTTPConnection) -> str:
    """Whose games these are, for the bots' fair queue: a digest, so that no address is stored."""
    return hashlib.sha256(client_address(connection).encode()).hexdigest()[:16]


class KeyedThrottle:
    """A limit (``limits`` notation) on what one key does (a person's chat lines in a game);
    ``None`` turns it off. A refused action answers 429 ``rate_limited`` and counts nothing."""

    def __init__(self, limit: str | None, what: str) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items = parse_many(limit) if limit else []
        self._what = what

    def check(self, key: str) -> None:
        for item in self._items:
            if not self._limiter.test(item, key):
                reset = self._limiter.get_window_stats(item, key).reset_time
                seconds = max(1, math.ceil(reset - time.time()))
                window = f"{item.multiples} {item.GRANULARITY.name}"
                raise ApiError(429, f"too many {self._what}: at most {item.amount} per {window}; retry in "
                               f"{seconds} s", "rate_limited", headers={"Retry-After": str(seconds)})
        for item in self._items:
            self._limiter.hit(item, key)
