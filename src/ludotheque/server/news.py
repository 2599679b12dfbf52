"""The news between workers: with several of them (a :class:`~ludotheque.server.bus.Bus` on Redis),
each change is announced to the others; alone, a worker announces nothing.

What a worker does with the others' news is in ``workers``; a part with its own kind of news
(people, sessions...) registers its handler in :attr:`News.handlers`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .bus import Bus

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class News:
    """This worker's link to the others (none: it is the only one)."""

    def __init__(self) -> None:
        # Several workers: the Redis bus (None: this process is the only one).
        self.bus: Bus | None = None
        # Other parts' own kinds of news from the other workers (kind -> handler), so that a part
        # (people, sessions...) takes its news without the hub knowing what it means.
        self.handlers: dict[str, Handler] = {}

    @property
    def shared(self) -> bool:
        """Whether other workers share this one's database."""
        return self.bus is not None

    async def share(self, redis_url: str, on_message: Handler,
                    on_resubscribed: Callable[[], Awaitable[None]]) -> None:
        """Work beside other workers: announce on Redis, and take in theirs with ``on_message``."""
        self.bus = Bus(redis_url, on_message, on_resubscribed)
        await self.bus.start()

    async def announce(self, message: dict[str, Any]) -> None:
        """Tell the other workers (nothing without them)."""
        if self.bus is not None:
            await self.bus.publish(message)

    async def close(self) -> None:
        if self.bus is not None:
            await self.bus.close()
