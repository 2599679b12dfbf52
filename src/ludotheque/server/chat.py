"""Chat in each game, stored with it: the players' room (seats only: spectators neither read nor
write it) and the spectators' room (anyone with a seat or an account writes; everyone reads).
Lines are text, never markup: pages put them in text nodes. A seat may mute another seat: it no
longer receives that seat's lines, in either room.

>>> clean_line("  hello\\u0000 there  ")
'hello there'
>>> clean_line(" \\n ") is None
True
"""

from __future__ import annotations

import re
import time
from typing import Any

from sqlalchemy import Engine, delete, insert, select

from . import tables
from .accounts import strip_bidi_controls

ROOMS = ("players", "spectators")
MAX_LINE = 500
HISTORY = 200
CHAT = tables.chat.c
MUTES = tables.chat_mutes.c
# Control characters (but newlines and tabs) never reach another reader.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean_line(text: str) -> str | None:
    """``text`` without control characters (bidirectional ones included: a line may not turn the
    text after it around) and outer spaces; ``None`` when nothing is left.

    >>> clean_line(" gg\u202e well played\x07 ")
    'gg well played'
    """
    cleaned = strip_bidi_controls(_CONTROL.sub("", text)).strip()
    return cleaned or None


def hidden(mutes: set[tuple[int, int]], reader: int | None, author: int | None) -> bool:
    """Whether seat ``reader`` muted seat ``author`` (spectators and lines of no seat: never)."""
    return reader is not None and author is not None and (reader, author) in mutes


class ChatStore:
    """Chat lines and mutes in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, game_id: str, room: str, seat: int | None, author: str, text: str) -> dict[str, Any]:
        at = time.time()
        with self.engine.begin() as connection:
            result = connection.execute(insert(tables.chat).values(
                game_id=game_id, room=room, seat=seat, author=author, text=text, at=at))
            key = result.inserted_primary_key
        return {"id": key[0] if key else None, "room": room, "seat": seat, "author": author, "text": text,
                "at": at}

    def lines(self, game_id: str, room: str) -> list[dict[str, Any]]:
        """The room's last lines, oldest first."""
        query = (select(tables.chat).where(CHAT.game_id == game_id, CHAT.room == room)
                 .order_by(CHAT.id.desc()).limit(HISTORY))
        with self.engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        fields = ("id", "room", "seat", "author", "text", "at")
        return [{name: row[name] for name in fields} for row in reversed(rows)]

    def mutes(self, game_id: str) -> set[tuple[int, int]]:
        """(seat, muted seat) pairs of the game."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(MUTES.seat, MUTES.muted).where(MUTES.game_id == game_id)).all()
        return {(row.seat, row.muted) for row in rows}

    def set_mute(self, game_id: str, seat: int, muted: int, on: bool) -> set[tuple[int, int]]:
        with self.engine.begin() as connection:
            connection.execute(delete(tables.chat_mutes).where(
                MUTES.game_id == game_id, MUTES.seat == seat, MUTES.muted == muted))
            if on:
                connection.execute(insert(tables.chat_mutes).values(game_id=game_id, seat=seat, muted=muted))
        return self.mutes(game_id)
