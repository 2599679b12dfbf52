"""The lessons' progress table (SQLAlchemy Core), on ``tables.metadata``; migration 0008 creates it,
and :class:`DatabaseProgressStore` is the server's :class:`~ludotheque.lessons.ProgressStore` over it.

A row per person (an account: a player or a guest) and game: the ids of the steps done, as a JSON
list. A guest who signs up keeps their account, so their progress too; an account deleted takes
its rows with it.

>>> from sqlalchemy import create_engine
>>> from ludotheque.lessons import Progress
>>> from ludotheque.server import tables
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine, tables=[tables.accounts, lesson_progress])
>>> with engine.begin() as connection:
...     _ = connection.execute(tables.accounts.insert().values(id="ada", name="Ada", name_key="ada",
...         name_skeleton="ada", is_guest=True, created="", seen=0))
>>> store = DatabaseProgressStore(engine)
>>> store.save("ada", Progress().with_done("pylos", "first-ball"))
>>> store.load("ada").done_in("pylos"), store.load("bob").done_in("pylos")
(frozenset({'first-ball'}), frozenset())
"""

from __future__ import annotations

import json
import time

from sqlalchemy import Column, Engine, Float, ForeignKey, String, Table, Text, delete, insert, select

from ..lessons import Progress
from .tables import metadata

__all__ = ["DatabaseProgressStore", "lesson_progress", "metadata"]

lesson_progress = Table(
    "lesson_progress",
    metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    # The ids of the steps done (a JSON list of strings): steps renamed later are simply not done.
    Column("steps", Text, nullable=False),
    Column("updated", Float, nullable=False),
)


class DatabaseProgressStore:
    """Progress per account in ``lesson_progress`` (blocking calls: run them on the storage's
    threads). ``save`` writes the person's whole progress in one transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def load(self, person: str) -> Progress:
        query = select(lesson_progress.c.game, lesson_progress.c.steps).where(
            lesson_progress.c.account_id == person)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        data: dict[str, list[str]] = {}
        for game, steps in rows:
            try:
                decoded = json.loads(steps)
            except ValueError:
                continue
            if isinstance(decoded, list):
                data[game] = decoded
        return Progress.from_json(data)

    def save(self, person: str, progress: Progress) -> None:
        rows = [{"account_id": person, "game": game, "steps": json.dumps(steps), "updated": time.time()}
                for game, steps in progress.to_json().items()]
        with self.engine.begin() as connection:
            connection.execute(delete(lesson_progress).where(lesson_progress.c.account_id == person))
            if rows:
                connection.execute(insert(lesson_progress), rows)
