"""A game's chat: its two rooms (the players', the spectators'), each seat's mutes, and new lines
delivered to this worker's readers and announced to the other workers'."""

from __future__ import annotations

from typing import Any

from ..core.contract import Player
from .chat import ChatStore, hidden, public_line
from .friends import blocks_among
from .news import News
from .rooms import Audience, encode
from .sessions import GameSession
from .storage import Storage
from .throttle import KeyedThrottle


class GameChat:
    """The chat of the games, stored in ``chat``; ``throttle``: the lines each writer may send."""

    def __init__(self, storage: Storage, chat: ChatStore, news: News, throttle: KeyedThrottle) -> None:
        self.storage = storage
        self.chat = chat
        self.news = news
        self.throttle = throttle

    async def mutes(self, session: GameSession) -> set[tuple[int, int]]:
        """The game's mutes: (seat that muted, seat muted), the seats' own (kept with the game)
        and those that follow from blocks between its players, read each time (a block made
        during the game counts at once: a blocked player's lines never reach the blocker)."""
        if session.mutes is None:
            session.mutes = await self.storage.run(self.chat.mutes, session.meta.id)
        accounts = [seat.account for seat in session.snapshot.seats]
        if sum(1 for account in accounts if account) < 2:
            return session.mutes
        return session.mutes | await self.storage.run(self.blocked_seats, accounts)

    def blocked_seats(self, accounts: list[str | None]) -> set[tuple[int, int]]:
        """(reader's seat, writer's seat) for each pair of seated players where the reader
        blocked the writer."""
        with self.chat.engine.connect() as connection:
            pairs = blocks_among(connection, {account for account in accounts if account})
        return {(reader, writer) for reader, reader_id in enumerate(accounts)
                for writer, writer_id in enumerate(accounts) if (reader_id, writer_id) in pairs}

    async def lines(self, session: GameSession, room: str) -> list[dict[str, Any]]:
        """The last lines of ``room``."""
        return await self.storage.run(self.chat.lines, session.meta.id, room)

    async def write(self, session: GameSession, room: str, seat: Player | None, author: str, text: str,
                    writer: str) -> dict[str, Any]:
        """A new line in ``room`` by ``writer`` (throttled), stored and delivered."""
        self.throttle.check(f"{session.meta.id}:{writer}")
        line = await self.storage.run(self.chat.add, session.meta.id, room, seat, author, text)
        await self.deliver(session, room, line)
        return line

    async def hide(self, session: GameSession, line: dict[str, Any]) -> None:
        """A moderator hid ``line``: every reader of its room here and on the other workers gets
        it again without its text (``"hidden": true``); pages replace what they show."""
        await self.deliver(session, line["room"], public_line(line, hidden=True))

    async def mute(self, session: GameSession, holder: Player, seat: Player,
                   muted: bool) -> set[tuple[int, int]]:
        """Seat ``holder`` stops (``muted`` false: starts again) receiving ``seat``'s lines."""
        session.mutes = await self.storage.run(self.chat.set_mute, session.meta.id, holder, seat, muted)
        await self.news.announce({"kind": "mutes", "game": session.meta.id})
        return session.mutes

    async def deliver(self, session: GameSession, room: str, line: dict[str, Any], *,
                      announce: bool = True) -> None:
        """A new chat line to this worker's readers who may read ``room`` (not those who muted
        its author), and to the other workers' (``announce``)."""
        mutes, author = await self.mutes(session), line.get("seat")
        message = encode({"type": "chat", "line": line})

        def build(audience: Audience) -> str | None:
            if room == "players" and audience is None:
                return None
            return None if hidden(mutes, audience, author) else message

        session.room.deliver(build)
        if announce:
            await self.news.announce({"kind": "chat", "game": session.meta.id, "room": room, "line": line})
