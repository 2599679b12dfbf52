"""Seeks: a person asks for a game (game, variant, player count, time control, rated or casual, a
range of opponents' ratings) and is matched at once with compatible seeks of other people; else
the seek waits until someone compatible seeks, or it is cancelled (or a day passes).

Two seeks are compatible when they ask for the same game, variant, player count, clock and
rated-ness, and each seeker's rating lies in the other's range (a newcomer counts as 1500).

>>> a = SeekRow("s1", "ada", "pylos", "standard", 2, None, True, 1400, 1700, 0.0, 1500)
>>> b = SeekRow("s2", "bob", "pylos", "standard", 2, None, True, None, None, 1.0, 1650)
>>> compatible(a, b), compatible(a, b._replace(rating=1800))
(True, False)
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sqlalchemy import Engine, delete, insert, select

from . import tables
from .errors import ApiError
from .ratings import NEW_RATING, category_of

SEEK_DAYS = 1.0
SEEKS_PER_ACCOUNT = 5
SEEKS = tables.seeks.c


class SeekRow(NamedTuple):
    id: str
    account: str
    game: str
    variant: str
    players: int
    clock: str | None
    rated: bool
    rating_min: int | None
    rating_max: int | None
    created: float
    rating: float


def compatible(a: SeekRow, b: SeekRow) -> bool:
    """Whether seekers ``a`` and ``b`` accept each other."""
    def asked(seek: SeekRow) -> tuple[Any, ...]:
        return seek.game, seek.variant, seek.players, seek.clock, seek.rated

    same = asked(a) == asked(b)
    return same and a.account != b.account and _accepts(a, b.rating) and _accepts(b, a.rating)


def _accepts(seek: SeekRow, rating: float) -> bool:
    return (seek.rating_min is None or rating >= seek.rating_min) and (
        seek.rating_max is None or rating <= seek.rating_max)


class SeekStore:
    """Waiting seeks in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _rows(self, connection: Any, query: Any) -> list[SeekRow]:
        ratings = tables.ratings.c
        found = []
        for row in connection.execute(query).mappings():
            category = category_of(row["game"], row["players"], against_bots=False)
            rating = connection.execute(select(ratings.rating).where(
                ratings.account_id == row["account_id"], ratings.category == category)).scalar()
            found.append(SeekRow(row["id"], row["account_id"], row["game"], row["variant"], row["players"],
                                 row["clock"], bool(row["rated"]), row["rating_min"], row["rating_max"],
                                 row["created"], NEW_RATING if rating is None else rating))
        return found

    def match_or_add(self, seek: SeekRow) -> list[SeekRow] | None:
        """The seeks to start a game with (``seek`` first, then the oldest compatible ones, removed
        from the waiting list), or ``None``: ``seek`` now waits."""
        with self.engine.begin() as connection:
            own = connection.execute(select(SEEKS.id).where(SEEKS.account_id == seek.account)).all()
            waiting = self._rows(connection, select(tables.seeks).where(
                SEEKS.game == seek.game, SEEKS.account_id != seek.account).order_by(SEEKS.created))
            found: list[SeekRow] = []
            for other in waiting:
                if compatible(seek, other) and all(compatible(other, taken) for taken in found):
                    found.append(other)
                if len(found) == seek.players - 1:
                    connection.execute(delete(tables.seeks).where(SEEKS.id.in_([s.id for s in found])))
                    return [seek, *found]
            if len(own) >= SEEKS_PER_ACCOUNT:
                raise ApiError(409, f"at most {SEEKS_PER_ACCOUNT} seeks wait at once: cancel one first",
                               "seat_taken")
            connection.execute(insert(tables.seeks).values(
                id=seek.id, account_id=seek.account, game=seek.game, variant=seek.variant,
                players=seek.players, clock=seek.clock, rated=seek.rated, rating_min=seek.rating_min,
                rating_max=seek.rating_max, created=seek.created))
        return None

    def waiting(self) -> list[dict[str, Any]]:
        """Every waiting seek, oldest first, with its seeker's name and rating."""
        with self.engine.connect() as connection:
            rows = self._rows(connection, select(tables.seeks).order_by(SEEKS.created))
            names = dict(connection.execute(select(tables.accounts.c.id, tables.accounts.c.name).where(
                tables.accounts.c.id.in_({row.account for row in rows}))).all()) if rows else {}
        return [public(row, names.get(row.account, "")) for row in rows]

    def cancel(self, account: str, seek_id: str) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(
                delete(tables.seeks).where(SEEKS.id == seek_id, SEEKS.account_id == account))
        return bool(done.rowcount)

    def expire(self, before: float) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(tables.seeks).where(SEEKS.created < before))


def public(row: SeekRow, name: str) -> dict[str, Any]:
    return {"id": row.id, "name": name, "rating": round(row.rating), "game": row.game, "variant": row.variant,
            "players": row.players, "clock": json.loads(row.clock) if row.clock else None, "rated": row.rated,
            "rating_min": row.rating_min, "rating_max": row.rating_max}
