"""The WebSocket connections of one game, and the broadcast of one document per audience.

Each audience (a seat, or the spectators) gets its document built once and encoded once; slow
clients are dropped after a send timeout instead of holding the others back.

>>> room = Room()
>>> room.audiences()
set()
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket

from ..core.contract import Player
from .config import SEND_TIMEOUT_S

Audience = Player | None


class Room:
    """Who watches a game: each connection with the seat it speaks for (``None``: spectator)."""

    def __init__(self) -> None:
        self._members: dict[WebSocket, Audience] = {}

    def add(self, socket: WebSocket, audience: Audience) -> None:
        self._members[socket] = audience

    def remove(self, socket: WebSocket) -> None:
        self._members.pop(socket, None)

    def audiences(self) -> set[Audience]:
        return set(self._members.values())

    async def broadcast(self, build: Callable[[Audience], str]) -> None:
        """Send each connection the encoded document ``build`` makes for its audience."""
        if not self._members:
            return
        encoded = {audience: build(audience) for audience in self.audiences()}
        # One by one: a send only queues bytes on the transport, unless a client stopped
        # reading; such a client is dropped after the timeout.
        for socket, audience in list(self._members.items()):
            await self._send(socket, encoded[audience])

    async def _send(self, socket: WebSocket, text: str) -> None:
        try:
            async with asyncio.timeout(SEND_TIMEOUT_S):
                await socket.send_text(text)
        except Exception:  # a dead or slow client leaves the room; the game goes on
            self.remove(socket)
            with contextlib.suppress(Exception):
                await socket.close(code=1011)


def encode(document: dict[str, Any]) -> str:
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)
