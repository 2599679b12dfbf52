"""The tables of analyses of finished games and of hints (SQLAlchemy Core, on ``tables.metadata``);
migration 0010 creates them, and the functions here read and write them (blocking calls: run them
on the storage's threads).

- ``analyses``: one row per game and view (``spectator``, ``players``, ``seat-<n>``), written once
  when its analysis is done and shared by everyone who asks (the analysis as JSON, how long it
  took). A game deleted takes its analyses with it.
- ``hints``: per game and seat, the hints used, and the last one given (its ply and move: asking
  again in the same position costs nothing).

>>> from sqlalchemy import create_engine
>>> from ludotheque.server import tables
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine, tables=[tables.games, analyses, hints])
>>> load_analysis(engine, "g1", "spectator") is None
True
>>> take_hint(engine, "g1", 0, 4, limit=1), take_hint(engine, "g1", 0, 6, limit=1)
(HintUse(used=1, move=None, allowed=True), HintUse(used=1, move=None, allowed=False))
>>> keep_hint(engine, "g1", 0, 4, "1a1"); take_hint(engine, "g1", 0, 4, limit=1)
HintUse(used=1, move='1a1', allowed=True)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    and_,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .tables import metadata

__all__ = ["HintUse", "analyses", "give_hint_back", "hints", "hints_used", "keep_hint", "load_analysis",
           "metadata", "save_analysis", "take_hint"]

analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # Whose knowledge: "spectator" (every secret revealed), "players" (each move by what its mover
    # knew) or "seat-<n>" (only that seat's moves).
    Column("view", String(16), primary_key=True),
    Column("analysis", Text, nullable=False),  # analysis.Analysis.to_json(), as JSON text
    Column("seconds", Float, nullable=False),  # from the first part's start to the last's end
    Column("created", Float, nullable=False),
)

hints = Table(
    "hints",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("used", Integer, nullable=False),
    # The last hint: its position's ply and its move (null while it is being thought).
    Column("ply", Integer),
    Column("move", String(1000)),
    Column("updated", Float, nullable=False),
)


def load_analysis(engine: Engine, game_id: str, view: str) -> dict[str, Any] | None:
    """The stored analysis of ``game_id`` seen as ``view`` (with its ``seconds``), else ``None``."""
    query = select(analyses.c.analysis, analyses.c.seconds).where(
        and_(analyses.c.game_id == game_id, analyses.c.view == view))
    with engine.connect() as connection:
        row = connection.execute(query).first()
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row.analysis)
    data["seconds"] = round(float(row.seconds), 3)
    return data


def save_analysis(engine: Engine, game_id: str, view: str, data: dict[str, Any], seconds: float) -> None:
    """Keep a finished analysis; one already kept (another worker's) stays as it is."""
    values = {"game_id": game_id, "view": view, "analysis": json.dumps(data), "seconds": seconds,
              "created": time.time()}
    try:
        with engine.begin() as connection:
            connection.execute(insert(analyses), values)
    except IntegrityError:
        pass


@dataclass(frozen=True)
class HintUse:
    """A seat's hints after asking one: how many are used, the move already given for this
    position (``None``: to think), and whether one is allowed (``False``: none left)."""

    used: int
    move: str | None
    allowed: bool


def hints_used(engine: Engine, game_id: str, seat: int) -> int:
    """How many hints ``seat`` used in ``game_id``."""
    query = select(hints.c.used).where(and_(hints.c.game_id == game_id, hints.c.seat == seat))
    with engine.connect() as connection:
        used = connection.execute(query).scalar()
    return int(used or 0)


def take_hint(engine: Engine, game_id: str, seat: int, ply: int, *, limit: int) -> HintUse:
    """Count a hint for ``seat`` at ``ply``, unless that position's hint was given already (it is
    given again, uncounted) or ``limit`` hints are used (refused). The count is a conditional
    update: two requests at once never pass the limit."""
    for _ in range(2):  # a first hint of two requests at once: the second insert fails, then updates
        try:
            with engine.begin() as connection:
                return _take_hint(connection, game_id, seat, ply, limit)
        except IntegrityError:
            continue
    raise RuntimeError("hints: the row could be neither inserted nor updated")


def _take_hint(connection: Connection, game_id: str, seat: int, ply: int, limit: int) -> HintUse:
    where = and_(hints.c.game_id == game_id, hints.c.seat == seat)
    row = connection.execute(select(hints.c.used, hints.c.ply, hints.c.move).where(where)).first()
    now = time.time()
    if row is None:
        if limit < 1:
            return HintUse(0, None, False)
        connection.execute(insert(hints), {"game_id": game_id, "seat": seat, "used": 1, "ply": ply,
                                           "move": None, "updated": now})
        return HintUse(1, None, True)
    if row.ply == ply and row.move is not None:
        return HintUse(int(row.used), str(row.move), True)
    counted = connection.execute(
        update(hints).where(and_(where, hints.c.used < limit))
        .values(used=hints.c.used + 1, ply=ply, move=None, updated=now))
    if counted.rowcount == 0:
        return HintUse(int(row.used), None, False)
    return HintUse(int(row.used) + 1, None, True)


def keep_hint(engine: Engine, game_id: str, seat: int, ply: int, move: str) -> None:
    """Remember the hint given at ``ply`` (asked again there, it is given again for free)."""
    with engine.begin() as connection:
        connection.execute(update(hints).where(and_(hints.c.game_id == game_id, hints.c.seat == seat))
                           .values(ply=ply, move=move, updated=time.time()))


def give_hint_back(engine: Engine, game_id: str, seat: int) -> None:
    """A counted hint that could not be given (the position changed meanwhile): uncount it."""
    with engine.begin() as connection:
        connection.execute(update(hints).where(and_(hints.c.game_id == game_id, hints.c.seat == seat,
                                                    hints.c.used > 0))
                           .values(used=hints.c.used - 1, ply=None, move=None, updated=time.time()))
