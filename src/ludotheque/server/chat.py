"""Chat in each game, stored with it: the players' room (seats only: spectators neither read nor
write it) and the spectators' room (anyone with a seat or an account writes; everyone reads).
Lines are text, never markup: pages put them in text nodes. A seat may mute another seat: it no
longer receives that seat's lines, in either room. A line a moderator hid (``hidden_chat``) is
read by nobody again: it comes with ``"hidden": true`` and no text (pages write "hidden by a
moderator").

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

from . import moderation_tables, tables
from .accounts import strip_bidi_controls

ROOMS = ("players", "spectators")
MAX_LINE = 500
HISTORY = 200
CHAT = tables.chat.c
MUTES = tables.chat_mutes.c
HIDDEN = moderation_tables.hidden_chat.c
FIELDS = ("id", "room", "seat", "author", "text", "at")
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


def public_line(row: Any, *, hidden: bool) -> dict[str, Any]:
    """A line as readers get it: a hidden one has no text and says ``"hidden": true``."""
    line = {name: row[name] for name in FIELDS}
    if hidden:
        line.update(text="", hidden=True)
    return line


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
        """The room's last lines, oldest first (hidden ones without their text)."""
        query = (select(tables.chat, HIDDEN.chat_id.label("hidden"))
                 .outerjoin(moderation_tables.hidden_chat, HIDDEN.chat_id == CHAT.id)
                 .where(CHAT.game_id == game_id, CHAT.room == room)
                 .order_by(CHAT.id.desc()).limit(HISTORY))
        with self.engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [public_line(row, hidden=row["hidden"] is not None) for row in reversed(rows)]

    def line(self, line_id: int) -> dict[str, Any] | None:
        """Line ``line_id`` as stored (its text even if hidden) with its ``game_id``; ``None``: none."""
        with self.engine.connect() as connection:
            row = connection.execute(select(tables.chat).where(CHAT.id == line_id)).mappings().first()
        return {**{name: row[name] for name in FIELDS}, "game_id": row["game_id"]} if row else None

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
