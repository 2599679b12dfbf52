"""Live game sessions: a game's fixed facts and current snapshot with the lock that serialises its
changes, its room of readers, its flag timer and its bot's turn; and the seat tokens that open it.

``games`` keeps one session per loaded game; what a change does to the game is in ``snapshots``.

>>> hash_token("secret") == hash_token("secret") != hash_token("other")
True
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..core.contract import Player
from .clocks import Instant
from .documents import game_document
from .errors import ApiError
from .rooms import Room, encode
from .snapshots import GameMeta, Snapshot

# The 401 answer to a request that must act for a seat and brings no token (nor seat cookie).
TOKEN_REQUIRED = "a seat token is required (Authorization: Bearer <token>)"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Only a token's hash is stored: a database leak gives no seat away."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class GameSession:
    """One live game: fixed facts, the current snapshot, and what serialises its changes."""

    meta: GameMeta
    snapshot: Snapshot
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    room: Room = field(default_factory=Room)
    flag_timer: asyncio.TimerHandle | None = None
    bot_task: asyncio.Task[None] | None = None
    # Each seat's person as documents show them: player name, rating, the game's rating change.
    people: dict[Player, dict[str, Any]] = field(default_factory=dict)
    # (seat, muted seat) pairs of the chat, read once from the database.
    mutes: set[tuple[int, int]] | None = None
    # The stored version of ``snapshot`` (bumped by each stored change): with several workers,
    # a copy older than the database's is read again.
    version: int = 0
    # The newest version another worker announced while nobody here watched the game: read on
    # the next use (a worker reads again at once only the games it has sockets for).
    behind: int = 0
    # That version's stored values as announced (``stored_games.stored_values``), kept so that
    # the next use installs them without reading the game (a player's next move, often).
    news: tuple[int, dict[str, Any]] | None = None
    _texts: dict[Player | None, str] = field(default_factory=dict)
    _texts_of: Snapshot | None = None
    _spectator_view: tuple[Snapshot, dict[str, Any]] | None = None

    def document_text(self, reader: Player | None, now: Instant) -> str:
        """The encoded document for ``reader``; built once per change and audience (the
        broadcast and the mover's HTTP answer share it) unless a running clock needs the
        time of reading."""
        snap = self.snapshot
        if snap.clock is not None and snap.clock.running is not None:
            return encode(self._document(reader, now))
        if self._texts_of is not snap:
            self._texts, self._texts_of = {}, snap
        if reader not in self._texts:
            self._texts[reader] = encode(self._document(reader, now))
        return self._texts[reader]

    def _document(self, reader: Player | None, now: Instant) -> dict[str, Any]:
        return game_document(self.meta, self.snapshot, reader, now, self.people, self._view(reader))

    def _view(self, reader: Player | None) -> dict[str, Any]:
        """``reader``'s view. A game that hides nothing shows every reader the spectator's view
        but for its ``viewer`` (the conformance suite holds every game to it): that one is built
        once per change, not once per reader."""
        snap = self.snapshot
        if self.meta.game.has_hidden_information:
            return snap.state.view(reader)
        if self._spectator_view is None or self._spectator_view[0] is not snap:
            self._spectator_view = (snap, snap.state.view(None))
        return {**self._spectator_view[1], "viewer": reader}

    def set_people(self, people: dict[Player, dict[str, Any]]) -> None:
        """New facts about the seats' people: documents are built again."""
        self.people = people
        self._texts_of = None

    def seat_holding(self, token: str) -> Player | None:
        """The seat ``token`` holds, ``None`` when it holds none of this game."""
        digest = hash_token(token)
        for number, seat in enumerate(self.snapshot.seats):
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return number
        return None

    def seats_of_account(self, account: str) -> list[Player]:
        """The seats the account ``account`` holds."""
        return [number for number, seat in enumerate(self.snapshot.seats) if seat.account == account]

    def seat_of(self, token: str | None) -> Player:
        """The seat ``token`` holds; raises ``ApiError`` 401 when missing or foreign."""
        if not token:
            raise ApiError(401, TOKEN_REQUIRED, "token_required")
        seat = self.seat_holding(token)
        if seat is None:
            raise ApiError(401, f"this token holds no seat of game {self.meta.id}", "token_invalid")
        return seat
