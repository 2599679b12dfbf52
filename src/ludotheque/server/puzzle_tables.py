"""The tables of puzzles (each person's puzzle rating and attempts, each puzzle's own rating); migration 0009.

SQLAlchemy Core, on ``tables.metadata``; :class:`PuzzleStore` holds the blocking calls (run them on
the storage's threads). As on lichess, a person's first try at a puzzle is the rated one: the
attempt row remembers how far the person got (``step``) and how it ended (``result``); once it
ended, the puzzle can be played again, judged, never rated again. An account deleted takes its
rows with it; a guest who signs up keeps them.

>>> from sqlalchemy import create_engine
>>> from ludotheque.server import tables
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine, tables=[tables.accounts, puzzle_ratings, puzzle_scores, puzzle_attempts])
>>> with engine.begin() as connection:
...     _ = connection.execute(tables.accounts.insert().values(id="ada", name="Ada", name_key="ada",
...         name_skeleton="ada", is_guest=True, created="", seen=0))
>>> store = PuzzleStore(engine)
>>> store.person_rating("ada", "pylos").rating
1500.0
>>> outcome = store.answer("ada", "pylos", "pylos-0001", Rating(1500, 250), step=0, right=True, done=True)
>>> outcome.rated, outcome.after.rating > 1500, store.tried("ada", "pylos")
(True, True, {'pylos-0001'})
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)

from ..puzzles import Rating, rate
from .tables import metadata

__all__ = ["Outcome", "PuzzleStore", "metadata", "puzzle_attempts", "puzzle_ratings", "puzzle_scores"]

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# A puzzle's own rating, once someone tried it (before: the puzzles file's estimate).
puzzle_scores = Table(
    "puzzle_scores",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("step", Integer, nullable=False),  # the person's next step in the rated try
    Column("result", String(8), nullable=True),  # None while going on, then "solved" or "failed"
    Column("rated", Boolean, nullable=False),
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
    Column("started", Float, nullable=False),
    Column("ended", Float, nullable=True),
)


@dataclass(frozen=True)
class Outcome:
    """What an answer did to the ratings: ``rated`` when it ended the person's first try (then
    ``before``/``after`` are the person's ratings and ``puzzle`` the puzzle's new one);
    ``stale`` when the try's step was not the answered one (another tab went on)."""

    rated: bool
    before: Rating
    after: Rating
    puzzle: Rating
    stale: bool = False


def _columns(table: Table) -> tuple[Any, ...]:
    return table.c.rating, table.c.deviation, table.c.volatility, table.c.attempts


def _rating(row: Any, default: Rating) -> Rating:
    if row is None:
        return default
    return Rating(float(row[0]), float(row[1]), float(row[2]), int(row[3]))


class PuzzleStore:
    """The puzzle tables over ``engine`` (blocking calls)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def person_rating(self, person: str, game: str) -> Rating:
        with self.engine.connect() as connection:
            return self._person(connection, person, game)

    def _person(self, connection: Connection, person: str, game: str) -> Rating:
        table = puzzle_ratings
        row = connection.execute(select(*_columns(table))
                                 .where(table.c.account_id == person, table.c.game == game)).first()
        return _rating(row, Rating())

    def _puzzle(self, connection: Connection, game: str, puzzle_id: str, default: Rating) -> Rating:
        table = puzzle_scores
        row = connection.execute(select(*_columns(table))
                                 .where(table.c.game == game, table.c.puzzle_id == puzzle_id)).first()
        return _rating(row, default)

    def puzzle_rating(self, game: str, puzzle_id: str, default: Rating) -> Rating:
        with self.engine.connect() as connection:
            return self._puzzle(connection, game, puzzle_id, default)

    def puzzle_ratings(self, game: str) -> dict[str, float]:
        """The ratings of the game's puzzles someone tried (the others keep the file's)."""
        query = select(puzzle_scores.c.puzzle_id, puzzle_scores.c.rating).where(puzzle_scores.c.game == game)
        with self.engine.connect() as connection:
            return {str(pid): float(rating) for pid, rating in connection.execute(query)}

    def tried(self, person: str, game: str) -> set[str]:
        """The puzzles of ``game`` the person has tried (their first try begun)."""
        query = select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.account_id == person,
                                                          puzzle_attempts.c.game == game)
        with self.engine.connect() as connection:
            return {str(pid) for (pid,) in connection.execute(query)}

    def answer(self, person: str, game: str, puzzle_id: str, default: Rating, *, step: int, right: bool,
               done: bool) -> Outcome:
        """Keep an answer judged ``right`` (or not) at ``step``, which ended the puzzle when
        ``done``: the first try goes one step on, or ends and both ratings move (a wrong answer
        fails it, the last right one solves it). In one transaction."""
        now = time.time()
        attempts = puzzle_attempts
        with self.engine.begin() as connection:
            before = self._person(connection, person, game)
            puzzle = self._puzzle(connection, game, puzzle_id, default)
            row = connection.execute(select(attempts.c.step, attempts.c.result).where(
                attempts.c.account_id == person, attempts.c.game == game,
                attempts.c.puzzle_id == puzzle_id)).first()
            if row is None:
                if step != 0:
                    return Outcome(False, before, before, puzzle, stale=True)
                connection.execute(insert(attempts).values(
                    account_id=person, game=game, puzzle_id=puzzle_id, step=0, result=None, rated=False,
                    started=now))
                current, result = 0, None
            else:
                current, result = int(row[0]), row[1]
            if result is not None:
                return Outcome(False, before, before, puzzle)
            if current != step:
                return Outcome(False, before, before, puzzle, stale=True)
            where = (attempts.c.account_id == person, attempts.c.game == game,
                     attempts.c.puzzle_id == puzzle_id)
            if right and not done:
                connection.execute(update(attempts).where(*where).values(step=step + 1))
                return Outcome(False, before, before, puzzle)
            after, puzzle_after = rate(before, puzzle, solved=right)
            connection.execute(update(attempts).where(*where).values(
                step=step + 1 if right else step, result="solved" if right else "failed", rated=True,
                rating_before=before.rating, rating_after=after.rating, ended=now))
            self._keep_person(connection, person, game, after, now)
            self._keep_puzzle(connection, game, puzzle_id, puzzle_after, solved=right)
            return Outcome(True, before, after, puzzle_after)

    def _keep_person(self, connection: Connection, person: str, game: str, rating: Rating,
                     now: float) -> None:
        values = {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility,
                  "attempts": rating.attempts, "updated": now}
        table = puzzle_ratings
        changed = connection.execute(update(table).where(table.c.account_id == person, table.c.game == game)
                                     .values(**values)).rowcount
        if not changed:
            connection.execute(insert(table).values(account_id=person, game=game, **values))

    def _keep_puzzle(self, connection: Connection, game: str, puzzle_id: str, rating: Rating, *,
                     solved: bool) -> None:
        table = puzzle_scores
        where = (table.c.game == game, table.c.puzzle_id == puzzle_id)
        row = connection.execute(select(table.c.solved).where(*where)).first()
        values = {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility,
                  "attempts": rating.attempts}
        if row is None:
            connection.execute(insert(table).values(game=game, puzzle_id=puzzle_id, solved=int(solved),
                                                    **values))
        else:
            connection.execute(update(table).where(*where).values(solved=int(row[0]) + int(solved), **values))
