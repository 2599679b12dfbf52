"""The WebSocket connections of one game, and the broadcast of one document per audience.

No reader can slow a game (docs/design.md): each connection has a bounded outbox drained by its own
writer task. A broadcast only puts the encoded document into each outbox, at once and in the
order of the changes (it runs under the game's lock), so it never waits on any client. A reader
whose outbox is full, or whose send does not complete within the send timeout, is dropped: its
writer stops and the socket is closed, with a timeout too.

>>> room = Room()
>>> room.audiences()
set()
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import orjson
from fastapi import WebSocket

from ..core.contract import Player
from .config import CLOSE_TIMEOUT_S, OUTBOX_DOCUMENTS, SEND_TIMEOUT_S

Audience = Player | None
# Close code for a reader dropped for not reading (1008: policy violation).
TOO_SLOW = 1008


class Connection:
    """One WebSocket's way out: a bounded queue of texts that a task of its own sends."""

    def __init__(self, socket: WebSocket, audience: Audience, *, limit: int = OUTBOX_DOCUMENTS) -> None:
        self.socket = socket
        self.audience = audience
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(limit + 2)
        self._limit = limit
        self._writer: asyncio.Task[None] | None = None
        self.dropped = False
        # Set by ``end``: nothing more is queued, and the endpoint closes with ``close_code``.
        self.ending = False
        self.close_code = TOO_SLOW

    def start(self) -> asyncio.Task[None]:
        """Start sending; the task ends when the connection is dropped or a send fails."""
        self._writer = asyncio.get_running_loop().create_task(self._drain())
        return self._writer

    def offer(self, text: str) -> bool:
        """Queue ``text`` without waiting; a full outbox drops the reader. Whether it was queued."""
        if self.dropped or self.ending:
            return False
        if self._outbox.qsize() >= self._limit:
            self.drop()
            return False
        self._outbox.put_nowait(text)
        return True

    def end(self, text: str, code: int) -> None:
        """Send ``text`` after what is queued, then stop: the endpoint closes the socket with
        ``code`` (the credentials the socket was opened with ended). Never waits."""
        if self.dropped or self.ending:
            return
        self.ending, self.close_code = True, code
        self._outbox.put_nowait(text)  # room kept for it and for the end mark
        self._outbox.put_nowait(None)  # the end mark: the writer stops there

    def drop(self) -> None:
        """Stop sending to this reader (the endpoint then closes the socket)."""
        self.dropped = True
        if self._writer is not None:
            self._writer.cancel()

    async def _drain(self) -> None:
        try:
            while True:
                text = await self._outbox.get()
                if text is None:  # the end mark
                    return
                async with asyncio.timeout(SEND_TIMEOUT_S):
                    await self.socket.send_text(text)
        except asyncio.CancelledError:
            pass  # dropped: the endpoint closes the socket
        except Exception:  # a send that timed out or failed: this reader is gone or too slow
            pass
        finally:
            self.dropped = True

    async def close(self, code: int = TOO_SLOW) -> None:
        """Close the socket, giving up after ``CLOSE_TIMEOUT_S``: a client that stopped reading
        never takes the close frame, and nothing waits on it longer."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await self.socket.close(code=code)


class Room:
    """Who watches a game: each connection with the seat it speaks for (``None``: spectator)."""

    def __init__(self) -> None:
        self._members: dict[Connection, Audience] = {}

    def add(self, connection: Connection) -> None:
        self._members[connection] = connection.audience

    def remove(self, connection: Connection) -> None:
        self._members.pop(connection, None)

    def __len__(self) -> int:
        return len(self._members)

    def audiences(self) -> set[Audience]:
        return set(self._members.values())

    def broadcast(self, build: Callable[[Audience], str]) -> None:
        """Queue for each connection the encoded document ``build`` makes for its audience
        (built once per audience); readers too far behind are dropped. Never waits."""
        if not self._members:
            return
        encoded = {audience: build(audience) for audience in self.audiences()}
        for connection, audience in list(self._members.items()):
            if not connection.offer(encoded[audience]):
                self.remove(connection)


    def deliver(self, build: Callable[[Audience], str | None]) -> None:
        """Queue for each connection what ``build`` makes for its audience (``None``: nothing)."""
        for connection, audience in list(self._members.items()):
            text = build(audience)
            if text is not None and not connection.offer(text):
                self.remove(connection)


def encode(document: dict[str, Any]) -> str:
    """Compact JSON text (orjson: a document is encoded for each audience after every change)."""
    return orjson.dumps(document, option=orjson.OPT_NON_STR_KEYS).decode()
